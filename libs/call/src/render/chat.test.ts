import { compact, renderMessage, renderRouting, renderUsage } from './chat';

describe('render', () => {
  it('omits empty fields (RULINGS 2)', () => {
    expect(compact({ a: '', b: null, c: [], d: {}, e: 0, f: 'x', g: undefined })).toEqual({ e: 0, f: 'x' });
  });

  it('gives content null when only tool calls were produced', () => {
    expect(renderMessage({ content: '', toolCalls: [{ id: 'c', name: 'f', arguments: '' }] })).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
  });

  it('reports cached tokens only when some came from cache, and reasoning only when reported', () => {
    expect(renderUsage({ inputTokens: 10, outputTokens: 5, cachedTokens: 0, cacheWriteTokens: 0 })).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(renderUsage({ inputTokens: 10, outputTokens: 5, cachedTokens: 4, cacheWriteTokens: 0, reasoningTokens: 2 })).toMatchObject({
      prompt_tokens_details: { cached_tokens: 4 },
      completion_tokens_details: { reasoning_tokens: 2 },
    });
  });

  it('renders routing without zero values, keeping explicit', () => {
    expect(renderRouting({ trigger: 'explicit', line: '', difficulty: 0, confidence: 0, biased: false } as never)).toEqual({ trigger: 'explicit', confidence: 0 });
  });
});
