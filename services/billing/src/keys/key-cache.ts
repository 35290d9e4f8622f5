import type { Redis } from '@svc/redis';

/** Channel on which key changes (revocation, suspension) are announced to every edge replica. */
export const KEY_EVENTS_CHANNEL = 'key-events';

export function keyCacheKey(hash: string): string {
  return `key:{${hash}}`;
}

/**
 * Drops a key record from the Redis cache and tells every edge to drop its in-memory copy,
 * so a revocation is felt within a round trip rather than a TTL.
 */
export async function invalidateKeys(redis: Redis, hashes: string[]): Promise<void> {
  if (hashes.length === 0) return;
  await redis.del(...hashes.map(keyCacheKey));
  for (const hash of hashes) await redis.publish(keyEventsChannel(redis.options.keyPrefix ?? ''), JSON.stringify({ type: 'invalidate', hash }));
}

/** Pub/sub channels are not key-prefixed by ioredis: the prefix is added here for isolation. */
export function keyEventsChannel(prefix: string): string {
  return `${prefix}${KEY_EVENTS_CHANNEL}`;
}
