import { encode } from 'gpt-tokenizer';
import { chunkString, chunkText, countTokens, IMAGE_TOKENS, imageTokens, tokenize, truncateToTokens } from './tokens';
import { countPrompt } from './usage';

describe('tokens', () => {
  it('counts with the o200k tokenizer', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello')).toBe(1);
    expect(countTokens('hello world')).toBe(2);
  });

  it('counts an image as a fixed number of tokens, whatever its size', () => {
    expect(imageTokens('a')).toHaveLength(IMAGE_TOKENS);
    expect(countPrompt([{ text: 'hello' }, { image: 'x'.repeat(100_000) }])).toBe(1 + IMAGE_TOKENS);
    expect(imageTokens('a')).not.toEqual(imageTokens('b'));
  });

  it('truncates to a token limit', () => {
    expect(truncateToTokens('one two three four', 2)).toEqual({ text: 'one two', tokens: 2, truncated: true });
    expect(truncateToTokens('one two', 5)).toEqual({ text: 'one two', tokens: 2, truncated: false });
    expect(truncateToTokens('one two', 0)).toEqual({ text: '', tokens: 0, truncated: true });
  });

  it('chunks text so that the pieces join back exactly', () => {
    const text = '  Hello there,\n\nworld.  Again ';
    expect(chunkText(text, 1).join('')).toBe(text);
    expect(chunkText(text, 3).join('')).toBe(text);
    expect(chunkText('', 1)).toEqual([]);
    expect(chunkString('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
  });
});

describe('long unbroken text (linear, not quadratic)', () => {
  it('counts 300 KB without a space in well under a second', () => {
    const started = performance.now();
    const count = countTokens('a'.repeat(300_000));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(count).toBeGreaterThan(300_000 / 200);
  });

  it('counts ordinary text exactly as before (runs under the slice length)', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(50);
    expect(tokenize(text)).toEqual(encode(text));
  });

  it('slices only the long runs, keeping the text around them', () => {
    const text = `before ${'x'.repeat(450)} after`;
    expect(tokenize(text).length).toBeGreaterThan(tokenize('before  after').length);
  });
});
