import { ProviderHealth } from './provider-health';

describe('ProviderHealth.order', () => {
  it('keeps the order when all are healthy and moves unhealthy ones last', async () => {
    let now = 1000;
    const redis = { defineCommand: () => undefined } as never;
    const health = new ProviderHealth({ redis, logger: { warn: () => undefined }, threshold: 3, windowMs: 1000, cooldownMs: 5000, refreshMs: 1000, now: () => now });
    const candidates = [{ model: 'a' }, { model: 'b' }, { model: 'c' }];
    expect(health.order(candidates)).toBe(candidates);
    (health as unknown as { unhealthyUntil: Map<string, number> }).unhealthyUntil = new Map([['a', 3000]]);
    expect(health.order(candidates).map((candidate) => candidate.model)).toEqual(['b', 'c', 'a']);
    expect(health.isHealthy('a')).toBe(false);
    now = 3001;
    expect(health.isHealthy('a')).toBe(true);
  });
});
