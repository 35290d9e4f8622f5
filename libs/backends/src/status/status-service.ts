import { randomBytes } from 'node:crypto';
import { withTimeout } from '@svc/lifecycle';
import type { Logger } from '@svc/logger';
import type { Redis } from '@svc/redis';
import { buildDocument, unavailableDocument, type Measurements, type StatusDocument, type WindowCounts } from './document';
import { countsHourKey, countsMinuteKey, hourOf, latencyMinuteKey, minuteOf } from './measurements';

/**
 * GET /v1/status, shared by every replica (spec: Status document, "recomputed every 30 seconds";
 * "stale ... last good document up to 5 minutes old served"; `unavailable`).
 *
 * Periods of RECOMPUTE ms are aligned to the clock. Just after a period starts each replica tries
 * to take that period's lock in Redis; the one that gets it computes the document from the
 * measurements (measurements.ts) and stores it under `status:document`; every other replica reads
 * that period's document and serves it from memory, so all replicas answer the same document
 * with the same updated_at. When the metrics store cannot be
 * read, the last good document is served with source `stale` while it is at most 5 minutes old,
 * then a document with source `unavailable` and status `unknown`. A replica whose shared
 * document is older than two intervals (the computing replica died) computes it itself.
 */
export const STATUS_DOCUMENT_KEY = 'status:document';
export const STATUS_LOCK_KEY = 'status:lock';
export const STALE_FOR_MS = 5 * 60_000;

export interface StatusService {
  /** The document to serve now (from memory). */
  current(): StatusDocument;
  /** The same, after the first read when none has been made yet. */
  document(): Promise<StatusDocument>;
  /** Recompute (or read) now; the timer does this every interval. */
  refresh(): Promise<void>;
  close(): void;
}

/** The measurements of the last 15 minutes and 24 hours, read from Redis in one pipeline. */
export async function readMeasurements(redis: Redis, nowMs: number): Promise<Measurements> {
  const minute = minuteOf(nowMs);
  const hour = hourOf(nowMs);
  const minutes = Array.from({ length: 15 }, (_, i) => minute - i);
  const hours = Array.from({ length: 24 }, (_, i) => hour - i);
  const pipeline = redis.pipeline();
  for (const m of minutes) pipeline.hgetall(countsMinuteKey(m));
  for (const h of hours) pipeline.hgetall(countsHourKey(h));
  for (const m of minutes) pipeline.hgetall(latencyMinuteKey(m));
  const results = (await pipeline.exec()) ?? [];
  const replies = results.map(([error, value]) => {
    if (error) throw error;
    return (value ?? {}) as Record<string, string>;
  });
  const sumCounts = (hashes: Array<Record<string, string>>) => {
    const out = new Map<string, WindowCounts>();
    for (const hash of hashes) {
      for (const [field, value] of Object.entries(hash)) {
        const cut = field.lastIndexOf('|');
        const component = field.slice(0, cut);
        const entry = out.get(component) ?? { ok: 0, fail: 0 };
        if (field.slice(cut + 1) === 'ok') entry.ok += Number(value);
        else entry.fail += Number(value);
        out.set(component, entry);
      }
    }
    return out;
  };
  const latency15m = new Map<string, Map<number, number>>();
  for (const hash of replies.slice(minutes.length + hours.length)) {
    for (const [field, value] of Object.entries(hash)) {
      const cut = field.lastIndexOf('|');
      const component = field.slice(0, cut);
      const bucket = Number(field.slice(cut + 1));
      const buckets = latency15m.get(component) ?? new Map<number, number>();
      buckets.set(bucket, (buckets.get(bucket) ?? 0) + Number(value));
      latency15m.set(component, buckets);
    }
  }
  return { last15m: sumCounts(replies.slice(0, minutes.length)), last24h: sumCounts(replies.slice(minutes.length, minutes.length + hours.length)), latency15m };
}

