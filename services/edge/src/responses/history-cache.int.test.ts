import { randomBytes } from 'node:crypto';
import { createRedis, waitReady, type Redis } from '@svc/redis';
import type { ThreadHistory } from '@svc/backends';
import { HistoryCache, followConversationChanges } from './history-cache';

// The cache's subscription on a real Redis: an announced conversation is dropped; a dropped
// connection suspends the cache (nothing kept or served) until the channel is subscribed again,
// and it comes back empty. The channel is this run's own.

const CHANNEL = `${process.env.REDIS_KEY_PREFIX}history-cache:${process.pid}:${randomBytes(4).toString('hex')}`;
const clients: Redis[] = [];

function history(conversation: string, head: string): ThreadHistory {
  return { conversation_id: conversation, parent_response_id: head, items: [], thread_entries: 0, thread_token_estimate: 0, history_entries: 0, history_token_estimate: 0, history_characters: 0, expires_at: new Date(Date.now() + 3_600_000).toISOString() };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
});

describe('followConversationChanges (real Redis)', () => {
  it('drops announced conversations, and keeps nothing while the subscription is down', async () => {
    const subscriber = createRedis({ url: process.env.REDIS_URL!, name: 'history-cache-test' });
    const publisher = createRedis({ url: process.env.REDIS_URL!, name: 'history-cache-test-pub' });
    clients.push(subscriber, publisher);
    await Promise.all([waitReady(subscriber), waitReady(publisher)]);
    const cache = new HistoryCache({ ttlMs: 60_000, maxCharacters: 1_000_000 });
    await followConversationChanges(subscriber, cache, CHANNEL);
    expect(cache.isLive).toBe(true);

    cache.put('org_1', history('conv_a', 'resp_1'), cache.mark());
    cache.put('org_1', history('conv_b', 'resp_2'), cache.mark());
    // Another channel on the same connection is not an announcement.
    await subscriber.subscribe(`${CHANNEL}:other`);
    await publisher.publish(`${CHANNEL}:other`, 'conv_b');
    await publisher.publish(CHANNEL, 'conv_a');
    await until(() => cache.get('org_1', 'resp_1') === undefined, 'conv_a dropped');
    expect(cache.get('org_1', 'resp_2')).toBeDefined();

    // The connection drops: nothing is served or kept until the channel is subscribed again.
    subscriber.disconnect(true);
    await until(() => !cache.isLive, 'suspended');
    expect(cache.get('org_1', 'resp_2')).toBeUndefined();
    await until(() => cache.isLive, 'resumed after the reconnect');
    expect(cache.get('org_1', 'resp_2')).toBeUndefined();
    // And announcements reach it again.
    cache.put('org_1', history('conv_c', 'resp_3'), cache.mark());
    expect(cache.get('org_1', 'resp_3')).toBeDefined();
    await publisher.publish(CHANNEL, 'conv_c');
    await until(() => cache.get('org_1', 'resp_3') === undefined, 'conv_c dropped after the reconnect');
  });
});
