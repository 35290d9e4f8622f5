import { LRUCache } from 'lru-cache';
import type { ThreadHistory } from '@svc/backends';
import type { Redis } from '@svc/redis';

/**
 * The edge's copy of recent thread histories, so a turn continuing from a response this edge
 * stored (or read) a moment ago starts its model call without BuildHistory's round trip to the
 * conversations service. Entry: the history a turn continuing from response R is given (what
 * BuildHistory returns for previous_response_id R), kept under (organization, R).
 *
 * Why it can be kept: a response's history never changes by new turns — a turn is a new node on
 * its thread, and every thread runs root → … → head. It changes only when the conversations
 * service deletes (a response and everything after it, the conversation, retention 0), adds items,
 * or stores a compaction; it announces each of those after commit and before it answers
 * (services/conversations/src/changes.ts), and this cache drops every entry of that conversation.
 * What can still be missed is covered three ways:
 *  - while the announcements' subscription is down the cache keeps nothing and serves nothing
 *    (suspend / resume), and it starts empty when it is back;
 *  - an entry written after a change it might have crossed is refused (`since`): each turn marks
 *    the change sequence before it reads, and a conversation changed since then is not stored;
 *  - entries end at their conversation's expiry and after `ttlMs` at most; a stored turn's parent
 *    is checked again by CompleteTurn in its transaction (a deleted parent is refused there).
 * Tenancy: the organization is part of the key; another organization's id is never a hit.
 */
export interface HistoryCacheOptions {
  /** How long an entry is kept at most (ms). */
  ttlMs: number;
  /** The most characters of history kept in all (the size of an entry is its characters plus a per-item allowance). */
  maxCharacters: number;
  now?: () => number;
}

interface Entry {
  history: ThreadHistory;
  expiresAtMs: number;
}

/** How often entries past their TTL that nobody read again are dropped (on a write; no timer). */
const PURGE_EVERY_MS = 30_000;

/** Characters counted per item and per entry on top of the text (ids, types, object structure in memory). */
const ITEM_OVERHEAD = 1024;
const ENTRY_OVERHEAD = 2048;

export class HistoryCache {
  private readonly entries: LRUCache<string, Entry>;
  /** Keys held per conversation (what a change drops). */
  private readonly byConversation = new Map<string, Set<string>>();
  /** The change sequence at each conversation's last change (kept as long as a turn can run). */
  private readonly changedAt: LRUCache<string, number>;
  private sequence = 0;
  /** The sequence at the last suspend: nothing marked before it is stored. */
  private resetAt = 0;
  /** The newest change record evicted from changedAt: nothing marked before it is stored. */
  private forgottenAt = 0;
  private live = false;
  private readonly now: () => number;
  private hits = 0;
  private misses = 0;
  /** When expired entries are next purged (they are dropped on read too; this bounds what nobody reads again). */
  private purgeAt = 0;

  constructor(options: HistoryCacheOptions) {
    this.now = options.now ?? Date.now;
    this.entries = new LRUCache<string, Entry>({
      maxSize: Math.max(1, options.maxCharacters),
      sizeCalculation: (entry) => ENTRY_OVERHEAD + entry.history.history_characters + ITEM_OVERHEAD * entry.history.items.length,
      ttl: Math.max(1, options.ttlMs),
      ttlAutopurge: false,
      perf: { now: () => this.now() },
      ttlResolution: 0,
      dispose: (entry, key) => this.unindex(entry.history.conversation_id ?? '', key),
    });
    // A change record pushed out by newer ones (more than 100,000 conversations changed while a
    // turn ran) is remembered as a floor: a turn marked before it stores nothing.
    this.changedAt = new LRUCache<string, number>({
      max: 100_000,
      ttl: Math.max(options.ttlMs, 15 * 60_000),
      dispose: (sequence, _conversation, reason) => {
        if (reason === 'evict') this.forgottenAt = Math.max(this.forgottenAt, sequence);
      },
    });
  }

