import { encode } from 'gpt-tokenizer';
import { countTokens, countTokensUpTo, decode, tokenize } from './index';

const words = (n: number, word = 'word') => Array.from({ length: n }, () => word).join(' ');

describe('tokenizer', () => {
  it('counts a real byte-pair encoding: a common word with its space is one token', () => {
    expect(countTokens('word')).toBe(1);
    expect(countTokens(words(1000))).toBe(1000);
    expect(countTokens('')).toBe(0);
    expect(decode(tokenize('hello, world'))).toBe('hello, world');
  });

  it('counts up to a limit and stops there', () => {
    expect(countTokensUpTo([words(15_999)], 16_000)).toBe(15_999);
    expect(countTokensUpTo([words(16_000)], 16_000)).toBe(16_000);
    expect(countTokensUpTo([words(16_001)], 16_000)).toBe(16_001);
    expect(countTokensUpTo([words(100_000)], 16_000)).toBe(16_001);
    // Several texts count together.
    expect(countTokensUpTo([words(8_000), words(8_001)], 16_000)).toBe(16_001);
    expect(countTokensUpTo([], 10)).toBe(0);
  });

  it('counts text cut into pieces as it counts it whole', () => {
    const text = Array.from({ length: 3000 }, (_, i) => `token${i % 97} and, more: ${i}.`).join(' ');
    expect(text.length).toBeGreaterThan(4096 * 10);
    expect(countTokensUpTo([text], 1_000_000)).toBe(countTokens(text));
  });

  it('stays linear on one unbroken megabyte, of letters or of spaces', () => {
    for (const text of ['x'.repeat(1_000_000), ' '.repeat(1_000_000), '漢'.repeat(500_000)]) {
      const started = performance.now();
      const count = countTokensUpTo([text], 16_000);
      expect(count).toBeGreaterThan(0);
      // A quadratic encoder takes many seconds here; bounded pieces take milliseconds.
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });

  it('counts CJK at about a token a character, where characters / 4 would count a quarter', () => {
    const text = '漢字のテスト文章です。'.repeat(2000);
    expect(countTokensUpTo([text], 100_000)).toBeGreaterThan(text.length / 4);
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
