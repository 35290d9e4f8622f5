import type { Request } from 'express';
import { reasoningText, type Finish } from '../answer';
import { BAD_KEY, chatEndpoint, type ChatProtocol, type ErrorSpec, type StreamFrame, type Turn, type Vendor } from '../engine';
import { randomId } from '../hash';
import { header, type VendorError } from '../http';
import { InvalidRequest, isRecord, type CacheTtl, type OutputFormat, type PromptBlock, type SimRequest, type ToolChoice, type ToolSpec } from '../request';
import { chunkString, chunkText, countTokens } from '../tokens';

/** Anthropic Messages API (POST /v1/messages). */

const FIELDS = new Set([
  'model', 'messages', 'max_tokens', 'system', 'metadata', 'stop_sequences', 'stream', 'temperature', 'top_k', 'top_p', 'tools',
  'tool_choice', 'thinking', 'service_tier', 'container', 'mcp_servers', 'context_management', 'output_format', 'output_config',
]);
const MAX_CACHE_MARKERS = 4;

const ERROR_TYPES: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'Invalid request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  402: ['billing_error', 'Your credit balance is too low to access the Anthropic API.'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'The requested resource could not be found.'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: ['rate_limit_error', 'Number of requests has exceeded your rate limit. Please try again later.'],
  500: ['api_error', 'Internal server error'],
  504: ['timeout_error', 'Request timed out'],
  529: ['overloaded_error', 'Overloaded'],
};

function errorOf(status: number, message?: string, headers: Record<string, string> = {}): VendorError {
  const [type, fallback] = ERROR_TYPES[status] ?? [status >= 500 ? 'api_error' : 'invalid_request_error', `Request failed with status ${status}`];
  const requestId = `req_011${randomId(21)}`;
  return { status, headers: { 'request-id': requestId, ...headers }, body: { type: 'error', error: { type, message: message ?? fallback }, request_id: requestId } };
}

export const anthropicVendor: Vendor = {
  name: 'anthropic',
  checkAuth(req: Request) {
    const auth = header(req, 'authorization');
    const key = header(req, 'x-api-key') ?? (auth ? /^Bearer\s+(.+)$/i.exec(auth)?.[1] : undefined);
    if (!key) return { kind: 'auth_missing' };
    if (key === BAD_KEY) return { kind: 'auth_invalid', key };
    return undefined;
  },
  error(spec: ErrorSpec): VendorError {
    switch (spec.kind) {
      case 'auth_missing':
        return errorOf(401, 'x-api-key header is required');
      case 'auth_invalid':
        return errorOf(401, 'invalid x-api-key');
      case 'invalid_json':
        return errorOf(400, 'There was an issue with the request body: the body is not valid JSON.');
      case 'invalid_request':
        return errorOf(400, spec.message);
      case 'invalid_fault':
        return errorOf(400, 'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row');
      case 'rate_limit':
        return errorOf(429, undefined, spec.retryAfterSeconds === undefined ? {} : { 'retry-after': String(spec.retryAfterSeconds) });
      case 'status':
        return errorOf(spec.status);
      case 'not_found':
        return errorOf(404, spec.message);
      case 'too_large':
        return errorOf(413);
      case 'internal':
        return errorOf(500);
      case 'capacity':
        // Anthropic has no flex tier; its capacity refusal is 529 overloaded.
        return errorOf(529);
    }
  },
};

function cacheTtl(value: unknown, path: string): CacheTtl | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value) || value.type !== 'ephemeral') throw new InvalidRequest(`${path}.type: Input should be 'ephemeral'`);
  if (value.ttl === undefined) return '5m';
  if (value.ttl === '5m' || value.ttl === '1h') return value.ttl;
  throw new InvalidRequest(`${path}.ttl: Input should be '5m' or '1h'`);
}

interface Collected {
  blocks: PromptBlock[];
  markers: number;
}

function addBlock(into: Collected, block: PromptBlock): void {
  if (block.cache) into.markers += 1;
  into.blocks.push(block);
}