  /** Marks the change sequence before a turn reads a history; pass it to put. */
  mark(): number {
    return this.sequence;
  }

  /** The history of a turn continuing from `responseId` in this organization, when held and unexpired. */
  get(organizationId: string, responseId: string): ThreadHistory | undefined {
    if (!this.live) return undefined;
    const key = keyOf(organizationId, responseId);
    const entry = this.entries.get(key);
    if (entry && entry.expiresAtMs > this.now()) {
      this.hits += 1;
      return entry.history;
    }
    if (entry) this.entries.delete(key);
    this.misses += 1;
    return undefined;
  }

  /**
   * Keeps `history` (a turn continuing from history.parent_response_id gets it) unless its
   * conversation changed since `since` (mark()) or the cache was suspended since.
   */
  put(organizationId: string, history: ThreadHistory, since: number): void {
    const conversationId = history.conversation_id;
    const head = history.parent_response_id;
    if (!this.live || !conversationId || !head || since < this.resetAt || since < this.forgottenAt) return;
    if ((this.changedAt.get(conversationId) ?? -1) > since) return;
    const now = this.now();
    const expiresAtMs = history.expires_at ? Date.parse(history.expires_at) : Number.NaN;
    if (!Number.isFinite(expiresAtMs) || expiresAtMs <= now) return;
    if (now >= this.purgeAt) {
      this.entries.purgeStale();
      this.purgeAt = now + PURGE_EVERY_MS;
    }
    const key = keyOf(organizationId, head);
    this.entries.set(key, { history, expiresAtMs });
    if (!this.entries.has(key)) return; // larger than the whole cache: not kept
    let keys = this.byConversation.get(conversationId);
    if (!keys) this.byConversation.set(conversationId, (keys = new Set()));
    keys.add(key);
  }

  /** A conversation's stored history changed (announced by the conversations service): drop what is held of it. */
  conversationChanged(conversationId: string): void {
    this.sequence += 1;
    this.changedAt.set(conversationId, this.sequence);
    const keys = this.byConversation.get(conversationId);
    if (!keys) return;
    for (const key of [...keys]) this.entries.delete(key);
    this.byConversation.delete(conversationId);
  }

  /** The announcements' subscription is up (every change from now on is heard): keep histories again, from empty. */
  resume(): void {
    this.clear();
    this.live = true;
  }

  /** The subscription is down (changes could be missed): drop everything and keep nothing until resume. */
  suspend(): void {
    this.live = false;
    this.sequence += 1;
    this.resetAt = this.sequence;
    this.clear();
  }

  get isLive(): boolean {
    return this.live;
  }

  stats(): { entries: number; characters: number; hits: number; misses: number } {
    return { entries: this.entries.size, characters: this.entries.calculatedSize, hits: this.hits, misses: this.misses };
  }

  private clear(): void {
    this.entries.clear();
    this.byConversation.clear();
  }

  private unindex(conversationId: string, key: string): void {
    const keys = this.byConversation.get(conversationId);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.byConversation.delete(conversationId);
  }
}

const keyOf = (organizationId: string, responseId: string): string => `${organizationId}\u0000${responseId}`;

/**
 * Keeps `cache` in step with the conversations service's change announcements on `channel`
 * (a subscriber connection, shared with other channels): every announced conversation is dropped;
 * the cache is live only while the subscription is: suspended when the connection closes, resumed
 * (from empty) once the channel is subscribed again after a reconnect — the SUBSCRIBE's reply
 * means every later announcement reaches this connection.
 */
export async function followConversationChanges(subscriber: Pick<Redis, 'subscribe' | 'on'>, cache: HistoryCache, channel: string): Promise<void> {
  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) cache.conversationChanged(message);
  });
  subscriber.on('close', () => cache.suspend());
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).then(
      () => cache.resume(),
      () => undefined,
    );
  });
  await subscriber.subscribe(channel);
  cache.resume();
}
