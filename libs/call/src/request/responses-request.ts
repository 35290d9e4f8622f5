import { ServiceError } from '@svc/errors';
import { parseChatRequest, refuseDeepNesting, type ChatRequestInput } from './chat-request';
import { REASONING_EFFORTS } from './chat-request-schema';

/**
 * POST /v1/responses, validated and normalised (spec: POST /v1/responses). The body is turned into
 * the chat request it asks for and validated by the one chat parser (messages, tools, formats,
 * sampling, svc options), so both APIs accept and refuse the same things; refusals are reported
 * in the Responses API's own field names (`input[i]`, `tools[i].name`, `text.format`,
 * `max_output_tokens`, `reasoning.effort`).
 *
 * Stored history is joined later (`withHistory`): the items here are the turn's own input, kept
 * in the shapes they are stored in (spec: Conversation items).
 */

/** An input item as stored (ids are given by the conversations service). */
export type ResponseInputItem =
  | { type: 'message'; role: 'user' | 'assistant' | 'system' | 'developer'; content: Array<{ type: 'input_text'; text: string } | { type: 'output_text'; text: string; annotations: unknown[] } | { type: 'input_image'; image_url: string }> }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string }
  | { type: 'compaction'; summary: string };

export interface ResponsesInput {
  /** The call as a chat request: instructions and the turn's input (no history yet), max_output_tokens as maxTokens. */
  chat: ChatRequestInput;
  /** The turn's input items, in their stored shapes; instructions first as a developer message. */
  items: ResponseInputItem[];
  instructions?: string;
  previousResponseId?: string;
  conversationId?: string;
  store: boolean;
  background: boolean;
  stream: boolean;
  metadata: Record<string, string>;
  /** Default 4096 (spec: Limits). */
  maxOutputTokens: number;
  /** svc.retention_days: retention of a conversation this call creates (0–365). */
  retentionDays?: number;
  /** svc.compaction */
  compaction: 'auto' | 'off';
  /** What the response object echoes as applied (spec: Response object). */
  echo: ResponseEcho;
}

/** The request fields a response object echoes as applied. */
export interface ResponseEcho {
  tools: Array<Record<string, unknown>>;
  toolChoice: unknown;
  parallelToolCalls: boolean;
  temperature?: number;
  topP?: number;
  text?: Record<string, unknown>;
  reasoning?: Record<string, unknown>;
}

export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;
export const MAX_METADATA_KEYS = 16;
export const MAX_METADATA_KEY_LENGTH = 64;
export const MAX_METADATA_VALUE_LENGTH = 512;
export const MAX_RETENTION_DAYS = 365;

type Json = Record<string, unknown>;
type Headers = Record<string, string | string[] | undefined>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const given = (value: unknown) => value !== undefined && value !== null;
const invalid = (param: string, message: string) => new ServiceError('invalid_value', message, { param });
const missing = (param: string, message: string) => new ServiceError('missing_field', message, { param });

/** A NUL character or a surrogate without its pair: text Postgres cannot store (jsonb refuses both). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A body whose history is stored (Responses, conversations) must hold text that can be stored:
 * 400 invalid_value naming the first field (or key) with a NUL character or an unpaired surrogate,
 * before any vendor work — rather than a 500 once the answer, already billed, cannot be stored.
 */
export function refuseUnstorableText(body: Record<string, unknown>): void {
  const stack: Array<[unknown, string]> = Object.entries(body).map(([field, value]) => [value, field]);
  while (stack.length > 0) {
    const [node, param] = stack.pop()!;
    if (typeof node === 'string') {
      if (UNSTORABLE.test(node)) throw invalid(param, `'${param}' contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored.`);
    } else if (Array.isArray(node)) {
      node.forEach((entry, index) => stack.push([entry, `${param}[${index}]`]));
    } else if (isObject(node)) {
      for (const [field, value] of Object.entries(node)) {
        if (UNSTORABLE.test(field)) throw invalid(param, `A key of '${param}' contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored.`);
        stack.push([value, `${param}.${field}`]);
      }
    }
  }
}

