import { createHash, type Hash } from 'node:crypto';
import type { CacheTtl } from './request';

export const TTL_MS: Record<CacheTtl, number> = { '5m': 5 * 60_000, '1h': 60 * 60_000 };

/** Anthropic looks for earlier cache entries this many blocks back from each breakpoint. */
export const LOOKBACK_BLOCKS = 20;

export interface PromptCacheOptions {
  /** Milliseconds clock; tests pass a fake one. */
  now?: () => number;
  /** Upper bound on stored prefixes; the least recently used go first. */
  maxEntries?: number;
}

export interface AutomaticOptions {
  /** Shortest cacheable prefix. */
  min: number;
  /** Prefixes are matched in steps of this many tokens past `min`. */
  step: number;
  ttlMs: number;
}

export interface Breakpoint {
  /** Token count of the prefix that ends at the marked block. */
  position: number;
  ttl: CacheTtl;
}

export interface ExplicitResult {
  readTokens: number;
  write5mTokens: number;
  write1hTokens: number;
}

/**
 * Prompt-prefix cache bookkeeping. Nothing is stored but hashes of token prefixes and their
 * expiry, which is all the vendors' usage accounting needs: whether a prefix of this length
 * was seen (written) recently under the same scope (protocol and model).
 */
export class PromptCache {
  private readonly entries = new Map<string, number>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private writesSinceSweep = 0;

  constructor(options: PromptCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 200_000;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Hashes of the prefixes of `tokens` ending at each of `positions` (ascending). */
  static prefixKeys(scope: string, tokens: readonly number[], positions: readonly number[]): Map<number, string> {
    const keys = new Map<number, string>();
    const hash: Hash = createHash('sha256').update(scope).update('\0');
    let done = 0;
    for (const position of [...new Set(positions)].sort((a, b) => a - b)) {
      if (position <= 0 || position > tokens.length) continue;
      hash.update(Buffer.from(Uint32Array.from(tokens.slice(done, position)).buffer));
      done = position;
      keys.set(position, hash.copy().digest('hex'));
    }
    return keys;
  }

  has(key: string): boolean {
    const expires = this.entries.get(key);
    if (expires === undefined) return false;
    if (expires <= this.now()) {
      this.entries.delete(key);
      return false;
    }
    return true;
  }

  /** Stores or refreshes an entry; a longer ttl already held is kept. */
  put(key: string, ttlMs: number): void {
    const current = this.entries.get(key);
    const expires = Math.max(this.now() + ttlMs, current ?? 0);
    this.entries.delete(key);
    this.entries.set(key, expires);
    if (++this.writesSinceSweep >= 1024) this.sweep();
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  sweep(): void {
    this.writesSinceSweep = 0;
    const now = this.now();
    for (const [key, expires] of this.entries) if (expires <= now) this.entries.delete(key);
  }

  /**
   * Automatic caching (OpenAI from 1024 tokens, Gemini from 4096): the longest earlier-seen
   * prefix on the min + k*step grid is read; every grid prefix of this prompt is then kept.
   */
  automatic(scope: string, tokens: readonly number[], options: AutomaticOptions): number {
    const positions: number[] = [];
    const step = Math.max(1, options.step);
    for (let p = Math.max(1, options.min); p <= tokens.length; p += step) positions.push(p);
    if (positions.length === 0) return 0;
    const keys = PromptCache.prefixKeys(scope, tokens, positions);
    let cached = 0;
    for (const [position, key] of keys) if (this.has(key)) cached = Math.max(cached, position);
    for (const key of keys.values()) this.put(key, options.ttlMs);
    return cached;
  }

  /**
   * Explicit markers (Anthropic cache_control). Each breakpoint at or above `min` looks back
   * over up to LOOKBACK_BLOCKS block boundaries for an entry; the longest hit is read, and the
   * tokens from there to the last breakpoint are written, split by the ttl of the breakpoint
   * that closes each stretch.
   */
  explicit(scope: string, tokens: readonly number[], boundaries: readonly number[], breakpoints: readonly Breakpoint[], min: number): ExplicitResult {
    const result: ExplicitResult = { readTokens: 0, write5mTokens: 0, write1hTokens: 0 };
    const marks = [...breakpoints].filter((b) => b.position >= Math.max(1, min) && b.position <= tokens.length).sort((a, b) => a.position - b.position);
    if (marks.length === 0) return result;
    const sortedBoundaries = [...new Set(boundaries)].sort((a, b) => a - b);
    const candidates = new Set<number>();
    for (const mark of marks) {
      candidates.add(mark.position);
      const before = sortedBoundaries.filter((b) => b <= mark.position && b >= min);
      for (const b of before.slice(-LOOKBACK_BLOCKS)) candidates.add(b);
    }
    const keys = PromptCache.prefixKeys(scope, tokens, [...candidates]);
    for (const [position, key] of keys) if (this.has(key)) result.readTokens = Math.max(result.readTokens, position);
    // Reading refreshes the entry's lifetime, as upstream; the longest ttl of the covering marks applies.
    if (result.readTokens > 0) {
      const covering = marks.filter((m) => m.position >= result.readTokens);
      const ttl = covering.some((m) => m.ttl === '1h') ? '1h' : '5m';
      this.put(keys.get(result.readTokens) as string, TTL_MS[ttl]);
    }
    let from = result.readTokens;
    for (const mark of marks) {
      const key = keys.get(mark.position) as string;
      if (mark.position <= from) {
        this.put(key, TTL_MS[mark.ttl]);
        continue;
      }
      if (mark.ttl === '1h') result.write1hTokens += mark.position - from;
      else result.write5mTokens += mark.position - from;
      from = mark.position;
      this.put(key, TTL_MS[mark.ttl]);
    }
    return result;
  }
}
