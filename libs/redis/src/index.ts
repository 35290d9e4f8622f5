import { Redis, type RedisOptions } from 'ioredis';

export { Redis };

export interface RedisConnectOptions {
  url: string;
  /** Every key this client touches starts with this prefix (tests use their own). */
  keyPrefix?: string;
  /** Fail a command at once instead of queueing it while disconnected (hot-path callers want a fast 503). */
  failFast?: boolean;
  name?: string;
}

/**
 * A Redis client. Multi-step updates are single Lua scripts (atomic); keys that one script
 * touches share a hash tag `{...}` so the same code runs on Redis Cluster.
 */
export function createRedis(options: RedisConnectOptions): Redis {
  const redisOptions: RedisOptions = {
    keyPrefix: options.keyPrefix ?? '',
    connectionName: options.name,
    lazyConnect: false,
    maxRetriesPerRequest: options.failFast ? 1 : 20,
    enableOfflineQueue: !options.failFast,
    retryStrategy: (times) => Math.min(times * 100, 2000),
  };
  return new Redis(options.url, redisOptions);
}

/** `{id}`: a hash tag so keys of one entity land on one cluster slot. */
export function tag(id: string): string {
  return `{${id}}`;
}

export interface LuaScript {
  name: string;
  numberOfKeys: number;
  lua: string;
}

/**
 * Registers scripts with ioredis (EVALSHA with automatic EVAL fallback) and returns a typed
 * caller. Keys passed are prefixed by the client's keyPrefix as usual.
 */
export function defineScripts<N extends string>(redis: Redis, scripts: Array<LuaScript & { name: N }>): Record<N, (keys: string[], args: Array<string | number>) => Promise<unknown>> {
  const callers = {} as Record<N, (keys: string[], args: Array<string | number>) => Promise<unknown>>;
  for (const script of scripts) {
    redis.defineCommand(script.name, { numberOfKeys: script.numberOfKeys, lua: script.lua });
    callers[script.name] = (keys, args) => (redis as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[script.name](...keys, ...args);
  }
  return callers;
}

/**
 * Runs `issue` with the client's connection corked, so the commands it sends synchronously go out
 * in one write (one syscall and one packet, answered in one read) instead of one each. For
 * commands of one request that are independent and sent at the same moment (the per-address
 * check, the key's buckets and admission before a call). Replies are read as usual, one promise
 * per command; a client that is not ready queues its commands as always.
 */
export function inOneWrite<T>(redis: Redis, issue: () => T): T {
  const stream = redis.status === 'ready' ? redis.stream : undefined;
  if (!stream || typeof stream.cork !== 'function') return issue();
  stream.cork();
  try {
    return issue();
  } finally {
    stream.uncork();
  }
}

/** Resolves when the client is ready, or rejects after `timeoutMs`. */
export async function waitReady(redis: Redis, timeoutMs = 5000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis: not ready in time')), timeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