/** Characters as a person counts them: Unicode code points (an emoji is one, not two UTF-16 units). */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * `metadata` of a response, a conversation or a batch: up to 16 keys, keys up to 64 characters,
 * string values up to 512 (spec: Limits), counted in characters (code points). Metadata is stored,
 * so text that cannot be (refuseUnstorableText) is refused here for every endpoint.
 */
export function parseMetadata(value: unknown, param = 'metadata'): Record<string, string> {
  if (!given(value)) return {};
  if (!isObject(value)) throw invalid(param, `'${param}' must be an object of string values.`);
  refuseUnstorableText({ [param]: value });
  const entries = Object.entries(value);
  if (entries.length > MAX_METADATA_KEYS) throw invalid(param, `'${param}' has ${entries.length} keys; at most ${MAX_METADATA_KEYS}.`);
  for (const [key, entry] of entries) {
    if (characterCount(key) > MAX_METADATA_KEY_LENGTH) throw invalid(param, `'${param}' keys are at most ${MAX_METADATA_KEY_LENGTH} characters ('${[...key].slice(0, 20).join('')}…' is longer).`);
    if (typeof entry !== 'string') throw invalid(param, `'${param}.${key}' must be a string.`);
    if (characterCount(entry) > MAX_METADATA_VALUE_LENGTH) throw invalid(param, `'${param}.${key}' is longer than ${MAX_METADATA_VALUE_LENGTH} characters.`);
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/** `svc.retention_days`: an integer from 0 to 365. */
export function parseRetentionDays(value: unknown, param = 'svc.retention_days'): number | undefined {
  if (!given(value)) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_RETENTION_DAYS) throw invalid(param, `'${param}' must be an integer from 0 to ${MAX_RETENTION_DAYS}.`);
  return value;
}

const ITEM_TYPES = ['message', 'function_call', 'function_call_output'];
const PART_TYPES = ['input_text', 'text', 'output_text', 'input_image'];

/** The text of a string-or-parts content, for roles that take text only. */
function textParts(content: unknown, param: string, role: string): Array<{ type: 'text'; text: string }> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content) || content.length === 0) throw invalid(param, `'${param}' must be a string or a non-empty array of content parts.`);
  return content.map((part, index) => {
    const at = `${param}[${index}]`;
    if (!isObject(part)) throw invalid(at, `'${at}' must be an object.`);
    if (typeof part.type !== 'string' || !PART_TYPES.includes(part.type)) throw new ServiceError('unsupported_parameter', `Content part types are ${PART_TYPES.join(', ')}.`, { param: `${at}.type` });
    if (part.type === 'input_image') throw invalid(at, `An input_image part is allowed in user messages only, not ${role}.`);
    if (typeof part.text !== 'string') throw invalid(`${at}.text`, `'${at}.text' must be a string.`);
    return { type: 'text' as const, text: part.text };
  });
}

function imageUrlOf(part: Json, at: string): string {
  const raw = isObject(part.image_url) ? part.image_url.url : part.image_url;
  if (typeof raw !== 'string') throw invalid(`${at}.image_url`, `'${at}.image_url' must be an image URL (http(s) or a base64 data: URL).`);
  return raw;
}

interface Converted {
  /** Chat messages for the chat parser, with the input index each came from. */
  messages: Json[];
  origins: number[];
  items: ResponseInputItem[];
}

/**
 * Input items (request shapes) → chat messages and stored items. Consecutive function_call items
 * become one assistant message with tool calls (joined to an assistant text just before them).
 */
