import type { Redis } from '@svc/redis';
import { ServiceError } from '@svc/errors';
import { inMemoryMetrics, type InMemoryMetrics } from '@svc/telemetry';
import { createIpLimiter } from './ip-limit';
import { createKeyLimiter } from './key-limits';

/** A Redis client whose every script answers `reply` (the buckets' state is in the *.int.test.ts files). */
function answering(reply: unknown[]): Redis {
  const fake = {
    defineCommand(name: string) {
      (fake as unknown as Record<string, unknown>)[name] = () => Promise.resolve(reply);
    },
  };
  return fake as unknown as Redis;
}

const logger = { warn: () => undefined } as never;
const limits = { requestsPerMinute: 10, tokensPerMinute: 1000 };

describe('svc.rate_limit.refusals', () => {
  let memory: InMemoryMetrics;
  beforeEach(() => {
    memory = inMemoryMetrics();
  });
  afterEach(() => memory.stop());

  it('counts a per-address refusal under scope ip', async () => {
    const limiter = createIpLimiter({ redis: answering([0, '0', '0']), limitPerMinute: 5, logger });
    expect(await limiter.check('203.0.113.9')).toBeInstanceOf(ServiceError);
    expect(await memory.sum('svc.rate_limit.refusals', { scope: 'ip' })).toBe(1);
  });

  it('does not count an admitted address', async () => {
    const limiter = createIpLimiter({ redis: answering([1, '4', '0']), limitPerMinute: 5, logger });
    expect(await limiter.check('203.0.113.9')).toBeUndefined();
    expect(await memory.sum('svc.rate_limit.refusals')).toBe(0);
  });

  it('counts an empty request bucket under key_requests', async () => {
    // Request bucket empty, token bucket full.
    const limiter = createKeyLimiter({ redis: answering([0, '0', '0', '1000', '0']), logger });
    await expect(limiter.check('key_1', limits, 10)).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
    expect(await memory.sum('svc.rate_limit.refusals', { scope: 'key_requests' })).toBe(1);
    expect(await memory.sum('svc.rate_limit.refusals', { scope: 'key_tokens' })).toBe(0);
  });

  it('counts a short token bucket, or a call larger than it, under key_tokens', async () => {
    const limiter = createKeyLimiter({ redis: answering([0, '9', '0', '5', '0']), logger });
    await expect(limiter.check('key_1', limits, 10)).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
    await expect(limiter.check('key_1', limits, 5000)).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
    expect(await memory.sum('svc.rate_limit.refusals', { scope: 'key_tokens' })).toBe(2);
    expect(await memory.sum('svc.rate_limit.refusals', { scope: 'key_requests' })).toBe(0);
  });
});
