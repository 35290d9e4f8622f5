import type { Request } from 'express';
import type { Finish } from '../answer';
import { AUTOMATIC_TTL_MS } from '../usage';
import { defaultDimensions, embed, toBase64 } from '../embeddings';
import { BAD_KEY, chatEndpoint, type ChatProtocol, type Endpoint, type ErrorSpec, type StreamFrame, type Turn, type Vendor } from '../engine';
import { randomId } from '../hash';
import { flagHeader, header, sendCutBody, type VendorError } from '../http';
import { InvalidRequest, isRecord, type OutputFormat, type PromptBlock, type SimRequest, type ToolChoice, type ToolSpec } from '../request';
import { Pacer } from '../timing';
import { chunkString, chunkText, countTokens, tokenize } from '../tokens';

/** OpenAI chat completions and embeddings, as served by api.openai.com and its compatibles. */

const FINGERPRINT = 'fp_vendorsim';

const CHAT_FIELDS = new Set([
  'model', 'messages', 'audio', 'frequency_penalty', 'function_call', 'functions', 'logit_bias', 'logprobs', 'max_completion_tokens',
  'max_tokens', 'metadata', 'modalities', 'n', 'parallel_tool_calls', 'prediction', 'presence_penalty', 'prompt_cache_key',
  'prompt_cache_retention', 'reasoning_effort', 'response_format', 'safety_identifier', 'seed', 'service_tier', 'stop', 'store',
  'stream', 'stream_options', 'temperature', 'tool_choice', 'tools', 'top_logprobs', 'top_p', 'user', 'verbosity', 'web_search_options',
]);
const EMBEDDING_FIELDS = new Set(['model', 'input', 'dimensions', 'encoding_format', 'user']);
const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];
const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];

function bearerKey(req: Request): string | undefined {
  const auth = header(req, 'authorization');
  const match = auth ? /^Bearer\s+(.+)$/i.exec(auth) : null;
  return match?.[1]?.trim() || header(req, 'api-key');
}

function maskKey(key: string): string {
  return key.length <= 8 ? key : `${key.slice(0, 3)}${'*'.repeat(Math.min(20, key.length - 7))}${key.slice(-4)}`;
}

function errorBody(message: string, type: string, param: string | null = null, code: string | null = null) {
  return { error: { message, type, param, code } };
}

const STATUS_ERRORS: Record<number, [string, string, string | null]> = {
  400: ['Invalid request.', 'invalid_request_error', null],
  401: ['Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key'],
  403: ['Country, region, or territory not supported', 'request_forbidden', 'unsupported_country_region_territory'],
  404: ['The model does not exist or you do not have access to it.', 'invalid_request_error', 'model_not_found'],
  408: ['Request timed out.', 'timeout', null],
  409: ['Conflict.', 'invalid_request_error', null],
  413: ['Request too large.', 'invalid_request_error', 'request_too_large'],
  422: ['Unprocessable entity.', 'invalid_request_error', null],
  429: ['Rate limit reached for requests. Please try again later.', 'requests', 'rate_limit_exceeded'],
  500: ['The server had an error while processing your request. Sorry about that!', 'server_error', null],
  502: ['Bad gateway.', 'server_error', null],
  503: ['The server is overloaded or not ready yet.', 'server_error', null],
  504: ['Gateway timeout.', 'server_error', null],
};

