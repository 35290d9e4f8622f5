import { randomBytes } from 'node:crypto';
import { ServiceError } from '@svc/errors';
import { createRedis, waitReady, type Redis } from '@svc/redis';
import { createKeyLimiter, keyLimitKeys, type KeyLimiter, type KeyLimitResult, type KeyLimits } from './key-limits';

// Real Redis, every key under a prefix of its own for this run (removed in afterAll). The clock
// is injected, so refills happen only when a test moves it.

const PREFIX = `${process.env.REDIS_KEY_PREFIX}limits:${process.pid}:${randomBytes(4).toString('hex')}:`;
const T0 = 1_700_000_000_000;

const silent = { warn: jest.fn() };
const clients: Redis[] = [];

function connect(): Redis {
  const client = createRedis({ url: process.env.REDIS_URL!, keyPrefix: PREFIX });
  clients.push(client);
  return client;
}

function limiterWithClock(redis: Redis, start = T0): { limiter: KeyLimiter; advance: (ms: number) => void } {
  let clock = start;
  return { limiter: createKeyLimiter({ redis, logger: silent as never, now: () => clock }), advance: (ms) => void (clock += ms) };
}

async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected a refusal');
}

async function settled(checks: Array<Promise<KeyLimitResult>>): Promise<{ passed: number; refused: number }> {
  const results = await Promise.allSettled(checks);
  for (const result of results) if (result.status === 'rejected') expect((result.reason as ServiceError).code).toBe('rate_limit_exceeded');
  return { passed: results.filter((result) => result.status === 'fulfilled').length, refused: results.filter((result) => result.status === 'rejected').length };
}

