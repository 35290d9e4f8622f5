import type { VendorMessage } from '@svc/vendors';
import { countInputTokensUpTo, estimateChatTokens, estimateContextTokens, estimateEmbeddingTokens, estimateInputTokens, IMAGE_CHARACTERS } from './tokens';

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


describe('countInputTokensUpTo (the Free plan input limit)', () => {
  const user = (text: string): VendorMessage => ({ role: 'user', content: [{ type: 'text', text }] });
  const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ');

  it('counts tokens, not characters / 4: 15,999 words are 15,999 tokens although their estimate passes 16,000', () => {
    const request = { messages: [user(words(15_999))], images: [] };
    expect(estimateInputTokens(request)).toBeGreaterThan(16_000);
    expect(countInputTokensUpTo(request, 16_000)).toBe(15_999);
  });

  it('stops one past the limit, over system prompt, messages and tool calls together', () => {
    const request = {
      system: words(6_000),
      messages: [user(words(5_000)), { role: 'assistant', content: words(3_000), toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }] } as VendorMessage, { role: 'tool', toolCallId: 'c', content: words(3_000) } as VendorMessage],
      images: [],
    };
    expect(countInputTokensUpTo(request, 16_000)).toBe(16_001);
    // Short single letters: two characters a token, where the estimate counts half of them.
    const letters = { messages: [user(Array.from({ length: 17_000 }, () => 'a').join(' '))], images: [] };
    expect(estimateInputTokens(letters)).toBeLessThan(16_000);
    expect(countInputTokensUpTo(letters, 16_000)).toBe(16_001);
  });

  it('counts an image as IMAGE_CHARACTERS / 4, in the messages or still to be downloaded', () => {
    const request = { messages: [{ role: 'user', content: [{ type: 'text', text: 'word' }, { type: 'image', url: 'data:,' }] } as unknown as VendorMessage], images: [{ decoded: true }, { decoded: false }] };
    expect(countInputTokensUpTo(request, 16_000)).toBe(1 + 2 * (IMAGE_CHARACTERS / 4));
  });
});

describe('estimateContextTokens (the context-window fit of routing)', () => {
  const user = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });

  it('is characters / 4 for ASCII text, as the charging estimate', () => {
    expect(estimateContextTokens({ system: 'Be brief.', messages: [user('Say hello.')], images: [] })).toBe(Math.ceil(19 / 4));
  });

  it('counts a character outside ASCII as a token (accented, CJK), so text of other scripts is not undercounted fourfold', () => {
    expect(estimateContextTokens({ messages: [user('é'.repeat(1_000_000))], images: [] })).toBe(1_000_000);
    expect(estimateContextTokens({ messages: [user('日本語のテキスト')], images: [] })).toBe(8);
    expect(estimateContextTokens({ messages: [user('abcd日本')], images: [{ decoded: false }] })).toBe(2 + Math.ceil((4 + 1000) / 4));
  });
});
