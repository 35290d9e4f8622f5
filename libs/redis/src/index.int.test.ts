import { createRedis, defineScripts, tag, waitReady } from './index';

describe('redis lib (real Redis)', () => {
  const redis = createRedis({ url: process.env.REDIS_URL!, keyPrefix: `${process.env.REDIS_KEY_PREFIX}redislib:` });
  afterAll(() => redis.quit());

  it('runs a Lua script atomically under the key prefix', async () => {
    await waitReady(redis);
    const scripts = defineScripts(redis, [{ name: 'incrTwice', numberOfKeys: 1, lua: "redis.call('INCR', KEYS[1]); return redis.call('INCR', KEYS[1])" }]);
    const key = `${tag('k1')}:counter`;
    await redis.del(key);
    expect(await scripts.incrTwice([key], [])).toBe(2);
    expect(await redis.get(key)).toBe('2');
    await redis.del(key);
  });
});
