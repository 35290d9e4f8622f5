import { estimateChatTokens, estimateEmbeddingTokens } from './tokens';

describe('estimateChatTokens', () => {
  it('is the input estimate plus max_tokens capped at the model output', () => {
    expect(estimateChatTokens(1200, 500, 8192)).toBe(1700);
    expect(estimateChatTokens(1200, 50_000, 8192)).toBe(1200 + 8192);
  });

  it('uses the 16000 default when max_tokens is absent, still capped at the model output', () => {
    expect(estimateChatTokens(100, undefined, 32_000)).toBe(16_100);
    expect(estimateChatTokens(100, undefined, 4096)).toBe(4196);
    expect(estimateChatTokens(100, undefined, 32_000, 2000)).toBe(2100);
  });

  it('rounds fractions up and never goes negative', () => {
    expect(estimateChatTokens(10.2, 5.5, 100)).toBe(17);
    expect(estimateChatTokens(-3, 0, 100)).toBe(0);
  });

  it('leaves max_tokens uncapped when the model output is unknown (0)', () => {
    expect(estimateChatTokens(10, 300, 0)).toBe(310);
  });
});

describe('estimateEmbeddingTokens', () => {
  it('is one token per four characters over all inputs, rounded up', () => {
    expect(estimateEmbeddingTokens(['abcd'])).toBe(1);
    expect(estimateEmbeddingTokens(['abcde'])).toBe(2);
    expect(estimateEmbeddingTokens(['abc', 'def', 'gh'])).toBe(2);
    expect(estimateEmbeddingTokens(['x'.repeat(4000), 'y'.repeat(1)])).toBe(1001);
    expect(estimateEmbeddingTokens([])).toBe(0);
    expect(estimateEmbeddingTokens([''])).toBe(0);
  });
});

