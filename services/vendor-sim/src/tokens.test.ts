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
