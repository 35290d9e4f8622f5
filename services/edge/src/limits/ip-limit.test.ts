import type { Request } from 'express';
import type { Redis } from '@svc/redis';
import { clientAddress, createIpLimiter, ipGateOf, ipLimitKey } from './ip-limit';

function request(remoteAddress: string | undefined, headers: Record<string, string | string[]> = {}): Request {
  return { socket: { remoteAddress }, headers } as unknown as Request;
}

/** A Redis client whose scripts fail; the real behaviour is in ip-limit.int.test.ts. */
function failingRedis() {
  const fake = {
    calls: 0,
    defineCommand(name: string) {
      (fake as unknown as Record<string, unknown>)[name] = () => {
        fake.calls += 1;
        return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      };
    },
  };
  return fake as unknown as Redis & { calls: number };
}

describe('clientAddress', () => {
  it('is the socket peer when no proxy header is configured, whatever the client sends', () => {
    expect(clientAddress(request('203.0.113.7', { 'x-forwarded-for': '198.51.100.1' }))).toBe('203.0.113.7');
  });

  it('is the first address of the configured header', () => {
    const req = request('10.0.0.2', { 'x-forwarded-for': '198.51.100.1, 10.0.0.9' });
    expect(clientAddress(req, 'x-forwarded-for')).toBe('198.51.100.1');
    expect(clientAddress(req, 'X-Forwarded-For')).toBe('198.51.100.1');
  });

  it('drops a port and IPv6 brackets from the header entry', () => {
    expect(clientAddress(request('10.0.0.2', { 'x-forwarded-for': '198.51.100.1:5123' }), 'x-forwarded-for')).toBe('198.51.100.1');
    expect(clientAddress(request('10.0.0.2', { 'x-forwarded-for': '[2001:DB8::1]:443' }), 'x-forwarded-for')).toBe('2001:db8::1');
    expect(clientAddress(request('10.0.0.2', { 'x-forwarded-for': '2001:db8::1' }), 'x-forwarded-for')).toBe('2001:db8::1');
  });

  it('falls back to the peer when the header is absent or not an address', () => {
    expect(clientAddress(request('10.0.0.2'), 'x-forwarded-for')).toBe('10.0.0.2');
    expect(clientAddress(request('10.0.0.2', { 'x-forwarded-for': 'unknown, 1.2.3.4' }), 'x-forwarded-for')).toBe('10.0.0.2');
    expect(clientAddress(request('10.0.0.2', { 'x-forwarded-for': '{evil}' }), 'x-forwarded-for')).toBe('10.0.0.2');
  });

  it('counts an IPv4-mapped IPv6 peer as its IPv4 address', () => {
    expect(clientAddress(request('::ffff:127.0.0.1'))).toBe('127.0.0.1');
    expect(clientAddress(request('::1'))).toBe('::1');
  });
});

describe('ipLimitKey', () => {
  it('hash-tags the address', () => {
    expect(ipLimitKey('203.0.113.7')).toBe('ip:{203.0.113.7}');
  });
});

describe('per-address limiter when the store fails', () => {
  it('fails open: the request goes on, one warning is logged', async () => {
    const logger = { warn: jest.fn() };
    const limiter = createIpLimiter({ redis: failingRedis(), limitPerMinute: 1, logger: logger as never });
    for (let index = 0; index < 3; index += 1) {
      const next = jest.fn();
      await new Promise<void>((resolve) => limiter.middleware(request('203.0.113.7'), {} as never, (error?: unknown) => resolve(next(error))));
      expect(next).toHaveBeenCalledWith(undefined);
    }
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('a limit of 0 turns the check off without touching Redis', async () => {
    const redis = failingRedis();
    const limiter = createIpLimiter({ redis, limitPerMinute: 0, logger: { warn: jest.fn() } as never });
    await expect(limiter.check('203.0.113.7')).resolves.toBeUndefined();
    expect(redis.calls).toBe(0);
  });

  it('rejects a negative limit at construction', () => {
    expect(() => createIpLimiter({ redis: failingRedis(), limitPerMinute: -1, logger: { warn: jest.fn() } as never })).toThrow(RangeError);
  });
});

describe('the check beside a call', () => {
  it('is sent when first waited on, once', async () => {
    const redis = failingRedis();
    const limiter = createIpLimiter({ redis, limitPerMinute: 10, logger: { warn: jest.fn() } as never });
    const req = { ...request('203.0.113.7'), method: 'POST', path: '/chat/completions' } as unknown as Request;
    const res = { locals: {}, getHeaderNames: () => ['x-request-id'] };
    const next = jest.fn();
    limiter.middleware(req, res as never, next);
    expect(next).toHaveBeenCalledWith();
    expect(redis.calls).toBe(0);
    const gate = ipGateOf(res as never)!;
    expect(gate.headersBefore).toEqual(['x-request-id']);
    const first = gate.refusal;
    expect(gate.refusal).toBe(first);
    expect(redis.calls).toBe(1);
    // The store failed: the check fails open.
    await expect(first).resolves.toBeUndefined();
  });
});
