import type { Redis } from '@svc/redis';
import { DEFAULT_KEY_LIMITS, createKeyLimiter, formatDuration, keyLimitKeys, keyLimitsOf } from './key-limits';

/** A Redis client whose scripts fail or never answer (the fail-open paths); real behaviour is in key-limits.int.test.ts. */
function failingRedis(mode: 'reject' | 'hang') {
  const fake = {
    calls: 0,
    defineCommand(name: string) {
      (fake as unknown as Record<string, unknown>)[name] = () => {
        fake.calls += 1;
        return mode === 'reject' ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')) : new Promise(() => undefined);
      };
    },
  };
  return fake as unknown as Redis & { calls: number };
}

describe('keyLimitsOf', () => {
  it('reads rpm_limit and tpm_limit', () => {
    expect(keyLimitsOf({ rpm_limit: 12, tpm_limit: 3400 })).toEqual({ requestsPerMinute: 12, tokensPerMinute: 3400 });
  });

  it('treats unset (proto3 0) limits as the spec defaults', () => {
    expect(keyLimitsOf({ rpm_limit: 0, tpm_limit: 0 })).toEqual(DEFAULT_KEY_LIMITS);
    expect(keyLimitsOf({})).toEqual({ requestsPerMinute: 600, tokensPerMinute: 200_000 });
  });
});

describe('keyLimitKeys', () => {
  it('hash-tags both buckets with the key id so they share a cluster slot', () => {
    expect(keyLimitKeys('key_abc')).toEqual({ requests: 'rl:{key_abc}:req', tokens: 'rl:{key_abc}:tok' });
  });
});


describe('formatDuration (re-exported)', () => {
  it('is the reset header form', () => {
    expect([formatDuration(500), formatDuration(1500), formatDuration(12_000)]).toEqual(['500ms', '1.5s', '12s']);
  });
});

describe('key limiter when the store fails', () => {
  const limits = { requestsPerMinute: 10, tokensPerMinute: 1000 };

  it('admits without headers, charges nothing and logs one warning per interval', async () => {
    const logger = { warn: jest.fn() };
    const redis = failingRedis('reject');
    const limiter = createKeyLimiter({ redis, logger: logger as never });
    expect(await limiter.check('key_a', limits, 500)).toEqual({ headers: {}, charged: 0 });
    expect(await limiter.check('key_a', limits, 500)).toEqual({ headers: {}, charged: 0 });
    expect(redis.calls).toBe(2);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0][0]).toMatch(/rate limit store unavailable/);
  });

  it('refund and peek fail open too', async () => {
    const limiter = createKeyLimiter({ redis: failingRedis('reject'), logger: { warn: jest.fn() } as never });
    await expect(limiter.refund('key_a', limits, 500, 100)).resolves.toBeUndefined();
    await expect(limiter.peek('key_a', limits)).resolves.toEqual({});
  });

  it('does not hold the request when Redis does not answer', async () => {
    const logger = { warn: jest.fn() };
    const limiter = createKeyLimiter({ redis: failingRedis('hang'), logger: logger as never, timeoutMs: 20 });
    const started = Date.now();
    expect(await limiter.check('key_a', limits, 1)).toEqual({ headers: {}, charged: 0 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(String(logger.warn.mock.calls[0][1].err)).toMatch(/did not answer within 20ms/);
  });
});

describe('remainingOf (the remaining headers)', () => {
  it('never reads above the limit, whatever float drift the refill leaves (a 1,000,000,000-token bucket)', () => {
    const { remainingOf, bucketState } = require('./bucket') as typeof import('./bucket');
    expect(remainingOf(bucketState(1_000_000_000, 1_000_000_000.4, 0))).toBe(1_000_000_000);
    expect(remainingOf(bucketState(600, 599.9999999, 0))).toBe(600);
    expect(remainingOf(bucketState(600, -3, 0))).toBe(0);
  });
});
