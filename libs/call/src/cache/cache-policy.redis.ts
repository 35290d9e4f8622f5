import { tag, type Redis } from '@svc/redis';
import { throttledWarning, type Logger } from '@svc/logger';
import { withTimeout } from '@svc/lifecycle';
import { LAST_TURN_RETENTION_MS, type CacheState } from './cache-policy';

export interface RedisCacheStateOptions {
  redis: Redis;
  logger: Pick<Logger, 'warn'>;
  /** Longest wait for Redis; past it the call goes on as a first appearance and a first turn. */
  timeoutMs?: number;
  /** How long a session's last turn time is kept. */
  lastTurnRetentionMs?: number;
}

/** Keys, hash-tagged by organization so one call's commands land on one cluster slot. */
export function cacheStateKeys(organizationId: string): { appearance: (prefixHash: string) => string; turn: (sessionId: string) => string } {
  const org = tag(organizationId);
  return { appearance: (prefixHash) => `pc:${org}:seen:${prefixHash}`, turn: (sessionId) => `pc:${org}:turn:${sessionId}` };
}

/**
 * CacheState in Redis: `pc:{<org>}:seen:<prefix sha256>` lives for the cache lifetime after the
 * prefix's latest appearance; `pc:{<org>}:turn:<session id>` holds the session's latest turn time
 * (ms). Each question is one round trip: a pipeline of `SET ... PX ... GET` (read the old value,
 * write the new one). A store that fails or is slow answers "not seen" and "no previous turn",
 * with a warning at most every 10 seconds.
 */
export class RedisCacheState implements CacheState {
  private readonly timeoutMs: number;
  private readonly retentionMs: number;
  private readonly warn: (error: unknown) => void;

  constructor(private readonly options: RedisCacheStateOptions) {
    this.timeoutMs = options.timeoutMs ?? 250;
    this.retentionMs = options.lastTurnRetentionMs ?? LAST_TURN_RETENTION_MS;
    this.warn = throttledWarning(options.logger, 'prompt-cache state unavailable; calls go on as first appearances');
  }

  async seen(organizationId: string, prefixHashes: readonly string[], ttlMs: number): Promise<boolean> {
    if (prefixHashes.length === 0) return false;
    const keys = cacheStateKeys(organizationId);
    const pipeline = this.options.redis.pipeline();
    for (const hash of prefixHashes) pipeline.set(keys.appearance(hash), '1', 'PX', Math.max(1, Math.round(ttlMs)), 'GET');
    const results = await this.answer(pipeline.exec(), null);
    return (results ?? []).some(([error, value]) => !error && value !== null);
  }

  async lastTurn(organizationId: string, sessionId: string, nowMs: number): Promise<number | undefined> {
    const previous = await this.answer(this.options.redis.set(cacheStateKeys(organizationId).turn(sessionId), String(nowMs), 'PX', this.retentionMs, 'GET'), null);
    const value = previous === null ? NaN : Number(previous);
    return Number.isFinite(value) ? value : undefined;
  }

  private async answer<T>(promise: Promise<T>, fallback: T): Promise<T> {
    try {
      return await withTimeout(promise, this.timeoutMs, `prompt-cache state did not answer within ${this.timeoutMs}ms`);
    } catch (error) {
      this.warn(error);
      return fallback;
    }
  }
}
