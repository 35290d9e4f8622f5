#!/usr/bin/env node
// Times in-process classification: p50/p99 over 10k classify() calls on a mix of corpus
// rows (short and long, chat and agent), a 100-message conversation, a very long paste and
// inputs of 1 MB (one unbroken 1 MB token, a 1 MB paste, a 1 MB system prompt), and prints the
// p99 of the 1 MB inputs on their own: the classifier reads a bounded head and tail, so its
// time must not grow with the input.
//
//   node scripts/bench-classifier.mjs [--n=10000]
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
require('../training/ts-hook.cjs');
const { loadClassifier } = require('../src/classifier/index.ts');
const { readCorpus } = require('../training/corpus.ts');

const here = dirname(fileURLToPath(import.meta.url));
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const N = Number(args.n ?? 10000);

const classifier = loadClassifier();
const rows = readCorpus(join(here, '..', 'data', 'corpus.jsonl'));

function toRequest(row) {
  const messages = [{ role: 'user', content: row.text }];
  if (row.tool_result !== undefined) {
    messages.push({ role: 'assistant', content: '' }, { role: 'tool', content: row.tool_result });
  }
  return { system: row.system, messages };
}

const inputs = rows.map(toRequest);
const longConversation = {
  system: 'You are a helpful assistant.',
  messages: Array.from({ length: 100 }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `Message ${i}: ${'we keep discussing the quarterly numbers and the migration plan. '.repeat(10)}`,
  })),
};
const longPaste = { messages: [{ role: 'user', content: `Summarize this:\n${'The committee reviewed the budget line by line. '.repeat(4000)}` }] };
const MB = 1 << 20;
const hugeInputs = [
  { messages: [{ role: 'user', content: 'x'.repeat(MB) }] },
  { messages: [{ role: 'user', content: `Summarize:\n${'The board met and agreed the plan. '.repeat(Math.ceil(MB / 34))}`.slice(0, MB) }] },
  { system: 'y'.repeat(MB), messages: [{ role: 'user', content: 'How many orders were placed last week? Use the tool.' }] },
  { messages: [{ role: 'user', content: `${'∑'.repeat(MB / 2)}${'漢'.repeat(MB / 2)}` }] },
];
inputs.push(longConversation, longPaste);

// Warm up the JIT before timing.
for (let i = 0; i < 2000; i++) classifier.classify(inputs[i % inputs.length]);

const times = new Float64Array(N);
for (let i = 0; i < N; i++) {
  // Every 50th call is one of the two worst cases.
  const input = i % 50 === 0 ? (i % 100 === 0 ? longConversation : longPaste) : inputs[(i * 7919) % inputs.length];
  const t0 = process.hrtime.bigint();
  classifier.classify(input);
  times[i] = Number(process.hrtime.bigint() - t0) / 1e6;
}
times.sort();
const q = (p) => times[Math.min(N - 1, Math.floor(p * N))];

// Wall time includes whatever else the machine runs; the CPU time this process spent on each
// call (process.cpuUsage, microseconds) is printed beside it so a busy machine does not hide
// what the classifier itself costs.
const H = 2000;
const huge = new Float64Array(H);
const hugeCpu = new Float64Array(H);
for (let i = 0; i < H; i++) {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  classifier.classify(hugeInputs[i % hugeInputs.length]);
  huge[i] = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  hugeCpu[i] = (c.user + c.system) / 1e3;
}
huge.sort();
hugeCpu.sort();
console.log(`1 MB inputs: ${H} classifications, wall p50 ${huge[H / 2].toFixed(3)} ms, p99 ${huge[Math.floor(H * 0.99)].toFixed(3)} ms, max ${huge[H - 1].toFixed(3)} ms; CPU p50 ${hugeCpu[H / 2].toFixed(3)} ms, p99 ${hugeCpu[Math.floor(H * 0.99)].toFixed(3)} ms`);
console.log(`classifications: ${N}`);
console.log(`p50  ${q(0.5).toFixed(3)} ms`);
console.log(`p90  ${q(0.9).toFixed(3)} ms`);
console.log(`p99  ${q(0.99).toFixed(3)} ms`);
console.log(`max  ${times[N - 1].toFixed(3)} ms`);
