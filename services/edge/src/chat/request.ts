import { ServiceError } from '@svc/errors';
import type { ContentPart, ResponseFormat, ToolChoice, ToolDefinition, VendorMessage } from '@svc/vendors';

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
  svc: { sessionId?: string; vendors?: string[]; fallback?: 'same_vendor' | 'cross_vendor' | 'none'; cacheTtl?: '5m' | '1h' | 'none'; cacheBreakpoints?: 'auto' | 'none' };
  ignoredParameters: string[];
  needsVision: boolean;
}

type Json = Record<string, unknown>;

const invalid = (param: string, message: string) => new ServiceError('invalid_value', message, { param });
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function textOf(content: unknown, param: string, allowImages: boolean): { text: string; parts: ContentPart[]; images: boolean } {
  if (typeof content === 'string') return { text: content, parts: [{ type: 'text', text: content }], images: false };
  if (!Array.isArray(content)) throw invalid(param, `${param} must be a string or an array of content parts.`);
  const parts: ContentPart[] = [];
  let images = false;
  content.forEach((part, index) => {
    if (!isObject(part)) throw invalid(`${param}[${index}]`, `${param}[${index}] must be an object.`);
    if (part.type === 'text') {
      if (typeof part.text !== 'string') throw invalid(`${param}[${index}].text`, `${param}[${index}].text must be a string.`);
      parts.push({ type: 'text', text: part.text });
    } else if (part.type === 'image_url' && allowImages) {
      images = true;
      const url = isObject(part.image_url) ? part.image_url.url : undefined;
      if (typeof url !== 'string') throw invalid(`${param}[${index}].image_url.url`, 'image_url.url must be a string.');
      const data = /^data:([a-z]+\/[a-z0-9.+-]+);base64,(.*)$/i.exec(url);
      if (!data) throw new ServiceError('invalid_image_url', 'Only data: image URLs can be sent in this version.', { param: `${param}[${index}].image_url.url` });
      parts.push({ type: 'image', mediaType: data[1], data: Buffer.from(data[2], 'base64') });
    } else {
      throw new ServiceError('unsupported_parameter', `Content part type '${String(part.type)}' is not supported${part.type === 'image_url' ? ' in this role' : ''}.`, { param: `${param}[${index}].type` });
    }
  });
  return { text: parts.map((part) => (part.type === 'text' ? part.text : '')).join(''), parts, images };
}

