import OpenAI from 'openai';
import { Client } from 'pg';
import { fleetState, newOrganization, spawnEdge } from '../support/fleet-state';

/**
 * Background responses (spec: POST /v1/responses `background`, States and transitions,
 * POST /v1/responses/{id}/cancel): queued at once, run on the workers (response.run), polled with
 * GET; cancel in every state; billed once when answered, nothing when cancelled.
 */
const MODEL = 'vendor-1/orion-mini-5';
type Stored = { id: string; status: string; background: boolean; error: { code: string; message: string } | null; output: Array<{ type: string; content?: Array<{ text: string }> }>; conversation: { id: string } | null; svc?: Record<string, unknown> };

describe('background responses', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });
  let db: Client;

  beforeAll(async () => {
    db = new Client({ connectionString: state.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => db?.end());

  async function until(id: string, done: (response: Stored) => boolean, timeoutMs = 20_000): Promise<Stored> {
    const started = Date.now();
    for (;;) {
      const response = (await client.responses.retrieve(id)) as unknown as Stored;
      if (done(response) || Date.now() - started > timeoutMs) return response;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function ledgerRows(responseId: string): Promise<Array<{ cost_micros: string }>> {
    return (await db.query('SELECT cost_micros FROM billing.ledger_entry WHERE call_id = $1', [`call_${responseId.slice(5)}`])).rows;
  }

  async function cancel(id: string, apiKey = state.apiKey): Promise<{ status: number; body: Record<string, any> }> {
    const response = await fetch(`${state.baseUrl}/responses/${id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` } });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  it('returns at once with status queued and background true; the workers complete it; billed exactly once', async () => {
    const started = Date.now();
    const queued = (await client.responses.create({ model: MODEL, input: 'Say hello from the background.', background: true }, { headers: { 'x-sim-fault': 'hang:1500' } })) as unknown as Stored;
    expect(Date.now() - started).toBeLessThan(1500);
    expect(queued).toMatchObject({ status: 'queued', background: true, error: null, output: [] });
    // RULINGS 2: svc.cache and svc.tier are always present.
    expect((queued as unknown as { svc: Record<string, unknown> }).svc).toMatchObject({ cost_micros: 0, cache: { read_tokens: 0, write_tokens: 0, ttl_applied: '' }, tier: { requested: 'standard' } });
    expect(queued.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(queued.conversation?.id).toMatch(/^conv_[0-9a-f]{32}$/);
    // Readable at once, still queued while it runs.
    expect(((await client.responses.retrieve(queued.id)) as unknown as Stored).status).toBe('queued');
    const done = await until(queued.id, (response) => response.status !== 'queued');
    expect(done.status).toBe('completed');
    expect(done.background).toBe(true);
    expect(done.output[0]?.content?.[0]?.text).toEqual(expect.any(String));
    expect(done.svc).toMatchObject({ model_served: MODEL, session_id: queued.conversation?.id, tier: { requested: 'standard', applied: 'standard' } });
    let rows: Array<{ cost_micros: string }> = [];
    for (let i = 0; i < 50 && rows.length === 0; i += 1) {
      rows = await ledgerRows(queued.id);
      if (rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].cost_micros)).toBe(done.svc?.cost_micros);
  });

  it('a background turn continues a thread: previous_response_id works both ways', async () => {
    const first = await client.responses.create({ model: MODEL, input: 'Remember the word umbrella.' });
    const queued = (await client.responses.create({ model: MODEL, input: 'Which word?', previous_response_id: first.id, background: true })) as unknown as Stored;
    const done = await until(queued.id, (response) => response.status !== 'queued');
    expect(done.status).toBe('completed');
    expect(done.conversation?.id).toBe((first as unknown as Stored).conversation?.id);
    const next = await client.responses.create({ model: MODEL, input: 'And again?', previous_response_id: queued.id });
    expect(next.status).toBe('completed');
  });

  it('continuing from a response still queued: 400 invalid_value naming previous_response_id; fine once it ended', async () => {
    const queued = (await client.responses.create({ model: MODEL, input: 'Slow one.', background: true }, { headers: { 'x-sim-fault': 'hang:1500' } })) as unknown as Stored;
    const early = await fetch(`${state.baseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, input: 'Next.', previous_response_id: queued.id }),
    });
    expect(early.status).toBe(400);
    expect((await early.json()).error).toMatchObject({ code: 'invalid_value', param: 'previous_response_id' });
    expect((await until(queued.id, (response) => response.status !== 'queued')).status).toBe('completed');
    expect((await client.responses.create({ model: MODEL, input: 'Next.', previous_response_id: queued.id })).status).toBe('completed');
  });

  it('a 15-minute deadline runs the turn at flex', async () => {
    const queued = (await client.responses.create({ model: MODEL, input: 'No hurry.', background: true, svc: { deadline: '30m' } } as never)) as unknown as Stored;
    expect(queued.svc).toMatchObject({ tier: { requested: 'flex' } });
    const done = await until(queued.id, (response) => response.status !== 'queued');
    expect(done.svc).toMatchObject({ tier: { requested: 'flex', applied: 'flex' } });
  });

  it('a 24-hour deadline on a model without a batch tier: served as its own job, fallback no_batch_tier', async () => {
    const queued = (await client.responses.create({ model: 'vendor-6/deep-v3.2', input: 'Whenever.', background: true, svc: { deadline: '24h' } } as never)) as unknown as Stored;
    const done = await until(queued.id, (response) => response.status !== 'queued');
    expect(done.status).toBe('completed');
    expect(done.svc).toMatchObject({ tier: { requested: 'batch', applied: 'flex', fallback: 'no_batch_tier' } });
  });

  it('GET ?stream=true of a response still queued waits for it to end, then replays it (never a completed event for a queued object)', async () => {
    const queued = (await client.responses.create({ model: MODEL, input: 'Stream me when done.', background: true }, { headers: { 'x-sim-fault': 'hang:1500' } })) as unknown as Stored;
    const response = await fetch(`${state.baseUrl}/responses/${queued.id}?stream=true`, { headers: { authorization: `Bearer ${state.apiKey}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = (await response.text()).split('\n\n').filter((block) => block.startsWith('event: '));
    const last = JSON.parse(events[events.length - 1]!.split('\ndata: ')[1]!);
    expect(last).toMatchObject({ type: 'response.completed', response: { id: queued.id, status: 'completed' } });
    expect(last.response.output.length).toBeGreaterThan(0);
  });

  it('cancel while the turn runs: cancelled, the vendor call cut, nothing billed; GET keeps it cancelled', async () => {
    const queued = (await client.responses.create({ model: MODEL, input: 'Take your time.', background: true }, { headers: { 'x-sim-fault': 'hang:4000' } })) as unknown as Stored;
    await new Promise((resolve) => setTimeout(resolve, 800));
    const cancelled = await cancel(queued.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: queued.id, object: 'response', status: 'cancelled', background: true, error: { code: 'cancelled' }, svc: { cost_micros: 0, cache: { read_tokens: 0, write_tokens: 0, ttl_applied: '' } } });
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(((await client.responses.retrieve(queued.id)) as unknown as Stored).status).toBe('cancelled');
    expect(await ledgerRows(queued.id)).toHaveLength(0);
  });

  it('cancel of an ended response returns it as it is; a second cancel too', async () => {
    const queued = (await client.responses.create({ model: MODEL, input: 'Quick one.', background: true })) as unknown as Stored;
    const done = await until(queued.id, (response) => response.status !== 'queued');
    expect(done.status).toBe('completed');
    const again = await cancel(queued.id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: queued.id, status: 'completed' });
    expect(again.body.output).toEqual(done.output);
  });

  it('the SDK cancel method works', async () => {
    const queued = (await client.responses.create({ model: MODEL, input: 'Slow.', background: true }, { headers: { 'x-sim-fault': 'hang:3000' } })) as unknown as Stored;
    const cancelled = (await client.responses.cancel(queued.id)) as unknown as Stored;
    expect(cancelled.status).toBe('cancelled');
  });

  it('cancel of a response not created with background: 400 not_background', async () => {
    const plain = await client.responses.create({ model: MODEL, input: 'Not background.' });
    const result = await cancel(plain.id);
    expect(result.status).toBe(400);
    expect(result.body.error).toMatchObject({ type: 'invalid_request_error', code: 'not_background' });
  });

  it("cancel of an unknown id or another organization's response: 404 response_not_found", async () => {
    const queued = (await client.responses.create({ model: MODEL, input: 'Mine.', background: true })) as unknown as Stored;
    const other = newOrganization();
    for (const [id, apiKey] of [
      [queued.id, other.apiKey],
      [`resp_${'0'.repeat(32)}`, state.apiKey],
      ['resp_nope', state.apiKey],
    ]) {
      const result = await cancel(id, apiKey);
      expect(result.status).toBe(404);
      expect(result.body.error.code).toBe('response_not_found');
    }
  });

  it('background needs store true and no stream: 400 invalid_value naming the field', async () => {
    for (const [extra, param] of [
      [{ store: false }, 'store'],
      [{ stream: true }, 'stream'],
    ] as const) {
      const response = await fetch(`${state.baseUrl}/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, input: 'hi', background: true, ...extra }),
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatchObject({ code: 'invalid_value', param });
    }
  });

  it('402 insufficient_credits before anything is stored: zero balance without the Free allowance, or a named model whose estimate exceeds the balance', async () => {
    const broke = newOrganization({ credit: '0', orgFlags: ['--stop-at-zero'] });
    const poor = newOrganization({ credit: '50', orgFlags: ['--stop-at-zero'] });
    for (const [apiKey, model, balance] of [
      [broke.apiKey, 'auto', '0'],
      [broke.apiKey, MODEL, '0'],
      [poor.apiKey, MODEL, '50'],
    ] as const) {
      const response = await fetch(`${state.baseUrl}/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, input: 'Write a long essay.', background: true, max_output_tokens: 4096 }),
      });
      expect(response.status).toBe(402);
      expect((await response.json()).error).toMatchObject({ code: 'insufficient_credits', type: 'billing_error' });
      expect(response.headers.get('x-svc-balance-micros')).toBe(balance);
    }
    // Nothing was stored: no conversation was created for the refused turns.
    const db = new Client({ connectionString: state.env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT count(*)::int AS n FROM conversations.conversation WHERE organization_id = ANY($1)', [[broke.organizationId, poor.organizationId]]);
      expect(rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
  });

  it('a vendor failure ends the response failed with {code, message}', async () => {
    const queued = (await client.responses.create({ model: MODEL, input: 'Fail please.', background: true, svc: { fallback: 'none' } } as never, { headers: { 'x-sim-fault': 'status:400' } })) as unknown as Stored;
    const done = await until(queued.id, (response) => response.status !== 'queued');
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({ code: expect.any(String), message: expect.any(String) });
    expect(await ledgerRows(queued.id)).toHaveLength(0);
  });

  it('an image URL is downloaded on the workers as on the edge, never dropped: a private address ends the response failed with invalid_image_url', async () => {
    const input = [{ role: 'user', content: [{ type: 'input_text', text: 'What is in this picture?' }, { type: 'input_image', image_url: 'http://127.0.0.1:8080/cat.png' }] }];
    const queued = (await client.responses.create({ model: 'vendor-1/orion-5', input, background: true } as never)) as unknown as Stored;
    const done = await until(queued.id, (response) => response.status !== 'queued');
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({ code: 'invalid_image_url', message: expect.any(String) });
    expect(await ledgerRows(queued.id)).toHaveLength(0);
  });

  it('an edge configured without background workers: 400 background_unavailable', async () => {
    const edge = await spawnEdge({ BACKGROUND_RESPONSES: 'false' });
    try {
      const response = await fetch(`${edge.baseUrl}/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, input: 'hi', background: true }),
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatchObject({ code: 'background_unavailable', param: 'background' });
    } finally {
      await edge.stop();
    }
  });
});
