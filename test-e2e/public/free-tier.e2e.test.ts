import { fleetState } from '../support/fleet-state';

describe('GET /v1/public/free-tier', () => {
  it('needs no key and answers the free-tier document with Cache-Control: public, max-age=60', async () => {
    const state = fleetState();
    const response = await fetch(`${state.baseUrl}/public/free-tier`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    const body = await response.json();
    expect(body.limits).toEqual({ requests_per_day: 100, requests_per_minute: 20, max_input_tokens: 16000, max_output_tokens: 2000, fair_use_daily_limit: true });
    // The list is the models GET /v1/models marks free_tier.
    const listed = (await (await fetch(`${state.baseUrl}/models`, { headers: { authorization: `Bearer ${state.apiKey}` } })).json()).data as Array<{ id: string; svc: { free_tier?: boolean } }>;
    expect([...body.models].sort()).toEqual(listed.filter((model) => model.svc.free_tier === true).map((model) => model.id).sort());
  });
});
