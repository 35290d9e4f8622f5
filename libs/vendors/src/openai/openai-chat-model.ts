import { postJson, readJson, normaliseArguments } from '../http';
import { readSse } from '../sse';
import { VendorError, errorFromFetch } from '../errors';
import type { CallContext, ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult, StreamEvent, Usage, VendorAdapter } from '../types';
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

function errorReason(body: unknown): string | undefined {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === 'string' ? message.slice(0, 300) : undefined;
}

function headers(context: CallContext): Record<string, string> {
  return { authorization: `Bearer ${context.apiKey}`, ...(context.headers ?? {}) };
}

const url = (context: CallContext, path: string) => `${context.baseUrl.replace(/\/$/, '')}${path}`;

interface OpenAIChoice {
  message?: { content?: string | null; tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: unknown } }> };
  finish_reason?: string | null;
}

export const openAIAdapter: VendorAdapter = {
  specificationVersion: 'v1',
  protocol: 'openai',

  async generate(request: ChatRequest, context: CallContext): Promise<ChatResult> {
    const response = await postJson(url(context, '/chat/completions'), convertToOpenAIRequest(request, false), headers(context), context.signal, errorReason);
    const body = (await readJson(response, context.signal)) as { choices?: OpenAIChoice[]; usage?: OpenAIUsage };
    const choice = body.choices?.[0];
    if (!choice?.message) throw new VendorError('bad_response', 'vendor answer has no choices');
    const toolCalls = (choice.message.tool_calls ?? []).map((call, index) => ({
      id: call.id ?? `call_${index}`,
      name: call.function?.name ?? '',
      arguments: normaliseArguments(call.function?.arguments),
    }));
    const content = choice.message.content ?? null;
    return {
      content: toolCalls.length > 0 && !content ? null : (content ?? ''),
      toolCalls,
      finishReason: mapOpenAIFinishReason(choice.finish_reason),
      vendorStopReason: choice.finish_reason ?? '',
      usage: normaliseOpenAIUsage(body.usage),
    };
  },

  async *stream(request: ChatRequest, context: CallContext): AsyncIterable<StreamEvent> {
    const response = await postJson(url(context, '/chat/completions'), convertToOpenAIRequest(request, true), headers(context), context.signal, errorReason);
    let finished = false;
    let sawDone = false;
    try {
      for await (const event of readSse(response.body)) {
        if (event.data === '[DONE]') {
          sawDone = true;
          break;
        }
        let chunk: { choices?: Array<{ delta?: { content?: string | null; tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }> }; finish_reason?: string | null }>; usage?: OpenAIUsage; error?: unknown };
        try {
          chunk = JSON.parse(event.data);
        } catch (error) {
          throw new VendorError('bad_response', 'vendor sent an unreadable stream event', { cause: error });
        }
        if (chunk.error) throw new VendorError('server', 'vendor reported an error mid-stream');
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
        if (chunk.usage) yield { type: 'usage', usage: normaliseOpenAIUsage(chunk.usage) };
      }
    } catch (error) {
      if (error instanceof VendorError) throw error;
      throw errorFromFetch(error, context.signal);
    }
    // A stream that ends without its finish or [DONE] was cut: never a clean end.
    if (!finished || !sawDone) throw new VendorError('bad_response', 'vendor stream ended early');
  },

  async embed(request: EmbeddingRequest, context: CallContext): Promise<EmbeddingResult> {
    const payload: Record<string, unknown> = { model: request.model, input: request.input, encoding_format: 'float' };
    if (request.dimensions !== undefined) payload.dimensions = request.dimensions;
    const response = await postJson(url(context, '/embeddings'), payload, headers(context), context.signal, errorReason);
    const body = (await readJson(response, context.signal)) as { data?: Array<{ index: number; embedding: number[] }>; usage?: { prompt_tokens?: number } };
    if (!Array.isArray(body.data)) throw new VendorError('bad_response', 'vendor answer has no data');
    const vectors = [...body.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
    return { vectors, promptTokens: body.usage?.prompt_tokens };
  },
};
