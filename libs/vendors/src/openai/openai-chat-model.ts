import { postJson, readJson, normaliseArguments, type VendorResponse } from '../http';
import { readSse } from '../sse';
import { VendorError, errorFromStream } from '../errors';
import type { CallContext, ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult, ServiceTier, StreamEvent, Usage, VendorAdapter } from '../types';
import { convertToOpenAIRequest } from './convert-to-openai-request';
import { mapOpenAIFinishReason } from './map-openai-finish-reason';

interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

/** OpenAI counts cached tokens inside prompt_tokens already. */
export function normaliseOpenAIUsage(usage: OpenAIUsage | undefined): Usage {
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
    cachedTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
  };
}

export function openAIErrorReason(body: unknown): string | undefined {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === 'string' ? message.slice(0, 300) : undefined;
}
const errorReason = openAIErrorReason;

/**
 * The tier to report (ChatResult.tier): what OpenAI says served (`flex`, or `default`, `auto`,
 * `scale`, `priority`: standard here), when flex was asked for or served.
 */
export function openAITier(serviceTier: unknown, asked: ServiceTier | undefined): ServiceTier | undefined {
  const served: ServiceTier = serviceTier === 'flex' ? 'flex' : 'standard';
  return served === 'flex' || asked === 'flex' ? served : undefined;
}

/**
 * A flex call refused for capacity: 429 with code `resource_unavailable` (OpenAI: "429 Resource
 * Unavailable" under flex), not the account's rate limit; the same model can be asked at
 * standard at once.
 */
async function sendChat(request: ChatRequest, context: CallContext, stream: boolean): Promise<VendorResponse> {
  let errorBody: unknown;
  const reasonOf = (body: unknown) => {
    errorBody = body;
    return errorReason(body);
  };
  try {
    return await postJson(openAIUrl(context, '/chat/completions'), convertToOpenAIRequest(request, stream), openAIHeaders(context), context.signal, reasonOf);
  } catch (error) {
    const code = (errorBody as { error?: { code?: unknown } } | undefined)?.error?.code;
    if (request.tier === 'flex' && error instanceof VendorError && error.options.status === 429 && code === 'resource_unavailable') {
      throw new VendorError('capacity', 'vendor has no flex capacity (429)', { status: 429, reason: errorReason(errorBody) });
    }
    throw error;
  }
}

export function openAIHeaders(context: CallContext): Record<string, string> {
  return { authorization: `Bearer ${context.apiKey}`, ...(context.headers ?? {}) };
}

export const openAIUrl = (context: CallContext, path: string) => `${context.baseUrl.replace(/\/$/, '')}${path}`;

interface OpenAIChoice {
  message?: { content?: string | null; tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: unknown } }> };
  finish_reason?: string | null;
}

/** A chat completion body (a unary answer, or the body of a batch output line) as a ChatResult. */
export function parseOpenAIChatCompletion(raw: unknown, asked?: ServiceTier): ChatResult {
  const body = raw as { choices?: OpenAIChoice[]; usage?: OpenAIUsage; service_tier?: unknown } | undefined;
  const choice = body?.choices?.[0];
  if (!choice?.message) throw new VendorError('bad_response', 'vendor answer has no choices');
  const toolCalls = (choice.message.tool_calls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index}`,
    name: call.function?.name ?? '',
    arguments: normaliseArguments(call.function?.arguments),
  }));
  const content = choice.message.content ?? null;
  const tier = openAITier(body?.service_tier, asked);
  return {
    content: toolCalls.length > 0 && !content ? null : (content ?? ''),
    toolCalls,
    finishReason: mapOpenAIFinishReason(choice.finish_reason),
    vendorStopReason: choice.finish_reason ?? '',
    usage: normaliseOpenAIUsage(body?.usage),
    ...(tier ? { tier } : {}),
  };
}

export const openAIAdapter: VendorAdapter = {
  specificationVersion: 'v1',
  protocol: 'openai',

  async generate(request: ChatRequest, context: CallContext): Promise<ChatResult> {
    const response = await sendChat(request, context, false);
    return parseOpenAIChatCompletion(await readJson(response, context.signal), request.tier);
  },

  async *stream(request: ChatRequest, context: CallContext): AsyncIterable<StreamEvent> {
    const response = await sendChat(request, context, true);
    let finished = false;
    let served: unknown;
    let sawDone = false;
    try {
      for await (const event of readSse(response.body)) {
        if (event.data === '[DONE]') {
          sawDone = true;
          break;
        }
        let chunk: { service_tier?: unknown; choices?: Array<{ delta?: { content?: string | null; tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }> }; finish_reason?: string | null }>; usage?: OpenAIUsage; error?: unknown };
        try {
          chunk = JSON.parse(event.data);
        } catch (error) {
          throw new VendorError('bad_response', 'vendor sent an unreadable stream event', { cause: error });
        }
        if (chunk.error) throw new VendorError('server', 'vendor reported an error mid-stream');
        served = chunk.service_tier ?? served;
        for (const choice of chunk.choices ?? []) {
          const delta = choice.delta ?? {};
          if (delta.content) yield { type: 'text', delta: delta.content };
          for (const call of delta.tool_calls ?? []) {
            const index = call.index ?? 0;
            if (call.id || call.function?.name) yield { type: 'tool_call_start', index, id: call.id ?? `call_${index}`, name: call.function?.name ?? '' };
            if (call.function?.arguments) yield { type: 'tool_call_delta', index, arguments: call.function.arguments };
          }
          if (choice.finish_reason) {
            finished = true;
            yield { type: 'finish', finishReason: mapOpenAIFinishReason(choice.finish_reason), vendorStopReason: choice.finish_reason };
          }
        }
        if (chunk.usage) {
          const tier = openAITier(served, request.tier);
          yield { type: 'usage', usage: normaliseOpenAIUsage(chunk.usage), ...(tier ? { tier } : {}) };
        }
      }
    } catch (error) {
      if (error instanceof VendorError) throw error;
      throw errorFromStream(error, context.signal);
    }
    // A stream that ends without its finish or [DONE] was cut: never a clean end.
    if (!finished || !sawDone) throw new VendorError('bad_response', 'vendor stream ended early');
  },

  async embed(request: EmbeddingRequest, context: CallContext): Promise<EmbeddingResult> {
    const payload: Record<string, unknown> = { model: request.model, input: request.input, encoding_format: 'float' };
    if (request.dimensions !== undefined) payload.dimensions = request.dimensions;
    const response = await postJson(openAIUrl(context, '/embeddings'), payload, openAIHeaders(context), context.signal, errorReason);
    const body = (await readJson(response, context.signal)) as { data?: Array<{ index: number; embedding: number[] }>; usage?: { prompt_tokens?: number } };
    if (!Array.isArray(body.data)) throw new VendorError('bad_response', 'vendor answer has no data');
    const vectors = [...body.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
    return { vectors, promptTokens: body.usage?.prompt_tokens };
  },
};
