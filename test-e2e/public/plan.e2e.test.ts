import { fleetState } from '../support/fleet-state';

describe('GET /v1/public/plan and /v1/public/catalog-export', () => {
  const state = fleetState();

  it('describes the plans as billed, with no key', async () => {
    const response = await fetch(`${state.baseUrl}/public/plan`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ object: 'plan', currency: 'USD', auto_call_fee_micros: expect.any(Number), plans: { paid: { service_fee_percent: expect.any(Number) }, free: { limits: { requests_per_day: 100, fair_use_daily_limit: true } } } });
    expect(JSON.stringify(body)).not.toMatch(/fair_use_daily_limit_micros|amount/);
  });

  it('exports the catalog as served, without internal addresses or key variables', async () => {
    const body = await (await fetch(`${state.baseUrl}/public/catalog-export`)).json();
    expect(body.vendors).toHaveLength(8);
    for (const vendor of body.vendors) {
      expect(vendor.api_key_env).toBeUndefined();
      expect(vendor.base_url).toBeUndefined();
    }
    expect(body.models.length).toBeGreaterThanOrEqual(20);
    expect(body.embedding_models).toHaveLength(3);
  });
});
