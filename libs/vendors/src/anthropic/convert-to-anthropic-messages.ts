import type { CacheOptions, ChatRequest, ContentPart, ResponseFormat, ToolCall, ToolChoice, VendorMessage } from '../types';

export type AnthropicBlock = Record<string, unknown>;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** Anthropic's smallest thinking budget; a smaller one is rejected. */
export const MIN_THINKING_BUDGET = 1024;

/**
 * Output cap assumed when the request does not carry the model's max output: the smallest max
 * output among Anthropic's thinking models (32,000 tokens), so a raised max_tokens stays valid
 * on every one of them.
 */
export const DEFAULT_THINKING_OUTPUT_CAP = 32_000;

/** Anthropic takes at most four cache_control markers in one request. */
export const MAX_CACHE_MARKERS = 4;

function parseInput(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args);
    // tool_use.input must be an object; anything else (arrays, scalars, invalid JSON) is `{}`.
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function userBlock(part: ContentPart): AnthropicBlock[] {
  // Anthropic rejects empty text blocks.
  if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
  // Images travel as bytes: the service downloaded them (never the client's URL).
  return [{ type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data.toString('base64') } }];
}

function toolUseBlock(call: ToolCall): AnthropicBlock {
  return { type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) };
}

/**
 * The alternating user/assistant turns Anthropic takes. Consecutive messages of one role merge
 * into one turn; a tool result becomes a tool_result block of a user turn, placed before any
 * other block of that turn (Anthropic wants the results first); an assistant tool call becomes a
 * tool_use block with its arguments parsed. Messages left without content are dropped, since
 * Anthropic refuses empty turns.
 */
export function convertToAnthropicMessages(messages: VendorMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], blocks: AnthropicBlock[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (message.role === 'user') push('user', message.content.flatMap(userBlock));
    else if (message.role === 'tool') {
      const block: AnthropicBlock = { type: 'tool_result', tool_use_id: message.toolCallId };
      if (message.content !== '') block.content = message.content;
      push('user', [block]);
    } else {
      const blocks: AnthropicBlock[] = [];
      if (message.content) blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? []) blocks.push(toolUseBlock(call));
      push('assistant', blocks);
    }
  }
  for (const message of out) {
    if (message.role !== 'user') continue;
    const results = message.content.filter((block) => block.type === 'tool_result');
    if (results.length > 0) message.content = [...results, ...message.content.filter((block) => block.type !== 'tool_result')];
  }
  // A final assistant turn (a prefill) may not end in whitespace.
  const last = out[out.length - 1];
  const tail = last?.role === 'assistant' ? last.content[last.content.length - 1] : undefined;
  if (tail?.type === 'text' && typeof tail.text === 'string') {
    tail.text = tail.text.trimEnd();
    if (tail.text === '') last!.content.pop();
    if (last!.content.length === 0) out.pop();
  }
  return out;
}

/**
 * Anthropic has no native JSON mode for this API version: best effort by prompting (spec,
 * response_format: "json_object on some vendors is best effort by prompting").
 */
export function jsonInstruction(format: ResponseFormat | undefined): string | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return 'Respond with only a JSON object.';
  return `Respond with only a JSON object matching this JSON schema: ${JSON.stringify(format.schema)}`;
}

function toolChoice(choice: ToolChoice | undefined, parallel: boolean | undefined): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  if (choice === 'auto') out = { type: 'auto' };
  else if (choice === 'required') out = { type: 'any' };
  else if (choice === 'none') return { type: 'none' };
  else if (choice) out = { type: 'tool', name: choice.name };
  if (parallel === false) out = { ...(out ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return out;
}

const forcesTool = (choice: ToolChoice | undefined) => choice === 'required' || (typeof choice === 'object' && choice !== null);

/** The conversation stops in the middle of a tool loop: the last assistant turn called tools. */
function inToolLoop(messages: VendorMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i]!;
    if (message.role === 'assistant') return (message.toolCalls?.length ?? 0) > 0;
  }
  return false;
}

/**
 * The thinking budget to send, or undefined for none.
 *
 * - `budget` N > 0 thinks with N tokens (raised to Anthropic's minimum of 1,024); 0 is off.
 * - `toggle` on thinks with the minimum budget; off sends nothing.
 * - `effort` is not a control of this API version: nothing is sent.
 *
 * Thinking is left out where Anthropic would refuse the request: a tool_choice that forces a
 * tool (only auto and none are allowed with thinking), and a conversation in the middle of a tool
 * loop, where Anthropic wants the assistant's earlier signed thinking blocks back, which the
 * normalised messages do not carry.
 */
export function thinkingBudget(request: ChatRequest): number | undefined {
  const reasoning = request.reasoning;
  let budget: number | undefined;
  if (reasoning?.kind === 'budget' && reasoning.tokens > 0) budget = Math.max(reasoning.tokens, MIN_THINKING_BUDGET);
  else if (reasoning?.kind === 'toggle' && reasoning.on) budget = MIN_THINKING_BUDGET;
  if (budget === undefined) return undefined;
  if (forcesTool(request.toolChoice) && (request.tools?.length ?? 0) > 0) return undefined;
  if (inToolLoop(request.messages)) return undefined;
  return budget;
}

