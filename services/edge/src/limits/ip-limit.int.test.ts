import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { ServiceError } from '@svc/errors';
import { createRedis, waitReady, type Redis } from '@svc/redis';
import { errorHandler } from '../middleware/errors';
import { createIpLimiter, ipLimitKey, type IpLimiterOptions } from './ip-limit';

// Real Redis; each test gets a key prefix of its own (every HTTP request here comes from
// 127.0.0.1, so tests must not share buckets). The clock is injected.

const RUN_PREFIX = `${process.env.REDIS_KEY_PREFIX}limits:${process.pid}:${randomBytes(4).toString('hex')}:`;
const T0 = 1_700_000_000_000;
const clients: Redis[] = [];
let testNumber = 0;

async function connect(prefix: string): Promise<Redis> {
  const client = createRedis({ url: process.env.REDIS_URL!, keyPrefix: prefix });
  clients.push(client);
  await waitReady(client);
  return client;
}

/** A fresh prefix for the test and a connection under it. */
async function freshRedis(): Promise<{ redis: Redis; prefix: string }> {
  const prefix = `${RUN_PREFIX}ip${(testNumber += 1)}:`;
  return { redis: await connect(prefix), prefix };
}

function clock(start = T0) {
  let value = start;
  return { now: () => value, advance: (ms: number) => void (value += ms) };
}

