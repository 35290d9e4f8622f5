import { createHash } from 'node:crypto';
import { decode, encode } from 'gpt-tokenizer';

/** Every image counts the same, whatever its size: the vendors' real image pricing is not simulated. */
export const IMAGE_TOKENS = 258;

/**
 * Byte-pair encoding is quadratic in the length of one unbroken run of characters (100 KB without
 * a space took seconds and blocked every simulated vendor). Runs longer than this are encoded in
 * slices of this length: linear in the input, and the same count for ordinary text.
 */
export const MAX_RUN = 200;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}`, 'g');
const HAS_LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1}}`);

function append(ids: number[], more: number[]): void {
  for (const id of more) ids.push(id);
}

function encodeBounded(text: string): number[] {
  if (!HAS_LONG_RUN.test(text)) return encode(text);
  const ids: number[] = [];
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    const at = match.index ?? 0;
    if (at > last) append(ids, encode(text.slice(last, at)));
    for (let i = 0; i < match[0].length; i += MAX_RUN) append(ids, encode(match[0].slice(i, i + MAX_RUN)));
    last = at + match[0].length;
  }
  if (last < text.length) append(ids, encode(text.slice(last)));
  return ids;
}

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : encodeBounded(text).length;
}

export function tokenize(text: string): number[] {
  return text.length === 0 ? [] : encodeBounded(text);
}

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
