import type { CacheState } from './cache-policy';

/** CacheState in process memory with an injected clock (tests, and a single process without Redis). */
export class MemoryCacheState implements CacheState {
  private readonly appearances = new Map<string, number>();
  private readonly turns = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async seen(organizationId: string, prefixHashes: readonly string[], ttlMs: number): Promise<boolean> {
    const now = this.now();
    let found = false;
    for (const hash of prefixHashes) {
      const key = `${organizationId}\0${hash}`;
      const expires = this.appearances.get(key);
      if (expires !== undefined && expires > now) found = true;
      this.appearances.set(key, now + ttlMs);
    }
    return found;
  }

  async lastTurn(organizationId: string, sessionId: string, nowMs: number): Promise<number | undefined> {
    const key = `${organizationId}\0${sessionId}`;
    const previous = this.turns.get(key);
    this.turns.set(key, nowMs);
    return previous;
  }
}
