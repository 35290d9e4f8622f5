import OpenAI from 'openai';
import { Client } from 'pg';
import { randomBytes } from 'node:crypto';
import { admin, fleetState, newOrganization } from '../support/fleet-state';

/**
 * Compaction (spec: Compaction) with a small-context model: vendor-4/atlas-3.1-8b has a 131072
 * token window. A conversation is filled with stored items (no turns), then turns run on that
 * model. Summaries are written by the workers (conversation.compact).
 */
const SMALL = 'vendor-4/atlas-3.1-8b';
type Svc = Record<string, unknown>;
const svcOf = (value: unknown) => (value as { svc: Svc }).svc;

/** `count` user notes of `chars` characters each (about chars/4 tokens each). */
const notes = (count: number, chars: number) => Array.from({ length: count }, (_, index) => ({ type: 'message' as const, role: 'user' as const, content: `Note ${index}: ${'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27)).slice(0, chars)}` }));

/** The organization's ledger once it holds `rows` entries (settlement is asynchronous): their count and sum. */
async function ledger(databaseUrl: string, organizationId: string, rows: number): Promise<{ n: number; cost: number }> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    for (let tries = 0; ; tries += 1) {
      const { rows: [row] } = await db.query<{ n: number; cost: string }>('SELECT count(*)::int AS n, COALESCE(sum(cost_micros), 0) AS cost FROM billing.ledger_entry WHERE organization_id = $1', [organizationId]);
      if (row!.n >= rows || tries >= 100) return { n: row!.n, cost: Number(row!.cost) };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await db.end();
  }
}

