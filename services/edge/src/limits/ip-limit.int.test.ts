import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { ServiceError } from '@svc/errors';
import { createRedis, waitReady, type Redis } from '@svc/redis';
import { errorHandler } from '../middleware/errors';
import { requireKey } from '../middleware/auth';
import { KeyCache } from '../auth/key-cache';
import { callGate, createIpLimiter, ipLimitKey, type IpLimiterOptions } from './ip-limit';

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

  it('on the calls the check runs beside the request: a refusal is still the answer, with the -ip headers only', async () => {
    const { redis } = await freshRedis();
    const app = express();
    app.use(express.json());
    const v1 = express.Router();
    v1.use(createIpLimiter({ redis, limitPerMinute: 2, logger: { warn: jest.fn() } as never, now: clock().now }).middleware);
    const reached: string[] = [];
    const vendor: string[] = [];
    // Stands in for the key lookup and the call: sets the key's headers, waits on the gate before
    // any vendor work, and fails or succeeds as asked.
    v1.post('/chat/completions', (req, res, next) => {
      reached.push(req.body.mode);
      res.setHeader('x-ratelimit-limit-requests', '600');
      if (req.body.mode === 'unauthenticated') return next(new ServiceError('invalid_api_key', 'No API key provided.'));
      const gate = callGate(res)!;
      gate.then((refusal) => {
        if (refusal) {
          // What a call adds to its own copy of the refusal never reaches the answer.
          refusal.headers['x-ratelimit-remaining-tokens'] = '1';
          return next(refusal);
        }
        vendor.push(req.body.mode);
        res.json({ ok: true });
      }, next);
    });
    v1.get('/ping', (_req, res) => void res.json({ ok: true }));
    app.use('/v1', v1);
    app.use(errorHandler({ error: jest.fn() } as never));
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const post = (mode: string) => fetch(`${base}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode }) });
    try {
      expect((await post('call')).status).toBe(200);
      expect((await post('unauthenticated')).status).toBe(401);
      // Over the limit: the request ran beside the check, but its answer is the 429 either way.
      for (const mode of ['unauthenticated', 'call']) {
        const refused = await post(mode);
        expect(refused.status).toBe(429);
        expect(await refused.json()).toMatchObject({ error: { code: 'ip_rate_limit_exceeded', type: 'rate_limit_error' } });
        expect(refused.headers.get('x-ratelimit-limit-ip')).toBe('2');
        expect(refused.headers.get('x-ratelimit-limit-requests')).toBeNull();
        expect(refused.headers.get('x-ratelimit-remaining-tokens')).toBeNull();
      }
      expect(reached).toEqual(['call', 'unauthenticated', 'unauthenticated', 'call']);
      expect(vendor).toEqual(['call']);
      // Other routes are checked first, as before: a refused request never reaches its handler.
      expect((await fetch(`${base}/ping`)).status).toBe(429);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('beside the calls it still guards the key lookup: a key the cache lacks is looked up only after the address passed', async () => {
    const { redis } = await freshRedis();
    const app = express();
    const v1 = express.Router();
    v1.use(createIpLimiter({ redis, limitPerMinute: 3, logger: { warn: jest.fn() } as never, now: clock().now }).middleware);
    const lookups: string[] = [];
    const record = { key_id: 'key_1', organization_id: 'org_1', organization_status: 'active', scopes: ['chat'], revoked: false, expires_at_ms: '0' };
    const lookup = jest.fn(async (hash: string) => {
      lookups.push(hash);
      if (lookups.length > 1) throw new ServiceError('invalid_api_key', 'Incorrect API key provided.');
      return record as never;
    });
    v1.use(requireKey(new KeyCache(60_000), lookup));
    // A call answers only once the gate passed (libs/call), as this stand-in does.
    v1.post('/chat/completions', (_req, res, next) => void callGate(res)!.then((refusal) => (refusal ? next(refusal) : res.json({ ok: true })), next));
    app.use('/v1', v1);
    app.use(errorHandler({ error: jest.fn() } as never));
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    const post = (key: string) => fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' });
    try {
      expect((await post('svc_live_known')).status).toBe(200);
      expect((await post('svc_live_unknown_1')).status).toBe(401);
      expect((await post('svc_live_known')).status).toBe(200); // from the cache
      expect(lookups).toHaveLength(2);
      // Over the limit: new keys are not looked up at all, the cached one is refused the same.
      for (const key of ['svc_live_unknown_2', 'svc_live_unknown_3', 'svc_live_known']) expect((await post(key)).status).toBe(429);
      expect(lookups).toHaveLength(2);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
