import { ServiceError } from '@svc/errors';
import type { ContentPart, ResponseFormat, ToolCall, ToolChoice, ToolDefinition, VendorMessage } from '@svc/vendors';
import { ChatRequestSchema, decodeDataUrl, specError, type ChatRequestBody } from './chat-request-schema';

/**
 * One image_url part of a user message, in request order.
 *
 * A base64 data: URL is decoded at once into an `{type: 'image', mediaType, data}` part at
 * `partIndex` of the normalised message (`decoded: true`). An http(s) URL is downloaded by the
 * service (spec: Parameter handling); until then it is left out of the normalised message's parts
 * (`decoded: false`). A downloader inserts each such image at `partIndex` of
 * `messages[vendorMessageIndex].content`, in list order, which restores the client's part order
 * (every client part maps to one normalised part). Errors about the image name `param`.
 */
export interface ChatImage {
  /** Index in the request's `messages`. */
  messageIndex: number;
  /** Index in that message's `content` array (and in the normalised message's parts once every image is in place). */
  partIndex: number;
  /** Index of the normalised user message in ChatRequestInput.messages. */
  vendorMessageIndex: number;
  url: string;
  decoded: boolean;
  /** `messages[i].content[j].image_url.url`, for invalid_image_url. */
  param: string;
}

/**
 * POST /v1/chat/completions request, validated and normalised in one place: system and
 * developer texts joined with a blank line into one system prompt; invalid tool-call argument
 * JSON replaced with `{}`; svc options from the body with the x-svc-* headers winning.
 */
