import { fleetState, newOrganization, spawnEdge } from '../support/fleet-state';

describe('refusals that depend on the rest of the fleet', () => {
  const state = fleetState();

  it('503 auth_unavailable when the key store cannot be read (billing unreachable)', async () => {
    const edge = await spawnEdge({ BILLING_ADDR: '127.0.0.1:1', RPC_DEADLINE_MS: '500' });
    try {
      const response = await fetch(`${edge.baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${state.apiKey}` }, body: '{}' });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: { message: expect.any(String), type: 'server_error', param: null, code: 'auth_unavailable' } });
    } finally {
      expect(await edge.stop()).toBe(0);
    }
  });

  it('400 no_model_allowed naming the level when auto has no usable model', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--models', 'vendor-8/decision-1.13.0'] });
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: 'auto', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error).toMatchObject({ code: 'no_model_allowed', type: 'invalid_request_error' });
    expect(body.error.message).toMatch(/key level/);
  });

  it('404 model_not_found for a named model outside the key allow list', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--models', 'vendor-1/orion-5'] });
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(404);
    expect((await response.json()).error).toMatchObject({ code: 'model_not_found', param: 'model' });
  });

  it('402 insufficient_credits with x-svc-balance-micros for an organization without credit set to stop at zero', async () => {
    const { apiKey } = newOrganization({ credit: '0', orgFlags: ['--stop-at-zero'] });
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(402);
    expect((await response.json()).error).toMatchObject({ code: 'insufficient_credits', type: 'billing_error' });
    expect(response.headers.get('x-svc-balance-micros')).toBe('0');
  });
});
