/**
 * Feature extraction for the router classifier. Training (training/run-training.mjs) and inference
 * (index.ts) both go through this module, so a request is always featurized exactly the way
 * the corpus was.
 *
 * Features, all hashed into one signed space of 2^18 buckets (FNV-1a):
 *  - word unigrams and bigrams of the lowercased last user message (CJK characters count as words)
 *  - the same words again, in their own namespace, for the message's first and last 160
 *    characters: that is where people put the instruction around a long paste
 *  - character 3-, 4- and 5-grams of the message
 *  - word unigrams of the system prompt and of the tool result that follows the message,
 *    each in its own namespace and at half weight: context, not the request itself
 * plus a few dense features after the hashed space (bias, log length, code fence, tool result,
 * number of turns, system prompt present), then the mean of the message's pre-trained word
 * vectors (word-vectors.ts), weighted toward rarer words and scaled to unit length: what the
 * request is about, in a space shared with words no training row used.
 */
import { EMBEDDING_DIM, WordVectors, loadWordVectors, lookup } from './word-vectors';
import { addRows } from './row-sum';

export { EMBEDDING_DIM };

export const HASH_BITS = 18;
export const BUCKETS = 1 << HASH_BITS;
const MASK = BUCKETS - 1;

/** Dense feature slots, placed right after the hashed buckets. */
export const DENSE = {
  bias: BUCKETS,
  logLength: BUCKETS + 1,
  codeFence: BUCKETS + 2,
  toolResult: BUCKETS + 3,
  turns: BUCKETS + 4,
  hasSystem: BUCKETS + 5,
  /** First of the word-vector mean's EMBEDDING_DIM slots. */
  embedding: BUCKETS + 6,
} as const;
export const FEATURE_DIM = BUCKETS + 6 + EMBEDDING_DIM;

/**
 * Work is capped so classification stays well under a millisecond on long prompts: the head
 * of a message says what is asked, the tail often holds the actual question after a paste.
 */
export const TEXT_HEAD_CHARS = 1500;
export const TEXT_TAIL_CHARS = 500;
export const CONTEXT_CHARS = 400;
export const LEAD_CHARS = 160;
/** Character n-grams cover less of a long message than words do: three per character add up. */
export const CHAR_HEAD_CHARS = 800;
export const CHAR_TAIL_CHARS = 200;

const BLOCK_WEIGHT = { words: 1, lead: 0.7, chars: 1, system: 0.5, tool: 0.5, embedding: 1 } as const;

/**
 * Follows the settings above; edit the prefix by hand when the hashing or tokenizing changes.
 * Stored in the weights file and checked on load, so stale weights fail loudly.
 */
export const FEATURE_VERSION = `fnv1a-h${HASH_BITS}-w12-l12@${LEAD_CHARS}-c345@${CHAR_HEAD_CHARS}+${CHAR_TAIL_CHARS}-s1-t1-d6-e${EMBEDDING_DIM}-cap${TEXT_HEAD_CHARS}+${TEXT_TAIL_CHARS}/${CONTEXT_CHARS}`;

const FNV_PRIME = 0x01000193;
const SEED_WORD = 0x811c9dc5;
const SEED_BIGRAM = 0x2f3b9a41;
const SEED_CHAR = 0x5bd1e995;
const SEED_SYSTEM = 0x7feb352d;
const SEED_TOOL = 0x1b873593;
const SEED_LEAD = 0x68e31da4;

/** What the classifier looks at: the request plus light context. */
export interface FeatureInput {
  /** The last user message. */
  text: string;
  system?: string;
  /** Output of the tool call(s) that followed the last user message, if any. */
  toolResult?: string;
  /** True when the turn being routed comes right after a tool result. */
  afterTool: boolean;
  /** Number of non-system messages in the conversation. */
  turns: number;
}

/** A sparse vector; indices may repeat across blocks, which dot products tolerate. */
export interface SparseVector {
  idx: Int32Array;
  val: Float32Array;
  n: number;
}