/** Text and images of one content block, for counting; nested tool_result content included. */
function contentBlock(block: unknown, path: string, into: Collected): { text?: string; toolResult: boolean } {
  if (!isRecord(block) || typeof block.type !== 'string') throw new InvalidRequest(`${path}: Input should be a valid dictionary or object to extract fields from`);
  const cache = cacheTtl(block.cache_control, `${path}.cache_control`);
  switch (block.type) {
    case 'text':
      if (typeof block.text !== 'string') throw new InvalidRequest(`${path}.text: Field required`);
      addBlock(into, { text: block.text, cache });
      return { text: block.text, toolResult: false };
    case 'image':
    case 'document':
      addBlock(into, { image: JSON.stringify(block.source ?? null), cache });
      return { toolResult: false };
    case 'tool_use':
      addBlock(into, { text: JSON.stringify({ name: block.name, input: block.input }), cache });
      return { toolResult: false };
    case 'tool_result': {
      const inner = block.content;
      const parts: PromptBlock[] = [];
      if (typeof inner === 'string') parts.push({ text: inner });
      else if (Array.isArray(inner)) {
        for (const part of inner) {
          if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') parts.push({ text: part.text });
          else if (isRecord(part) && part.type === 'image') parts.push({ image: JSON.stringify(part.source ?? null) });
        }
      }
      if (parts.length === 0) parts.push({ text: '' });
      parts.forEach((part, i) => addBlock(into, i === parts.length - 1 ? { ...part, cache } : part));
      return { toolResult: true };
    }
    case 'thinking':
      addBlock(into, { text: typeof block.thinking === 'string' ? block.thinking : '', cache });
      return { toolResult: false };
    default:
      addBlock(into, { text: JSON.stringify(block), cache });
      return { toolResult: false };
  }
}

function parseTools(value: unknown, into: Collected): ToolSpec[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new InvalidRequest('tools: Input should be a valid list');
  return value.flatMap((tool, i) => {
    if (!isRecord(tool) || typeof tool.name !== 'string') throw new InvalidRequest(`tools.${i}.name: Field required`);
    const { cache_control: marker, ...definition } = tool;
    addBlock(into, { text: JSON.stringify(definition), cache: cacheTtl(marker, `tools.${i}.cache_control`) });
    // Server tools (web search, code execution, ...) carry a type and no input_schema; they are never "called" here.
    if (tool.input_schema === undefined) {
      if (tool.type === undefined || tool.type === 'custom') throw new InvalidRequest(`tools.${i}.custom.input_schema: Field required`);
      return [];
    }
    return [{ name: tool.name, description: typeof tool.description === 'string' ? tool.description : undefined, parameters: tool.input_schema }];
  });
}

function parseToolChoice(value: unknown, tools: ToolSpec[]): ToolChoice {
  if (value === undefined || value === null) return { mode: tools.length > 0 ? 'auto' : 'none' };
  if (!isRecord(value)) throw new InvalidRequest('tool_choice: Input should be a valid dictionary or object to extract fields from');
  switch (value.type) {
    case 'auto':
      return { mode: 'auto' };
    case 'any':
      return { mode: 'required' };
    case 'none':
      return { mode: 'none' };
    case 'tool':
      if (typeof value.name !== 'string') throw new InvalidRequest('tool_choice.tool.name: Field required');
      if (!tools.some((t) => t.name === value.name)) throw new InvalidRequest(`Tool '${value.name}' not found in provided tools`);
      return { mode: 'named', name: value.name };
    default:
      throw new InvalidRequest("tool_choice: Input tag does not match any of the expected tags: 'auto', 'any', 'tool', 'none'");
  }
}

function parseSystem(value: unknown, into: Collected): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') {
    addBlock(into, { text: value });
    return [value];
  }
  if (!Array.isArray(value)) throw new InvalidRequest('system: Input should be a valid string or list');
  return value.map((block, i) => {
    if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') throw new InvalidRequest(`system.${i}: Input should be a text block`);
    addBlock(into, { text: block.text, cache: cacheTtl(block.cache_control, `system.${i}.cache_control`) });
    return block.text;
  });
}

/**
 * Like a model that follows instructions, answer with JSON when the system prompt asks for it in
 * the words the gateway uses where the vendor has no JSON mode ("Respond with only a JSON object
 * [matching this JSON schema: {...}]").
 */
export function formatFromInstruction(systemTexts: string[]): OutputFormat | undefined {
  const text = systemTexts.join('\n');
  const marker = 'Respond with only a JSON object matching this JSON schema: ';
  const at = text.lastIndexOf(marker);
  if (at >= 0) {
    try {
      const schema = JSON.parse(text.slice(at + marker.length).split('\n')[0]) as unknown;
      if (isRecord(schema)) return { type: 'json_schema', schema };
    } catch {
      return { type: 'json_object' };
    }
  }
  return text.includes('Respond with only a JSON object.') ? { type: 'json_object' } : undefined;
}

