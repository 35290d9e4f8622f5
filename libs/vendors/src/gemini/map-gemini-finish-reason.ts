import type { FinishReason } from '../types';

/** Gemini's safety and policy stops: spec, Errors, refused content is finish_reason content_filter. */
const FILTERED = new Set(['SAFETY', 'RECITATION', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'IMAGE_SAFETY']);

/**
 * Gemini finishReason to the common finish_reason. Gemini ends a function call with STOP: with
 * function calls in the answer that is `tool_calls`.
 */
export function mapGeminiFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason && FILTERED.has(reason)) return 'content_filter';
  return hasToolCalls ? 'tool_calls' : 'stop';
}