/**
 * Words and word pairs seen in the request, kept as offsets into `text` so a reason can
 * quote the strongest cues; strings are only cut for the few terms actually quoted, which
 * keeps long prompts from allocating hundreds of small strings per classification.
 */
export interface Terms {
  /** The lowercased, capped text the offsets point into. */
  text: string;
  n: number;
  /** Feature bucket of each term. */
  index: Int32Array;
  /** Signed, normalized value each term contributed at its bucket. */
  value: Float32Array;
  /** Start of the term's first word (of the pair's first word). */
  start: Int32Array;
  /** End of the term's last word. */
  end: Int32Array;
  /** For pairs, end of the first word; -1 for single words. */
  split: Int32Array;
}

export function newTerms(capacity = 4096): Terms {
  return {
    text: '', n: 0, index: new Int32Array(capacity), value: new Float32Array(capacity),
    start: new Int32Array(capacity), end: new Int32Array(capacity), split: new Int32Array(capacity),
  };
}

/** The readable form of term i: the word, or the two words of a pair. */
export function termText(terms: Terms, i: number): string {
  const { text } = terms;
  const split = terms.split[i];
  if (split < 0) return text.slice(terms.start[i], terms.end[i]);
  const first = text.slice(terms.start[i], split);
  // CJK characters are single-character words; their pairs read as one word.
  const secondStart = terms.end[i] - 1;
  const second = text.slice(isCjk(text.charCodeAt(secondStart)) ? secondStart : nextWordStart(text, split), terms.end[i]);
  return isCjk(first.charCodeAt(0)) && isCjk(second.charCodeAt(0)) ? first + second : `${first} ${second}`;
}

function nextWordStart(s: string, from: number): number {
  let i = from;
  while (i < s.length && !isWordChar(s.charCodeAt(i)) && !isCjk(s.charCodeAt(i))) i++;
  return i;
}

function addTerm(terms: Terms, hash: number, start: number, end: number, split: number): void {
  if (terms.n === terms.index.length) return;
  const i = terms.n++;
  terms.index[i] = bucketOf(hash);
  terms.value[i] = signOf(hash);
  terms.start[i] = start;
  terms.end[i] = end;
  terms.split[i] = split;
}

export function newSparseVector(capacity = 16384): SparseVector {
  return { idx: new Int32Array(capacity), val: new Float32Array(capacity), n: 0 };
}

function push(out: SparseVector, index: number, value: number): void {
  if (out.n === out.idx.length) {
    const idx = new Int32Array(out.idx.length * 2);
    const val = new Float32Array(out.val.length * 2);
    idx.set(out.idx);
    val.set(out.val);
    out.idx = idx;
    out.val = val;
  }
  out.idx[out.n] = index;
  out.val[out.n] = value;
  out.n++;
}

