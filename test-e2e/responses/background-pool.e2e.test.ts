import OpenAI from 'openai';
import { Client } from 'pg';
import { fleetState, newOrganization } from '../support/fleet-state';

/**
 * The organization's vendor-batch pool (spec: POST /v1/responses `background` with svc.deadline of
 * 24 hours or more on a batchable model; States and transitions "waiting for its batch" and "sent
 * inside a vendor batch"; the 402 for batch-bound estimates; Caching rules 6). The fleet runs the
 * pool time-compressed: POOL_MAX_LINES 4, POOL_MAX_AGE_MS 3000 (support/global-setup.ts).
 */
const MODEL = 'vendor-1/orion-mini-5';
const MAX_LINES = 4;
const MAX_AGE_MS = 3000;
type Stored = { id: string; status: string; background: boolean; error: { code: string; message: string } | null; output: Array<{ type: string; content?: Array<{ text: string }> }>; usage: { input_tokens: number; output_tokens: number } | null; conversation: { id: string } | null; svc?: Record<string, any> };
type PoolRow = { response_id: string; state: string; vendor_batch_id: string | null; enqueued_at: Date; sent_at: Date | null };

describe('background responses through the vendor-batch pool', () => {
  const state = fleetState();
  let db: Client;

  beforeAll(async () => {
    db = new Client({ connectionString: state.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => db?.end());

  const clientFor = (apiKey: string) => new OpenAI({ baseURL: state.baseUrl, apiKey, maxRetries: 0 });
  const batchBound = (client: OpenAI, input: string, headers: Record<string, string> = {}) =>
    client.responses.create({ model: MODEL, input, background: true, max_output_tokens: 200 }, { headers: { 'x-svc-deadline': '24h', ...headers } }) as unknown as Promise<Stored>;

  async function until(client: OpenAI, id: string, done: (response: Stored) => boolean, timeoutMs = 30_000): Promise<Stored> {
    const started = Date.now();
    for (;;) {
      const response = (await client.responses.retrieve(id)) as unknown as Stored;
      if (done(response) || Date.now() - started > timeoutMs) return response;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  async function poolRows(ids: string[]): Promise<PoolRow[]> {
    return (await db.query<PoolRow>('SELECT response_id, state, vendor_batch_id, enqueued_at, sent_at FROM conversations.response_pool WHERE response_id = ANY($1::text[])', [ids])).rows;
  }

  async function untilSent(ids: string[], timeoutMs = 15_000): Promise<PoolRow[]> {
    const started = Date.now();
    for (;;) {
      const rows = await poolRows(ids);
      if ((rows.length === ids.length && rows.every((row) => row.state === 'sent')) || Date.now() - started > timeoutMs) return rows;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function ledgerRows(responseId: string): Promise<Array<{ cost_micros: string; vendor_micros: string }>> {
    return (await db.query('SELECT cost_micros, vendor_micros FROM billing.ledger_entry WHERE call_id = $1', [`call_${responseId.slice(5)}`])).rows;
  }

  async function settledRows(responseId: string): Promise<Array<{ cost_micros: string; vendor_micros: string }>> {
    for (let i = 0; i < 50; i += 1) {
      const rows = await ledgerRows(responseId);
      if (rows.length > 0) return rows;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return [];
  }

  async function cancel(id: string, apiKey: string): Promise<{ status: number; body: Record<string, any> }> {
    const response = await fetch(`${state.baseUrl}/responses/${id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` } });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  it('serves a batch-bound response from a vendor batch at the batch price: svc.tier batch, cost at the batch discount, billed once', async () => {
    const { apiKey } = newOrganization();
    const client = clientFor(apiKey);
    const queued = await batchBound(client, 'Summarize the water cycle in one line.');
    expect(queued).toMatchObject({ status: 'queued', background: true, output: [] });
    expect(queued.svc?.tier).toMatchObject({ requested: 'batch' });
    const done = await until(client, queued.id, (response) => response.status !== 'queued');
    expect(done.status).toBe('completed');
    expect(done.output[0]?.content?.[0]?.text).toEqual(expect.any(String));
    expect(done.svc).toMatchObject({ model_served: MODEL, tier: { requested: 'batch', applied: 'batch' }, session_id: queued.conversation?.id });
    expect(done.svc?.tier.fallback).toBeUndefined();
    // Caching rules 6: a pool line gets ttl none (nothing written).
    expect(done.svc?.cache).toMatchObject({ write_tokens: 0 });
    // The catalog's standard list price of MODEL, micros per token (USD per million tokens).
    const pricing = { input: 0.25, output: 2 };
    const usage = done.usage!;
    const standardMicros = usage.input_tokens * pricing.input + usage.output_tokens * pricing.output;
    expect(done.svc?.cost.vendor_micros).toBeGreaterThan(0);
    expect(Math.abs(done.svc?.cost.vendor_micros - standardMicros / 2)).toBeLessThanOrEqual(1);
    // Cache and batch discounts are never counted as saving: direct is the batch list price.
    expect(done.svc?.cost.direct_micros).toBe(done.svc?.cost.vendor_micros);
    const rows = await settledRows(queued.id);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.cost_micros)).toBe(done.svc?.cost_micros);
    expect(await poolRows([queued.id])).toEqual([]);
  });

  it('a vendor batch the vendor refuses ends its responses failed with upstream_error in the service\'s words (never the vendor\'s), nothing billed', async () => {
    const { apiKey } = newOrganization();
    const client = clientFor(apiKey);
    const queued = await batchBound(client, 'Refuse this batch.', { 'x-sim-batch': 'fail' });
    const done = await until(client, queued.id, (response) => response.status !== 'queued');
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({ code: 'upstream_error', message: 'The vendor could not run the batch this response was sent in.' });
    expect(await ledgerRows(queued.id)).toEqual([]);
  });

  it.each([
    ['the Anthropic protocol (Message Batches)', 'vendor-2/lyric-haiku-4.5'],
    ['the Gemini protocol (batch mode)', 'vendor-3/lumen-2.5-flash'],
  ])('serves the pool through %s: completed at the batch tier, billed once', async (_protocol, model) => {
    const { apiKey } = newOrganization();
    const client = clientFor(apiKey);
    // Each line takes 1.5 s inside the vendor batch, so the row is seen `sent` before it ends.
    const queued = (await client.responses.create({ model, input: 'Name one ocean.', background: true, max_output_tokens: 60 }, { headers: { 'x-svc-deadline': '24h', 'x-sim-batch': 'line-ms:1500' } })) as unknown as Stored;
    expect(queued.status).toBe('queued');
    const rows = await untilSent([queued.id]);
    expect(rows.map((row) => row.state)).toEqual(['sent']);
    expect(rows[0]!.vendor_batch_id).toMatch(model.startsWith('vendor-2') ? /^anthropic:/ : /^gemini:/);
    const done = await until(client, queued.id, (response) => response.status !== 'queued');
    expect(done.status).toBe('completed');
    expect(done.output[0]?.content?.[0]?.text).toEqual(expect.any(String));
    expect(done.svc).toMatchObject({ model_served: model, tier: { requested: 'batch', applied: 'batch' } });
    const billed = await settledRows(queued.id);
    expect(billed).toHaveLength(1);
    expect(Number(billed[0]!.cost_micros)).toBe(done.svc?.cost_micros);
  });

  it(`flushes by size: ${MAX_LINES} waiting lines of one organization go as one vendor batch before the age limit`, async () => {
    const { apiKey } = newOrganization();
    const client = clientFor(apiKey);
    const queued = await Promise.all(Array.from({ length: MAX_LINES }, (_, i) => batchBound(client, `Line ${i} of a full batch.`, { 'x-sim-batch': 'line-ms:400' })));
    const ids = queued.map((response) => response.id);
    const rows = await untilSent(ids);
    expect(rows.map((row) => row.state)).toEqual(Array(MAX_LINES).fill('sent'));
    expect(new Set(rows.map((row) => row.vendor_batch_id)).size).toBe(1);
    const oldest = Math.min(...rows.map((row) => row.enqueued_at.getTime()));
    expect(rows[0]!.sent_at!.getTime() - oldest).toBeLessThan(MAX_AGE_MS);
    const done = await Promise.all(ids.map((id) => until(client, id, (response) => response.status !== 'queued')));
    expect(done.map((response) => response.status)).toEqual(Array(MAX_LINES).fill('completed'));
  });

  it('flushes by age: fewer lines than the size limit go once the oldest waited POOL_MAX_AGE_MS', async () => {
    const { apiKey } = newOrganization();
    const client = clientFor(apiKey);
    const queued = await Promise.all([batchBound(client, 'First of two.'), batchBound(client, 'Second of two.')]);
    const ids = queued.map((response) => response.id);
    await new Promise((resolve) => setTimeout(resolve, MAX_AGE_MS / 2));
    expect((await poolRows(ids)).map((row) => row.state)).toEqual(['waiting', 'waiting']);
    const done = await Promise.all(ids.map((id) => until(client, id, (response) => response.status !== 'queued')));
    expect(done.map((response) => response.status)).toEqual(['completed', 'completed']);
  });

  it('cancel while waiting for its batch: cancelled, out of the pool, never sent, nothing billed', async () => {
    const { apiKey } = newOrganization();
    const client = clientFor(apiKey);
    const queued = await batchBound(client, 'Cancel me before the batch goes.');
    expect((await poolRows([queued.id])).map((row) => row.state)).toEqual(['waiting']);
    const cancelled = await cancel(queued.id, apiKey);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: queued.id, status: 'cancelled', error: { code: 'cancelled' } });
    expect(await poolRows([queued.id])).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, MAX_AGE_MS + 1500));
    expect(((await client.responses.retrieve(queued.id)) as unknown as Stored).status).toBe('cancelled');
    expect(await ledgerRows(queued.id)).toEqual([]);
    // Cancelling again returns the ended object as is.
    expect((await cancel(queued.id, apiKey)).body.status).toBe('cancelled');
  });

  it('cancel once sent inside a vendor batch: 409 not_cancellable, then the answer arrives and is billed once', async () => {
    const { apiKey } = newOrganization();
    const client = clientFor(apiKey);
    const queued = await batchBound(client, 'Too late to cancel me.', { 'x-sim-batch': 'line-ms:2500' });
    const rows = await untilSent([queued.id]);
    expect(rows.map((row) => row.state)).toEqual(['sent']);
    const refused = await cancel(queued.id, apiKey);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'not_cancellable', type: 'invalid_request_error' });
    expect(refused.body.error.message).toMatch(/already sent/);
    const done = await until(client, queued.id, (response) => response.status !== 'queued');
    expect(done.status).toBe('completed');
    expect(done.svc?.tier).toMatchObject({ requested: 'batch', applied: 'batch' });
    const billed = await settledRows(queued.id);
    expect(billed).toHaveLength(1);
    expect(Number(billed[0]!.cost_micros)).toBe(done.svc?.cost_micros);
  });

  it('402 insufficient_credits when the batch estimate exceeds the balance, with x-svc-balance-micros; nothing stored', async () => {
    const { apiKey, organizationId } = newOrganization({ credit: '1000' });
    const response = await fetch(`${state.baseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'x-svc-deadline': '24h' },
      body: JSON.stringify({ model: 'vendor-1/orion-5', input: 'A long essay, please.', background: true, max_output_tokens: 100_000 }),
    });
    expect(response.status).toBe(402);
    expect(response.headers.get('x-svc-balance-micros')).toBe('1000');
    const body = (await response.json()) as { error: { code: string; type: string; message: string } };
    expect(body.error).toMatchObject({ code: 'insufficient_credits', type: 'billing_error' });
    expect(body.error.message).toMatch(/estimated cost/);
    const stored = await db.query('SELECT (SELECT count(*) FROM conversations.response WHERE organization_id = $1) AS responses, (SELECT count(*) FROM conversations.conversation WHERE organization_id = $1) AS conversations', [organizationId]);
    expect(stored.rows[0]).toEqual({ responses: '0', conversations: '0' });
    // A turn that fits the balance is accepted (the same organization, a small cap).
    const fits = (await clientFor(apiKey).responses.create({ model: 'vendor-1/orion-nano-5', input: 'Hi.', background: true, max_output_tokens: 16 }, { headers: { 'x-svc-deadline': '24h' } })) as unknown as Stored;
    expect(fits.status).toBe('queued');
  });

  it('a model without a batch tier under a 24 h deadline runs as its own job: tier.fallback no_batch_tier, no pool row', async () => {
    const noBatch = { id: 'vendor-4/atlas-3.1-8b' };
    const { apiKey } = newOrganization();
    const client = clientFor(apiKey);
    const queued = (await client.responses.create({ model: noBatch.id, input: 'Own job.', background: true, max_output_tokens: 50 }, { headers: { 'x-svc-deadline': '24h' } })) as unknown as Stored;
    expect(await poolRows([queued.id])).toEqual([]);
    const done = await until(client, queued.id, (response) => response.status !== 'queued');
    expect(done.svc?.tier).toMatchObject({ requested: 'batch', fallback: 'no_batch_tier' });
  });
});
