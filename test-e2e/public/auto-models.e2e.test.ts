import { fleetState } from '../support/fleet-state';

describe('GET /v1/public/auto-models', () => {
  const state = fleetState();

  it('needs no key and answers the auto-model document with Cache-Control: public, max-age=600', async () => {
    const response = await fetch(`${state.baseUrl}/public/auto-models`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=600');
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    const body = await response.json();
    expect(Object.keys(body)).toEqual(['object', 'as_of', 'models']);
    expect(body.object).toBe('auto_models');
    expect(body.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(`${body.as_of}T00:00:00Z`))).toBe(false);
    const exported = await (await fetch(`${state.baseUrl}/public/catalog-export`)).json();
    expect(body.as_of).toBe(exported.skills_as_of);
    expect(body.models.length).toBeGreaterThan(0);
    expect(body.models.every((id: unknown) => typeof id === 'string')).toBe(true);
  });

  it('lists exactly the models GET /v1/models marks auto_eligible', async () => {
    const document = await (await fetch(`${state.baseUrl}/public/auto-models`)).json();
    const listed = (await (await fetch(`${state.baseUrl}/models`, { headers: { authorization: `Bearer ${state.apiKey}` } })).json()).data as Array<{ id: string; svc: { auto_eligible?: boolean; virtual?: boolean } }>;
    const byId = new Map(listed.map((model) => [model.id, model]));
    for (const id of document.models) expect(byId.get(id)?.svc.auto_eligible).toBe(true);
    const eligible = listed.filter((model) => model.svc.auto_eligible === true).map((model) => model.id);
    expect([...document.models].sort()).toEqual([...eligible].sort());
  });
});
