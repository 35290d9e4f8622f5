import { readFileSync } from 'node:fs';
import { DEFAULT_WEIGHTS_PATH } from './index';
import { KERNEL_ROWS, OUTPUTS, WeightsFile, deserializeWeights, logits } from './model';
import { extractFeatures, inputFromMessages, newSparseVector, useWordVectors } from './features';

const model = deserializeWeights(JSON.parse(readFileSync(DEFAULT_WEIGHTS_PATH, 'utf8')) as WeightsFile);
useWordVectors();

/** The plain definition: each feature's row added into every output, then the column scales. */
function reference(x: ReturnType<typeof newSparseVector>): Float64Array {
  const out = new Float64Array(OUTPUTS);
  for (let i = 0; i < x.n; i++) {
    const r = model.rowOf[x.idx[i]];
    if (r < 0) continue;
    for (let k = 0; k < OUTPUTS; k++) out[k] += x.val[i] * model.weights[r * OUTPUTS + k];
  }
  for (let k = 0; k < OUTPUTS; k++) out[k] *= model.scales[k];
  return out;
}

describe('logits', () => {
  const texts = [
    'hi',
    'Write a Python function that merges two sorted lists.',
    `Summarize the minutes below.\n\n${'The board reviewed the budget and agreed the plan for the third quarter. '.repeat(60)}`,
    '∑'.repeat(5000) + '漢'.repeat(5000),
  ];

  it.each(texts.map((t) => [`${t.length} characters`, t]))('equals the row-by-row definition bit for bit (%s)', (_label, text) => {
    const x = newSparseVector();
    extractFeatures(inputFromMessages(undefined, [{ role: 'user', content: text }]), x);
    expect(x.n).toBeGreaterThan(0);
    const got = logits(model, x, new Float64Array(OUTPUTS));
    expect(Array.from(got)).toEqual(Array.from(reference(x)));
  });

  it.each(texts.map((t) => [`${t.length} characters`, t]))('sums the same in JavaScript, where the SIMD kernel is not used (%s)', (_label, text) => {
    const x = newSparseVector();
    extractFeatures(inputFromMessages(undefined, [{ role: 'user', content: text }]), x);
    const got = logits({ ...model, kernel: undefined }, x, new Float64Array(OUTPUTS));
    expect(Array.from(got)).toEqual(Array.from(reference(x)));
  });

  it('runs on the SIMD kernel, over the weights in its memory', () => {
    expect(model.kernel).toBeDefined();
    expect(model.weights.buffer).toBe(model.kernel!.rows.buffer);
  });

  /** Features that have a row, each `times` times over: far more entries than a request produces. */
  function longVector(entries: number) {
    const x = newSparseVector(4);
    const rows: number[] = [];
    for (let j = 0; j < model.rowOf.length && rows.length < entries; j++) if (model.rowOf[j] >= 0) rows.push(j);
    x.idx = Int32Array.from({ length: entries }, (_, i) => rows[i % rows.length]);
    x.val = Float32Array.from(x.idx, (_, i) => ((i % 7) - 3) / 10);
    x.n = x.idx.length;
    return x;
  }

  it.each([
    ['within the kernel', 40_000],
    ['past the kernel, in JavaScript', KERNEL_ROWS + 100],
  ])('sums a vector longer than any request makes (%s)', (_label, entries) => {
    const x = longVector(entries);
    expect(Array.from(logits(model, x, new Float64Array(OUTPUTS)))).toEqual(Array.from(reference(x)));
  });
});