function convertInput(input: unknown, root = 'input'): Converted {
  const list: unknown[] = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : (input as unknown[]);
  const out: Converted = { messages: [], origins: [], items: [] };
  list.forEach((raw, index) => {
    const at = `${root}[${index}]`;
    if (!isObject(raw)) throw invalid(at, `'${at}' must be an input item object.`);
    const type = raw.type ?? 'message';
    if (typeof type !== 'string' || !ITEM_TYPES.includes(type)) throw new ServiceError('unsupported_parameter', `Input item types are ${ITEM_TYPES.join(', ')}.`, { param: `${at}.type` });
    if (type === 'message') {
      if (!given(raw.role)) throw missing(`${at}.role`, `'${at}.role' is required.`);
      if (!given(raw.content)) throw missing(`${at}.content`, `'${at}.content' is required.`);
      const role = raw.role;
      if (role !== 'user' && role !== 'assistant' && role !== 'system' && role !== 'developer') throw invalid(`${at}.role`, `'${at}.role' must be one of user, assistant, system, developer.`);
      if (role === 'user') {
        const parts = typeof raw.content === 'string' ? [{ type: 'input_text', text: raw.content }] : raw.content;
        if (!Array.isArray(parts) || parts.length === 0) throw invalid(`${at}.content`, `'${at}.content' must be a string or a non-empty array of content parts.`);
        const chatParts: Json[] = [];
        const stored: Array<{ type: 'input_text'; text: string } | { type: 'input_image'; image_url: string }> = [];
        parts.forEach((part: unknown, partIndex: number) => {
          const partAt = `${at}.content[${partIndex}]`;
          if (!isObject(part)) throw invalid(partAt, `'${partAt}' must be an object.`);
          if (typeof part.type !== 'string' || !PART_TYPES.includes(part.type)) throw new ServiceError('unsupported_parameter', `Content part types are ${PART_TYPES.join(', ')}.`, { param: `${partAt}.type` });
          if (part.type === 'input_image') {
            const url = imageUrlOf(part, partAt);
            chatParts.push({ type: 'image_url', image_url: { url } });
            stored.push({ type: 'input_image', image_url: url });
            return;
          }
          if (typeof part.text !== 'string') throw invalid(`${partAt}.text`, `'${partAt}.text' must be a string.`);
          chatParts.push({ type: 'text', text: part.text });
          stored.push({ type: 'input_text', text: part.text });
        });
        out.messages.push({ role: 'user', content: chatParts });
        out.origins.push(index);
        out.items.push({ type: 'message', role: 'user', content: stored });
        return;
      }
      const texts = textParts(raw.content, `${at}.content`, role);
      const text = texts.map((part) => part.text).join('');
      out.messages.push({ role, content: text });
      out.origins.push(index);
      out.items.push({ type: 'message', role, content: role === 'assistant' ? [{ type: 'output_text', text, annotations: [] }] : [{ type: 'input_text', text }] });
      return;
    }
    if (type === 'function_call') {
      for (const field of ['call_id', 'name'] as const) if (!given(raw[field])) throw missing(`${at}.${field}`, `'${at}.${field}' is required.`);
      if (typeof raw.call_id !== 'string' || typeof raw.name !== 'string') throw invalid(at, `'${at}' call_id and name must be strings.`);
      const args = typeof raw.arguments === 'string' ? raw.arguments : given(raw.arguments) ? JSON.stringify(raw.arguments) : '{}';
      const call = { id: raw.call_id, type: 'function', function: { name: raw.name, arguments: args } };
      const last = out.messages[out.messages.length - 1];
      if (last && last.role === 'assistant') last.tool_calls = [...((last.tool_calls as unknown[]) ?? []), call];
      else {
        out.messages.push({ role: 'assistant', content: null, tool_calls: [call] });
        out.origins.push(index);
      }
      out.items.push({ type: 'function_call', call_id: raw.call_id, name: raw.name, arguments: args });
      return;
    }
    if (!given(raw.call_id)) throw missing(`${at}.call_id`, `'${at}.call_id' is required.`);
    if (!given(raw.output)) throw missing(`${at}.output`, `'${at}.output' is required.`);
    if (typeof raw.call_id !== 'string') throw invalid(`${at}.call_id`, `'${at}.call_id' must be a string.`);
    const output = typeof raw.output === 'string' ? raw.output : JSON.stringify(raw.output);
    out.messages.push({ role: 'tool', tool_call_id: raw.call_id, content: output });
    out.origins.push(index);
    out.items.push({ type: 'function_call_output', call_id: raw.call_id, output });
  });
  return out;
}

