import {
  BUCKETS, DENSE, FEATURE_DIM, TEXT_HEAD_CHARS, TEXT_TAIL_CHARS, capText, contentText, extractFeatures,
  inputFromMessages, newSparseVector, newTerms, termText,
} from './features';

function features(text: string, extra: Partial<Parameters<typeof extractFeatures>[0]> = {}) {
  const v = newSparseVector();
  extractFeatures({ text, afterTool: false, turns: 1, ...extra }, v);
  return { idx: Array.from(v.idx.slice(0, v.n)), val: Array.from(v.val.slice(0, v.n)) };
}

describe('extractFeatures', () => {
  it('is deterministic and stays inside the feature space', () => {
    const a = features('Why does my Python script throw KeyError: amount?');
    const b = features('Why does my Python script throw KeyError: amount?');
    expect(a).toEqual(b);
    expect(a.idx.every((i) => i >= 0 && i < FEATURE_DIM)).toBe(true);
    expect(a.val.every((x) => Number.isFinite(x))).toBe(true);
  });

  it('lowercases, so case does not change the hashed features', () => {
    const a = features('TRANSLATE THIS INTO FRENCH');
    const b = features('translate this into french');
    expect(a).toEqual(b);
  });

  it('adds the dense context features', () => {
    const plain = features('hello');
    expect(plain.idx).toContain(DENSE.bias);
    expect(plain.idx).not.toContain(DENSE.toolResult);
    expect(plain.idx).not.toContain(DENSE.codeFence);
    const rich = features('fix this\n```js\nx()\n```', { afterTool: true, toolResult: 'exit 1', system: 'You are a coding agent.', turns: 9 });
    expect(rich.idx).toEqual(expect.arrayContaining([DENSE.toolResult, DENSE.codeFence, DENSE.hasSystem, DENSE.turns]));
    expect(rich.idx.filter((i) => i < BUCKETS).length).toBeGreaterThan(plain.idx.filter((i) => i < BUCKETS).length);
  });

  it('handles empty text and CJK text', () => {
    expect(features('').idx).toContain(DENSE.bias);
    const zh = features('请用Python写一个快速排序');
    expect(zh.idx.length).toBeGreaterThan(10);
  });

  it('reports the words it saw, with word pairs, for explanations', () => {
    const v = newSparseVector();
    const terms = newTerms();
    extractFeatures({ text: 'Stack trace from the failing test, 请用Python写', afterTool: false, turns: 1 }, v, terms);
    const words = Array.from({ length: terms.n }, (_, i) => termText(terms, i));
    expect(words).toEqual(expect.arrayContaining(['stack', 'trace', 'stack trace', 'failing test', 'test 请', '请用', 'python 写']));
    expect(Array.from(terms.index.slice(0, terms.n)).every((i) => i >= 0 && i < BUCKETS)).toBe(true);
  });

  it.each([
    ['a short request', 'Why does my Python script throw KeyError: amount? It worked yesterday, the script is the same.'],
    // The most terms a block can hold: every capped character a word of its own, each pair a bigram.
    ['2,000 distinct CJK characters', Array.from({ length: 4000 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7) % 20000))).join('')],
  ])('emits every bucket its word block touched, once, in first-touch order (%s)', (_label, text) => {
    const v = newSparseVector();
    const terms = newTerms(16384);
    extractFeatures({ text, afterTool: false, turns: 1 }, v, terms);
    const firstTouch = [...new Set(Array.from(terms.index.slice(0, terms.n)))];
    expect(firstTouch.length).toBeGreaterThan(text.length > 1000 ? 3500 : 20);
    expect(Array.from(v.idx.slice(0, firstTouch.length))).toEqual(firstTouch);
    // The word block is scaled to unit length.
    const norm = Math.hypot(...Array.from(v.val.slice(0, firstTouch.length)));
    expect(norm).toBeCloseTo(1, 5);
  });

  it('caps very long text to its head and tail', () => {
    const long = 'a'.repeat(TEXT_HEAD_CHARS) + 'b'.repeat(100_000) + 'c'.repeat(TEXT_TAIL_CHARS);
    const capped = capText(long);
    expect(capped.length).toBeLessThan(TEXT_HEAD_CHARS + TEXT_TAIL_CHARS + 10);
    expect(capped.startsWith('a')).toBe(true);
    expect(capped.endsWith('c')).toBe(true);
  });
});

describe('inputFromMessages', () => {
  it('takes the last user message, the system prompt and a following tool result', () => {
    const input = inputFromMessages(undefined, [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'answer' },
      { role: 'user', content: 'search the web for the ECB decision' },
      { role: 'assistant', content: '' },
      { role: 'tool', content: '[1] Reuters: rates unchanged' },
    ]);
    expect(input).toEqual({
      text: 'search the web for the ECB decision',
      system: 'You are an agent.',
      toolResult: '[1] Reuters: rates unchanged',
      afterTool: true,
      turns: 5,
    });
  });

  it('prefers the explicit system prompt and ignores tool results before the last user message', () => {
    const input = inputFromMessages('explicit', [
      { role: 'developer', content: 'from messages' },
      { role: 'tool', content: 'old output' },
      { role: 'user', content: 'hi' },
    ]);
    expect(input.system).toBe('explicit');
    expect(input.afterTool).toBe(false);
    expect(input.toolResult).toBeUndefined();
  });

  it('falls back to the last non-system message when there is no user message', () => {
    expect(inputFromMessages(undefined, [{ role: 'assistant', content: 'only me' }]).text).toBe('only me');
    expect(inputFromMessages(undefined, []).text).toBe('');
  });

  it('reads content given as parts', () => {
    expect(contentText([{ type: 'text', text: 'a' }, { type: 'image_url' }, 'b'])).toBe('a\nb');
    expect(contentText(null)).toBe('');
  });
});
