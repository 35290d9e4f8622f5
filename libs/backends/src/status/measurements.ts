import type { Catalog } from '@svc/catalog';
import type { Logger } from '@svc/logger';
import type { Redis } from '@svc/redis';
import type { AttemptObserver } from '@svc/call';

/**
 * The status document's measurements (spec: Status document), written by every process that
 * serves requests or makes vendor calls (the edge and the workers) into the metrics store the
 * fleet already has: per-minute and per-hour counters in Redis, shared by every replica.
 *
 *   status:c:m:<minute>  hash  <component>|ok, <component>|fail     (counts, per minute, 16 min)
 *   status:c:h:<hour>    hash  the same counts per hour                (25 hours)
 *   status:l:m:<minute>  hash  <component>|<bucket>                    (latency histogram, 16 min)
 *
 * A request is counted once, when it ends: `api` for every /v1 request (failed: answered 5xx),
 * `web` for the pages people look at, `vendor:<id>` (and a configured regional component
 * `vendor:<id>-<region>` for models served in that region) for every vendor attempt (failed: a
 * retryable vendor failure — timeouts, 5xx, rate limits, no capacity; a request the vendor
 * rejected as invalid or a call the client left are not the vendor's failures). Counts are
 * summed in memory and written every couple of seconds in one pipeline, never on a request's
 * path. Nothing about an organization or a call is kept.
 */

/** Upper bounds (ms) of the latency histogram's buckets; the last is open. */
export const LATENCY_BOUNDS_MS = [5, 10, 25, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1_000, 1_500, 2_000, 3_000, 5_000, 7_500, 10_000, 15_000, 20_000, 30_000, 60_000, 120_000, 300_000, 900_000];

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
export const minuteOf = (ms: number) => Math.floor(ms / MINUTE_MS);
export const hourOf = (ms: number) => Math.floor(ms / HOUR_MS);
export const countsMinuteKey = (minute: number) => `status:c:m:${minute}`;
export const countsHourKey = (hour: number) => `status:c:h:${hour}`;
export const latencyMinuteKey = (minute: number) => `status:l:m:${minute}`;

export function bucketOf(durationMs: number): number {
  const index = LATENCY_BOUNDS_MS.findIndex((bound) => durationMs <= bound);
  return index === -1 ? LATENCY_BOUNDS_MS.length : index;
}

/** A regional vendor component: `vendor:<vendor>-<region>` (RULINGS 10). */
export interface RegionalComponent {
  vendor: string;
  region: string;
}

/** `vendor-1:us-east,vendor-5:eu-west` → the two regional components. */
export function parseRegionalComponents(value: string): RegionalComponent[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [vendor, region] = entry.split(':');
      if (!vendor || !region) throw new Error(`STATUS_REGIONAL_COMPONENTS: '${entry}' is not vendor:region`);
      return { vendor, region };
    });
}

export interface StatusRecorder {
  /** One finished request of a component. */
  record(component: string, ok: boolean, durationMs?: number): void;
  /** The call pipeline's attempt observer (CallDeps.attemptObserver). */
  attemptObserver: AttemptObserver;
  /** Writes what is held now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createStatusRecorder(options: { redis: Redis; catalog: Catalog; regional: RegionalComponent[]; logger: Pick<Logger, 'warn'>; flushMs?: number; now?: () => number }): StatusRecorder {
  const now = options.now ?? Date.now;
  const regionalOf = new Map<string, string>();
  for (const model of options.catalog.data.models) {
    const regional = options.regional.find((entry) => entry.vendor === model.vendor && entry.region === model.location);
    if (regional) regionalOf.set(model.id, `vendor:${regional.vendor}-${regional.region}`);
  }
  // minute → field → count (counts and latency buckets), written at the next flush.
  let counts = new Map<number, Map<string, number>>();
  let latency = new Map<number, Map<string, number>>();
  const add = (table: Map<number, Map<string, number>>, minute: number, field: string) => {
    let fields = table.get(minute);
    if (!fields) table.set(minute, (fields = new Map()));
    fields.set(field, (fields.get(field) ?? 0) + 1);
  };
  const record = (component: string, ok: boolean, durationMs?: number) => {
    const minute = minuteOf(now());
    add(counts, minute, `${component}|${ok ? 'ok' : 'fail'}`);
    if (durationMs !== undefined) add(latency, minute, `${component}|${bucketOf(durationMs)}`);
  };
  let failing = false;
  const flush = async () => {
    if (counts.size === 0 && latency.size === 0) return;
    const [heldCounts, heldLatency] = [counts, latency];
    counts = new Map();
    latency = new Map();
    const pipeline = options.redis.pipeline();
    for (const [minute, fields] of heldCounts) {
      const hour = hourOf(minute * MINUTE_MS);
      for (const [field, n] of fields) {
        pipeline.hincrby(countsMinuteKey(minute), field, n);
        pipeline.hincrby(countsHourKey(hour), field, n);
      }
      pipeline.pexpire(countsMinuteKey(minute), 17 * MINUTE_MS);
      pipeline.pexpire(countsHourKey(hour), 26 * HOUR_MS);
    }
    for (const [minute, fields] of heldLatency) {
      for (const [field, n] of fields) pipeline.hincrby(latencyMinuteKey(minute), field, n);
      pipeline.pexpire(latencyMinuteKey(minute), 17 * MINUTE_MS);
    }
    try {
      await pipeline.exec();
      failing = false;
    } catch (error) {
      // The store is away: these counts are dropped (the document goes stale, then unavailable).
      if (!failing) options.logger.warn('status measurements not written: the metrics store is unreachable', { err: error });
      failing = true;
    }
  };
  const timer = setInterval(() => void flush(), options.flushMs ?? 2_000);
  timer.unref();
  return {
    record,
    attemptObserver: (observation) => {
      if (observation.outcome === 'aborted' || observation.outcome === 'fatal') return;
      const ok = observation.outcome === 'ok';
      record(`vendor:${observation.vendor}`, ok, observation.durationMs);
      const regional = regionalOf.get(observation.model);
      if (regional) record(regional, ok, observation.durationMs);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
