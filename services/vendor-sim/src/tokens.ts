import { createHash } from 'node:crypto';
import { countTokens, decode, tokenize } from '@svc/tokenizer';

export { countTokens, tokenize };

/** Every image counts the same, whatever its size: the vendors' real image pricing is not simulated. */
export const IMAGE_TOKENS = 258;

/**
 * Stand-in token ids for an image. They sit above any real vocabulary id so an image never
 * hashes like text, and they derive from the image's bytes so a different image breaks the
 * cached prefix the way it would upstream.
 */
export function imageTokens(source: string): number[] {
  const digest = createHash('sha256').update(source).digest();
  const base = 0x40000000 + (digest.readUInt32LE(0) % 0x10000000);
  return Array.from({ length: IMAGE_TOKENS }, (_, i) => base + i);
}

/** Cuts text to at most `limit` tokens. */
export function truncateToTokens(text: string, limit: number): { text: string; tokens: number; truncated: boolean } {
  const ids = tokenize(text);
  if (ids.length <= limit) return { text, tokens: ids.length, truncated: false };
  const kept = Math.max(0, limit);
  return { text: kept === 0 ? '' : decode(ids.slice(0, kept)), tokens: kept, truncated: true };
}

/**
 * Splits text into stream pieces of `wordsPerChunk` words, each keeping its leading
 * whitespace, so that joining the pieces gives back the exact text.
 */
export function chunkText(text: string, wordsPerChunk = 1): string[] {
  const words = text.match(/\s*\S+|\s+$/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) chunks.push(words.slice(i, i + wordsPerChunk).join(''));
  return chunks;
}

/** Splits a string into fixed-size pieces (tool-call arguments stream this way upstream). */
export function chunkString(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
