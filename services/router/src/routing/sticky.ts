import type { Catalog, ChatModel } from '@svc/catalog';

/** Output tokens assumed when comparing a warm model with the cold pick. */
export const EXPECTED_OUTPUT_TOKENS = 500;
/** Characters per token for estimates from text. */
const CHARS_PER_TOKEN = 4;

type Message = { role: string; text: string };

/**
 * Tokens of the request the previous call did not send: the messages from the last assistant
 * message on (the answer the previous call produced, and what followed it). Everything before
 * is the prefix the previous call already sent, cached on its model.
 */
export function newTokens(messages: readonly Message[]): number {
  let from = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'assistant') {
      from = i;
      break;
    }
  }
  let chars = 0;
  for (let i = from; i < messages.length; i++) chars += messages[i].text.length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Smallest prefix the model's vendor caches; Infinity when it has no prompt cache. */
export function minCachePrefix(catalog: Catalog, model: ChatModel): number {
  switch (catalog.vendor(model.vendor)?.cache) {
    case 'explicit':
      return model.min_cache_prefix;
    case 'automatic':
      return 1024;
    case 'automatic_4096':
      return 4096;
    default:
      return Infinity;
  }
}

export interface CallEstimate {
  inputTokens: number;
  cachedTokens: number;
}

/** The request's input tokens (the edge's estimate, else from the text) and the part the previous call cached. */
export function estimateCall(inputTokens: number, systemPrompt: string, messages: readonly Message[]): CallEstimate {
  const total = inputTokens > 0 ? inputTokens : Math.ceil((systemPrompt.length + messages.reduce((sum, m) => sum + m.text.length, 0)) / CHARS_PER_TOKEN);
  return { inputTokens: total, cachedTokens: Math.max(0, total - newTokens(messages)) };
}

/** USD (per million tokens x tokens, comparison only) of the call on `model`, with `cached` prefix tokens read from its cache. */
export function callPrice(model: ChatModel, inputTokens: number, cached: number): number {
  const p = model.pricing;
  return cached * p.cache_read + (inputTokens - cached) * p.input + EXPECTED_OUTPUT_TOKENS * p.output;
}

/**
 * Keep the session's previous model when its warm prompt cache makes this call cheaper than the
 * cold pick at full price: the cached prefix (at least the vendor's minimum cacheable prefix) at
 * the previous model's cache_read rate, the rest at its input rate, EXPECTED_OUTPUT_TOKENS at
 * its output rate, against the cold pick with no cache.
 */
export function warmIsCheaper(catalog: Catalog, warm: ChatModel, cold: ChatModel, estimate: CallEstimate): boolean {
  if (estimate.cachedTokens < minCachePrefix(catalog, warm)) return false;
  return callPrice(warm, estimate.inputTokens, estimate.cachedTokens) < callPrice(cold, estimate.inputTokens, 0);
}
