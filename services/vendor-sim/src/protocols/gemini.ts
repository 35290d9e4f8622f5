import type { Request } from 'express';
import { reasoningText, type Finish } from '../answer';
import { BAD_KEY, chatEndpoint, type ChatProtocol, type ErrorSpec, type StreamFrame, type Turn, type Vendor } from '../engine';
import { randomId } from '../hash';
import { header, type VendorError } from '../http';
import { InvalidRequest, isRecord, type OutputFormat, type PromptBlock, type SimRequest, type ToolChoice, type ToolSpec } from '../request';
import { chunkText, countTokens } from '../tokens';
import { AUTOMATIC_TTL_MS } from '../usage';

/** Gemini generateContent / streamGenerateContent (generativelanguage.googleapis.com). */

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** Proto JSON takes both lowerCamel and snake_case field names. */
const withSnake = (names: string[]) => new Set(names.flatMap((n) => [n, snake(n)]));

const FIELDS = withSnake(['model', 'contents', 'tools', 'toolConfig', 'safetySettings', 'systemInstruction', 'generationConfig', 'cachedContent', 'labels', 'serviceTier']);
const GENERATION_FIELDS = withSnake([
  'stopSequences', 'responseMimeType', 'responseSchema', 'responseJsonSchema', '_responseJsonSchema', 'responseModalities', 'candidateCount',
  'maxOutputTokens', 'temperature', 'topP', 'topK', 'seed', 'presencePenalty', 'frequencyPenalty', 'responseLogprobs', 'logprobs',
  'enableEnhancedCivicAnswers', 'speechConfig', 'thinkingConfig', 'imageConfig', 'mediaResolution', 'audioTimestamp',
]);

/** Reads a field under its camelCase or snake_case name. */
function field(obj: Record<string, unknown>, name: string): unknown {
  return obj[name] ?? obj[snake(name)];
}

const STATUS_NAMES: Record<number, [string, string]> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  401: ['UNAUTHENTICATED', 'Request had invalid authentication credentials.'],
  403: ['PERMISSION_DENIED', 'The caller does not have permission'],
  404: ['NOT_FOUND', 'Requested entity was not found.'],
  409: ['ABORTED', 'The operation was aborted.'],
  429: ['RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'],
  499: ['CANCELLED', 'The operation was cancelled.'],
  500: ['INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting'],
  501: ['NOT_IMPLEMENTED', 'Method not implemented.'],
  503: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
  504: ['DEADLINE_EXCEEDED', 'Deadline expired before operation could complete.'],
};

