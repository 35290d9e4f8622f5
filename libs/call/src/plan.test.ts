import { routeMessages, routeText } from './plan';

describe('what routing reads of a request', () => {
  it('cuts any one text to its first and last 2000 characters', () => {
    expect(routeText('short')).toBe('short');
    const token = 'x'.repeat(100_000);
    expect(routeText(token)).toHaveLength(4000);
    const text = `${'a'.repeat(3000)}${'b'.repeat(3000)}`;
    expect(routeText(text)).toBe(`${'a'.repeat(2000)}${'b'.repeat(2000)}`);
  });

  it('bounds the last 12 messages whatever their size, parts or tool calls', () => {
    const parts = Array.from({ length: 100_000 }, (_, i) => ({ type: 'text' as const, text: `p${i} ` }));
    const calls = Array.from({ length: 10_000 }, (_, i) => ({ id: `c${i}`, name: `tool_${i}`, arguments: '{}' }));
    const messages = [
      ...Array.from({ length: 20 }, () => ({ role: 'user' as const, content: [{ type: 'text' as const, text: 'old' }] })),
      { role: 'user' as const, content: parts },
      { role: 'assistant' as const, content: null, toolCalls: calls },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'y'.repeat(1_000_000) }] },
    ];
    const out = routeMessages({ messages } as unknown as Parameters<typeof routeMessages>[0]);
    expect(out).toHaveLength(12);
    for (const m of out) expect(m.text.length).toBeLessThanOrEqual(4000);
    // The first and last parts of a long part list are what is read.
    expect(out[9].text.startsWith('p0 p1 ')).toBe(true);
    expect(out[9].text.endsWith('p99999 ')).toBe(true);
    expect(out[10].text).toContain('[tool call tool_0]');
    expect(out[10].text).toContain('[tool call tool_9999]');
  });
});