async function serve(options: Omit<IpLimiterOptions, 'logger'>): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.use(createIpLimiter({ ...options, logger: { warn: jest.fn() } as never }).middleware);
  app.get('/v1/ping', (_req, res) => void res.json({ ok: true }));
  app.use(errorHandler({ error: jest.fn() } as never));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/ping`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('per-address limiter (real Redis)', () => {
  afterAll(async () => {
    const raw = createRedis({ url: process.env.REDIS_URL! });
    const leftovers = await raw.keys(`${RUN_PREFIX}*`);
    if (leftovers.length > 0) await raw.del(...leftovers);
    await Promise.all([...clients, raw].map((client) => client.quit()));
  });

  it('refuses the 301st request in a minute with the exact headers; refused requests take nothing', async () => {
    const { redis } = await freshRedis();
    const time = clock();
    const limiter = createIpLimiter({ redis, limitPerMinute: 300, logger: { warn: jest.fn() } as never, now: time.now });
    for (let index = 0; index < 300; index += 1) expect(await limiter.check('203.0.113.7')).toBeUndefined();

    const refused = (await limiter.check('203.0.113.7')) as ServiceError;
    expect(refused).toBeInstanceOf(ServiceError);
    expect([refused.status, refused.code, refused.type]).toEqual([429, 'ip_rate_limit_exceeded', 'rate_limit_error']);
    expect(refused.headers).toEqual({
      'x-ratelimit-limit-ip': '300',
      'x-ratelimit-remaining-ip': '0',
      'x-ratelimit-reset-ip': '60s',
      // The next slot opens in 200 ms (300 per minute); Retry-After is at least 1.
      'retry-after': '1',
    });
    expect(refused.message).toBe('Too many requests from your address: the limit is 300 per minute. Please try again in 200ms.');

    // Refusals consumed nothing: 200 ms later exactly one request passes.
    for (let index = 0; index < 10; index += 1) expect(await limiter.check('203.0.113.7')).toBeInstanceOf(ServiceError);
    time.advance(199);
    expect(await limiter.check('203.0.113.7')).toBeInstanceOf(ServiceError);
    time.advance(1);
    expect(await limiter.check('203.0.113.7')).toBeUndefined();
    expect(((await limiter.check('203.0.113.7')) as ServiceError).headers['x-ratelimit-reset-ip']).toBe('60s');

    // Another address has its own bucket; a full minute later this one is full again.
    expect(await limiter.check('203.0.113.8')).toBeUndefined();
    time.advance(60_000);
    for (let index = 0; index < 300; index += 1) expect(await limiter.check('203.0.113.7')).toBeUndefined();
    expect(await limiter.check('203.0.113.7')).toBeInstanceOf(ServiceError);
  });

  it('Retry-After is the whole seconds until the next slot, at least 1', async () => {
    const { redis } = await freshRedis();
    const time = clock();
    const limiter = createIpLimiter({ redis, limitPerMinute: 4, logger: { warn: jest.fn() } as never, now: time.now });
    for (let index = 0; index < 4; index += 1) await limiter.check('198.51.100.4');
    expect(((await limiter.check('198.51.100.4')) as ServiceError).headers).toEqual({ 'x-ratelimit-limit-ip': '4', 'x-ratelimit-remaining-ip': '0', 'x-ratelimit-reset-ip': '60s', 'retry-after': '15' });
    time.advance(14_500);
    expect(((await limiter.check('198.51.100.4')) as ServiceError).headers).toEqual({ 'x-ratelimit-limit-ip': '4', 'x-ratelimit-remaining-ip': '0', 'x-ratelimit-reset-ip': '45.5s', 'retry-after': '1' });
  });

  it('stores one expiring key per address', async () => {
    const { redis } = await freshRedis();
    const limiter = createIpLimiter({ redis, limitPerMinute: 300, logger: { warn: jest.fn() } as never, now: clock().now });
    await limiter.check('2001:db8::5');
    const ttl = await redis.pttl(ipLimitKey('2001:db8::5'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(201);
  });

  it('over HTTP: the 429 envelope carries the -ip headers, admitted responses do not', async () => {
    const { redis } = await freshRedis();
    const server = await serve({ redis, limitPerMinute: 2, now: clock().now });
    try {
      for (let index = 0; index < 2; index += 1) {
        const ok = await fetch(server.url);
        expect(ok.status).toBe(200);
        expect(ok.headers.get('x-ratelimit-limit-ip')).toBeNull();
        expect(ok.headers.get('retry-after')).toBeNull();
      }
      const refused = await fetch(server.url);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: { message: expect.stringContaining('limit is 2 per minute'), type: 'rate_limit_error', param: null, code: 'ip_rate_limit_exceeded' } });
      expect(refused.headers.get('x-ratelimit-limit-ip')).toBe('2');
      expect(refused.headers.get('x-ratelimit-remaining-ip')).toBe('0');
      expect(refused.headers.get('x-ratelimit-reset-ip')).toBe('60s');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await server.close();
    }
  });

  it('ignores x-forwarded-for unless it is the configured trusted proxy header', async () => {
    const untrusted = await freshRedis();
    const plain = await serve({ redis: untrusted.redis, limitPerMinute: 2, now: clock().now });
    try {
      // Different forwarded addresses, one socket peer: one bucket.
      const statuses = [];
      for (const forwarded of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) statuses.push((await fetch(plain.url, { headers: { 'x-forwarded-for': forwarded } })).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect(await untrusted.redis.exists(ipLimitKey('127.0.0.1'))).toBe(1);
    } finally {
      await plain.close();
    }

    const trusted = await freshRedis();
    const proxied = await serve({ redis: trusted.redis, limitPerMinute: 2, trustedProxyHeader: 'x-forwarded-for', now: clock().now });
    try {
      const statuses = [];
      for (const forwarded of ['198.51.100.1', '198.51.100.2', '198.51.100.1, 10.0.0.1', '198.51.100.1', '198.51.100.2']) statuses.push((await fetch(proxied.url, { headers: { 'x-forwarded-for': forwarded } })).status);
      // 198.51.100.1 is refused on its third request; 198.51.100.2 still has room.
      expect(statuses).toEqual([200, 200, 200, 429, 200]);
      expect(await trusted.redis.exists(ipLimitKey('127.0.0.1'))).toBe(0);
      // Without the header the socket peer is the address.
      expect((await fetch(proxied.url)).status).toBe(200);
      expect(await trusted.redis.exists(ipLimitKey('127.0.0.1'))).toBe(1);
    } finally {
      await proxied.close();
    }
  });

  it('is atomic: 50 parallel checks against a limit of 20 let exactly 20 through', async () => {
    const { redis } = await freshRedis();
    const limiter = createIpLimiter({ redis, limitPerMinute: 20, logger: { warn: jest.fn() } as never, now: clock().now });
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.check('192.0.2.50')));
    expect(results.filter((result) => result === undefined)).toHaveLength(20);
    expect(results.filter((result) => result?.code === 'ip_rate_limit_exceeded')).toHaveLength(30);
  });

  it('two replicas (two limiters, two connections) share one limit', async () => {
    const { redis, prefix } = await freshRedis();
    const second = await connect(prefix);
    const time = clock();
    const a = createIpLimiter({ redis, limitPerMinute: 10, logger: { warn: jest.fn() } as never, now: time.now });
    const b = createIpLimiter({ redis: second, limitPerMinute: 10, logger: { warn: jest.fn() } as never, now: time.now });
    const results = await Promise.all(Array.from({ length: 15 }, () => [a.check('192.0.2.77'), b.check('192.0.2.77')]).flat());
    expect(results.filter((result) => result === undefined)).toHaveLength(10);
  });
});