function parseFormat(value: unknown): OutputFormat {
  if (value === undefined || value === null) return { type: 'text' };
  if (!isRecord(value) || value.type !== 'json_schema' || !isRecord(value.schema)) throw new InvalidRequest('output_format: expected {type: "json_schema", schema}');
  return { type: 'json_schema', schema: value.schema };
}

export interface AnthropicOptions {
  thinking: boolean;
}

export function parseAnthropicRequest(body: unknown, version: string | undefined): { request: SimRequest; stream: boolean; options: AnthropicOptions } {
  if (!version) throw new InvalidRequest('anthropic-version: header is required');
  if (!isRecord(body)) throw new InvalidRequest('Input should be a valid dictionary or object to extract fields from');
  for (const field of Object.keys(body)) if (!FIELDS.has(field)) throw new InvalidRequest(`${field}: Extra inputs are not permitted`);
  if (typeof body.model !== 'string' || !body.model) throw new InvalidRequest('model: Field required');
  if (body.max_tokens === undefined) throw new InvalidRequest('max_tokens: Field required');
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens)) throw new InvalidRequest('max_tokens: Input should be a valid integer');
  if (body.max_tokens < 1) throw new InvalidRequest('max_tokens: Input should be greater than or equal to 1');
  if (body.messages === undefined) throw new InvalidRequest('messages: Field required');
  if (!Array.isArray(body.messages)) throw new InvalidRequest('messages: Input should be a valid list');
  if (body.messages.length === 0) throw new InvalidRequest('messages: at least one message is required');

  const into: Collected = { blocks: [], markers: 0 };
  const tools = parseTools(body.tools, into);
  const system = parseSystem(body.system, into);
  const seedParts: unknown[] = [system];
  let lastUserText = '';
  let lastIsToolResult = false;
  body.messages.forEach((message, i) => {
    if (!isRecord(message)) throw new InvalidRequest(`messages.${i}: Input should be a valid dictionary`);
    if (message.role !== 'user' && message.role !== 'assistant') throw new InvalidRequest(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (!Array.isArray(content)) throw new InvalidRequest(`messages.${i}.content: Field required`);
    const texts: string[] = [];
    let toolResult = false;
    content.forEach((block, j) => {
      const seen = contentBlock(block, `messages.${i}.content.${j}`, into);
      if (seen.text !== undefined) texts.push(seen.text);
      toolResult ||= seen.toolResult;
    });
    seedParts.push([message.role, content]);
    if (message.role === 'user') {
      lastUserText = toolResult ? '' : texts.join('\n');
      lastIsToolResult = toolResult;
    } else lastIsToolResult = false;
  });
  if (into.markers > MAX_CACHE_MARKERS) throw new InvalidRequest(`A maximum of ${MAX_CACHE_MARKERS} blocks with cache_control may be provided. Found ${into.markers}.`);

  let budget: number | undefined;
  const thinking = body.thinking;
  if (isRecord(thinking) && thinking.type === 'enabled') {
    if (typeof thinking.budget_tokens !== 'number' || !Number.isInteger(thinking.budget_tokens)) throw new InvalidRequest('thinking.enabled.budget_tokens: Field required');
    if (thinking.budget_tokens < 1024) throw new InvalidRequest('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    if (thinking.budget_tokens >= body.max_tokens) {
      throw new InvalidRequest('`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size');
    }
    budget = thinking.budget_tokens;
  } else if (thinking !== undefined && !(isRecord(thinking) && (thinking.type === 'disabled' || thinking.type === 'adaptive'))) {
    throw new InvalidRequest("thinking: Input tag does not match any of the expected tags: 'enabled', 'disabled'");
  }
  const adaptive = isRecord(thinking) && thinking.type === 'adaptive';

  const stops = body.stop_sequences ?? [];
  if (!Array.isArray(stops) || stops.some((s) => typeof s !== 'string')) throw new InvalidRequest('stop_sequences: Input should be a valid list of strings');

  const request: SimRequest = {
    model: body.model,
    blocks: into.blocks,
    seedMaterial: JSON.stringify(['anthropic', body.model, seedParts]),
    lastUserText,
    lastIsToolResult,
    tools,
    toolChoice: parseToolChoice(body.tool_choice, tools),
    maxTokens: body.max_tokens,
    stop: stops as string[],
    format: body.output_format === undefined || body.output_format === null ? (formatFromInstruction(system) ?? { type: 'text' }) : parseFormat(body.output_format),
    reasoning: budget !== undefined ? { budget } : adaptive ? { budget: -1 } : undefined,
  };
  return { request, stream: body.stream === true, options: { thinking: budget !== undefined || adaptive } };
}

