import { PromptCache, TTL_MS, type Breakpoint } from './cache';
import type { PromptBlock } from './request';
import { imageTokens, tokenize } from './tokens';

export interface PromptUsage {
  /** All input tokens, cached or not. */
  promptTokens: number;
  /** Image share of promptTokens (Gemini reports modalities). */
  imageTokens: number;
  cachedTokens: number;
  write5mTokens: number;
  write1hTokens: number;
}

export type CacheMode = { kind: 'automatic'; min: number; step: number; ttlMs: number } | { kind: 'explicit'; min: number } | { kind: 'none' };

export const AUTOMATIC_TTL_MS = TTL_MS['5m'];

/** Token ids of the whole prompt, with the offset at which each block ends. */
export function promptTokens(blocks: readonly PromptBlock[]): { tokens: number[]; ends: number[]; images: number } {
  const tokens: number[] = [];
  const ends: number[] = [];
  let images = 0;
  for (const block of blocks) {
    if (block.image !== undefined) {
      const ids = imageTokens(block.image);
      images += ids.length;
      for (const id of ids) tokens.push(id);
    }
    if (block.text) for (const id of tokenize(block.text)) tokens.push(id);
    ends.push(tokens.length);
  }
  return { tokens, ends, images };
}

export function countPrompt(blocks: readonly PromptBlock[]): number {
  return promptTokens(blocks).tokens.length;
}

/** Counts the prompt and settles its cache reads and writes under the protocol's cache rules. */
export function accountPrompt(cache: PromptCache, scope: string, blocks: readonly PromptBlock[], mode: CacheMode): PromptUsage {
  const { tokens, ends, images } = promptTokens(blocks);
  const usage: PromptUsage = { promptTokens: tokens.length, imageTokens: images, cachedTokens: 0, write5mTokens: 0, write1hTokens: 0 };
  if (mode.kind === 'automatic') {
    usage.cachedTokens = cache.automatic(scope, tokens, { min: mode.min, step: mode.step, ttlMs: mode.ttlMs });
  } else if (mode.kind === 'explicit') {
    const breakpoints: Breakpoint[] = [];
    blocks.forEach((block, i) => {
      if (block.cache) breakpoints.push({ position: ends[i] ?? 0, ttl: block.cache });
    });
    const result = cache.explicit(scope, tokens, ends, breakpoints, mode.min);
    usage.cachedTokens = result.readTokens;
    usage.write5mTokens = result.write5mTokens;
    usage.write1hTokens = result.write1hTokens;
  }
  return usage;
}
