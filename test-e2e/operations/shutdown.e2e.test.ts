import { Client } from 'pg';
import { fleetState, newOrganization, spawnEdge } from '../support/fleet-state';

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

  it('a call still running near the end of the grace period is cut in time for its usage to be published: exits 0, the stream it sent part of billed', async () => {
    const state = fleetState();
    const { apiKey, organizationId } = newOrganization();
    // Grace 4 s: calls still running after 3 s are cut (a quarter of it kept for publishing usage).
    const edge = await spawnEdge({ IP_RATE_LIMIT_PER_MINUTE: '1000000', SHUTDOWN_GRACE_MS: '4000' });
    const response = await fetch(`${edge.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'x-sim-tps': '5' },
      body: JSON.stringify({ model: 'vendor-1/orion-mini-5', stream: true, max_tokens: 400, messages: [{ role: 'user', content: 'Write a long essay about rivers.' }] }),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    edge.process.kill('SIGTERM');
    let text = '';
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    // Cut before its end (400 tokens at 5 a second), and the edge still exited on its own.
    expect(text).not.toContain('data: [DONE]');
    expect(await edge.exited).toBe(0);
    const db = new Client({ connectionString: state.env.DATABASE_URL });
    await db.connect();
    try {
      let rows: Array<{ output_tokens: number }> = [];
      for (let i = 0; i < 30 && rows.length === 0; i += 1) {
        rows = (await db.query('SELECT output_tokens FROM billing.ledger_entry WHERE organization_id = $1', [organizationId])).rows;
        if (rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(rows).toHaveLength(1);
      expect(rows[0]!.output_tokens).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
  });
});
