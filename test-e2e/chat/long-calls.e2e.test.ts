import { Client } from 'pg';
import { fleetState, newOrganization, spawnEdge } from '../support/fleet-state';

const MODEL = 'vendor-1/orion-mini-5';

describe('long calls (spec: Long calls), with intervals shortened', () => {
  const state = fleetState();
  let edge: Awaited<ReturnType<typeof spawnEdge>>;
  beforeAll(async () => {
    edge = await spawnEdge({ LONG_CALL_COMMIT_MS: '300', KEEPALIVE_INTERVAL_MS: '200', IP_RATE_LIMIT_PER_MINUTE: '1000000' });
  });
  afterAll(async () => {
    expect(await edge.stop()).toBe(0);
  });

  const call = (headers: Record<string, string>, payload: Record<string, unknown> = {}, signal?: AbortSignal) =>
    fetch(`${edge.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, ...headers },
      body: JSON.stringify({ model: MODEL, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }], ...payload }),
      signal,
    });

  it('a slow non-streamed call commits its 200, writes spaces, then the JSON body without x-svc-vendor', async () => {
    const response = await call({ 'x-sim-fault': 'hang:900' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-svc-vendor')).toBeNull();
    const text = await response.text();
    expect(text.startsWith('  ')).toBe(true);
    const body = JSON.parse(text);
    expect(body.object).toBe('chat.completion');
    expect(body.svc).toMatchObject({ vendor: 'vendor-1', model_served: MODEL });
  });

  it('a failure after the commit is a chat.completion with choices [] and an error object', async () => {
    const response = await call({ 'x-sim-fault': 'hang:700,status:500', 'x-svc-fallback': 'none' });
    expect(response.status).toBe(200);
    const body = JSON.parse(await response.text());
    expect(body).toMatchObject({ object: 'chat.completion', choices: [], error: { type: 'server_error', code: 'upstream_error', message: expect.any(String) } });
    expect(body.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    // The headers went out before a vendor was chosen: the body names the vendor and model tried (Long calls 2).
    expect(body.svc).toMatchObject({ vendor: 'vendor-1', model_served: MODEL, cost_micros: 0 });
  });

  it('a stream sends `: keepalive` while the vendor is silent, then the chunks and [DONE]', async () => {
    const response = await call({ 'x-sim-ttft-ms': '700' }, { stream: true });
    expect(response.status).toBe(200);
    const text = await response.text();
    const firstData = text.indexOf('data: ');
    expect(text.indexOf(': keepalive\n\n')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf(': keepalive\n\n')).toBeLessThan(firstData);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('a stream that fails before any data after a keepalive sends one error event then [DONE]', async () => {
    const response = await call({ 'x-sim-fault': 'hang:700,status:500', 'x-svc-fallback': 'none' }, { stream: true });
    expect(response.status).toBe(200);
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events[0]).toBe(': keepalive');
    const data = events.filter((event) => event.startsWith('data: '));
    expect(data).toHaveLength(2);
    expect(JSON.parse(data[0].slice(6))).toEqual({ error: { message: expect.any(String), type: 'server_error', code: 'upstream_error' } });
    expect(data[1]).toBe('data: [DONE]');
  });

  it('a client that disconnects from a non-streamed call is not billed', async () => {
    const { apiKey, organizationId } = newOrganization();
    const controller = new AbortController();
    const pending = fetch(`${edge.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'x-sim-fault': 'hang:600' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
      signal: controller.signal,
    }).catch(() => undefined);
    setTimeout(() => controller.abort(), 150);
    await pending;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const db = new Client({ connectionString: state.env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT count(*)::int AS n FROM billing.ledger_entry WHERE organization_id = $1', [organizationId]);
      expect(rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
  });

  it('a client that leaves a stream once it began is billed for what it was sent (the prompt and the output received)', async () => {
    const { apiKey, organizationId } = newOrganization();
    const controller = new AbortController();
    const response = await fetch(`${edge.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'x-sim-tps': '40' },
      body: JSON.stringify({ model: MODEL, stream: true, max_tokens: 400, messages: [{ role: 'user', content: 'Write a long poem about the mountains, please.' }] }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let received = '';
    while ((received.match(/./gu) ?? []).length < 40) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended before the client left');
      text += decoder.decode(value, { stream: true });
      received = text
        .split('\n\n')
        .filter((event) => event.startsWith('data: {'))
        .map((event) => (JSON.parse(event.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
        .join('');
    }
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const db = new Client({ connectionString: state.env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT input_tokens, output_tokens, cost_micros::int AS cost FROM billing.ledger_entry WHERE organization_id = $1', [organizationId]);
      expect(rows).toHaveLength(1);
      expect(rows[0].input_tokens).toBeGreaterThan(0);
      // At least what was received (about 4 characters a token), less than the whole answer's room.
      expect(rows[0].output_tokens).toBeGreaterThanOrEqual(Math.floor(received.length / 8));
      expect(rows[0].output_tokens).toBeLessThan(400);
      expect(rows[0].cost).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
  });
});
