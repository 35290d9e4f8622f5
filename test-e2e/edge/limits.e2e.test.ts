import { fleetState, newOrganization, spawnEdge } from '../support/fleet-state';

const MODEL = 'vendor-1/orion-mini-5';
const chat = (baseUrl: string, apiKey: string | undefined, payload: unknown = { model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }) =>
  fetch(`${baseUrl}/chat/completions`, { method: 'POST', headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, body: JSON.stringify(payload) });

const DURATION = /^\d+(\.\d+)?(ms|s)$/;

describe('per-key buckets (spec: Limits)', () => {
  const state = fleetState();

  it('puts the six rate-limit headers on every chat response, charging the estimate and refunding to the real count', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--tpm', '1000'] });
    const response = await chat(state.baseUrl, apiKey);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('600');
    // 600 per minute refill at 10 per second: by the refund the request may already be back.
    expect(['599', '600']).toContain(response.headers.get('x-ratelimit-remaining-requests'));
    expect(response.headers.get('x-ratelimit-reset-requests')).toMatch(DURATION);
    expect(response.headers.get('x-ratelimit-limit-tokens')).toBe('1000');
    expect(response.headers.get('x-ratelimit-reset-tokens')).toMatch(DURATION);
    // After the refund only the real tokens are gone from the bucket (give or take a few of refill).
    const remaining = Number(response.headers.get('x-ratelimit-remaining-tokens'));
    expect(remaining).toBeLessThanOrEqual(1000 - body.usage.total_tokens + 3);
    expect(remaining).toBeGreaterThanOrEqual(1000 - body.usage.total_tokens);
  });

  it('refuses the request past the per-minute request limit with 429 rate_limit_exceeded and Retry-After', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--rpm', '2'] });
    expect((await chat(state.baseUrl, apiKey)).status).toBe(200);
    expect((await chat(state.baseUrl, apiKey)).status).toBe(200);
    const refused = await chat(state.baseUrl, apiKey);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: { message: expect.stringMatching(/requests per minute/), type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
  });

  it('refuses when the token estimate does not fit', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--tpm', '100'] });
    const refused = await chat(state.baseUrl, apiKey, { model: MODEL, max_tokens: 500, messages: [{ role: 'user', content: 'hi' }] });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe('rate_limit_exceeded');
    expect(refused.headers.get('x-ratelimit-limit-tokens')).toBe('100');
  });

  it('carries the headers on refusals once the key is known (RULINGS 6)', async () => {
    const response = await chat(state.baseUrl, state.apiKey, { model: MODEL, messages: [] });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-ratelimit-limit-requests')).not.toBeNull();
    expect(response.headers.get('x-ratelimit-remaining-tokens')).not.toBeNull();
  });

  it('holds in sum across two edge replicas', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--rpm', '10'] });
    const second = await spawnEdge({ IP_RATE_LIMIT_PER_MINUTE: '1000000' });
    try {
      const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => chat(i % 2 === 0 ? state.baseUrl : second.baseUrl, apiKey).then((response) => response.status)));
      expect(statuses.filter((status) => status === 200)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});

describe('per-address limit (spec: checked before authentication)', () => {
  it('refuses past the limit with 429 ip_rate_limit_exceeded and the -ip headers, in sum across two replicas', async () => {
    const prefix = `svce2e:ip:${process.pid}:${Date.now()}:`;
    const first = await spawnEdge({ IP_RATE_LIMIT_PER_MINUTE: '5', REDIS_KEY_PREFIX: prefix });
    const second = await spawnEdge({ IP_RATE_LIMIT_PER_MINUTE: '5', REDIS_KEY_PREFIX: prefix });
    try {
      // Unauthenticated requests count too: the limit is checked before the key.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await chat(i % 2 === 0 ? first.baseUrl : second.baseUrl, undefined)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      const refused = await chat(second.baseUrl, undefined);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: { message: expect.any(String), type: 'rate_limit_error', param: null, code: 'ip_rate_limit_exceeded' } });
      expect(refused.headers.get('x-ratelimit-limit-ip')).toBe('5');
      expect(refused.headers.get('x-ratelimit-remaining-ip')).toBe('0');
      expect(refused.headers.get('x-ratelimit-reset-ip')).toMatch(DURATION);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Public routes are limited as well.
      expect((await fetch(`${first.baseUrl}/public/catalog-export`)).status).toBe(429);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});
