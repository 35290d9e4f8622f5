import type { ThreadHistory } from '@svc/backends';
import { HistoryCache } from './history-cache';

const HOUR = 3_600_000;
let clock = Date.parse('2026-11-23T12:00:00Z');

function history(conversation: string, head: string, overrides: Partial<ThreadHistory> = {}): ThreadHistory {
  return {
    conversation_id: conversation,
    parent_response_id: head,
    items: [{ type: 'message', id: `msg_${head}`, role: 'user', content: [{ type: 'input_text', text: 'hello' }] } as never],
    thread_entries: 1,
    thread_token_estimate: 2,
    history_entries: 1,
    history_token_estimate: 2,
    history_characters: 5,
    expires_at: new Date(clock + 24 * HOUR).toISOString(),
    ...overrides,
  };
}

function liveCache(options: Partial<{ ttlMs: number; maxCharacters: number }> = {}): HistoryCache {
  const cache = new HistoryCache({ ttlMs: options.ttlMs ?? 60_000, maxCharacters: options.maxCharacters ?? 1_000_000, now: () => clock });
  cache.resume();
  return cache;
}

describe('HistoryCache', () => {
  beforeEach(() => {
    clock = Date.parse('2026-11-23T12:00:00Z');
  });

  it('gives back a kept history under its organization and head only', () => {
    const cache = liveCache();
    const kept = history('conv_a', 'resp_1');
    cache.put('org_1', kept, cache.mark());
    expect(cache.get('org_1', 'resp_1')).toBe(kept);
    // Another organization asking for the same id never gets it.
    expect(cache.get('org_2', 'resp_1')).toBeUndefined();
    expect(cache.get('org_1', 'resp_2')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 1, misses: 2 });
  });

  it('drops every entry of a conversation when it changes, and only those', () => {
    const cache = liveCache();
    cache.put('org_1', history('conv_a', 'resp_1'), cache.mark());
    cache.put('org_1', history('conv_a', 'resp_2'), cache.mark());
    cache.put('org_1', history('conv_b', 'resp_3'), cache.mark());
    cache.conversationChanged('conv_a');
    expect(cache.get('org_1', 'resp_1')).toBeUndefined();
    expect(cache.get('org_1', 'resp_2')).toBeUndefined();
    expect(cache.get('org_1', 'resp_3')).toBeDefined();
  });

  it('refuses a history read before a change of its conversation (the turn crossed a delete)', () => {
    const cache = liveCache();
    const since = cache.mark();
    cache.conversationChanged('conv_a');
    cache.put('org_1', history('conv_a', 'resp_1'), since);
    expect(cache.get('org_1', 'resp_1')).toBeUndefined();
    // Another conversation's change does not matter; a mark taken after the change does not either.
    cache.put('org_1', history('conv_b', 'resp_2'), since);
    cache.put('org_1', history('conv_a', 'resp_3'), cache.mark());
    expect(cache.get('org_1', 'resp_2')).toBeDefined();
    expect(cache.get('org_1', 'resp_3')).toBeDefined();
  });

  it('a turn that outlived the change records it could have crossed stores nothing', () => {
    const cache = liveCache();
    const since = cache.mark();
    cache.conversationChanged('conv_a');
    // 100,000 more changes push conv_a's record out; the turn marked before it cannot tell.
    for (let index = 0; index < 100_000; index += 1) cache.conversationChanged(`conv_other_${index}`);
    cache.put('org_1', history('conv_a', 'resp_1'), since);
    expect(cache.get('org_1', 'resp_1')).toBeUndefined();
    cache.put('org_1', history('conv_a', 'resp_1'), cache.mark());
    expect(cache.get('org_1', 'resp_1')).toBeDefined();
  });

  it('keeps and serves nothing while the announcements are not heard, and starts empty when they are', () => {
    const cache = new HistoryCache({ ttlMs: 60_000, maxCharacters: 1_000_000, now: () => clock });
    cache.put('org_1', history('conv_a', 'resp_1'), cache.mark());
    expect(cache.get('org_1', 'resp_1')).toBeUndefined();
    cache.resume();
    const before = cache.mark();
    cache.put('org_1', history('conv_a', 'resp_1'), before);
    expect(cache.get('org_1', 'resp_1')).toBeDefined();
    cache.suspend();
    expect(cache.isLive).toBe(false);
    expect(cache.get('org_1', 'resp_1')).toBeUndefined();
    cache.resume();
    expect(cache.get('org_1', 'resp_1')).toBeUndefined();
    // A turn that read its history before the subscription dropped does not store it afterwards.
    cache.put('org_1', history('conv_a', 'resp_1'), before);
    expect(cache.get('org_1', 'resp_1')).toBeUndefined();
  });

  it('ends entries at their conversation expiry and at the TTL', () => {
    const cache = liveCache({ ttlMs: 60_000 });
    cache.put('org_1', history('conv_a', 'resp_1', { expires_at: new Date(clock + 10_000).toISOString() }), cache.mark());
    cache.put('org_1', history('conv_a', 'resp_2', { expires_at: new Date(clock - 1).toISOString() }), cache.mark());
    cache.put('org_1', history('conv_a', 'resp_3', { expires_at: null }), cache.mark());
    expect(cache.get('org_1', 'resp_2')).toBeUndefined();
    expect(cache.get('org_1', 'resp_3')).toBeUndefined();
    expect(cache.get('org_1', 'resp_1')).toBeDefined();
    clock += 10_000;
    expect(cache.get('org_1', 'resp_1')).toBeUndefined();
  });

  it('drops entries past their TTL whether read or not (purged on a later write)', () => {
    const cache = liveCache({ ttlMs: 60_000 });
    cache.put('org_1', history('conv_a', 'resp_1'), cache.mark());
    clock += 30_000;
    cache.put('org_1', history('conv_b', 'resp_2'), cache.mark());
    expect(cache.stats().entries).toBe(2);
    clock += 31_000;
    // resp_1 is 61 s old: gone for a reader, and purged by the next write even if nobody reads it.
    cache.put('org_1', history('conv_c', 'resp_3'), cache.mark());
    expect(cache.stats().entries).toBe(2);
    expect(cache.get('org_1', 'resp_1')).toBeUndefined();
    expect(cache.get('org_1', 'resp_2')).toBeDefined();
  });

  it('keeps nothing without a conversation or head, and stays within its size', () => {
    // Each entry below counts 500 characters + 1,024 for its item + 2,048 for itself = 3,572.
    const cache = liveCache({ maxCharacters: 20_000 });
    cache.put('org_1', history('', 'resp_1'), cache.mark());
    cache.put('org_1', history('conv_a', ''), cache.mark());
    expect(cache.stats().entries).toBe(0);
    // Larger than the whole cache: not kept.
    cache.put('org_1', history('conv_a', 'resp_big', { history_characters: 30_000 }), cache.mark());
    expect(cache.get('org_1', 'resp_big')).toBeUndefined();
    for (let index = 0; index < 20; index += 1) cache.put('org_1', history(`conv_${index}`, `resp_${index}`, { history_characters: 500 }), cache.mark());
    expect(cache.stats().characters).toBeLessThanOrEqual(20_000);
    expect(cache.stats().entries).toBe(5);
    expect(cache.get('org_1', 'resp_19')).toBeDefined();
    expect(cache.get('org_1', 'resp_0')).toBeUndefined();
    // An evicted entry leaves the conversation index too: changing it later is harmless.
    cache.conversationChanged('conv_0');
    expect(cache.get('org_1', 'resp_19')).toBeDefined();
  });
});