export function createStatusService(options: {
  redis: Redis;
  components: Array<{ id: string; name: string }>;
  logger: Pick<Logger, 'warn' | 'info'>;
  recomputeMs?: number;
  now?: () => number;
  /** Where the measurements come from (default: the Redis counters of measurements.ts; or prometheus.ts). */
  read?: (nowMs: number) => Promise<Measurements>;
}): StatusService {
  const recomputeMs = options.recomputeMs ?? 30_000;
  const now = options.now ?? Date.now;
  const self = randomBytes(8).toString('hex');
  let last: StatusDocument | undefined;
  let reachable = true;
  let refreshing: Promise<void> | undefined;

  // Periods are aligned to the clock (period p = [p·interval, (p+1)·interval)), the same on every
  // replica: one replica computes period p's document (the lock `status:lock:<p>`), the others
  // read it, so between refreshes every replica serves the same document.
  const periodOf = (at: number) => Math.floor(at / recomputeMs);

  const compute = async (period: number) => {
    const document = buildDocument(options.components, await (options.read ?? ((at: number) => readMeasurements(options.redis, at)))(now()), new Date(now()));
    await options.redis.set(STATUS_DOCUMENT_KEY, JSON.stringify({ period, document }), 'PX', STALE_FOR_MS);
    return document;
  };

  const readStored = async (): Promise<{ period: number; document: StatusDocument } | undefined> => {
    const raw = await options.redis.get(STATUS_DOCUMENT_KEY);
    return raw ? (JSON.parse(raw) as { period: number; document: StatusDocument }) : undefined;
  };

  const readShared = async () => {
    const period = periodOf(now());
    const locked = await options.redis.set(`${STATUS_LOCK_KEY}:${period}`, self, 'PX', 2 * recomputeMs, 'NX');
    if (locked) {
      last = await compute(period);
      return;
    }
    // Another replica computes this period's document: read it once it is written.
    let stored = await readStored();
    for (let tries = 0; tries < 20 && (!stored || stored.period < period); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stored = await readStored();
    }
    // Nothing for this period nor the one before: the replica holding the lock died; compute here.
    if (!stored || stored.period < period - 1) last = await compute(period);
    else last = stored.document;
  };

  // A store that does not answer (a cut connection whose commands wait for a reconnect) is
  // unreachable as much as one that refuses: the read gives up after this long.
  const readTimeoutMs = Math.min(5_000, Math.max(3_000, recomputeMs));
  const refreshOnce = async () => {
    try {
      await withTimeout(readShared(), readTimeoutMs, `the metrics store did not answer within ${readTimeoutMs} ms`);
      if (!reachable) options.logger.info('status measurements readable again');
      reachable = true;
    } catch (error) {
      // Slow but connected (a busy machine): keep serving what we have; a later refresh catches up.
      if (!options.read && options.redis.status === 'ready' && error instanceof Error && error.message.startsWith('the metrics store did not answer')) return;
      if (reachable) options.logger.warn('status measurements unreadable: serving the last document as stale', { err: error });
      reachable = false;
    }
  };

  const refresh = () => (refreshing ??= refreshOnce().finally(() => (refreshing = undefined)));
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = () => {
    if (closed) return;
    // Just after the next period starts.
    const delay = Math.min(recomputeMs, Math.max(0, recomputeMs - (now() % recomputeMs))) + 20;
    timer = setTimeout(() => {
      void refresh().finally(schedule);
    }, delay);
    timer.unref();
  };
  schedule();
  void refresh();

  return {
    current() {
      const at = now();
      if (last && reachable) return { ...last, source: 'live' };
      if (last && at - Date.parse(last.updated_at) <= STALE_FOR_MS) return { ...last, source: 'stale' };
      return unavailableDocument(new Date(at));
    },
    async document() {
      if (!last && reachable) await refresh();
      return this.current();
    },
    refresh,
    close: () => {
      closed = true;
      clearTimeout(timer);
    },
  };
}
