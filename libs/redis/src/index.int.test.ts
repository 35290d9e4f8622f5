import { createRedis, defineScripts, inOneWrite, tag, waitReady } from './index';

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

  it('sends the commands issued together in one write and answers each', async () => {
    await waitReady(redis);
    const key = `${tag('k2')}:counter`;
    await redis.del(key);
    let corked = -1;
    const replies = inOneWrite(redis, () => {
      const sent = [redis.incr(key), redis.incrby(key, 2), redis.get(key)];
      corked = redis.stream.writableCorked;
      return sent;
    });
    expect(corked).toBe(1);
    expect(redis.stream.writableCorked).toBe(0);
    expect(await Promise.all(replies)).toEqual([1, 3, '3']);
    await redis.del(key);
  });
});
