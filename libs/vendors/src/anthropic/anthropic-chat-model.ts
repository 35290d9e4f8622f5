import { postJson, readJson, normaliseArguments, type VendorResponse } from '../http';
import { readSse } from '../sse';
import { VendorError, errorFromStream } from '../errors';
import type { CallContext, ChatRequest, ChatResult, StreamEvent, ToolCall, Usage, VendorAdapter } from '../types';
import { convertToAnthropicRequest } from './convert-to-anthropic-messages';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';
import { anthropicErrorReason, anthropicStreamError, refineAnthropicError } from './anthropic-error';

export const ANTHROPIC_VERSION = '2023-06-01';
/** Sent with 1-hour cache markers; the 1h lifetime started behind this flag. */
export const EXTENDED_CACHE_TTL_BETA = 'extended-cache-ttl-2025-04-11';

export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/**
 * Anthropic's input_tokens counts only the uncached part of the prompt: cache reads and cache
 * writes are reported beside it. The common usage counts all input tokens (spec, Chat completion
 * object: prompt_tokens is "all input tokens, cached or not").
 */
export function normaliseAnthropicUsage(usage: AnthropicUsage | undefined): Usage {
  const read = usage?.cache_read_input_tokens ?? 0;
  const write = usage?.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: (usage?.input_tokens ?? 0) + read + write,
    outputTokens: usage?.output_tokens ?? 0,
    cachedTokens: read,
    cacheWriteTokens: write,
  };
}

export function anthropicHeaders(request: Pick<ChatRequest, 'cache'>, context: CallContext): Record<string, string> {
  const out: Record<string, string> = { 'x-api-key': context.apiKey, 'anthropic-version': ANTHROPIC_VERSION };
  if (request.cache?.ttl === '1h') out['anthropic-beta'] = EXTENDED_CACHE_TTL_BETA;
  return { ...out, ...(context.headers ?? {}) };
}

const url = (context: CallContext) => `${context.baseUrl.replace(/\/$/, '')}/v1/messages`;

async function send(request: ChatRequest, context: CallContext, stream: boolean): Promise<VendorResponse> {
  try {
    return await postJson(url(context), convertToAnthropicRequest(request, stream), anthropicHeaders(request, context), context.signal, anthropicErrorReason);
  } catch (error) {
    throw refineAnthropicError(error);
  }
}

interface AnthropicContentBlock {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

interface AnthropicMessageBody {
  type?: string;
  content?: AnthropicContentBlock[];
  stop_reason?: string | null;
  usage?: AnthropicUsage;
}

/** Keeps only numeric fields: later usage reports override earlier ones field by field. */
function numericUsage(usage: unknown): AnthropicUsage {
  const out: Record<string, number> = {};
  if (usage && typeof usage === 'object') {
    for (const [key, value] of Object.entries(usage)) if (typeof value === 'number') out[key] = value;
  }
  return out;
}

interface StreamPayload {
  type?: string;
  index?: number;
  message?: { usage?: unknown };
  content_block?: AnthropicContentBlock;
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: unknown;
}

/** A Messages API answer (a unary body, or a succeeded batch result's message) as a ChatResult. */
export function parseAnthropicMessage(raw: unknown): ChatResult {
  const body = raw as AnthropicMessageBody | undefined;
  if (!body || !Array.isArray(body.content)) throw new VendorError('bad_response', 'vendor answer has no content');
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of body.content) {
    // thinking and redacted_thinking blocks are the model's own; they never reach the answer.
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'tool_use') toolCalls.push({ id: block.id ?? `call_${toolCalls.length}`, name: block.name ?? '', arguments: normaliseArguments(block.input) });
  }
  const content = texts.join('');
  return {
    // Spec, Chat completion object: content is null "when only tool calls were produced".
    content: toolCalls.length > 0 && content === '' ? null : content,
    toolCalls,
    finishReason: mapAnthropicStopReason(body.stop_reason),
    vendorStopReason: body.stop_reason ?? '',
    usage: normaliseAnthropicUsage(body.usage),
  };
}

export const anthropicAdapter: VendorAdapter = {
  specificationVersion: 'v1',
  protocol: 'anthropic',

  async generate(request: ChatRequest, context: CallContext): Promise<ChatResult> {
    const response = await send(request, context, false);
    const result = parseAnthropicMessage(await readJson(response, context.signal));
    // Anthropic has no flex tier: a flex call is served at standard, and says so.
    return request.tier === 'flex' ? { ...result, tier: 'standard' } : result;
  },

  async *stream(request: ChatRequest, context: CallContext): AsyncIterable<StreamEvent> {
    const response = await send(request, context, true);
    let usage: AnthropicUsage = {};
    let stopReason: string | null = null;
    let stopped = false;
    // Content blocks are numbered across text, thinking and tool_use; tool calls count alone.
    const toolIndexOfBlock = new Map<number, number>();
    try {
      for await (const event of readSse(response.body)) {
        if (event.event === 'ping') continue;
        let payload: StreamPayload;
        try {
          payload = JSON.parse(event.data) as StreamPayload;
        } catch (error) {
          throw new VendorError('bad_response', 'vendor sent an unreadable stream event', { cause: error });
        }
        const type = payload.type ?? event.event;
        if (type === 'error') throw anthropicStreamError(payload);
        if (type === 'message_start') usage = numericUsage(payload.message?.usage);
        else if (type === 'content_block_start') {
          const block = payload.content_block;
          if (block?.type === 'tool_use') {
            const index = toolIndexOfBlock.size;
            toolIndexOfBlock.set(payload.index ?? -1, index);
            yield { type: 'tool_call_start', index, id: block.id ?? `call_${index}`, name: block.name ?? '' };
          } else if (block?.type === 'text' && block.text) yield { type: 'text', delta: block.text };
        } else if (type === 'content_block_delta') {
          const delta = payload.delta;
          if (delta?.type === 'text_delta' && delta.text) yield { type: 'text', delta: delta.text };
          else if (delta?.type === 'input_json_delta' && delta.partial_json) {
            const index = toolIndexOfBlock.get(payload.index ?? -1);
            if (index !== undefined) yield { type: 'tool_call_delta', index, arguments: delta.partial_json };
          }
          // thinking_delta and signature_delta are the model's own.
        } else if (type === 'message_delta') {
          if (payload.delta?.stop_reason) stopReason = payload.delta.stop_reason;
          usage = { ...usage, ...numericUsage(payload.usage) };
        } else if (type === 'message_stop') {
          stopped = true;
          break;
        }
      }
    } catch (error) {
      if (error instanceof VendorError) throw error;
      throw errorFromStream(error, context.signal);
    }
    // A stream that ends before message_stop was cut: never a clean end.
    if (!stopped) throw new VendorError('bad_response', 'vendor stream ended early');
    yield { type: 'finish', finishReason: mapAnthropicStopReason(stopReason), vendorStopReason: stopReason ?? '' };
    yield { type: 'usage', usage: normaliseAnthropicUsage(usage), ...(request.tier === 'flex' ? { tier: 'standard' as const } : {}) };
  },
};