/**
 * max_tokens and budget_tokens with thinking on. Anthropic counts thinking inside max_tokens
 * and wants budget_tokens < max_tokens, so max_tokens is raised to budget + requested answer
 * room, capped at the model's max output (request.maxOutputTokens, else
 * DEFAULT_THINKING_OUTPUT_CAP). When the cap leaves no room, the budget shrinks to fit under it;
 * below the minimum budget thinking is left out.
 */
export function thinkingTokens(maxTokens: number, budget: number, maxOutputTokens: number | undefined): { maxTokens: number; budget?: number } {
  const cap = Math.max(maxOutputTokens ?? DEFAULT_THINKING_OUTPUT_CAP, maxTokens);
  const raised = Math.min(maxTokens + budget, cap);
  const fitted = Math.min(budget, raised - 1);
  if (fitted < MIN_THINKING_BUDGET) return { maxTokens };
  return { maxTokens: raised, budget: fitted };
}

function cacheMarker(cache: CacheOptions | undefined): Record<string, unknown> | undefined {
  if (!cache || cache.ttl === 'none') return undefined;
  return cache.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

/**
 * Spec, Caching rules 2: "A vendor with explicit markers (auto places them on the system
 * prompt, last tool, last message and previous user turn)". One marker on the last block of
 * each, four at most (Anthropic's limit). The previous user turn's marker lets this call read
 * what the previous call of the conversation wrote at its own last message.
 */
export function placeCacheMarkers(body: { system?: AnthropicBlock[]; tools?: AnthropicBlock[]; messages: AnthropicMessage[] }, cache: CacheOptions | undefined): void {
  const marker = cacheMarker(cache);
  if (!marker) return;
  const targets: AnthropicBlock[] = [];
  const lastOf = <T>(items: T[] | undefined): T | undefined => (items && items.length > 0 ? items[items.length - 1] : undefined);
  const system = lastOf(body.system);
  if (system) targets.push(system);
  const tool = lastOf(body.tools);
  if (tool) targets.push(tool);
  const lastIndex = body.messages.length - 1;
  const lastBlock = lastOf(body.messages[lastIndex]?.content);
  if (lastBlock) targets.push(lastBlock);
  for (let i = lastIndex - 1; i >= 0; i -= 1) {
    if (body.messages[i]!.role !== 'user') continue;
    const block = lastOf(body.messages[i]!.content);
    if (block) targets.push(block);
    break;
  }
  for (const target of targets.slice(0, MAX_CACHE_MARKERS)) target.cache_control = { ...marker };
}

/** The Anthropic Messages body (POST /v1/messages) for a normalised request. */
export function convertToAnthropicRequest(request: ChatRequest, stream: boolean): Record<string, unknown> {
  const messages = convertToAnthropicMessages(request.messages);
  const systemText = [request.system, jsonInstruction(request.responseFormat)].filter((text): text is string => !!text).join('\n\n');
  // An array of text blocks rather than a string, so a cache marker can be placed on it.
  const system: AnthropicBlock[] | undefined = systemText ? [{ type: 'text', text: systemText }] : undefined;
  const tools: AnthropicBlock[] | undefined =
    request.tools && request.tools.length > 0
      ? request.tools.map((tool) => {
          // input_schema must be an object schema; the default empty schema lacks `type`.
          const schema = typeof tool.parameters.type === 'string' ? tool.parameters : { type: 'object', properties: {}, ...tool.parameters };
          return { name: tool.name, ...(tool.description ? { description: tool.description } : {}), input_schema: schema };
        })
      : undefined;

  let maxTokens = request.maxTokens;
  let thinking: Record<string, unknown> | undefined;
  const budget = thinkingBudget(request);
  if (budget !== undefined) {
    const fitted = thinkingTokens(request.maxTokens, budget, request.maxOutputTokens);
    maxTokens = fitted.maxTokens;
    if (fitted.budget !== undefined) thinking = { type: 'enabled', budget_tokens: fitted.budget };
  }

  const body: Record<string, unknown> = { model: request.model, max_tokens: maxTokens };
  if (system) body.system = system;
  body.messages = messages;
  if (tools) {
    body.tools = tools;
    const choice = toolChoice(request.toolChoice, request.parallelToolCalls);
    if (choice) body.tool_choice = choice;
  }
  if (thinking) {
    body.thinking = thinking;
    // With thinking on Anthropic refuses a temperature other than 1 and a top_p under 0.95.
    if (request.topP !== undefined && request.topP >= 0.95) body.top_p = request.topP;
  } else if (request.temperature !== undefined) {
    // Anthropic takes 0 to 1 (the request allows 0 to 2); its recent models also refuse
    // temperature and top_p together, so temperature wins.
    body.temperature = Math.min(Math.max(request.temperature, 0), 1);
  } else if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stop && request.stop.length > 0) body.stop_sequences = request.stop;
  // Anthropic's metadata takes only an end-user id.
  if (request.user) body.metadata = { user_id: request.user };
  if (stream) body.stream = true;
  placeCacheMarkers(body as { system?: AnthropicBlock[]; tools?: AnthropicBlock[]; messages: AnthropicMessage[] }, request.cache);
  return body;
}