/**
 * Input items in the request shapes (POST /v1/conversations and .../items), checked and turned
 * into their stored shapes; refusals name `<root>[i]`.
 */
export function parseInputItems(items: unknown, root = 'items'): ResponseInputItem[] {
  if (!Array.isArray(items)) throw invalid(root, `'${root}' must be an array of input items.`);
  return convertInput(items, root).items;
}

/** A chat request's field (`messages[i]…`, `max_tokens`, …) named as the Responses API names it. */
function responsesParam(chatParam: string, origins: number[], instructions: boolean): string {
  const offset = instructions ? 1 : 0;
  return chatParam
    .replace(/^messages\[(\d+)\]/, (_all, index: string) => {
      const origin = origins[Number(index) - offset];
      return origin === undefined ? 'instructions' : `input[${origin}]`;
    })
    .replace(/^messages$/, 'input')
    .replace(/^(input\[\d+\])\.content\[(\d+)\]\.image_url\.url$/, '$1.content[$2].image_url')
    .replace(/^(input\[\d+\])\.tool_calls.*$/, '$1.arguments')
    .replace(/^(input\[\d+\])\.tool_call_id$/, '$1.call_id')
    .replace(/^tools\[(\d+)\]\.function\./, 'tools[$1].')
    .replace(/^response_format.*$/, 'text.format')
    .replace(/^max_tokens$/, 'max_output_tokens')
    .replace(/^reasoning_effort$/, 'reasoning.effort');
}