export interface ChatRequestInput {
  model: string;
  requestedModel: string | undefined;
  system?: string;
  messages: VendorMessage[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  /** max_completion_tokens wins over max_tokens; undefined means the default (16000). */
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stop?: string[];
  stream: boolean;
  responseFormat?: ResponseFormat;
  reasoningEffort?: string;
  user?: string;
  metadata?: Record<string, string>;
  svc: {
    sessionId?: string;
    vendors?: string[];
    fallback?: 'same_vendor' | 'cross_vendor' | 'none';
    /** `none` when cache.breakpoints is `none` ("forces ttl `none`"). */
    cacheTtl?: '5m' | '1h' | 'none';
    cacheBreakpoints?: 'auto' | 'none';
    split?: 'auto' | 'off';
    /** svc.deadline in milliseconds ("absent or under 15 minutes changes nothing"). */
    deadlineMs?: number;
  };
  ignoredParameters: string[];
  /** True when any image part is present. */
  needsVision: boolean;
  /** Every image_url part (see ChatImage). */
  images: ChatImage[];
}

export interface ParseChatOptions {
  /**
   * What to do with http(s) image URLs. `refuse` (default): 400 invalid_image_url, for callers
   * that have no downloader. `defer`: keep them in `images` (decoded: false) for a downloader.
   */
  remoteImages?: 'refuse' | 'defer';
}

type Headers = Record<string, string | string[] | undefined>;
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * "Headers equal to body options and winning over them": the x-svc-* values replace the body's
 * svc fields before validation, so a bad header value is refused with param `svc.<field>`.
 * A body `svc` (or `svc.cache`) that is not an object is left as sent, to be refused itself.
 */
function withHeaderOptions(body: Json, headers: Headers): Json {
  const fields: Record<string, string | undefined> = {
    session_id: header(headers, 'x-svc-session-id'),
    fallback: header(headers, 'x-svc-fallback'),
    split: header(headers, 'x-svc-split'),
    deadline: header(headers, 'x-svc-deadline'),
  };
  const ttl = header(headers, 'x-svc-cache-ttl');
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  if (Object.keys(given).length === 0 && ttl === undefined) return body;
  const svc = body.svc ?? {};
  if (!isObject(svc)) return body;
  const merged: Json = { ...svc, ...given };
  if (ttl !== undefined) {
    const cache = svc.cache ?? {};
    if (isObject(cache)) merged.cache = { ...cache, ttl };
  }
  return { ...body, svc: merged };
}

/** "invalid arguments JSON replaced with `{}`": arguments must be the JSON text of an object. */
function argumentsOrEmpty(raw: unknown): string {
  if (typeof raw !== 'string') return '{}';
  try {
    return isObject(JSON.parse(raw)) ? raw : '{}';
  } catch {
    return '{}';
  }
}

/** Text of text-only content (an image part there is refused by the schema). */
const joinText = (parts: ({ type: 'text'; text: string } | { type: 'image_url' })[]) => parts.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** A turn that sends something: text that is not empty, an image, a tool call or a tool result. */
const hasContent = (message: VendorMessage): boolean => {
  if (message.role === 'user') return message.content.some((part) => part.type !== 'text' || part.text !== '');
  if (message.role === 'assistant') return Boolean(message.content) || Boolean(message.toolCalls?.length);
  return true;
};

/** The request fields the service reads (the schema's); any other top-level field is accepted and ignored. */
const CHAT_FIELDS: ReadonlySet<string> = new Set(Object.keys(ChatRequestSchema.shape));

/**
 * Parameters accepted and ignored (svc.ignored_parameters): seed, logit_bias and the penalties
 * "when non-default", then every other top-level field the service does not read and the client
 * set (not null) — `functions`, `service_tier`, a misspelt name — so a client learns it had no effect.
 */
function ignoredParameters(body: ChatRequestBody, raw: Record<string, unknown>): string[] {
  const ignored: string[] = [];
  if (body.seed !== undefined && body.seed !== null) ignored.push('seed');
  if (body.logit_bias !== undefined && body.logit_bias !== null && !(isObject(body.logit_bias) && Object.keys(body.logit_bias).length === 0)) ignored.push('logit_bias');
  if (body.presence_penalty !== undefined && body.presence_penalty !== null && body.presence_penalty !== 0) ignored.push('presence_penalty');
  if (body.frequency_penalty !== undefined && body.frequency_penalty !== null && body.frequency_penalty !== 0) ignored.push('frequency_penalty');
  for (const [name, value] of Object.entries(raw)) if (!CHAT_FIELDS.has(name) && value !== null && value !== undefined) ignored.push(name);
  return ignored;
}

function normaliseMessages(body: ChatRequestBody): { system?: string; messages: VendorMessage[]; images: ChatImage[] } {
  const systemTexts: string[] = [];
  const messages: VendorMessage[] = [];
  const images: ChatImage[] = [];
  body.messages.forEach((message, messageIndex) => {
    switch (message.role) {
      case 'system':
      case 'developer':
        // "system and developer texts are joined with a blank line into one system prompt".
        systemTexts.push(joinText(message.content));
        break;
      case 'user': {
        const parts: ContentPart[] = [];
        message.content.forEach((part, partIndex) => {
          if (part.type === 'text') {
            parts.push({ type: 'text', text: part.text });
            return;
          }
          const url = part.image_url.url;
          const decoded = decodeDataUrl(url);
          images.push({ messageIndex, partIndex, vendorMessageIndex: messages.length, url, decoded: decoded !== undefined, param: `messages[${messageIndex}].content[${partIndex}].image_url.url` });
          if (decoded) parts.push({ type: 'image', mediaType: decoded.mediaType, data: decoded.data });
        });
        messages.push({ role: 'user', content: parts });
        break;
      }
      case 'assistant': {
        const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, arguments: argumentsOrEmpty(call.function.arguments) }));
        messages.push({ role: 'assistant', content: message.content == null ? null : joinText(message.content), ...(toolCalls.length > 0 ? { toolCalls } : {}) });
        break;
      }
      case 'tool':
        messages.push({ role: 'tool', toolCallId: message.tool_call_id, content: joinText(message.content) });
        break;
      case 'function':
        // Refused by the schema (legacy role); never reached.
        break;
    }
  });
  return { system: systemTexts.length > 0 ? systemTexts.join('\n\n') : undefined, messages, images };
}

function normaliseResponseFormat(format: ChatRequestBody['response_format']): ResponseFormat | undefined {
  if (!format) return undefined;
  if (format.type !== 'json_schema') return { type: format.type };
  const { name, schema, strict } = format.json_schema;
  // Spec (response_format): only the schema is required; vendors that want a name get `response`.
  return { type: 'json_schema', name: name ?? 'response', schema, ...(typeof strict === 'boolean' ? { strict } : {}) };
}