/** Hashes the UTF-16 code units of `s` from `seed`. */
function hashString(seed: number, s: string, start: number, end: number): number {
  let h = seed;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

let wordVectors: WordVectors | undefined;

/** The word-vector table, read on first use (data/word-vectors.bin, about 5 MB). */
export function useWordVectors(): WordVectors {
  if (!wordVectors) {
    wordVectors = loadWordVectors((w) => hashString(SEED_WORD, w, 0, w.length));
    if (wordVectors.dim !== EMBEDDING_DIM) throw new Error(`word vectors have ${wordVectors.dim} dimensions, features expect ${EMBEDDING_DIM}`);
  }
  return wordVectors;
}

/** Weighted sum of the vectors of the words seen by the current word block. */
const embeddingSum = new Float64Array(EMBEDDING_DIM);
/** The word block's words that have a vector, in order: the vector's offset and the word's weight. */
let wordBase = new Int32Array(4096);
let wordWeight = new Float64Array(4096);
let wordCount = 0;

function addWordVector(table: WordVectors, h: number): void {
  const row = lookup(table, h);
  if (row < 0) return;
  if (wordCount === wordBase.length) {
    const base = new Int32Array(wordCount * 2);
    const weight = new Float64Array(wordCount * 2);
    base.set(wordBase);
    weight.set(wordWeight);
    wordBase = base;
    wordWeight = weight;
  }
  wordBase[wordCount] = row * EMBEDDING_DIM;
  wordWeight[wordCount++] = table.weight[row];
}

function flushEmbedding(out: SparseVector, weight: number): void {
  // Each dimension adds the words in order, in blocks that keep their vectors in cache.
  addRows(wordBase, wordWeight, wordCount, useWordVectors().vectors, embeddingSum, EMBEDDING_DIM);
  wordCount = 0;
  let sq = 0;
  for (let k = 0; k < EMBEDDING_DIM; k++) sq += embeddingSum[k] * embeddingSum[k];
  const scale = sq > 0 ? weight / Math.sqrt(sq) : 0;
  for (let k = 0; k < EMBEDDING_DIM; k++) {
    const v = embeddingSum[k] * scale;
    embeddingSum[k] = 0;
    if (v !== 0) push(out, DENSE.embedding + k, v);
  }
}

function isCjk(c: number): boolean {
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
}

/** Letters and digits of the scripts the corpus covers; everything else separates words. */
function isWordChar(c: number): boolean {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || (c >= 0x41 && c <= 0x5a);
  return (
    (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) ||
    (c >= 0x370 && c <= 0x52f) ||
    (c >= 0x590 && c <= 0x6ff) ||
    (c >= 0x900 && c <= 0xdff) ||
    (c >= 0xac00 && c <= 0xd7af)
  );
}

/**
 * Accumulates hashed values per bucket for one block, then emits the block L2-normalized. The
 * block's buckets live in a small open-addressed table (slot → bucket and value), not in an array
 * over all 2^18 buckets: a block of the capped text touches at most about 4,000 buckets, and the
 * 128 KB table stays in the second-level cache where the 1 MB array made most adds a cache miss.
 * Slots are listed in first-touch order, so a block is emitted in the order the array gave; the
 * values are the same float32 sums. The table is left empty after each block, so extraction
 * allocates little per call beyond the lowercased, capped copies of the text.
 */
const SLOTS = 1 << 14;
const SLOT_MASK = SLOTS - 1;
/** Buckets one block may touch (three quarters of the slots, three times what capped text reaches). */
const MAX_TOUCHED = (SLOTS * 3) / 4;
const slotBucket = new Int32Array(SLOTS).fill(-1);
const slotValue = new Float32Array(SLOTS);
/** The block's slots in first-touch order. */
const touched = new Int32Array(MAX_TOUCHED);
let touchedCount = 0;

function add(bucketHash: number, amount: number): void {
  const b = (bucketHash ^ (bucketHash >>> HASH_BITS)) & MASK;
  // The top bit picks the sign, so colliding features tend to cancel rather than add up.
  const v = bucketHash < 0 ? -amount : amount;
  // Buckets are hash bits already: their low bits pick the slot.
  let s = b & SLOT_MASK;
  let at = slotBucket[s];
  while (at !== b && at >= 0) {
    s = (s + 1) & SLOT_MASK;
    at = slotBucket[s];
  }
  if (at < 0) {
    if (touchedCount === MAX_TOUCHED) return;
    slotBucket[s] = b;
    touched[touchedCount++] = s;
  }
  slotValue[s] += v;
  // A value that cancels to exactly 0 is nudged, as it always was: the weights were trained on it.
  if (slotValue[s] === 0) slotValue[s] = 1e-9;
}

function bucketOf(hash: number): number {
  return (hash ^ (hash >>> HASH_BITS)) & MASK;
}

function signOf(hash: number): number {
  return hash < 0 ? -1 : 1;
}

/** Moves the block into `out`, log-damped and scaled to L2 norm `weight`, and empties the table. */
function flush(out: SparseVector, weight: number): number {
  let sq = 0;
  for (let i = 0; i < touchedCount; i++) {
    const s = touched[i];
    const v = slotValue[s];
    const d = v < 0 ? -Math.log1p(-v) : Math.log1p(v);
    slotValue[s] = d;
    sq += d * d;
  }
  const scale = sq > 0 ? weight / Math.sqrt(sq) : 0;
  for (let i = 0; i < touchedCount; i++) {
    const s = touched[i];
    const v = slotValue[s] * scale;
    const b = slotBucket[s];
    slotValue[s] = 0;
    slotBucket[s] = -1;
    if (v !== 0) push(out, b, v);
  }
  touchedCount = 0;
  return scale;
}

/** Lowercased text limited to its head and tail. */
export function capText(text: string, head = TEXT_HEAD_CHARS, tail = TEXT_TAIL_CHARS): string {
  const t = text.length > head + tail ? `${text.slice(0, head)} \n ${text.slice(text.length - tail)}` : text;
  return t.toLowerCase();
}

type TokenSink = (start: number, end: number) => void;

/** Calls `sink` for each word in `s`; each CJK character is a word of its own. */
function tokenize(s: string, sink: TokenSink): void {
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isCjk(c)) {
      if (start >= 0) sink(start, i);
      start = -1;
      sink(i, i + 1);
    } else if (isWordChar(c)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      sink(start, i);
      start = -1;
    }
  }
  if (start >= 0) sink(start, s.length);
}