export function anthropicStopReason(finish: Finish): string {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'tool_call':
      return 'tool_use';
    case 'refusal':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

function inputUsage(turn: Turn<AnthropicOptions>) {
  const { usage } = turn;
  const written = usage.write5mTokens + usage.write1hTokens;
  return {
    input_tokens: usage.promptTokens - usage.cachedTokens - written,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: usage.cachedTokens,
    cache_creation: { ephemeral_5m_input_tokens: usage.write5mTokens, ephemeral_1h_input_tokens: usage.write1hTokens },
  };
}

function parsedInput(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return {};
  }
}

function signature(): string {
  return Buffer.from(randomId(48)).toString('base64');
}

type Block = { type: 'thinking'; thinking: string; signature: string } | { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown; json: string };

/** Content blocks of the answer, in order: thinking, then text or tool_use. */
function blocksOf(turn: Turn<AnthropicOptions>): Block[] {
  const { answer } = turn;
  const blocks: Block[] = [];
  if (answer.reasoningTokens > 0) blocks.push({ type: 'thinking', thinking: reasoningText(answer.seed, answer.reasoningTokens), signature: signature() });
  if (answer.toolCall) {
    blocks.push({ type: 'tool_use', id: `toolu_01${randomId(22)}`, name: answer.toolCall.name, input: parsedInput(answer.toolCall.argumentsJson), json: answer.toolCall.argumentsJson });
  } else if (answer.text) blocks.push({ type: 'text', text: answer.text });
  return blocks;
}

function sse(event: string, payload: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
}

export const anthropicMessages: ChatProtocol<AnthropicOptions> = {
  vendor: anthropicVendor,
  cacheMode: (min) => ({ kind: 'explicit', min: min ?? 1024 }),
  parse: (body, req) => parseAnthropicRequest(body, header(req, 'anthropic-version')),
  newId: () => `msg_01${randomId(22)}`,
  headers: () => ({ 'request-id': `req_011${randomId(21)}` }),
  unary(turn) {
    const { answer } = turn;
    const content = blocksOf(turn).map((block) => (block.type === 'tool_use' ? { type: 'tool_use', id: block.id, name: block.name, input: block.input } : block));
    return {
      id: turn.id,
      type: 'message',
      role: 'assistant',
      model: turn.request.model,
      content,
      stop_reason: anthropicStopReason(answer.finish),
      stop_sequence: answer.stopSequence ?? null,
      usage: { ...inputUsage(turn), output_tokens: answer.outputTokens + answer.reasoningTokens, service_tier: 'standard' },
    };
  },
  stream(turn) {
    const { answer } = turn;
    const input = inputUsage(turn);
    const frames: StreamFrame[] = [];
    const push = (event: string, payload: unknown, tokens?: number) => frames.push({ data: sse(event, payload), content: tokens !== undefined, tokens: tokens ?? 0 });
    push('message_start', {
      type: 'message_start',
      message: { id: turn.id, type: 'message', role: 'assistant', model: turn.request.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...input, output_tokens: 1, service_tier: 'standard' } },
    });
    const blocks = blocksOf(turn);
    if (blocks.length === 0) push('ping', { type: 'ping' });
    blocks.forEach((block, index) => {
      if (block.type === 'thinking') {
        push('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
        if (index === 0) push('ping', { type: 'ping' });
        for (const piece of chunkText(block.thinking, 4)) push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } }, countTokens(piece));
        push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
      } else if (block.type === 'text') {
        push('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        if (index === 0) push('ping', { type: 'ping' });
        for (const piece of chunkText(block.text, 2)) push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }, countTokens(piece));
      } else {
        push('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
        if (index === 0) push('ping', { type: 'ping' });
        push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } }, countTokens(block.name));
        for (const piece of chunkString(block.json, 16)) push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }, countTokens(piece));
      }
      push('content_block_stop', { type: 'content_block_stop', index });
    });
    push('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: anthropicStopReason(answer.finish), stop_sequence: answer.stopSequence ?? null },
      usage: { ...input, output_tokens: answer.outputTokens + answer.reasoningTokens },
    });
    push('message_stop', { type: 'message_stop' });
    return { headers: { 'content-type': 'text/event-stream; charset=utf-8' }, frames, hiddenTokens: 0 };
  },
};

export const anthropicEndpoint = chatEndpoint(anthropicMessages);