/**
 * JSON nested deeper than this is refused. Every later step walks the request (schema checks,
 * prompt hashing, the vendor's JSON), and a recursive walk of a value thousands of levels deep
 * overflows the stack: one client could otherwise turn its own bad input into server errors.
 */
export const MAX_JSON_DEPTH = 64;

/** 400 invalid_value naming the field (and entry) that nests deeper than MAX_JSON_DEPTH; iterative, linear in the body. */
export function refuseDeepNesting(body: Json): void {
  for (const [field, value] of Object.entries(body)) {
    const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((entry, index) => [`${field}[${index}]`, entry]) : [[field, value]];
    for (const [param, entry] of entries) {
      const stack: Array<[unknown, number]> = [[entry, 1]];
      while (stack.length > 0) {
        const [node, depth] = stack.pop() as [unknown, number];
        if (typeof node !== 'object' || node === null) continue;
        if (depth > MAX_JSON_DEPTH) throw new ServiceError('invalid_value', `'${param}' is nested more than ${MAX_JSON_DEPTH} levels deep.`, { param });
        for (const child of Array.isArray(node) ? node : Object.values(node)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
      }
    }
  }
}

/**
 * Validates a chat-completions body (spec: request-field table, `svc` options, Errors) and
 * returns it normalised. Every refusal is a 400 ServiceError with the spec's code and param.
 */
export function parseChatRequest(body: unknown, headers: Headers, options: ParseChatOptions = {}): ChatRequestInput {
  if (!isObject(body)) throw new ServiceError('invalid_json', 'The request body must be a JSON object.');
  refuseDeepNesting(body);
  const parsed = ChatRequestSchema.safeParse(withHeaderOptions(body, headers));
  if (!parsed.success) throw specError(parsed.error.issues);
  const request = parsed.data;

  const { system, messages, images } = normaliseMessages(request);
  // Turns that are all empty text would reach some vendors as an empty conversation (they take no
  // empty text), which they refuse: one rule for every model, before any vendor work.
  if (images.length === 0 && !messages.some(hasContent)) throw new ServiceError('missing_messages', "'messages' holds no content: every user and assistant message is empty.", { param: 'messages' });
  const pending = images.find((image) => !image.decoded);
  if (pending && options.remoteImages !== 'defer') {
    throw new ServiceError('invalid_image_url', 'Images must be sent as base64 data: URLs; image URLs are not downloaded by this endpoint.', { param: pending.param });
  }

  const svc = request.svc ?? {};
  const cacheBreakpoints = svc.cache?.breakpoints ?? undefined;
  const choice = request.tool_choice ?? undefined;
  return {
    model: request.model ?? 'auto',
    requestedModel: request.model ?? undefined,
    system,
    messages,
    tools: request.tools?.length
      ? request.tools.map(({ function: fn }) => ({
          name: fn.name,
          ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
          parameters: fn.parameters ?? { type: 'object', properties: {} },
        }))
      : undefined,
    toolChoice: typeof choice === 'object' ? { name: choice.function.name } : choice,
    parallelToolCalls: request.parallel_tool_calls ?? undefined,
    // "max_completion_tokens wins".
    maxTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
    temperature: request.temperature ?? undefined,
    topP: request.top_p ?? undefined,
    stop: typeof request.stop === 'string' ? [request.stop] : request.stop?.length ? request.stop : undefined,
    stream: request.stream === true,
    responseFormat: normaliseResponseFormat(request.response_format),
    reasoningEffort: request.reasoning_effort ?? undefined,
    user: request.user ?? undefined,
    metadata: request.metadata ?? undefined,
    svc: {
      sessionId: svc.session_id ?? undefined,
      vendors: svc.vendors ? [...new Set(svc.vendors)] : undefined,
      fallback: svc.fallback ?? undefined,
      // "cache.breakpoints `none` disables caching for the call and forces ttl `none`".
      cacheTtl: cacheBreakpoints === 'none' ? 'none' : (svc.cache?.ttl ?? undefined),
      cacheBreakpoints,
      split: svc.split ?? undefined,
      deadlineMs: svc.deadline ?? undefined,
    },
    ignoredParameters: ignoredParameters(request, body),
    needsVision: images.length > 0,
    images,
  };
}

/** Rough input size for eligibility and admission (tokens.ts). */
export { estimateInputTokens } from '../tokens';