export const openaiVendor: Vendor = {
  name: 'openai',
  checkAuth(req) {
    const key = bearerKey(req);
    if (!key) return { kind: 'auth_missing' };
    if (key === BAD_KEY) return { kind: 'auth_invalid', key };
    return undefined;
  },
  error(spec: ErrorSpec): VendorError {
    const headers = { 'x-request-id': `req_${randomId(32)}` };
    switch (spec.kind) {
      case 'auth_missing':
        return {
          status: 401,
          headers,
          body: errorBody(
            "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
            'invalid_request_error',
          ),
        };
      case 'auth_invalid':
        return {
          status: 401,
          headers,
          body: errorBody(`Incorrect API key provided: ${maskKey(spec.key ?? BAD_KEY)}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', null, 'invalid_api_key'),
        };
      case 'invalid_json':
        return {
          status: 400,
          headers,
          body: errorBody(
            "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
            'invalid_request_error',
          ),
        };
      case 'invalid_request':
        return { status: 400, headers, body: errorBody(spec.message, 'invalid_request_error', spec.param ?? null, spec.code ?? null) };
      case 'invalid_fault':
        return {
          status: 400,
          headers,
          body: errorBody("Invalid value for 'messages[0].role': the conversation contains an unsupported message sequence.", 'invalid_request_error', 'messages', 'invalid_value'),
        };
      case 'rate_limit': {
        const wait = spec.retryAfterSeconds;
        const extra: Record<string, string> = wait === undefined ? {} : { 'retry-after': String(wait), 'x-ratelimit-reset-requests': `${wait}s` };
        return {
          status: 429,
          headers: { ...headers, ...extra },
          body: errorBody(`Rate limit reached for requests. Please try again in ${wait ?? 1}s.`, 'requests', null, 'rate_limit_exceeded'),
        };
      }
      case 'status': {
        const [message, type, code] = STATUS_ERRORS[spec.status] ?? [`Request failed with status ${spec.status}.`, spec.status >= 500 ? 'server_error' : 'invalid_request_error', null];
        return { status: spec.status, headers, body: errorBody(message, type, null, code) };
      }
      case 'not_found':
        return { status: 404, headers, body: errorBody(spec.message, 'invalid_request_error') };
      case 'too_large':
        return { status: 413, headers, body: errorBody('Request too large.', 'invalid_request_error', null, 'request_too_large') };
      case 'internal':
        return { status: 500, headers, body: errorBody(STATUS_ERRORS[500]?.[0] ?? 'Internal error', 'server_error') };
      case 'capacity':
        // Flex processing: "429 Resource Unavailable" when there is no flex capacity; not the account's rate limit.
        return { status: 429, headers, body: errorBody('Resource unavailable: there is not enough flex capacity to serve this request right now. Retry later or use the default service tier.', 'invalid_request_error', null, 'resource_unavailable') };
    }
  },
};

function rejectUnknown(body: Record<string, unknown>, known: Set<string>): void {
  for (const field of Object.keys(body)) {
    if (!known.has(field)) throw new InvalidRequest(`Unrecognized request argument supplied: ${field}`, null, null);
  }
}

function textOf(content: unknown): { texts: string[]; images: string[] } {
  if (typeof content === 'string') return { texts: [content], images: [] };
  const texts: string[] = [];
  const images: string[] = [];
  if (Array.isArray(content)) {
    for (const part of content) {
      if (!isRecord(part)) continue;
      if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
      else if (part.type === 'refusal' && typeof part.refusal === 'string') texts.push(part.refusal);
      else if (part.type === 'image_url') images.push(JSON.stringify(isRecord(part.image_url) ? part.image_url.url : part.image_url));
      else if (part.type === 'input_audio' || part.type === 'file') images.push(JSON.stringify(part));
    }
  }
  return { texts, images };
}

function parseTools(body: Record<string, unknown>): ToolSpec[] {
  if (body.tools === undefined) return [];
  if (!Array.isArray(body.tools)) throw new InvalidRequest("Invalid type for 'tools': expected an array.", 'tools', 'invalid_type');
  return body.tools.flatMap((tool, i) => {
    if (!isRecord(tool) || !isRecord(tool.function)) {
      if (isRecord(tool) && tool.type !== 'function') return [];
      throw new InvalidRequest(`Missing required parameter: 'tools[${i}].function'.`, `tools[${i}].function`, 'missing_required_parameter');
    }
    const fn = tool.function;
    if (typeof fn.name !== 'string' || !fn.name) throw new InvalidRequest(`Missing required parameter: 'tools[${i}].function.name'.`, `tools[${i}].function.name`, 'missing_required_parameter');
    return [{ name: fn.name, description: typeof fn.description === 'string' ? fn.description : undefined, parameters: fn.parameters ?? { type: 'object', properties: {} } }];
  });
}

function parseToolChoice(value: unknown, tools: ToolSpec[]): ToolChoice {
  if (value === undefined || value === null) return { mode: tools.length > 0 ? 'auto' : 'none' };
  if (value !== 'none' && tools.length === 0) throw new InvalidRequest("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice', null);
  if (value === 'auto' || value === 'none' || value === 'required') return { mode: value };
  if (isRecord(value) && value.type === 'function' && isRecord(value.function) && typeof value.function.name === 'string') {
    const name = value.function.name;
    if (!tools.some((t) => t.name === name)) throw new InvalidRequest(`Invalid value for 'tool_choice': function '${name}' is not among the tools.`, 'tool_choice', 'invalid_value');
    return { mode: 'named', name };
  }
  if (isRecord(value) && value.type === 'allowed_tools') return { mode: isRecord(value.allowed_tools) && value.allowed_tools.mode === 'required' ? 'required' : 'auto' };
  throw new InvalidRequest("Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or a named function.", 'tool_choice', 'invalid_value');
}

function parseFormat(value: unknown): OutputFormat {
  if (value === undefined || value === null) return { type: 'text' };
  if (!isRecord(value)) throw new InvalidRequest("Invalid type for 'response_format': expected an object.", 'response_format', 'invalid_type');
  if (value.type === 'text') return { type: 'text' };
  if (value.type === 'json_object') return { type: 'json_object' };
  if (value.type === 'json_schema') {
    if (!isRecord(value.json_schema)) throw new InvalidRequest("Missing required parameter: 'response_format.json_schema'.", 'response_format.json_schema', 'missing_required_parameter');
    return { type: 'json_schema', schema: value.json_schema.schema ?? { type: 'object', properties: {} } };
  }
  throw new InvalidRequest(`Invalid value: '${String(value.type)}'. Supported values are: 'text', 'json_object' and 'json_schema'.`, 'response_format.type', 'invalid_value');
}

function parseMaxTokens(body: Record<string, unknown>): number | undefined {
  for (const field of ['max_completion_tokens', 'max_tokens'] as const) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw new InvalidRequest(`Invalid type for '${field}': expected an integer.`, field, 'invalid_type');
    if (value < 1) throw new InvalidRequest(`Invalid '${field}': integer below minimum value. Expected a value >= 1, but got ${value} instead.`, field, 'integer_below_min_value');
    return value;
  }
  return undefined;
}

function parseStop(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.some((s) => typeof s !== 'string')) throw new InvalidRequest("Invalid type for 'stop': expected a string or an array of strings.", 'stop', 'invalid_type');
  if (list.length > 4) throw new InvalidRequest(`Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length ${list.length} instead.`, 'stop', 'array_above_max_length');
  return list as string[];
}

export interface OpenAIChatOptions {
  includeUsage: boolean;
  /** The tier reported back: `flex` when asked for, else `default`. */
  serviceTier?: string;
}

export function parseOpenAIChat(body: unknown): { request: SimRequest; stream: boolean; options: OpenAIChatOptions; flex: boolean } {
  if (!isRecord(body)) throw new InvalidRequest('The request body must be a JSON object.', null, null);
  rejectUnknown(body, CHAT_FIELDS);
  if (typeof body.model !== 'string' || !body.model) throw new InvalidRequest('you must provide a model parameter', null, null);
  if (!Array.isArray(body.messages)) throw new InvalidRequest("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (body.messages.length === 0) throw new InvalidRequest("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');

  const tools = parseTools(body);
  const blocks: PromptBlock[] = tools.map((tool) => ({ text: JSON.stringify(tool) }));
  const seedParts: unknown[] = [];
  let lastUserText = '';
  let lastRole = '';
  body.messages.forEach((message, i) => {
    if (!isRecord(message)) throw new InvalidRequest(`Invalid type for 'messages[${i}]': expected an object.`, `messages[${i}]`, 'invalid_type');
    const role = message.role;
    if (typeof role !== 'string' || !ROLES.includes(role)) {
      throw new InvalidRequest(`Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`, `messages[${i}].role`, 'invalid_value');
    }
    if (message.content === undefined && role !== 'assistant') throw new InvalidRequest(`Missing required parameter: 'messages[${i}].content'.`, `messages[${i}].content`, 'missing_required_parameter');
    const { texts, images } = textOf(message.content);
    for (const text of texts) blocks.push({ text });
    for (const image of images) blocks.push({ image });
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    if (calls.length > 0) blocks.push({ text: JSON.stringify(calls.map((c) => (isRecord(c) ? c.function : c))) });
    seedParts.push([role, texts, images, calls]);
    lastRole = role;
    if (role === 'user') lastUserText = texts.join('\n');
  });

  const toolChoice = parseToolChoice(body.tool_choice, tools);
  const effort = body.reasoning_effort;
  if (effort !== undefined && effort !== null && (typeof effort !== 'string' || !EFFORTS.includes(effort))) {
    throw new InvalidRequest(`Invalid value: '${String(effort)}'. Supported values are: ${EFFORTS.map((e) => `'${e}'`).join(', ')}.`, 'reasoning_effort', 'invalid_value');
  }
  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  const request: SimRequest = {
    model: body.model,
    blocks,
    seedMaterial: JSON.stringify(['openai', body.model, seedParts]),
    lastUserText,
    lastIsToolResult: lastRole === 'tool' || lastRole === 'function',
    tools,
    toolChoice,
    maxTokens: parseMaxTokens(body),
    stop: parseStop(body.stop),
    format: parseFormat(body.response_format),
    reasoning: typeof effort === 'string' ? { effort } : undefined,
  };
  const tier = body.service_tier;
  if (tier !== undefined && tier !== null && !['auto', 'default', 'flex', 'scale', 'priority'].includes(tier as string)) {
    throw new InvalidRequest(`Invalid value: '${String(tier)}'. Supported values are: 'auto', 'default', 'flex', 'scale' and 'priority'.`, 'service_tier', 'invalid_value');
  }
  const flex = tier === 'flex';
  return { request, stream: body.stream === true, options: { includeUsage: streamOptions.include_usage === true, serviceTier: flex ? 'flex' : 'default' }, flex };
}

export function openaiFinish(finish: Finish): string {
  switch (finish) {
    case 'length':
      return 'length';
    case 'tool_call':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}

export function openaiUsage(turn: Turn<unknown>) {
  const { usage, answer } = turn;
  const completion = answer.outputTokens + answer.reasoningTokens;
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: completion,
    total_tokens: usage.promptTokens + completion,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: answer.reasoningTokens, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function toolCallId(): string {
  return `call_${randomId(24)}`;
}

export const openaiChat: ChatProtocol<OpenAIChatOptions> = {
  vendor: openaiVendor,
  cacheMode: (min) => ({ kind: 'automatic', min: min ?? 1024, step: 128, ttlMs: AUTOMATIC_TTL_MS }),
  parse: (body) => parseOpenAIChat(body),
  newId: () => `chatcmpl-${randomId(29)}`,
  headers: () => ({ 'x-request-id': `req_${randomId(32)}`, 'openai-processing-ms': '1' }),
  unary(turn) {
    const { answer } = turn;
    const message: Record<string, unknown> = { role: 'assistant', content: answer.toolCall || answer.finish === 'refusal' ? null : answer.text, refusal: null, annotations: [] };
    if (answer.toolCall) message.tool_calls = [{ id: toolCallId(), type: 'function', function: { name: answer.toolCall.name, arguments: answer.toolCall.argumentsJson } }];
    return {
      id: turn.id,
      object: 'chat.completion',
      created: turn.created,
      model: turn.request.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: openaiFinish(answer.finish) }],
      usage: openaiUsage(turn),
      service_tier: turn.options.serviceTier ?? 'default',
      system_fingerprint: FINGERPRINT,
    };
  },
  stream(turn) {
    const { answer } = turn;
    const includeUsage = turn.options.includeUsage;
    const chunk = (delta: Record<string, unknown>, finish: string | null): string => {
      const payload: Record<string, unknown> = {
        id: turn.id,
        object: 'chat.completion.chunk',
        created: turn.created,
        model: turn.request.model,
        service_tier: turn.options.serviceTier ?? 'default',
        system_fingerprint: FINGERPRINT,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      };
      if (includeUsage) payload.usage = null;
      return `data: ${JSON.stringify(payload)}\n\n`;
    };
    const frames: StreamFrame[] = [];
    if (answer.toolCall) {
      const { name, argumentsJson } = answer.toolCall;
      frames.push({
        data: chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: toolCallId(), type: 'function', function: { name, arguments: '' } }], refusal: null }, null),
        content: true,
        tokens: countTokens(name),
      });
      for (const piece of chunkString(argumentsJson, 12)) {
        frames.push({ data: chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, null), content: true, tokens: countTokens(piece) });
      }
    } else {
      frames.push({ data: chunk({ role: 'assistant', content: '', refusal: null }, null), content: false, tokens: 0 });
      for (const piece of chunkText(answer.text, 1)) frames.push({ data: chunk({ content: piece }, null), content: true, tokens: countTokens(piece) });
    }
    frames.push({ data: chunk({}, openaiFinish(answer.finish)), content: false, tokens: 0 });
    if (includeUsage) {
      const usageChunk = { id: turn.id, object: 'chat.completion.chunk', created: turn.created, model: turn.request.model, service_tier: turn.options.serviceTier ?? 'default', system_fingerprint: FINGERPRINT, choices: [], usage: openaiUsage(turn) };
      frames.push({ data: `data: ${JSON.stringify(usageChunk)}\n\n`, content: false, tokens: 0 });
    }
    frames.push({ data: 'data: [DONE]\n\n', content: false, tokens: 0 });
    return { headers: { 'content-type': 'text/event-stream; charset=utf-8' }, frames, hiddenTokens: answer.reasoningTokens };
  },
};

export const openaiChatEndpoint = chatEndpoint(openaiChat);

interface EmbeddingRequest {
  model: string;
  inputs: Array<string | number[]>;
  dimensions?: number;
  base64: boolean;
}

export function parseEmbeddingRequest(body: unknown): EmbeddingRequest {
  if (!isRecord(body)) throw new InvalidRequest('The request body must be a JSON object.', null, null);
  rejectUnknown(body, EMBEDDING_FIELDS);
  if (typeof body.model !== 'string' || !body.model) throw new InvalidRequest('you must provide a model parameter', null, null);
  const input = body.input;
  if (input === undefined) throw new InvalidRequest("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  const isTokens = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.every((n) => Number.isInteger(n));
  let inputs: Array<string | number[]>;
  if (typeof input === 'string' || isTokens(input)) inputs = [input];
  else if (Array.isArray(input) && input.length > 0 && input.every((v) => typeof v === 'string' || isTokens(v))) inputs = input as Array<string | number[]>;
  else throw new InvalidRequest("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", 'input', null);
  if (inputs.length > 2048) throw new InvalidRequest(`Invalid 'input': array too long. Expected an array with maximum length 2048, but got an array with length ${inputs.length} instead.`, 'input', 'array_above_max_length');
  if (inputs.some((v) => v === '')) throw new InvalidRequest("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", 'input', null);
  const format = body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') throw new InvalidRequest(`Invalid value: '${String(format)}'. Supported values are: 'float' and 'base64'.`, 'encoding_format', 'invalid_value');
  let dimensions: number | undefined;
  if (body.dimensions !== undefined && body.dimensions !== null) {
    const d = body.dimensions;
    if (typeof d !== 'number' || !Number.isInteger(d) || d < 1) throw new InvalidRequest(`Invalid 'dimensions': integer below minimum value. Expected a value >= 1, but got ${String(d)} instead.`, 'dimensions', 'integer_below_min_value');
    if (d > defaultDimensions(body.model)) throw new InvalidRequest(`This model does not support specifying dimensions larger than ${defaultDimensions(body.model)}.`, 'dimensions', null);
    dimensions = d;
  }
  return { model: body.model, inputs, dimensions, base64: format === 'base64' };
}

export function embeddingResponse(request: EmbeddingRequest, omitUsage: boolean) {
  let tokens = 0;
  const data = request.inputs.map((input, index) => {
    const text = typeof input === 'string' ? input : input.join(' ');
    tokens += typeof input === 'string' ? tokenize(input).length : input.length;
    const vector = embed(text, request.model, request.dimensions);
    return { object: 'embedding', index, embedding: request.base64 ? toBase64(vector) : vector };
  });
  const body: Record<string, unknown> = { object: 'list', data, model: request.model };
  if (!omitUsage) body.usage = { prompt_tokens: tokens, total_tokens: tokens };
  return body;
}

export const openaiEmbeddingsEndpoint: Endpoint<EmbeddingRequest> = {
  vendor: openaiVendor,
  parse(body) {
    const value = parseEmbeddingRequest(body);
    return { model: value.model, stream: false, value };
  },
  async respond({ value }, { req, res, signal, faults, latency }) {
    // The header (or a "noreport" model) stands for the vendor whose embeddings carry no token counts.
    const omitUsage = flagHeader(req, 'x-sim-omit-usage') || value.model.includes('noreport');
    const body = JSON.stringify(embeddingResponse(value, omitUsage));
    await new Pacer({ ttftMs: latency.ttftMs, tokensPerSecond: 0 }, signal).next(0);
    if (signal.aborted) return;
    const headers = { 'x-request-id': `req_${randomId(32)}` };
    if (faults.outcome?.kind === 'cut') return sendCutBody(res, 200, body, headers);
    res.status(200).set(headers).type('application/json').send(body);
  },
};
