import OpenAI from 'openai';
import { fleetState, newOrganization } from '../support/fleet-state';

describe('GET /v1/models', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });
  const get = (path: string, key = state.apiKey) => fetch(`${state.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });

  it('lists the four virtual ids first, then the catalog with every svc field', async () => {
    const page = await client.models.list();
    const models = page.data as unknown as Array<{ id: string; object: string; created: number; owned_by: string; svc: Record<string, any> }>;
    expect(models.slice(0, 4).map((model) => model.id)).toEqual(['auto', 'auto/best', 'auto/balanced', 'auto/cheap']);
    for (const virtual of models.slice(0, 4)) {
      expect(virtual).toMatchObject({ object: 'model', owned_by: 'svc', svc: { virtual: true } });
      expect(['auto', 'best', 'balanced', 'cheap']).toContain(virtual.svc.tier);
    }
    expect(models.slice(0, 4).map((model) => model.svc.tier)).toEqual(['auto', 'best', 'balanced', 'cheap']);
    const created = new Set(models.map((model) => model.created));
    expect(created.size).toBe(1);
    const chat = models.find((model) => model.id === 'vendor-1/orion-mini-5')!;
    expect(chat.owned_by).toBe('vendor-1');
    expect(['fast', 'balanced', 'powerful', 'frontier']).toContain(chat.svc.tier);
    expect(chat.svc).toMatchObject({ virtual: false, embedding: false, auto_eligible: true, residency: expect.any(String), location: expect.any(String), free_tier: expect.any(Boolean) });
    expect(chat.svc.named_only).toBeUndefined();
    expect(Object.keys(chat.svc.capabilities).sort()).toEqual(['context_window', 'json_schema', 'max_output', 'tools', 'vision']);
    expect(chat.svc.pricing).toMatchObject({ currency: 'USD', input: expect.any(Number), output: expect.any(Number), cache_read: expect.any(Number), cache_write: expect.any(Number) });
    // A paid organization with credit sees no availability field.
    expect(chat.svc.availability).toBeUndefined();
    const decision = models.find((model) => model.id === 'vendor-8/decision-1.13.0')!;
    expect(decision.svc).toMatchObject({ auto_eligible: false, named_only: true });
    const embedding = models.find((model) => model.svc.embedding === true)!;
    expect(embedding.svc.capabilities).toBeUndefined();
  });

  it('prices with the plan fee included', async () => {
    const catalog = await (await fetch(`${state.baseUrl}/public/catalog-export`)).json();
    const listed = (await (await get('/models')).json()).data.find((model: { id: string }) => model.id === 'vendor-1/orion-5');
    const raw = catalog.models.find((model: { id: string }) => model.id === 'vendor-1/orion-5');
    const fee = catalog.plans.paid.service_fee_percent;
    expect(listed.svc.pricing.input).toBeCloseTo(raw.pricing.input * (1 + fee / 100), 6);
  });

  it('accepts auto/cheap and auto%2Fcheap', async () => {
    for (const path of ['/models/auto/cheap', '/models/auto%2Fcheap']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: 'auto/cheap', object: 'model', owned_by: 'svc', svc: { tier: 'cheap', virtual: true } });
    }
    const sdk = await client.models.retrieve('auto/cheap');
    expect(sdk.id).toBe('auto/cheap');
  });

  it('returns one catalog model, and 404 model_not_found for an unknown one', async () => {
    expect((await client.models.retrieve('vendor-1/orion-5')).id).toBe('vendor-1/orion-5');
    const response = await get('/models/vendor-1/does-not-exist');
    expect(response.status).toBe(404);
    expect((await response.json()).error).toMatchObject({ code: 'model_not_found', type: 'invalid_request_error' });
  });

  it('a key with an allow list sees only its models and 404 for the rest', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--models', 'vendor-1/orion-5,vendor-6/deep-v3.2'] });
    const ids = (await (await get('/models', apiKey)).json()).data.map((model: { id: string }) => model.id);
    expect(ids).toEqual(['auto', 'auto/best', 'auto/balanced', 'auto/cheap', 'vendor-1/orion-5', 'vendor-6/deep-v3.2']);
    expect((await get('/models/vendor-1/orion-mini-5', apiKey)).status).toBe(404);
  });

  it('shows availability to an organization on the Free plan', async () => {
    const { apiKey } = newOrganization({ plan: 'free', credit: '0' });
    const models = (await (await get('/models', apiKey)).json()).data as Array<{ id: string; svc: Record<string, any> }>;
    for (const model of models.slice(0, 4)) expect(model.svc.availability).toBe('available');
    for (const model of models.slice(4)) expect(model.svc.availability).toBe(model.svc.free_tier ? 'available' : 'locked');
  });

  it('shows availability to a paid organization without credit: locked outside the free list on the Free limits, all available when it stops at zero', async () => {
    const call = (apiKey: string) => fetch(`${state.baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'auto', max_tokens: 5, messages: [{ role: 'user', content: 'Say hi.' }] }) });
    const onFreeLimits = newOrganization({ credit: '0' });
    const stops = newOrganization({ credit: '0', orgFlags: ['--stop-at-zero'] });
    // The first call loads the organization's counters (served on the Free limits, or 402).
    expect((await call(onFreeLimits.apiKey)).status).toBe(200);
    expect((await call(stops.apiKey)).status).toBe(402);
    const free = (await (await get('/models', onFreeLimits.apiKey)).json()).data as Array<{ svc: Record<string, any> }>;
    for (const model of free.slice(0, 4)) expect(model.svc.availability).toBe('available');
    for (const model of free.slice(4)) expect(model.svc.availability).toBe(model.svc.free_tier ? 'available' : 'locked');
    const stopped = (await (await get('/models', stops.apiKey)).json()).data as Array<{ svc: Record<string, any> }>;
    for (const model of stopped) expect(model.svc.availability).toBe('available');
    expect((await (await get('/models/vendor-1/orion-5', stops.apiKey)).json()).svc.availability).toBe('available');
  });

  it('needs a key', async () => {
    const response = await fetch(`${state.baseUrl}/models`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
  });
});
