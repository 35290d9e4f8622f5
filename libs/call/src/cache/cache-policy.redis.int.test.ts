import { randomBytes } from 'node:crypto';
import { createRedis, waitReady, type Redis } from '@svc/redis';
import { catalog } from '@svc/catalog';
import { RedisCacheState, cacheStateKeys } from './cache-policy.redis';
import { LAST_TURN_RETENTION_MS, TTL_MS, decideCache } from './cache-policy';
import { parseChatRequest } from '../request/chat-request';

// Real Redis, every key under a prefix of its own for this run (removed in afterAll).

const PREFIX = `${process.env.REDIS_KEY_PREFIX}cache-policy:${process.pid}:${randomBytes(4).toString('hex')}:`;
const T0 = 1_700_000_000_000;

describe('RedisCacheState (real Redis)', () => {
  const clients: Redis[] = [];
  let redis: Redis;
  let state: RedisCacheState;
  const logger = { warn: jest.fn() };
  let counter = 0;
  const org = () => `org_${process.pid}x${(counter += 1)}`;

  beforeAll(async () => {
    redis = createRedis({ url: process.env.REDIS_URL!, keyPrefix: PREFIX });
    clients.push(redis);
    await waitReady(redis);
    state = new RedisCacheState({ redis, logger });
  });

  afterAll(async () => {
    const raw = createRedis({ url: process.env.REDIS_URL! });
    const leftovers = await raw.keys(`${PREFIX}*`);
    if (leftovers.length > 0) await raw.del(...leftovers);
    await Promise.all([...clients, raw].map((client) => client.quit()));
  });

  it('answers false on a first appearance and true on the next, per organization', async () => {
    const a = org();
    const b = org();
    expect(await state.seen(a, ['h1'], TTL_MS['5m'])).toBe(false);
    expect(await state.seen(a, ['h1'], TTL_MS['5m'])).toBe(true);
    expect(await state.seen(b, ['h1'], TTL_MS['5m'])).toBe(false);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('answers true when any of several prefixes appeared, and records them all', async () => {
    const a = org();
    expect(await state.seen(a, ['head'], TTL_MS['5m'])).toBe(false);
    expect(await state.seen(a, ['whole-1', 'head'], TTL_MS['5m'])).toBe(true);
    expect(await state.seen(a, ['whole-1'], TTL_MS['5m'])).toBe(true);
    expect(await state.seen(a, [], TTL_MS['5m'])).toBe(false);
  });

  it('keeps an appearance for the lifetime given, refreshed by each appearance', async () => {
    const a = org();
    const keys = cacheStateKeys(a);
    await state.seen(a, ['h'], TTL_MS['1h']);
    const pttl = await redis.pttl(keys.appearance('h'));
    expect(pttl).toBeGreaterThan(TTL_MS['1h'] - 5_000);
    expect(pttl).toBeLessThanOrEqual(TTL_MS['1h']);
    await state.seen(a, ['short'], 60);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await state.seen(a, ['short'], 2_000)).toBe(false);
    // Refreshed by that appearance, with the lifetime it gave.
    expect(await state.seen(a, ['short'], 2_000)).toBe(true);
  });

  it('returns the previous turn time and keeps the latest for the retention time', async () => {
    const a = org();
    expect(await state.lastTurn(a, 'sess-1', T0)).toBeUndefined();
    expect(await state.lastTurn(a, 'sess-1', T0 + 400_000)).toBe(T0);
    expect(await state.lastTurn(a, 'sess-2', T0 + 500_000)).toBeUndefined();
    expect(await state.lastTurn(org(), 'sess-1', T0 + 500_000)).toBeUndefined();
    const key = cacheStateKeys(a).turn('sess-1');
    expect(await redis.get(key)).toBe(String(T0 + 400_000));
    expect(await redis.pttl(key)).toBeGreaterThan(LAST_TURN_RETENTION_MS - 5_000);
  });

  it('hash-tags every key by organization', () => {
    const keys = cacheStateKeys('org_1');
    expect(keys.appearance('abc')).toBe('pc:{org_1}:seen:abc');
    expect(keys.turn('s{x}')).toBe('pc:{org_1}:turn:s{x}');
  });

  it('drives the second-appearance rule end to end', async () => {
    const organizationId = org();
    const model = catalog.chatModel('vendor-2/lyric-mini-3')!;
    const vendor = catalog.vendor(model.vendor)!;
    const input = parseChatRequest({ messages: [{ role: 'system', content: `${randomBytes(8).toString('hex')} ${'word '.repeat(1200)}` }, { role: 'user', content: 'hi' }] }, {});
    expect((await decideCache(input, model, vendor, { organizationId, state, now: Date.now() })).reason).toBe('first_appearance');
    expect(await decideCache(input, model, vendor, { organizationId, state, now: Date.now() })).toEqual({ ttl: '5m', ttlApplied: '5m', reason: 'marked' });
    const inSession = parseChatRequest({ messages: [{ role: 'user', content: 'word '.repeat(600) }], svc: { session_id: 'far' } }, {});
    await decideCache(inSession, model, vendor, { organizationId, state, now: T0 });
    expect((await decideCache(inSession, model, vendor, { organizationId, state, now: T0 + 6 * 60_000 })).ttl).toBe('1h');
  });
});