function wordBlock(s: string, seed: number, terms: Terms | undefined, vectors?: WordVectors): void {
  let prev = 0;
  let prevStart = -1;
  let prevEnd = -1;
  tokenize(s, (start, end) => {
    const h = hashString(seed, s, start, end);
    add(h, 1);
    if (vectors) addWordVector(vectors, h);
    if (terms) addTerm(terms, h, start, end, -1);
    if (prevStart >= 0) {
      const hb = Math.imul(SEED_BIGRAM ^ prev, FNV_PRIME) ^ Math.imul(h, 0x9e3779b1);
      const hb2 = Math.imul(hb ^ (hb >>> 15), FNV_PRIME);
      add(hb2, 1);
      if (terms) addTerm(terms, hb2, prevStart, end, prevEnd);
    }
    prev = h;
    prevStart = start;
    prevEnd = end;
  });
}

const codes = new Uint16Array(CHAR_HEAD_CHARS + CHAR_TAIL_CHARS + 16);

function charBlock(s: string): void {
  // Whitespace runs count as one space and the text is padded so word edges form n-grams.
  const len = Math.min(s.length, codes.length - 2);
  let last = 0x20;
  let n = 0;
  codes[n++] = 0x20;
  for (let i = 0; i < len; i++) {
    let c = s.charCodeAt(i);
    if (c === 0x0a || c === 0x09 || c === 0x0d) c = 0x20;
    if (c === 0x20 && last === 0x20) continue;
    codes[n++] = c;
    last = c;
  }
  if (last !== 0x20) codes[n++] = 0x20;
  for (let i = 0; i < n; i++) {
    let h = SEED_CHAR;
    const stop = Math.min(n, i + 5);
    for (let j = i; j < stop; j++) {
      h = Math.imul(h ^ codes[j], FNV_PRIME);
      if (j - i >= 2) add(h, 1);
    }
  }
}

function contextBlock(s: string, seed: number): void {
  tokenize(s, (start, end) => add(hashString(seed, s, start, end), 1));
}

/**
 * Writes the features of `input` into `out` (reset first). When `terms` is given it receives
 * the request's words and word pairs with the value each contributed, for explanations.
 */
