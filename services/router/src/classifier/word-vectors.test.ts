import { DENSE, EMBEDDING_DIM, extractFeatures, newSparseVector, useWordVectors } from './features';
import { lookup, parseWordVectors } from './word-vectors';

/** The word-vector block of a request's features, as a dense array. */
function embedding(text: string): number[] {
  const v = newSparseVector();
  extractFeatures({ text, afterTool: false, turns: 1 }, v);
  const out = new Array<number>(EMBEDDING_DIM).fill(0);
  for (let i = 0; i < v.n; i++) if (v.idx[i] >= DENSE.embedding) out[v.idx[i] - DENSE.embedding] += v.val[i];
  return out;
}

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('word vectors', () => {
  it('loads the committed table: 50,000 words of 100 dimensions, each findable by its hash', () => {
    const table = useWordVectors();
    expect(table.words).toBe(50_000);
    expect(table.dim).toBe(EMBEDDING_DIM);
    // Frequent function words weigh little in a request's mean, rarer words nearly fully.
    expect(table.weight[0]).toBe(0);
    expect(table.weight[20_000]).toBeGreaterThan(0.98);
  });

  it('puts a request near the requests that mean the same, in words no training row needs to share', () => {
    const poem = embedding('Write a poem about autumn');
    const verses = embedding('Compose some verses on the fall season');
    const sql = embedding('Write a query joining the orders and customers tables');
    expect(cosine(poem, verses)).toBeGreaterThan(cosine(poem, sql) + 0.2);
    // Unit length (the block's weight), and nothing for a request without a known word.
    expect(Math.sqrt(cosine(poem, poem))).toBeCloseTo(1, 5);
    expect(embedding('zqxj 请用').every((x) => x === 0)).toBe(true);
  });

  it('rejects a file that is not a table, and keeps the first of two words with one hash', () => {
    expect(() => parseWordVectors(Buffer.from('nope'), () => 0)).toThrow(/SVWV/);
    const header = Buffer.alloc(20);
    header.write('SVWV', 0, 'ascii');
    header.writeUInt32LE(1, 4);
    header.writeUInt32LE(2, 8);
    header.writeUInt32LE(2, 12);
    const vocab = Buffer.from('a\nb');
    header.writeUInt32LE(vocab.length, 16);
    const table = parseWordVectors(Buffer.concat([header, vocab, Buffer.from([127, 0, 0, 127])]), () => 7);
    expect(lookup(table, 7)).toBe(0);
    expect(lookup(table, 8)).toBe(-1);
    expect(() => parseWordVectors(Buffer.concat([header, vocab, Buffer.from([1])]), () => 7)).toThrow(/truncated/);
  });
});