function validJsonOrEmpty(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') return '{}';
  try {
    JSON.parse(raw);
    return raw;
  } catch {
    return '{}';
  }
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export function parseChatRequest(body: unknown, headers: Record<string, string | string[] | undefined>): ChatRequestInput {
  if (!isObject(body)) throw new ServiceError('invalid_json', 'The request body must be a JSON object.');
  for (const refused of ['logprobs', 'top_logprobs', 'audio', 'prediction', 'web_search_options'] as const) {
    if (body[refused] !== undefined && body[refused] !== null && body[refused] !== false) throw new ServiceError('unsupported_parameter', `'${refused}' is not supported.`, { param: refused });
  }
  if (body.n !== undefined && body.n !== null && body.n !== 1) throw new ServiceError('unsupported_parameter', "Only 'n' = 1 is supported.", { param: 'n' });
  if (Array.isArray(body.modalities) && body.modalities.some((modality) => modality !== 'text')) throw new ServiceError('unsupported_parameter', 'Only the text modality is supported.', { param: 'modalities' });

  if (body.model !== undefined && typeof body.model !== 'string') throw invalid('model', 'model must be a string.');
  const requestedModel = body.model as string | undefined;
  const messagesRaw = body.messages;
  if (!Array.isArray(messagesRaw) || messagesRaw.length === 0) throw new ServiceError('missing_messages', "'messages' must be a non-empty array.", { param: 'messages' });
  if (messagesRaw.length > 4096) throw new ServiceError('too_many_messages', 'At most 4096 messages are allowed.', { param: 'messages' });

  const systemTexts: string[] = [];
  const messages: VendorMessage[] = [];
  let needsVision = false;
  messagesRaw.forEach((raw, index) => {
    const param = `messages[${index}]`;
    if (!isObject(raw)) throw invalid(param, `${param} must be an object.`);
    const role = raw.role;
    if (role === 'function') throw new ServiceError('unsupported_parameter', "The legacy 'function' role is not supported; use 'tool'.", { param: `${param}.role` });
    if (role === 'system' || role === 'developer') {
      systemTexts.push(textOf(raw.content, `${param}.content`, false).text);
    } else if (role === 'user') {
      const content = textOf(raw.content, `${param}.content`, true);
      needsVision ||= content.images;
      messages.push({ role: 'user', content: content.parts });
    } else if (role === 'assistant') {
      const toolCalls = Array.isArray(raw.tool_calls)
        ? raw.tool_calls.map((call: unknown, callIndex: number) => {
            if (!isObject(call) || !isObject(call.function)) throw invalid(`${param}.tool_calls[${callIndex}]`, 'A tool call needs an id and a function.');
            return { id: String(call.id ?? ''), name: String(call.function.name ?? ''), arguments: validJsonOrEmpty(call.function.arguments) };
          })
        : undefined;
      const content = raw.content === null || raw.content === undefined ? null : textOf(raw.content, `${param}.content`, false).text;
      if (content === null && !toolCalls?.length) throw invalid(`${param}.content`, `${param}.content is required unless tool_calls are given.`);
      messages.push({ role: 'assistant', content, ...(toolCalls?.length ? { toolCalls } : {}) });
    } else if (role === 'tool') {
      if (typeof raw.tool_call_id !== 'string') throw invalid(`${param}.tool_call_id`, 'A tool message needs tool_call_id.');
      messages.push({ role: 'tool', toolCallId: raw.tool_call_id, content: textOf(raw.content, `${param}.content`, false).text });
    } else {
      throw invalid(`${param}.role`, `${param}.role must be one of system, developer, user, assistant, tool.`);
    }
  });
  if (messages.length === 0) throw new ServiceError('missing_messages', "'messages' needs at least one user, assistant or tool message.", { param: 'messages' });

  const maxTokensRaw = body.max_completion_tokens ?? body.max_tokens;
  if (maxTokensRaw !== undefined && maxTokensRaw !== null && (!Number.isInteger(maxTokensRaw) || (maxTokensRaw as number) < 1)) {
    throw invalid(body.max_completion_tokens !== undefined ? 'max_completion_tokens' : 'max_tokens', 'max_tokens must be a positive integer.');
  }
  const temperature = body.temperature;
  if (temperature !== undefined && temperature !== null && (typeof temperature !== 'number' || temperature < 0 || temperature > 2)) throw invalid('temperature', 'temperature must be a number from 0 to 2.');
  const topP = body.top_p;
  if (topP !== undefined && topP !== null && (typeof topP !== 'number' || topP < 0 || topP > 1)) throw invalid('top_p', 'top_p must be a number from 0 to 1.');
  if (body.stream !== undefined && typeof body.stream !== 'boolean') throw invalid('stream', 'stream must be a boolean.');

  const ignoredParameters: string[] = [];
  if (body.seed !== undefined && body.seed !== null) ignoredParameters.push('seed');
  if (isObject(body.logit_bias) && Object.keys(body.logit_bias).length > 0) ignoredParameters.push('logit_bias');
  if (typeof body.presence_penalty === 'number' && body.presence_penalty !== 0) ignoredParameters.push('presence_penalty');
  if (typeof body.frequency_penalty === 'number' && body.frequency_penalty !== 0) ignoredParameters.push('frequency_penalty');

  const svcBody = isObject(body.svc) ? body.svc : {};
  const sessionId = header(headers, 'x-svc-session-id') ?? (svcBody.session_id as string | undefined);
  const fallback = header(headers, 'x-svc-fallback') ?? (svcBody.fallback as string | undefined);
  if (fallback !== undefined && !['same_vendor', 'cross_vendor', 'none'].includes(fallback)) throw invalid('svc.fallback', 'svc.fallback must be same_vendor, cross_vendor or none.');
  const vendors = svcBody.vendors as string[] | undefined;

  return {
    model: requestedModel ?? 'auto',
    requestedModel,
    system: systemTexts.length > 0 ? systemTexts.join('\n\n') : undefined,
    messages,
    maxTokens: (maxTokensRaw as number | undefined) ?? undefined,
    temperature: temperature as number | undefined,
    topP: topP as number | undefined,
    stop: typeof body.stop === 'string' ? [body.stop] : Array.isArray(body.stop) ? (body.stop as string[]) : undefined,
    stream: body.stream === true,
    reasoningEffort: body.reasoning_effort as string | undefined,
    user: typeof body.user === 'string' ? body.user : undefined,
    metadata: isObject(body.metadata) ? (Object.fromEntries(Object.entries(body.metadata).map(([k, v]) => [k, String(v)])) as Record<string, string>) : undefined,
    tools: Array.isArray(body.tools)
      ? body.tools.map((tool: unknown) => {
          const fn = isObject(tool) && isObject(tool.function) ? tool.function : {};
          return { name: String(fn.name ?? ''), description: typeof fn.description === 'string' ? fn.description : undefined, parameters: isObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} } };
        })
      : undefined,
    toolChoice: typeof body.tool_choice === 'string' ? (body.tool_choice as ToolChoice) : isObject(body.tool_choice) && isObject(body.tool_choice.function) ? { name: String(body.tool_choice.function.name) } : undefined,
    parallelToolCalls: typeof body.parallel_tool_calls === 'boolean' ? body.parallel_tool_calls : undefined,
    responseFormat: isObject(body.response_format)
      ? body.response_format.type === 'json_schema' && isObject(body.response_format.json_schema)
        ? { type: 'json_schema', name: String(body.response_format.json_schema.name ?? 'response'), schema: (body.response_format.json_schema.schema as Json) ?? {}, strict: Boolean(body.response_format.json_schema.strict) }
        : body.response_format.type === 'json_object'
          ? { type: 'json_object' }
          : { type: 'text' }
      : undefined,
    svc: {
      sessionId,
      vendors,
      fallback: fallback as ChatRequestInput['svc']['fallback'],
      cacheTtl: (header(headers, 'x-svc-cache-ttl') ?? (isObject(svcBody.cache) ? svcBody.cache.ttl : undefined)) as ChatRequestInput['svc']['cacheTtl'],
      cacheBreakpoints: (isObject(svcBody.cache) ? svcBody.cache.breakpoints : undefined) as ChatRequestInput['svc']['cacheBreakpoints'],
    },
    ignoredParameters,
    needsVision,
  };
}

/** Rough input size for eligibility and admission: characters / 4. */
export function estimateInputTokens(request: ChatRequestInput): number {
  let characters = request.system?.length ?? 0;
  for (const message of request.messages) {
    if (message.role === 'user') for (const part of message.content) characters += part.type === 'text' ? part.text.length : 1000;
    else characters += (message.content ?? '').length + (message.role === 'assistant' ? JSON.stringify(message.toolCalls ?? []).length : 0);
  }
  return Math.ceil(characters / 4);
}
