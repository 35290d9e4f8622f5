/**
 * Pre-trained English word vectors for the classifier (data/word-vectors.bin, built by
 * training/build-word-vectors.mjs from GloVe's 100-dimensional vectors): a request worded
 * unlike any training row ("jot down verses about autumn") still lands near the rows that
 * share its meaning ("write a poem about fall"), which the hashed words alone cannot do.
 *
 * Looked up by the same 32-bit hash the feature extractor already computes for every word,
 * in an open-addressed table, so a lookup allocates nothing.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface WordVectors {
  words: number;
  dim: number;
  /** words × dim, each row round(127 · unit vector). */
  vectors: Int8Array;
  /** How much a word counts in a request's mean: frequent words (the, of, please) count little. */
  weight: Float32Array;
  /** Open-addressed table: slot → word hash, and slot → row + 1 (0 = empty). */
  keys: Int32Array;
  rows: Int32Array;
  mask: number;
}

/** Dimensions of the committed table; the feature layout is built around it. */
export const EMBEDDING_DIM = 100;

export const DEFAULT_WORD_VECTORS_PATH = resolve(__dirname, '..', '..', 'data', 'word-vectors.bin');

/**
 * A word's weight by its frequency rank: rank / (rank + 200), after smooth inverse frequency
 * (Arora et al.: a / (a + p(w)) with Zipf's p(w) ∝ 1 / rank), so the mean is about what the
 * request is about, not about its function words.
 */
const RANK_HALF_WEIGHT = 200;

export function parseWordVectors(buf: Buffer, hash: (word: string) => number): WordVectors {
  if (buf.toString('ascii', 0, 4) !== 'SVWV' || buf.readUInt32LE(4) !== 1) throw new Error('word vectors: not an SVWV format 1 file');
  const words = buf.readUInt32LE(8);
  const dim = buf.readUInt32LE(12);
  const vocabBytes = buf.readUInt32LE(16);
  const vocab = buf.toString('utf8', 20, 20 + vocabBytes).split('\n');
  if (vocab.length !== words) throw new Error('word vectors: vocabulary size does not match the header');
  const start = 20 + vocabBytes;
  if (buf.length !== start + words * dim) throw new Error('word vectors: file is truncated');
  const vectors = new Int8Array(buf.buffer, buf.byteOffset + start, words * dim);
  let size = 1;
  while (size < words * 2) size <<= 1;
  const keys = new Int32Array(size);
  const rows = new Int32Array(size);
  const mask = size - 1;
  const weight = new Float32Array(words);
  for (let i = 0; i < words; i++) {
    weight[i] = i / (i + RANK_HALF_WEIGHT);
    const h = hash(vocab[i]);
    let s = h & mask;
    while (rows[s] !== 0 && keys[s] !== h) s = (s + 1) & mask;
    if (rows[s] !== 0) continue; // a later word with the same hash as a more frequent one: keep the first
    keys[s] = h;
    rows[s] = i + 1;
  }
  return { words, dim, vectors, weight, keys, rows, mask };
}

/** Row of the word with hash `h`, or -1. */
export function lookup(table: WordVectors, h: number): number {
  let s = h & table.mask;
  for (;;) {
    const r = table.rows[s];
    if (r === 0) return -1;
    if (table.keys[s] === h) return r - 1;
    s = (s + 1) & table.mask;
  }
}

export function loadWordVectors(hash: (word: string) => number, path: string = DEFAULT_WORD_VECTORS_PATH): WordVectors {
  return parseWordVectors(readFileSync(path), hash);
}
