import { randomBytes } from 'node:crypto';
import { postJson, readJson, normaliseArguments, type VendorResponse } from '../http';
import { readSse } from '../sse';
import { VendorError, errorFromStream } from '../errors';
import type { CallContext, ChatRequest, ChatResult, FinishReason, ServiceTier, StreamEvent, ToolCall, Usage, VendorAdapter } from '../types';
import { convertToGeminiRequest } from './convert-to-gemini-request';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';
import { geminiErrorReason, geminiStreamError, refineGeminiError } from './gemini-error';

export interface GeminiUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

/**
 * Gemini's promptTokenCount already includes the cached part (cachedContentTokenCount), and
 * its implicit cache has no write charge. Thinking is billed as output but reported apart from
 * candidatesTokenCount, so output adds both. Zero counts are left out of Gemini's JSON.
 */
export function normaliseGeminiUsage(usage: GeminiUsage | undefined): Usage {
  const thoughts = usage?.thoughtsTokenCount;
  return {
    inputTokens: usage?.promptTokenCount ?? 0,
    outputTokens: (usage?.candidatesTokenCount ?? 0) + (thoughts ?? 0),
    cachedTokens: usage?.cachedContentTokenCount ?? 0,
    cacheWriteTokens: 0,
    ...(thoughts !== undefined ? { reasoningTokens: thoughts } : {}),
  };
}

interface GeminiPart {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name?: string; args?: unknown };
}

interface GeminiChunk {
  candidates?: Array<{ content?: { parts?: GeminiPart[] }; finishReason?: string }>;
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsage;
  error?: unknown;
}

/** Gemini gives function calls no id (or only sometimes): one is made up when missing. */
const callId = (given: string | undefined) => (given ? given : `call_${randomBytes(12).toString('hex')}`);

export function geminiHeaders(context: CallContext): Record<string, string> {
  return { 'x-goog-api-key': context.apiKey, ...(context.headers ?? {}) };
}

function url(request: ChatRequest, context: CallContext, stream: boolean): string {
  const base = `${context.baseUrl.replace(/\/$/, '')}/v1beta/models/${encodeURIComponent(request.model)}`;
  return stream ? `${base}:streamGenerateContent?alt=sse` : `${base}:generateContent`;
}

async function send(request: ChatRequest, context: CallContext, stream: boolean): Promise<VendorResponse> {
  let errorBody: unknown;
  const reasonOf = (body: unknown) => {
    errorBody = body;
    return geminiErrorReason(body);
  };
  try {
    return await postJson(url(request, context, stream), convertToGeminiRequest(request), geminiHeaders(context), context.signal, reasonOf);
  } catch (error) {
    // A flex call Gemini has no capacity for is 503 UNAVAILABLE: the same model at standard may answer.
    if (request.tier === 'flex' && error instanceof VendorError && error.options.status === 503) {
      throw new VendorError('capacity', 'vendor has no flex capacity (503)', { status: 503, reason: geminiErrorReason(errorBody) });
    }
    throw refineGeminiError(error, errorBody);
  }
}

const isAnswerText = (part: GeminiPart) => typeof part.text === 'string' && part.text !== '' && part.thought !== true;

/** A generateContent answer (a unary body, or one line of a batch's output) as a ChatResult. */
export function parseGeminiResponse(raw: unknown): ChatResult {
  const body = raw as GeminiChunk | undefined;
  const usage = normaliseGeminiUsage(body?.usageMetadata);
  const candidate = body?.candidates?.[0];
  if (!candidate) {
    // The prompt itself was blocked: no candidate, the reason in promptFeedback.
    const blocked = body?.promptFeedback?.blockReason;
    if (blocked) return { content: '', toolCalls: [], finishReason: 'content_filter', vendorStopReason: blocked, usage };
    throw new VendorError('bad_response', 'vendor answer has no candidates');
  }
  const parts = candidate.content?.parts ?? [];
  // Parts marked thought are the model's own reasoning; they never reach the answer.
  const content = parts
    .filter(isAnswerText)
    .map((part) => part.text)
    .join('');
  const toolCalls: ToolCall[] = parts
    .filter((part) => part.functionCall)
    .map((part) => ({ id: callId(part.functionCall!.id), name: part.functionCall!.name ?? '', arguments: normaliseArguments(part.functionCall!.args) }));
  return {
    content: toolCalls.length > 0 && content === '' ? null : content,
    toolCalls,
    finishReason: mapGeminiFinishReason(candidate.finishReason, toolCalls.length > 0),
    vendorStopReason: candidate.finishReason ?? '',
    usage,
  };
}

/** The tier to report: the `x-gemini-service-tier` response header (flex or standard), when flex was asked for or served. */
export function geminiTier(header: string | string[] | undefined, asked: ServiceTier | undefined): ServiceTier | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.toLowerCase();
  const served: ServiceTier = value === 'flex' ? 'flex' : 'standard';
  return served === 'flex' || asked === 'flex' ? served : undefined;
}

export const geminiAdapter: VendorAdapter = {
  specificationVersion: 'v1',
  protocol: 'gemini',

  async generate(request: ChatRequest, context: CallContext): Promise<ChatResult> {
    const response = await send(request, context, false);
    const result = parseGeminiResponse(await readJson(response, context.signal));
    const tier = geminiTier(response.headers['x-gemini-service-tier'], request.tier);
    return tier ? { ...result, tier } : result;
  },

  async *stream(request: ChatRequest, context: CallContext): AsyncIterable<StreamEvent> {
    const response = await send(request, context, true);
    let usage: GeminiUsage | undefined;
    let toolCount = 0;
    let finish: { finishReason: FinishReason; vendorStopReason: string } | undefined;
    try {
      for await (const event of readSse(response.body)) {
        let chunk: GeminiChunk;
        try {
          chunk = JSON.parse(event.data) as GeminiChunk;
        } catch (error) {
          throw new VendorError('bad_response', 'vendor sent an unreadable stream event', { cause: error });
        }
        if (chunk.error) throw geminiStreamError(chunk);
        if (chunk.usageMetadata) usage = chunk.usageMetadata;
        const candidate = chunk.candidates?.[0];
        if (!candidate) {
          const blocked = chunk.promptFeedback?.blockReason;
          if (blocked && !finish) {
            finish = { finishReason: 'content_filter', vendorStopReason: blocked };
            yield { type: 'finish', ...finish };
          }
          continue;
        }
        for (const part of candidate.content?.parts ?? []) {
          if (isAnswerText(part)) yield { type: 'text', delta: part.text! };
          else if (part.functionCall) {
            // Gemini sends each call whole: one start and one delta with all of its arguments.
            const index = toolCount++;
            yield { type: 'tool_call_start', index, id: callId(part.functionCall.id), name: part.functionCall.name ?? '' };
            yield { type: 'tool_call_delta', index, arguments: normaliseArguments(part.functionCall.args) };
          }
        }
        if (candidate.finishReason && !finish) {
          finish = { finishReason: mapGeminiFinishReason(candidate.finishReason, toolCount > 0), vendorStopReason: candidate.finishReason };
          yield { type: 'finish', ...finish };
        }
      }
    } catch (error) {
      if (error instanceof VendorError) throw error;
      throw errorFromStream(error, context.signal);
    }
    // A stream that ends without a finishReason was cut: never a clean end.
    if (!finish) throw new VendorError('bad_response', 'vendor stream ended early');
    const tier = geminiTier(response.headers['x-gemini-service-tier'], request.tier);
    yield { type: 'usage', usage: normaliseGeminiUsage(usage), ...(tier ? { tier } : {}) };
  },
};
