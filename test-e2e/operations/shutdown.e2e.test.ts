import { fleetState, spawnEdge } from '../support/fleet-state';

describe('graceful shutdown under load', () => {
  it('an edge given SIGTERM while serving 30 calls finishes every one it accepted, then exits 0', async () => {
    const state = fleetState();
    const edge = await spawnEdge({ IP_RATE_LIMIT_PER_MINUTE: '1000000', SHUTDOWN_GRACE_MS: '20000' });
    const payload = (stream: boolean) => JSON.stringify({ model: 'vendor-1/orion-mini-5', stream, max_tokens: 20, messages: [{ role: 'user', content: 'tell me something' }] });
    const calls = Array.from({ length: 30 }, (_, i) => {
      const stream = i % 3 === 0;
      // Slow vendors: unary calls wait about a second, streams trickle out tokens.
      const headers: Record<string, string> = { authorization: `Bearer ${state.apiKey}`, ...(stream ? { 'x-sim-tps': '20' } : { 'x-sim-fault': 'hang:1000' }) };
      return fetch(`${edge.baseUrl}/chat/completions`, { method: 'POST', headers, body: payload(stream) }).then(async (response) => ({ status: response.status, stream, text: await response.text() }));
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    edge.process.kill('SIGTERM');
    const results = await Promise.all(calls);
    for (const result of results) {
      expect(result.status).toBe(200);
      if (result.stream) {
        expect(result.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
        expect(result.text).not.toContain('"error"');
      } else {
        expect(JSON.parse(result.text).object).toBe('chat.completion');
      }
    }
    // One SIGTERM only: a second one means "exit now" by design.
    expect(await edge.exited).toBe(0);
    await expect(fetch(`${edge.baseUrl.replace('/v1', '')}/healthz`)).rejects.toThrow();
  });
});
