import { fleetState, spawnEdge } from '../support/fleet-state';

const MODEL = 'vendor-1/orion-mini-5';

describe('provider health is shared across edge replicas', () => {
  const state = fleetState();

  it('failures seen by one edge make the other try the model last, and refuse it under fallback none', async () => {
    const shared = { REDIS_KEY_PREFIX: `svce2e:health:${process.pid}:${Date.now()}:`, HEALTH_FAILURE_THRESHOLD: '3', HEALTH_REFRESH_MS: '100', HEALTH_COOLDOWN_MS: '60000', IP_RATE_LIMIT_PER_MINUTE: '1000000' };
    const [first, second] = await Promise.all([spawnEdge(shared), spawnEdge(shared)]);
    const call = (baseUrl: string, headers: Record<string, string>) =>
      fetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${state.apiKey}`, ...headers },
        body: JSON.stringify({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      });
    try {
      // Healthy: served as named on the second edge.
      expect((await (await call(second.baseUrl, { 'x-svc-fallback': 'none' })).json()).svc.model_served).toBe(MODEL);
      for (let i = 0; i < 3; i += 1) expect((await call(first.baseUrl, { 'x-svc-fallback': 'none', 'x-sim-fault': 'status:500' })).status).toBe(502);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const refused = await call(second.baseUrl, { 'x-svc-fallback': 'none' });
      expect(refused.status).toBe(503);
      expect((await refused.json()).error.code).toBe('no_provider_available');
      const rerouted = await (await call(second.baseUrl, { 'x-svc-fallback': 'cross_vendor' })).json();
      expect(rerouted.svc.model_served).not.toBe(MODEL);
      expect(rerouted.svc.attempts).toBe(1);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});