export function extractFeatures(input: FeatureInput, out: SparseVector, terms?: Terms): void {
  out.n = 0;
  const text = capText(input.text);

  if (terms) {
    terms.text = text;
    terms.n = 0;
  }
  wordBlock(text, SEED_WORD, terms, useWordVectors());
  const wordScale = flush(out, BLOCK_WEIGHT.words);
  if (terms) {
    // Value per term after damping and scaling; repeated terms are rare enough to treat as 1.
    const unit = Math.log1p(1) * wordScale;
    for (let i = 0; i < terms.n; i++) terms.value[i] *= unit;
  }

  const lead = text.length > 2 * LEAD_CHARS ? `${text.slice(0, LEAD_CHARS)}\n${text.slice(text.length - LEAD_CHARS)}` : text;
  wordBlock(lead, SEED_LEAD, undefined);
  flush(out, BLOCK_WEIGHT.lead);

  charBlock(text.length > CHAR_HEAD_CHARS + CHAR_TAIL_CHARS ? `${text.slice(0, CHAR_HEAD_CHARS)} ${text.slice(text.length - CHAR_TAIL_CHARS)}` : text);
  flush(out, BLOCK_WEIGHT.chars);

  if (input.system) {
    contextBlock(capText(input.system, CONTEXT_CHARS, 0), SEED_SYSTEM);
    flush(out, BLOCK_WEIGHT.system);
  }
  if (input.toolResult) {
    contextBlock(capText(input.toolResult, CONTEXT_CHARS, 0), SEED_TOOL);
    flush(out, BLOCK_WEIGHT.tool);
  }

  push(out, DENSE.bias, 1);
  push(out, DENSE.logLength, Math.log1p(input.text.length) / 8);
  // Looked for in the capped text only: scanning a megabyte paste would cost more than the rest.
  if (text.includes('```') || (input.toolResult !== undefined && capText(input.toolResult, CONTEXT_CHARS, 0).includes('```'))) push(out, DENSE.codeFence, 1);
  if (input.afterTool) push(out, DENSE.toolResult, 1);
  push(out, DENSE.turns, Math.log1p(Math.max(0, input.turns)) / 3);
  if (input.system) push(out, DENSE.hasSystem, 1);
  flushEmbedding(out, BLOCK_WEIGHT.embedding);
}

/** A chat message as the gateway receives it; content may also arrive as content parts. */
export interface ChatMessage {
  role: string;
  content: string;
}

/** Text of a message content, accepting the content-parts form as well. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let s = '';
    for (const part of content) {
      if (typeof part === 'string') s += (s ? '\n' : '') + part;
      else if (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string') {
        s += (s ? '\n' : '') + (part as { text: string }).text;
      }
    }
    return s;
  }
  return '';
}

const SYSTEM_ROLES = new Set(['system', 'developer']);
const TOOL_ROLES = new Set(['tool', 'function']);

/**
 * Builds the classifier input from a chat request: the last user message, the system prompt
 * (the explicit one, else the first system/developer message) and the tool result that came
 * after the last user message, if the turn continues an agent loop.
 */
export function inputFromMessages(system: string | undefined, messages: ReadonlyArray<ChatMessage>): FeatureInput {
  let lastUser = -1;
  let turns = 0;
  let firstSystem: string | undefined;
  for (let i = 0; i < messages.length; i++) {
    const role = messages[i].role;
    if (SYSTEM_ROLES.has(role)) {
      if (firstSystem === undefined) firstSystem = contentText(messages[i].content);
      continue;
    }
    turns++;
    if (role === 'user') lastUser = i;
  }
  let text = '';
  if (lastUser >= 0) text = contentText(messages[lastUser].content);
  else {
    for (let i = messages.length - 1; i >= 0; i--) {
      if (!SYSTEM_ROLES.has(messages[i].role)) {
        text = contentText(messages[i].content);
        break;
      }
    }
  }
  let toolResult: string | undefined;
  let afterTool = false;
  for (let i = messages.length - 1; i > lastUser; i--) {
    if (TOOL_ROLES.has(messages[i].role)) {
      afterTool = true;
      toolResult = contentText(messages[i].content);
      break;
    }
  }
  const sys = system ?? firstSystem;
  return { text, system: sys || undefined, toolResult: toolResult || undefined, afterTool, turns };
}