describe('compaction on the workers', () => {
  const state = fleetState();
  // Long histories: an organization of its own, with room in the key's token bucket.
  const own = newOrganization({ credit: '500000000', keyFlags: ['--tpm', '100000000'] });
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: own.apiKey, maxRetries: 0, timeout: 120_000 });

  it('history over the window: the oldest part is summarized, stored as a compaction item, and the turn continues', async () => {
    const conversation = await client.conversations.create({ items: notes(30, 20_000) });
    const response = await client.responses.create({ model: SMALL, input: 'What were the notes about?', conversation: conversation.id } as never);
    expect(response.status).toBe('completed');
    expect(svcOf(response).compacted).toBe(true);
    const items = await client.conversations.items.list(conversation.id, { limit: 100 });
    const compaction = items.data.find((item) => (item as { type: string }).type === 'compaction') as { id: string; summary: string } | undefined;
    expect(compaction?.id).toMatch(/^cmp_[0-9a-f]{32}$/);
    expect(compaction!.summary.length).toBeGreaterThan(0);
    // The next turn fits with the summary in place: no new compaction.
    const next = await client.responses.create({ model: SMALL, input: 'And the last one?', previous_response_id: response.id });
    expect(svcOf(next).compacted).toBeUndefined();
  }, 120_000);

  it('the summary is billed to the organization and reported in the turn that waited for it: svc.cost_micros is what the ledger took', async () => {
    const org = newOrganization({ credit: '500000000', keyFlags: ['--tpm', '100000000'] });
    const orgClient = new OpenAI({ baseURL: state.baseUrl, apiKey: org.apiKey, maxRetries: 0, timeout: 120_000 });
    const conversation = await orgClient.conversations.create({ items: notes(30, 20_000) });
    const response = await orgClient.responses.create({ model: SMALL, input: 'What were the notes about?', conversation: conversation.id } as never);
    const svc = svcOf(response) as { compacted?: boolean; cost_micros: number; cost: { vendor_micros: number; service_fee_micros: number; direct_micros: number; saved_micros: number } };
    expect(svc.compacted).toBe(true);
    // Two calls were billed: the summary and the turn.
    const billed = await ledger(state.env.DATABASE_URL!, org.organizationId, 2);
    expect(billed.n).toBe(2);
    expect(svc.cost_micros).toBe(billed.cost);
    expect(svc.cost.saved_micros).toBe(svc.cost.direct_micros - svc.cost_micros);
    // GET shows the same object.
    expect(svcOf(await orgClient.responses.retrieve(response.id)).cost_micros).toBe(billed.cost);
  }, 120_000);

  it('not enough room even after a summary (the recent turns alone are too large): 400 before any summary, nothing stored or billed', async () => {
    const org = newOrganization({ credit: '500000000', keyFlags: ['--tpm', '100000000'] });
    const orgClient = new OpenAI({ baseURL: state.baseUrl, apiKey: org.apiKey, maxRetries: 0, timeout: 120_000 });
    // Two short notes, then four (the verbatim recent part) of about 35k tokens each: 140k > 131,072.
    const conversation = await orgClient.conversations.create({ items: [...notes(2, 100), ...notes(4, 140_000)] });
    await expect(orgClient.responses.create({ model: SMALL, input: 'Summarize.', conversation: conversation.id } as never)).rejects.toMatchObject({
      status: 400,
      code: 'context_length_exceeded',
      message: expect.stringMatching(/Even after compaction the turn would need about \d+ tokens/),
    });
    const items = await orgClient.conversations.items.list(conversation.id, { limit: 100 });
    expect(items.data.filter((item) => (item as { type: string }).type === 'compaction')).toHaveLength(0);
    expect(items.data).toHaveLength(6);
    expect((await ledger(state.env.DATABASE_URL!, org.organizationId, 0)).n).toBe(0);
  });

  it('a named model on the organization\'s own key at zero balance: the turn is served, but one that needs a summary is 402 with x-svc-balance-micros, before any summary', async () => {
    const org = newOrganization({ credit: '0', orgFlags: ['--stop-at-zero'], keyFlags: ['--tpm', '100000000'] });
    admin('byok', 'set', '--org', org.organizationId, '--vendor', SMALL.split('/')[0]!, '--key', `sk-e2e-${randomBytes(8).toString('hex')}`);
    const send = (body: Record<string, unknown>) =>
      fetch(`${state.baseUrl}/responses`, { method: 'POST', headers: { authorization: `Bearer ${org.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: SMALL, ...body }) });
    // The own key reaches the edge's key cache within its lifetime: a small turn is served at zero balance.
    let served = await send({ input: 'Hello.', store: false });
    for (let tries = 0; served.status !== 200 && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      served = await send({ input: 'Hello.', store: false });
    }
    expect(served.status).toBe(200);
    const orgClient = new OpenAI({ baseURL: state.baseUrl, apiKey: org.apiKey, maxRetries: 0, timeout: 120_000 });
    const conversation = await orgClient.conversations.create({ items: notes(30, 20_000) });
    const refused = await send({ input: 'What were the notes about?', conversation: conversation.id });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ error: { code: 'insufficient_credits', type: 'billing_error' } });
    expect(refused.headers.get('x-svc-balance-micros')).toBe('0');
    const items = await orgClient.conversations.items.list(conversation.id, { limit: 100 });
    expect(items.data.filter((item) => (item as { type: string }).type === 'compaction')).toHaveLength(0);
  }, 60_000);

  it('compaction off: 400 context_length_exceeded with the numbers', async () => {
    const conversation = await client.conversations.create({ items: notes(30, 20_000) });
    await expect(client.responses.create({ model: SMALL, input: 'Summarize.', conversation: conversation.id, svc: { compaction: 'off' } } as never)).rejects.toMatchObject({
      status: 400,
      code: 'context_length_exceeded',
      message: expect.stringMatching(/about \d+ tokens; the model's context window is 131072/),
    });
  });

  it('a thread near the window is compacted ahead, so the next turn does not wait', async () => {
    // About 105k tokens of history: the turn fits, and passes three quarters of the window.
    const conversation = await client.conversations.create({ items: notes(21, 20_000) });
    const first = await client.responses.create({ model: SMALL, input: 'Note the notes.', conversation: conversation.id } as never);
    expect(svcOf(first).compacted).toBeUndefined();
    let summarized = false;
    for (let tries = 0; tries < 100 && !summarized; tries += 1) {
      const items = await client.conversations.items.list(conversation.id, { limit: 100 });
      summarized = items.data.some((item) => (item as { type: string }).type === 'compaction');
      if (!summarized) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(summarized).toBe(true);
    const next = await client.responses.create({ model: SMALL, input: 'Go on.', previous_response_id: first.id });
    expect(svcOf(next).compacted).toBeUndefined();
    expect(next.usage!.input_tokens).toBeLessThan(first.usage!.input_tokens);
  }, 120_000);
});
