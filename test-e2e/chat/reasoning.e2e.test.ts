import { Client } from 'pg';
import { fleetState, newOrganization } from '../support/fleet-state';

async function chat(apiKey: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  const state = fleetState();
  const response = await fetch(`${state.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, ...headers },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'think about it' }], ...payload }),
  });
  return { status: response.status, body: await response.json() };
}

describe('reasoning_effort mapped to each model control (svc.reasoning)', () => {
  const state = fleetState();

  it.each([
    ['vendor-1/orion-5', 'high', { requested: 'high', applied: 'high' }],
    ['vendor-1/orion-5', 'xhigh', { requested: 'xhigh', applied: 'high' }],
    ['vendor-2/lyric-haiku-4.5', 'medium', { requested: 'medium', applied: 'budget 8192' }],
    ['vendor-2/lyric-haiku-4.5', 'none', { requested: 'none', applied: 'off' }],
    ['vendor-3/lumen-2.5-flash-lite', 'low', { requested: 'low', applied: 'on' }],
    ['vendor-6/deep-r1', 'low', { requested: 'low', applied: 'always on' }],
    ['vendor-1/orion-4.1', 'high', { requested: 'high', applied: 'not supported' }],
  ])('%s with %s reports %j', async (model, effort, reasoning) => {
    const { status, body } = await chat(state.apiKey, { model, reasoning_effort: effort, max_tokens: 4000 });
    expect(status).toBe(200);
    expect(body.svc.reasoning).toEqual(reasoning);
  });

  it('reports the default when nothing was asked', async () => {
    const { body } = await chat(state.apiKey, { model: 'vendor-1/orion-5' });
    expect(body.svc.reasoning).toEqual({ applied: 'default' });
  });
});

describe('a reasoning model that spends the whole output budget thinking', () => {
  it('returns an empty answer with length, svc.no_answer, cost 0, and bills nothing', async () => {
    const state = fleetState();
    const { apiKey, organizationId } = newOrganization();
    const { status, body } = await chat(apiKey, { model: 'vendor-1/orion-5', reasoning_effort: 'high', max_tokens: 64 }, { 'x-sim-think-all': '1' });
    expect(status).toBe(200);
    expect(body.choices[0]).toMatchObject({ finish_reason: 'length', message: { role: 'assistant', content: '' } });
    expect(body.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    expect(body.svc.no_answer).toMatch(/reasoning/);
    expect(body.svc.cost_micros).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const db = new Client({ connectionString: state.env.DATABASE_URL });
    await db.connect();
    try {
      expect((await db.query('SELECT count(*)::int AS n FROM billing.ledger_entry WHERE organization_id = $1', [organizationId])).rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
  });
});
