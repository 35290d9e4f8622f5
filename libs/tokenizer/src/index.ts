import { decode as decodeIds, encode } from 'gpt-tokenizer';

/**
 * Byte-pair encoding is quadratic in the length of one unbroken run of characters (100 KB without
 * a space took seconds). Runs longer than this — of non-space or of space characters — are
 * encoded in slices of this length: linear in the input, and the same count for ordinary text.
 */
export const MAX_RUN = 200;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}|\\s{${MAX_RUN + 1},}`, 'g');
const HAS_LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1}}|\\s{${MAX_RUN + 1}}`);

/** Pieces of text encoded one at a time (countTokensUpTo stops between them). */
const PIECE = 4096;

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

/** Token ids of `text`. */
export function tokenize(text: string): number[] {
  return text.length === 0 ? [] : encodeBounded(text);
}

/** Tokens of `text`. */
export function countTokens(text: string): number {
  return tokenize(text).length;
}

/** The text of token ids. */
export function decode(ids: readonly number[]): string {
  return decodeIds(ids as number[]);
}

/**
 * Tokens of `text` cut before a space near every PIECE characters, so each piece starts where the
 * encoder's own pre-tokenizer would split (a word keeps its leading space).
 */
function* pieces(text: string): Generator<string> {
  let at = 0;
  while (text.length - at > PIECE) {
    let cut = at + PIECE;
    const floor = at + PIECE / 2;
    while (cut > floor && !(/\s/.test(text[cut]!) && !/\s/.test(text[cut - 1]!))) cut -= 1;
    if (cut === floor) cut = at + PIECE;
    yield text.slice(at, cut);
    at = cut;
  }
  if (at < text.length) yield text.slice(at);
}

/**
 * Tokens of all `texts` together, counted only as far as needed: once the count passes `limit`
 * it stops and answers limit + 1. At most about `limit` tokens' worth of text is encoded however
 * long the input (a 1 MB prompt costs what its first pieces cost).
 */
export function countTokensUpTo(texts: Iterable<string>, limit: number): number {
  let count = 0;
  for (const text of texts) {
    for (const piece of pieces(text)) {
      count += encodeBounded(piece).length;
      if (count > limit) return limit + 1;
    }
  }
  return count;
}
