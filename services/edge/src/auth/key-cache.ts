import type { KeyRecord__Output } from '@svc/protos';

interface Entry {
  record: KeyRecord__Output;
  expiresAt: number;
}

/**
 * Key records by key hash, in process memory, so an authenticated request makes no network
 * round trip on a hit. Entries live `ttlMs`; revocations and suspensions are also pushed by
 * billing over Redis pub/sub (`key-events`), so they are felt within moments on every replica.
 * Concurrent misses for one hash share a single lookup.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<KeyRecord__Output>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 100_000,
  ) {}

  async get(hash: string, load: (hash: string) => Promise<KeyRecord__Output>): Promise<KeyRecord__Output> {
    const entry = this.entries.get(hash);
    if (entry && entry.expiresAt > this.now()) return entry.record;
    const pending = this.inFlight.get(hash);
    if (pending) return pending;
    const lookup = load(hash)
      .then((record) => {
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
        this.entries.set(hash, { record, expiresAt: this.now() + this.ttlMs });
        return record;
      })
      .finally(() => this.inFlight.delete(hash));
    this.inFlight.set(hash, lookup);
    return lookup;
  }

  /** Whether a lookup of `hash` would be answered from memory now. */
  holds(hash: string): boolean {
    const entry = this.entries.get(hash);
    return entry !== undefined && entry.expiresAt > this.now();
  }

  /** Drops a record; returns it (so what hangs off its organization can be dropped too). */
  invalidate(hash: string): KeyRecord__Output | undefined {
    const entry = this.entries.get(hash);
    this.entries.delete(hash);
    return entry?.record;
  }

  clear(): void {
    this.entries.clear();
  }
}