describe('key limiter (real Redis)', () => {
  let redis: Redis;
  let counter = 0;
  const newKey = () => `key_${process.pid}x${(counter += 1)}`;

  beforeAll(async () => {
    redis = connect();
    await waitReady(redis);
  });

  afterAll(async () => {
    const raw = createRedis({ url: process.env.REDIS_URL! });
    const leftovers = await raw.keys(`${PREFIX}*`);
    if (leftovers.length > 0) await raw.del(...leftovers);
    await Promise.all([...clients, raw].map((client) => client.quit()));
  });

  it('refuses the 601st request in a minute, then refills', async () => {
    const { limiter, advance } = limiterWithClock(redis);
    const key = newKey();
    const limits: KeyLimits = { requestsPerMinute: 600, tokensPerMinute: 1_000_000 };
    let last: KeyLimitResult | undefined;
    for (let index = 0; index < 600; index += 1) last = await limiter.check(key, limits, 10);
    expect(last!.headers).toMatchObject({ 'x-ratelimit-limit-requests': '600', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '60s' });

    const refused = await refusal(limiter.check(key, limits, 10));
    expect([refused.status, refused.code, refused.type]).toEqual([429, 'rate_limit_exceeded', 'rate_limit_error']);
    expect(refused.message).toBe('Rate limit reached for requests per minute (limit 600). Please try again in 100ms.');
    expect(refused.headers).toMatchObject({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '60s', 'retry-after': '1' });

    // One request comes back every 100 ms (600 per minute).
    advance(99);
    await refusal(limiter.check(key, limits, 10));
    advance(1);
    expect((await limiter.check(key, limits, 10)).headers['x-ratelimit-remaining-requests']).toBe('0');
    await refusal(limiter.check(key, limits, 10));

    advance(60_000);
    expect((await limiter.check(key, limits, 10)).headers).toMatchObject({ 'x-ratelimit-remaining-requests': '599', 'x-ratelimit-reset-requests': '100ms' });
  });

  it('token bucket: exact headers, refusal when tokens run out, continuous refill', async () => {
    const { limiter, advance } = limiterWithClock(redis);
    const key = newKey();
    const limits: KeyLimits = { requestsPerMinute: 60, tokensPerMinute: 1000 };

    expect(await limiter.check(key, limits, 400)).toEqual({
      charged: 400,
      headers: {
        'x-ratelimit-limit-requests': '60',
        'x-ratelimit-remaining-requests': '59',
        'x-ratelimit-reset-requests': '1s',
        'x-ratelimit-limit-tokens': '1000',
        'x-ratelimit-remaining-tokens': '600',
        // 400 tokens at 1000 per minute: 24 s to refill.
        'x-ratelimit-reset-tokens': '24s',
      },
    });

    const refused = await refusal(limiter.check(key, limits, 700));
    expect(refused.message).toBe('Rate limit reached for tokens per minute (limit 1000, remaining 600, requested 700). Please try again in 6s.');
    expect(refused.headers).toEqual({
      'x-ratelimit-limit-requests': '60',
      'x-ratelimit-remaining-requests': '59',
      'x-ratelimit-reset-requests': '1s',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '600',
      'x-ratelimit-reset-tokens': '24s',
      // 100 tokens missing at 1000 per minute.
      'retry-after': '6',
    });

    advance(1500); // +25 tokens, requests back to full
    expect((await limiter.peek(key, limits))).toMatchObject({ 'x-ratelimit-remaining-tokens': '625', 'x-ratelimit-reset-tokens': '22.5s', 'x-ratelimit-remaining-requests': '60', 'x-ratelimit-reset-requests': '0s' });
    expect((await limiter.check(key, limits, 625)).headers).toMatchObject({ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '60s', 'x-ratelimit-remaining-requests': '59' });
    const empty = await refusal(limiter.check(key, limits, 1));
    expect(empty.headers['retry-after']).toBe('1');
    expect(empty.headers['x-ratelimit-reset-tokens']).toBe('60s');
  });

  it('a refused request takes nothing from either bucket', async () => {
    const { limiter, advance } = limiterWithClock(redis);
    const key = newKey();
    const limits: KeyLimits = { requestsPerMinute: 2, tokensPerMinute: 100 };
    await limiter.check(key, limits, 10);
    await limiter.check(key, limits, 10);
    const before = await limiter.peek(key, limits);
    expect(before).toMatchObject({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-remaining-tokens': '80' });
    for (let index = 0; index < 5; index += 1) await refusal(limiter.check(key, limits, 10));
    expect(await limiter.peek(key, limits)).toEqual(before);

    // Half a minute later one request is back (2 per minute): exactly one passes.
    advance(30_000);
    await limiter.check(key, limits, 10);
    const requestsRefused = await refusal(limiter.check(key, limits, 10));
    expect(requestsRefused.message).toMatch(/^Rate limit reached for requests per minute \(limit 2\)\./);
    expect(requestsRefused.headers['retry-after']).toBe('30');

    // A refusal by the token bucket leaves the request bucket as it was, and the reverse.
    const other = newKey();
    await refusal(limiter.check(other, limits, 101));
    await refusal(limiter.check(other, { requestsPerMinute: 2, tokensPerMinute: 100 }, 150));
    expect(await limiter.peek(other, limits)).toMatchObject({ 'x-ratelimit-remaining-requests': '2', 'x-ratelimit-remaining-tokens': '100' });
  });

  it('names both buckets when both are short', async () => {
    const { limiter } = limiterWithClock(redis);
    const key = newKey();
    const limits: KeyLimits = { requestsPerMinute: 1, tokensPerMinute: 100 };
    await limiter.check(key, limits, 90);
    const refused = await refusal(limiter.check(key, limits, 20));
    expect(refused.message).toBe('Rate limit reached for requests per minute (limit 1) and tokens per minute (limit 100, remaining 10, requested 20). Please try again in 60s.');
    expect(refused.headers['retry-after']).toBe('60');
  });

  it('refuses a request whose tokens alone exceed the per-minute token limit, taking nothing', async () => {
    const { limiter } = limiterWithClock(redis);
    const key = newKey();
    const limits: KeyLimits = { requestsPerMinute: 600, tokensPerMinute: 1000 };
    const refused = await refusal(limiter.check(key, limits, 1001));
    expect(refused.code).toBe('rate_limit_exceeded');
    expect(refused.message).toMatch(/This request alone needs an estimated 1001 tokens, more than this key's limit of 1000 tokens per minute/);
    expect(refused.headers).toMatchObject({ 'x-ratelimit-remaining-tokens': '1000', 'x-ratelimit-reset-tokens': '0s', 'x-ratelimit-remaining-requests': '600' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await redis.exists(keyLimitKeys(key).requests, keyLimitKeys(key).tokens)).toBe(0);
    // Exactly the capacity still passes.
    expect((await limiter.check(key, limits, 1000)).headers['x-ratelimit-remaining-tokens']).toBe('0');
  });

  it('refund moves the token bucket to the real count, within 0 and the capacity', async () => {
    const { limiter } = limiterWithClock(redis);
    const key = newKey();
    // 6 requests a minute: the request bucket's key lives 10 s of real time (at 600 a minute, 100 ms: a loaded run could outlast it).
    const limits: KeyLimits = { requestsPerMinute: 6, tokensPerMinute: 1000 };
    await limiter.check(key, limits, 400);

    // Estimated 400, used 150: 250 come back.
    expect(await limiter.refund(key, limits, 400, 150)).toEqual({
      'x-ratelimit-limit-requests': '6',
      'x-ratelimit-remaining-requests': '5',
      'x-ratelimit-reset-requests': '10s',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '850',
      'x-ratelimit-reset-tokens': '9s',
    });
    // Used more than charged: the extra is taken.
    expect(await limiter.refund(key, limits, 100, 300)).toMatchObject({ 'x-ratelimit-remaining-tokens': '650' });
    // Never below zero ...
    expect(await limiter.refund(key, limits, 0, 5000)).toMatchObject({ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '60s' });
    // ... and never above the capacity; a full bucket is no key at all.
    expect(await limiter.refund(key, limits, 5000, 0)).toMatchObject({ 'x-ratelimit-remaining-tokens': '1000', 'x-ratelimit-reset-tokens': '0s' });
    expect(await redis.exists(keyLimitKeys(key).tokens)).toBe(0);
    // The request bucket is untouched by refunds.
    expect((await limiter.peek(key, limits))['x-ratelimit-remaining-requests']).toBe('5');
  });

  it('peek takes nothing and reports a fresh key as full', async () => {
    const { limiter } = limiterWithClock(redis);
    const key = newKey();
    const limits: KeyLimits = { requestsPerMinute: 30, tokensPerMinute: 5000 };
    const fresh = {
      'x-ratelimit-limit-requests': '30',
      'x-ratelimit-remaining-requests': '30',
      'x-ratelimit-reset-requests': '0s',
      'x-ratelimit-limit-tokens': '5000',
      'x-ratelimit-remaining-tokens': '5000',
      'x-ratelimit-reset-tokens': '0s',
    };
    expect(await limiter.peek(key, limits)).toEqual(fresh);
    expect(await limiter.peek(key, limits)).toEqual(fresh);
    expect(await redis.exists(keyLimitKeys(key).requests)).toBe(0);
  });

  it('keys expire when their bucket would be full again', async () => {
    const { limiter } = limiterWithClock(redis);
    const key = newKey();
    await limiter.check(key, { requestsPerMinute: 600, tokensPerMinute: 1000 }, 500);
    const [requestTtl, tokenTtl] = await Promise.all([redis.pttl(keyLimitKeys(key).requests), redis.pttl(keyLimitKeys(key).tokens)]);
    expect(requestTtl).toBeGreaterThan(0);
    expect(requestTtl).toBeLessThanOrEqual(101);
    expect(tokenTtl).toBeGreaterThan(29_000);
    expect(tokenTtl).toBeLessThanOrEqual(30_001);
  });

  it('is atomic: 50 parallel checks against a limit of 20 let exactly 20 through', async () => {
    const { limiter } = limiterWithClock(redis);
    const key = newKey();
    const limits: KeyLimits = { requestsPerMinute: 20, tokensPerMinute: 1_000_000 };
    expect(await settled(Array.from({ length: 50 }, () => limiter.check(key, limits, 1)))).toEqual({ passed: 20, refused: 30 });

    // Same for the token bucket: 1000 tokens, 50 parallel checks of 100.
    const tokenKey = newKey();
    expect(await settled(Array.from({ length: 50 }, () => limiter.check(tokenKey, { requestsPerMinute: 600, tokensPerMinute: 1000 }, 100)))).toEqual({ passed: 10, refused: 40 });
  });

  it('two replicas (two limiters, two connections) share one limit', async () => {
    const [first, second] = [connect(), connect()];
    await Promise.all([waitReady(first), waitReady(second)]);
    const a = limiterWithClock(first).limiter;
    const b = limiterWithClock(second).limiter;
    const key = newKey();
    const limits: KeyLimits = { requestsPerMinute: 10, tokensPerMinute: 1_000_000 };
    const checks = Array.from({ length: 15 }, () => [a.check(key, limits, 1), b.check(key, limits, 1)]).flat();
    expect(await settled(checks)).toEqual({ passed: 10, refused: 20 });
  });

  it('a replica whose clock lags gains no extra refill', async () => {
    const ahead = limiterWithClock(redis, T0);
    const behind = limiterWithClock(redis, T0 - 5000);
    const key = newKey();
    const limits: KeyLimits = { requestsPerMinute: 60, tokensPerMinute: 1_000_000 };
    for (let index = 0; index < 60; index += 1) await ahead.limiter.check(key, limits, 1);
    // The lagging replica waits out its lag plus one request's refill (1 s at 60 per minute).
    expect((await refusal(behind.limiter.check(key, limits, 1))).headers['retry-after']).toBe('6');
    behind.advance(5500);
    await refusal(behind.limiter.check(key, limits, 1));
    behind.advance(500);
    await behind.limiter.check(key, limits, 1);
    ahead.advance(1000);
    await refusal(ahead.limiter.check(key, limits, 1));
  });

  describe('refunds folded into the next check (foldRefunds)', () => {
    function foldingLimiter(flushMs = 60_000): { limiter: KeyLimiter; advance: (ms: number) => void } {
      let clock = T0;
      return { limiter: createKeyLimiter({ redis, logger: silent as never, now: () => clock, foldRefunds: { flushMs } }), advance: (ms) => void (clock += ms) };
    }

    it('reports the same headers as a refund sent on its own, and the next check applies it', async () => {
      const sent = limiterWithClock(redis);
      const folded = foldingLimiter();
      const limits: KeyLimits = { requestsPerMinute: 600, tokensPerMinute: 1000 };
      const [a, b] = [newKey(), newKey()];
      await sent.limiter.check(a, limits, 400);
      await folded.limiter.check(b, limits, 400);
      sent.advance(1500);
      folded.advance(1500);
      const expected = await sent.limiter.refund(a, limits, 400, 150);
      expect(await folded.limiter.refund(b, limits, 400, 150)).toEqual(expected);
      // Not sent yet: the bucket still holds the charge ...
      const plain = limiterWithClock(redis, T0 + 1500).limiter;
      expect((await plain.peek(b, limits))['x-ratelimit-remaining-tokens']).toBe('625');
      // ... which the key's next check applies before it takes (600 + 25 refilled + 250 back, less 100).
      expect((await folded.limiter.check(b, limits, 100)).headers['x-ratelimit-remaining-tokens']).toBe('775');
      expect((await sent.limiter.check(a, limits, 100)).headers['x-ratelimit-remaining-tokens']).toBe('775');
      // A call that used more than its estimate: the extra is taken the same way, never below 0.
      await folded.limiter.refund(b, limits, 100, 2000);
      expect((await plain.peek(b, limits))['x-ratelimit-remaining-tokens']).toBe('775');
      expect((await folded.limiter.peek(b, limits))['x-ratelimit-remaining-tokens']).toBe('0');
    });

    it('sends the refunds no check came for within flushMs, in one write', async () => {
      const folded = foldingLimiter(20);
      const limits: KeyLimits = { requestsPerMinute: 600, tokensPerMinute: 1000 };
      const keys = [newKey(), newKey(), newKey()];
      for (const key of keys) await folded.limiter.check(key, limits, 400);
      for (const key of keys) expect((await folded.limiter.refund(key, limits, 400, 100))!['x-ratelimit-remaining-tokens']).toBe('900');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const plain = limiterWithClock(redis).limiter;
      for (const key of keys) expect((await plain.peek(key, limits))['x-ratelimit-remaining-tokens']).toBe('900');
    });

    it('a refund with no check of its key to start from is sent at once', async () => {
      const folded = foldingLimiter();
      const limits: KeyLimits = { requestsPerMinute: 600, tokensPerMinute: 1000 };
      const key = newKey();
      await limiterWithClock(redis).limiter.check(key, limits, 400);
      expect((await folded.limiter.refund(key, limits, 400, 150))!['x-ratelimit-remaining-tokens']).toBe('850');
      expect((await limiterWithClock(redis).limiter.peek(key, limits))['x-ratelimit-remaining-tokens']).toBe('850');
    });
  });
});