function errorOf(code: number, message?: string, details?: unknown[], headers: Record<string, string> = {}): VendorError {
  const [status, fallback] = STATUS_NAMES[code] ?? [code >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION', `Request failed with status ${code}`];
  const error: Record<string, unknown> = { code, message: message ?? fallback, status };
  if (details) error.details = details;
  return { status: code, headers, body: { error } };
}

export const geminiVendor: Vendor = {
  name: 'gemini',
  checkAuth(req: Request) {
    const query = typeof req.query.key === 'string' ? req.query.key : undefined;
    const key = header(req, 'x-goog-api-key') ?? query;
    if (!key) return { kind: 'auth_missing' };
    if (key === BAD_KEY) return { kind: 'auth_invalid', key };
    return undefined;
  },
  error(spec: ErrorSpec): VendorError {
    switch (spec.kind) {
      case 'auth_missing':
        return errorOf(
          403,
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        );
      case 'auth_invalid':
        // Upstream answers a rejected key with 400 INVALID_ARGUMENT and reason API_KEY_INVALID, not 401.
        return errorOf(400, 'API key not valid. Please pass a valid API key.', [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
          { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'API key not valid. Please pass a valid API key.' },
        ]);
      case 'invalid_json':
        return errorOf(400, 'Invalid JSON payload received. Unexpected token.', [
          { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ description: 'Invalid JSON payload received. Unexpected token.' }] },
        ]);
      case 'invalid_request':
        return errorOf(400, spec.message);
      case 'invalid_fault':
        return errorOf(400, '* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n');
      case 'rate_limit': {
        const wait = spec.retryAfterSeconds;
        const details =
          wait === undefined
            ? undefined
            : [
                { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_requests', quotaId: 'GenerateRequestsPerMinutePerProjectPerModel' }] },
                { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${wait}s` },
              ];
        return errorOf(429, undefined, details, wait === undefined ? {} : { 'retry-after': String(wait) });
      }
      case 'status':
        return errorOf(spec.status);
      case 'not_found':
        return errorOf(404, spec.message);
      case 'too_large':
        return errorOf(400, 'Request payload size exceeds the limit: 20971520 bytes.');
      case 'internal':
        return errorOf(500);
      case 'capacity':
        return errorOf(503, 'The flex tier has no capacity for this model right now. Please retry later or use the standard tier.');
    }
  },
};

function partBlock(part: unknown, path: string): { block: PromptBlock; text?: string; functionResponse: boolean } {
  if (!isRecord(part)) throw new InvalidRequest(`Invalid JSON payload received. Expected an object at ${path}.`);
  if (typeof part.text === 'string') return { block: { text: part.text }, text: part.thought === true ? undefined : part.text, functionResponse: false };
  const inline = field(part, 'inlineData');
  if (isRecord(inline)) return { block: { image: String(inline.data ?? '') }, functionResponse: false };
  const file = field(part, 'fileData');
  if (isRecord(file)) return { block: { image: String(field(file, 'fileUri') ?? '') }, functionResponse: false };
  const call = field(part, 'functionCall');
  if (isRecord(call)) return { block: { text: JSON.stringify(call) }, functionResponse: false };
  const response = field(part, 'functionResponse');
  if (isRecord(response)) return { block: { text: JSON.stringify(response) }, functionResponse: true };
  return { block: { text: JSON.stringify(part) }, functionResponse: false };
}

function parseTools(value: unknown, blocks: PromptBlock[]): ToolSpec[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new InvalidRequest('Invalid JSON payload received. Expected an array for "tools".');
  const specs: ToolSpec[] = [];
  for (const tool of value) {
    if (!isRecord(tool)) continue;
    blocks.push({ text: JSON.stringify(tool) });
    const declarations = field(tool, 'functionDeclarations');
    if (!Array.isArray(declarations)) continue;
    declarations.forEach((decl, i) => {
      if (!isRecord(decl) || typeof decl.name !== 'string' || !decl.name) throw new InvalidRequest(`* GenerateContentRequest.tools[0].function_declarations[${i}].name: Name cannot be empty.\n`);
      const parameters = field(decl, 'parametersJsonSchema') ?? decl.parameters ?? { type: 'object', properties: {} };
      specs.push({ name: decl.name, description: typeof decl.description === 'string' ? decl.description : undefined, parameters });
    });
  }
  return specs;
}

function parseToolChoice(config: unknown, tools: ToolSpec[]): ToolChoice {
  const calling = isRecord(config) ? field(config, 'functionCallingConfig') : undefined;
  if (!isRecord(calling)) return { mode: tools.length > 0 ? 'auto' : 'none' };
  const allowed = field(calling, 'allowedFunctionNames');
  switch (calling.mode) {
    case 'NONE':
      return { mode: 'none' };
    case 'ANY':
      return Array.isArray(allowed) && allowed.length === 1 && typeof allowed[0] === 'string' ? { mode: 'named', name: allowed[0] } : { mode: 'required' };
    case undefined:
    case 'AUTO':
    case 'VALIDATED':
    case 'MODE_UNSPECIFIED':
      return { mode: tools.length > 0 ? 'auto' : 'none' };
    default:
      throw new InvalidRequest(`Invalid value at 'tool_config.function_calling_config.mode' (type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode), "${String(calling.mode)}"`);
  }
}

export interface GeminiOptions {
  includeThoughts: boolean;
  /** Reported in x-gemini-service-tier. */
  serviceTier?: 'flex' | 'standard';
  /** streamGenerateContent without alt=sse answers a streamed JSON array. */
  sse: boolean;
}

export function parseGeminiRequest(body: unknown, model: string, stream: boolean, sse: boolean): { request: SimRequest; stream: boolean; options: GeminiOptions; flex: boolean } {
  if (!isRecord(body)) throw new InvalidRequest('Invalid JSON payload received. Expected an object.');
  for (const name of Object.keys(body)) if (!FIELDS.has(name)) throw new InvalidRequest(`Invalid JSON payload received. Unknown name "${name}": Cannot find field.`);
  const generation = field(body, 'generationConfig') ?? {};
  if (!isRecord(generation)) throw new InvalidRequest('Invalid JSON payload received. Expected an object for "generation_config".');
  for (const name of Object.keys(generation)) if (!GENERATION_FIELDS.has(name)) throw new InvalidRequest(`Invalid JSON payload received. Unknown name "${name}" at 'generation_config': Cannot find field.`);
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) throw new InvalidRequest('* GenerateContentRequest.contents: contents is not specified\n');

  const blocks: PromptBlock[] = [];
  const tools = parseTools(body.tools, blocks);
  const system = field(body, 'systemInstruction');
  const systemTexts: string[] = [];
  if (typeof system === 'string') systemTexts.push(system);
  else if (isRecord(system) && Array.isArray(system.parts)) for (const part of system.parts) if (isRecord(part) && typeof part.text === 'string') systemTexts.push(part.text);
  for (const text of systemTexts) blocks.push({ text });

  const seedParts: unknown[] = [systemTexts];
  let lastUserText = '';
  let lastIsToolResult = false;
  contents.forEach((content, i) => {
    if (!isRecord(content)) throw new InvalidRequest(`Invalid JSON payload received. Expected an object at contents[${i}].`);
    const role = content.role ?? 'user';
    if (role !== 'user' && role !== 'model' && role !== 'function') throw new InvalidRequest('Please use a valid role: user, model.');
    if (!Array.isArray(content.parts) || content.parts.length === 0) throw new InvalidRequest(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`);
    const texts: string[] = [];
    let functionResponse = false;
    content.parts.forEach((part, j) => {
      const seen = partBlock(part, `contents[${i}].parts[${j}]`);
      blocks.push(seen.block);
      if (seen.text !== undefined) texts.push(seen.text);
      functionResponse ||= seen.functionResponse;
    });
    seedParts.push([role, content.parts]);
    lastIsToolResult = functionResponse;
    if (role === 'user' || role === 'function') lastUserText = functionResponse ? '' : texts.join('\n');
  });

  const maxTokens = field(generation, 'maxOutputTokens');
  if (maxTokens !== undefined && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)) {
    throw new InvalidRequest('* GenerateContentRequest.generation_config.max_output_tokens: max_output_tokens must be positive.\n');
  }
  const stops = field(generation, 'stopSequences') ?? [];
  if (!Array.isArray(stops) || stops.some((s) => typeof s !== 'string')) throw new InvalidRequest("Invalid value at 'generation_config.stop_sequences'");
  if (stops.length > 5) throw new InvalidRequest('* GenerateContentRequest.generation_config.stop_sequences: at most 5 stop sequences are allowed.\n');

  const mime = field(generation, 'responseMimeType');
  const schema = field(generation, 'responseJsonSchema') ?? field(generation, '_responseJsonSchema') ?? field(generation, 'responseSchema');
  if (schema !== undefined && mime !== 'application/json' && mime !== 'text/x.enum') {
    throw new InvalidRequest('* GenerateContentRequest.generation_config.response_mime_type: response_mime_type must be set to application/json when response_schema is set.\n');
  }
  const format: OutputFormat = schema !== undefined ? { type: 'json_schema', schema } : mime === 'application/json' ? { type: 'json_object' } : { type: 'text' };

  const thinking = field(generation, 'thinkingConfig');
  let reasoning: SimRequest['reasoning'];
  let includeThoughts = false;
  if (isRecord(thinking)) {
    const budget = field(thinking, 'thinkingBudget');
    const level = field(thinking, 'thinkingLevel');
    if (typeof budget === 'number' && budget !== 0) reasoning = { budget };
    else if (typeof level === 'string' && level !== 'THINKING_LEVEL_UNSPECIFIED') reasoning = { budget: -1 };
    includeThoughts = field(thinking, 'includeThoughts') === true;
  }

  const request: SimRequest = {
    model,
    blocks,
    seedMaterial: JSON.stringify(['gemini', model, seedParts]),
    lastUserText,
    lastIsToolResult,
    tools,
    toolChoice: parseToolChoice(field(body, 'toolConfig'), tools),
    maxTokens: maxTokens as number | undefined,
    stop: stops as string[],
    format,
    reasoning,
  };
  const tier = field(body, 'serviceTier');
  if (tier !== undefined && (typeof tier !== 'string' || !['FLEX', 'STANDARD', 'PRIORITY', 'flex', 'standard', 'priority', 'SERVICE_TIER_UNSPECIFIED'].includes(tier))) {
    throw new InvalidRequest(`Invalid value at 'service_tier' (type.googleapis.com/google.ai.generativelanguage.v1beta.ServiceTier), "${String(tier)}"`);
  }
  const flex = typeof tier === 'string' && tier.toLowerCase() === 'flex';
  return { request, stream, options: { includeThoughts, sse, serviceTier: flex ? 'flex' : 'standard' }, flex };
}

export function geminiFinish(finish: Finish): string {
  switch (finish) {
    case 'length':
      return 'MAX_TOKENS';
    case 'refusal':
      return 'SAFETY';
    default:
      return 'STOP';
  }
}

const SAFETY_RATINGS = [
  { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
  { category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', probability: 'NEGLIGIBLE' },
];

/** usageMetadata as upstream writes it: zero counts are left out (proto3 JSON). */
export function geminiUsage(turn: Turn<GeminiOptions>, final = true) {
  const { usage, answer } = turn;
  const candidates = final ? answer.outputTokens : 0;
  const thoughts = answer.reasoningTokens;
  const out: Record<string, unknown> = { promptTokenCount: usage.promptTokens };
  if (candidates > 0) out.candidatesTokenCount = candidates;
  out.totalTokenCount = usage.promptTokens + candidates + thoughts;
  if (usage.cachedTokens > 0) out.cachedContentTokenCount = usage.cachedTokens;
  const details = [{ modality: 'TEXT', tokenCount: usage.promptTokens - usage.imageTokens }];
  if (usage.imageTokens > 0) details.push({ modality: 'IMAGE', tokenCount: usage.imageTokens });
  out.promptTokensDetails = details;
  if (usage.cachedTokens > 0) out.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: usage.cachedTokens }];
  if (thoughts > 0) out.thoughtsTokenCount = thoughts;
  return out;
}

function answerParts(turn: Turn<GeminiOptions>): Array<Record<string, unknown>> {
  const { answer } = turn;
  const parts: Array<Record<string, unknown>> = [];
  if (turn.options.includeThoughts && answer.reasoningTokens > 0) parts.push({ text: reasoningText(answer.seed, answer.reasoningTokens), thought: true });
  if (answer.toolCall) {
    let args: unknown = {};
    try {
      args = JSON.parse(answer.toolCall.argumentsJson);
    } catch {
      args = {};
    }
    parts.push({ functionCall: { name: answer.toolCall.name, args } });
  } else if (answer.text) parts.push({ text: answer.text });
  return parts;
}

function finalCandidate(turn: Turn<GeminiOptions>, parts: Array<Record<string, unknown>>): Record<string, unknown> {
  const finishReason = geminiFinish(turn.answer.finish);
  if (finishReason === 'SAFETY') return { finishReason, index: 0, safetyRatings: SAFETY_RATINGS };
  // Upstream leaves `parts` out when nothing was produced (e.g. the budget went on thinking).
  const content = parts.length > 0 ? { parts, role: 'model' } : { role: 'model' };
  return { content, finishReason, index: 0 };
}

export const geminiGenerate: ChatProtocol<GeminiOptions> = {
  vendor: geminiVendor,
  cacheMode: (min) => ({ kind: 'automatic', min: min ?? 4096, step: 128, ttlMs: AUTOMATIC_TTL_MS }),
  parse(body, req) {
    const { model, action } = geminiRoute(req);
    const stream = action === 'streamGenerateContent';
    return parseGeminiRequest(body, model, stream, req.query.alt === 'sse');
  },
  newId: () => randomId(22),
  headers: (turn) => ({ 'x-gemini-service-tier': turn.options.serviceTier ?? 'standard' }),
  unary(turn) {
    return {
      candidates: [finalCandidate(turn, answerParts(turn))],
      usageMetadata: geminiUsage(turn),
      modelVersion: turn.request.model,
      responseId: turn.id,
    };
  },
  stream(turn) {
    const { answer } = turn;
    const payloads: Array<{ body: unknown; tokens?: number }> = [];
    const chunk = (candidate: Record<string, unknown>, final: boolean) => ({ candidates: [candidate], usageMetadata: geminiUsage(turn, final), modelVersion: turn.request.model, responseId: turn.id });
    const allParts = answerParts(turn);
    for (const part of allParts) {
      if (typeof part.text === 'string') {
        for (const piece of chunkText(part.text, 6)) {
          const streamed = part.thought ? { text: piece, thought: true } : { text: piece };
          payloads.push({ body: chunk({ content: { parts: [streamed], role: 'model' }, index: 0 }, false), tokens: countTokens(piece) });
        }
      } else payloads.push({ body: chunk({ content: { parts: [part], role: 'model' }, index: 0 }, false), tokens: answer.outputTokens });
    }
    const closing = answer.finish === 'refusal' || allParts.length === 0 ? finalCandidate(turn, []) : finalCandidate(turn, [{ text: '' }]);
    payloads.push({ body: chunk(closing, true) });
    const sse = turn.options.sse;
    const frames: StreamFrame[] = payloads.map((payload, i) => {
      const json = JSON.stringify(payload.body);
      const data = sse ? `data: ${json}\r\n\r\n` : `${i === 0 ? '[' : ',\r\n'}${json}${i === payloads.length - 1 ? ']' : ''}`;
      return { data, content: payload.tokens !== undefined, tokens: payload.tokens ?? 0 };
    });
    const hidden = turn.options.includeThoughts ? 0 : answer.reasoningTokens;
    return { headers: { 'content-type': sse ? 'text/event-stream' : 'application/json; charset=UTF-8' }, frames, hiddenTokens: hidden };
  },
};

/** Model and action from /v1beta/models/{model}:{action}. */
export function geminiRoute(req: Request): { model: string; action: string } {
  const match = /\/models\/([^/]+):([A-Za-z]+)$/.exec(req.path);
  return { model: decodeURIComponent(match?.[1] ?? ''), action: match?.[2] ?? '' };
}

export const geminiEndpoint = chatEndpoint(geminiGenerate);