/** A chat parser refusal, named in the Responses API's fields. */
function renamed(error: unknown, origins: number[], instructions: boolean): unknown {
  if (!(error instanceof ServiceError) || !error.param) return error;
  const param = responsesParam(error.param, origins, instructions);
  // The field as quoted (or as a path) in the message; a count of messages is a count of input items.
  const bare = /[.[]/.test(error.param) ? error.message.replace(error.param, param) : error.message;
  const message = bare
    .replace(`'${error.param}'`, `'${param}'`)
    .replace(/'messages'/g, "'input'")
    .replace(/\b(\d+) messages\b/, '$1 input items');
  return new ServiceError(error.code as never, message, { param, headers: error.headers, cause: error });
}

/** The fields of a Responses request the service reads (spec: POST /v1/responses). */
const RESPONSES_FIELDS: ReadonlySet<string> = new Set(['model', 'input', 'instructions', 'previous_response_id', 'conversation', 'store', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens', 'temperature', 'top_p', 'text', 'reasoning', 'metadata', 'stream', 'background', 'include', 'truncation', 'user', 'svc']);

/** Validates a Responses body (spec: POST /v1/responses) and returns it normalised. */
export function parseResponsesRequest(body: unknown, headers: Headers, options: { remoteImages?: 'refuse' | 'defer' } = {}): ResponsesInput {
  if (!isObject(body)) throw new ServiceError('invalid_json', 'The request body must be a JSON object.');
  refuseDeepNesting(body);
  if (!given(body.input)) throw missing('input', "'input' is required.");
  if (body.store !== false) refuseUnstorableText(body);
  if (typeof body.input !== 'string' && !Array.isArray(body.input)) throw invalid('input', "'input' must be a string or an array of input items.");
  if (Array.isArray(body.input) && body.input.length === 0) throw invalid('input', "'input' must not be empty.");
  if (given(body.instructions) && typeof body.instructions !== 'string') throw invalid('instructions', "'instructions' must be a string.");
  const instructions = typeof body.instructions === 'string' ? body.instructions : undefined;
  if (given(body.previous_response_id) && (typeof body.previous_response_id !== 'string' || body.previous_response_id === '')) throw invalid('previous_response_id', "'previous_response_id' must be a response id (resp_...).");
  let conversationId: string | undefined;
  if (given(body.conversation)) {
    const raw = isObject(body.conversation) ? body.conversation.id : body.conversation;
    if (typeof raw !== 'string' || raw === '') throw invalid('conversation', "'conversation' must be a conversation id (conv_...) or {id}.");
    conversationId = raw;
  }
  for (const field of ['store', 'background', 'stream', 'parallel_tool_calls'] as const) {
    if (given(body[field]) && typeof body[field] !== 'boolean') throw invalid(field, `'${field}' must be a boolean.`);
  }
  const store = body.store !== false;
  const stream = body.stream === true;
  const background = body.background === true;
  if (background && !store) throw invalid('store', "'background' needs 'store' true.");
  if (background && stream) throw invalid('stream', "'background' cannot be combined with 'stream'.");
  if (given(body.max_output_tokens) && (typeof body.max_output_tokens !== 'number' || !Number.isInteger(body.max_output_tokens) || body.max_output_tokens < 1)) {
    throw invalid('max_output_tokens', "'max_output_tokens' must be an integer of at least 1.");
  }
  const maxOutputTokens = typeof body.max_output_tokens === 'number' ? body.max_output_tokens : DEFAULT_MAX_OUTPUT_TOKENS;
  const metadata = parseMetadata(body.metadata);
  if (given(body.text) && !isObject(body.text)) throw invalid('text', "'text' must be an object.");
  const format = isObject(body.text) ? body.text.format : undefined;
  if (given(body.reasoning) && !isObject(body.reasoning)) throw invalid('reasoning', "'reasoning' must be an object.");
  const effort = isObject(body.reasoning) ? body.reasoning.effort : undefined;
  if (given(effort) && !(REASONING_EFFORTS as readonly unknown[]).includes(effort)) throw invalid('reasoning.effort', `'reasoning.effort' must be one of ${REASONING_EFFORTS.join(', ')}.`);
  const svc = isObject(body.svc) ? body.svc : given(body.svc) ? body.svc : undefined;
  if (given(svc) && !isObject(svc)) throw invalid('svc', "'svc' must be an object.");
  const retentionDays = parseRetentionDays(isObject(svc) ? svc.retention_days : undefined);
  const compaction = isObject(svc) && given(svc.compaction) ? svc.compaction : 'auto';
  if (compaction !== 'auto' && compaction !== 'off') throw invalid('svc.compaction', "'svc.compaction' must be 'auto' or 'off'.");

  // Flat function tools {type, name, description, parameters, strict} → chat tools.
  let chatTools: unknown = body.tools;
  if (Array.isArray(body.tools)) {
    chatTools = body.tools.map((tool, index) => {
      if (!isObject(tool)) throw invalid(`tools[${index}]`, `'tools[${index}]' must be an object {type, name, description, parameters}.`);
      if (tool.type !== 'function') throw invalid(`tools[${index}].type`, `'tools[${index}].type' must be 'function'.`);
      const { type: _type, ...fn } = tool;
      return { type: 'function', function: fn };
    });
  } else if (given(body.tools)) throw invalid('tools', "'tools' must be an array of function tools.");
  // Responses' own ranges and shapes, before the chat parser's (whose messages name chat shapes).
  if (given(body.top_p) && !(typeof body.top_p === 'number' && body.top_p > 0 && body.top_p <= 1)) throw invalid('top_p', "'top_p' must be a number above 0 and up to 1.");
  let toolChoice: unknown = body.tool_choice;
  if (given(body.tool_choice) && !isObject(body.tool_choice) && !['auto', 'none', 'required'].includes(body.tool_choice as string)) {
    throw invalid('tool_choice', "'tool_choice' must be 'auto', 'none', 'required' or {type: 'function', name}.");
  }
  if (isObject(body.tool_choice)) {
    if (body.tool_choice.type !== 'function' || typeof body.tool_choice.name !== 'string') throw invalid('tool_choice', "'tool_choice' must be 'auto', 'none', 'required' or {type: 'function', name}.");
    toolChoice = { type: 'function', function: { name: body.tool_choice.name } };
  }
  let responseFormat: unknown;
  if (given(format)) {
    if (!isObject(format)) throw invalid('text.format', "'text.format' must be an object with a type.");
    if (format.type === 'json_schema') {
      const { type: _type, name, schema, strict, description } = format;
      responseFormat = { type: 'json_schema', json_schema: { name, schema, ...(given(strict) ? { strict } : {}), ...(given(description) ? { description } : {}) } };
    } else responseFormat = format;
  }

  const converted = convertInput(body.input);
  const chatBody: Json = {
    model: body.model,
    messages: [...(instructions !== undefined ? [{ role: 'developer', content: instructions }] : []), ...converted.messages],
    ...(given(chatTools) ? { tools: chatTools } : {}),
    ...(given(toolChoice) ? { tool_choice: toolChoice } : {}),
    ...(given(body.parallel_tool_calls) ? { parallel_tool_calls: body.parallel_tool_calls } : {}),
    max_tokens: maxOutputTokens,
    ...(given(body.temperature) ? { temperature: body.temperature } : {}),
    ...(given(body.top_p) ? { top_p: body.top_p } : {}),
    ...(given(responseFormat) ? { response_format: responseFormat } : {}),
    ...(given(effort) ? { reasoning_effort: effort } : {}),
    stream,
    ...(isObject(svc) ? { svc: Object.fromEntries(Object.entries(svc).filter(([name]) => name !== 'retention_days' && name !== 'compaction')) } : {}),
  };
  let chat: ChatRequestInput;
  try {
    chat = parseChatRequest(chatBody, headers, options);
  } catch (error) {
    throw renamed(error, converted.origins, instructions !== undefined);
  }
  // Images still to download are refused later (invalid_image_url): named as the input part.
  for (const image of chat.images) image.param = responsesParam(image.param, converted.origins, instructions !== undefined);
  // "include, truncation, user: accepted and ignored, listed in svc.ignored_parameters whenever
  // present"; so is any other field the service does not read (as on chat completions).
  chat.ignoredParameters = ['include', 'truncation', 'user'].filter((name) => given(body[name]));
  for (const [name, value] of Object.entries(body)) if (!RESPONSES_FIELDS.has(name) && given(value)) chat.ignoredParameters.push(name);
  chat.user = undefined;
  chat.metadata = undefined;
  const items: ResponseInputItem[] = [...(instructions !== undefined ? [{ type: 'message' as const, role: 'developer' as const, content: [{ type: 'input_text' as const, text: instructions }] }] : []), ...converted.items];
  return {
    chat,
    items,
    instructions,
    ...(typeof body.previous_response_id === 'string' ? { previousResponseId: body.previous_response_id } : {}),
    ...(conversationId ? { conversationId } : {}),
    store,
    background,
    stream,
    metadata,
    maxOutputTokens,
    ...(retentionDays !== undefined ? { retentionDays } : {}),
    compaction,
    echo: {
      tools: Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [],
      toolChoice: given(body.tool_choice) ? body.tool_choice : 'auto',
      parallelToolCalls: body.parallel_tool_calls !== false,
      ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
      ...(typeof body.top_p === 'number' ? { topP: body.top_p } : {}),
      ...(isObject(body.text) ? { text: body.text } : {}),
      ...(isObject(body.reasoning) ? { reasoning: body.reasoning } : {}),
    },
  };
}
