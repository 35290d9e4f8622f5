import { LATENCY_BOUNDS_MS, type RegionalComponent } from './measurements';

/**
 * The status document (spec: Status document) from the measurements: per component the share of
 * requests without failure over 15 minutes and 24 hours, the 95th percentile duration over 15
 * minutes, and a status — `operational` under 2 % failed in the last 15 minutes, `degraded`
 * under 20 %, `major_outage` above; no requests in the window: operational with null rates. The
 * overall status is the worst component's, a vendor counting as `degraded` at most. The `web`
 * row has no 15-minute rate and no p95 (the spec's table).
 */
export type ComponentStatus = 'operational' | 'degraded' | 'major_outage';
export type OverallStatus = ComponentStatus | 'unknown';
export type StatusSource = 'live' | 'stale' | 'unavailable';

export interface StatusComponent {
  id: string;
  name: string;
  status: ComponentStatus;
  success_rate_15m?: number | null;
  success_rate_24h: number | null;
  p95_latency_ms?: number | null;
}

export interface StatusDocument {
  status: OverallStatus;
  updated_at: string;
  source: StatusSource;
  components: StatusComponent[];
}

export const DEGRADED_FROM = 0.02;
export const MAJOR_OUTAGE_FROM = 0.2;

/** What one window holds per component: ok and failed counts, and latency bucket counts. */
export interface WindowCounts {
  ok: number;
  fail: number;
}

export interface Measurements {
  last15m: Map<string, WindowCounts>;
  last24h: Map<string, WindowCounts>;
  /** component → latency bucket index → count, over 15 minutes. */
  latency15m: Map<string, Map<number, number>>;
  /** The p95 per component when the source computed it (Prometheus); else from latency15m. */
  p95?: Map<string, number | null>;
}

/** The components in the document's order: api, web, vendor-1 … vendor-8, then the regional ones. */
export function statusComponents(vendors: ReadonlyArray<{ id: string; name: string }>, regional: RegionalComponent[]): Array<{ id: string; name: string }> {
  return [
    { id: 'api', name: 'API' },
    { id: 'web', name: 'Web pages' },
    ...vendors.map((vendor) => ({ id: `vendor:${vendor.id}`, name: vendor.name })),
    ...regional.map((entry) => ({ id: `vendor:${entry.vendor}-${entry.region}`, name: `${vendors.find((vendor) => vendor.id === entry.vendor)?.name ?? entry.vendor} (${entry.region})` })),
  ];
}

/** Share without failure, rounded to 4 decimals; null without requests. */
export function successRate(counts: WindowCounts | undefined): number | null {
  const total = (counts?.ok ?? 0) + (counts?.fail ?? 0);
  if (!counts || total === 0) return null;
  return Math.round((counts.ok / total) * 10_000) / 10_000;
}

export function statusOf(counts: WindowCounts | undefined): ComponentStatus {
  const total = (counts?.ok ?? 0) + (counts?.fail ?? 0);
  if (!counts || total === 0) return 'operational';
  const failed = counts.fail / total;
  if (failed < DEGRADED_FROM) return 'operational';
  return failed < MAJOR_OUTAGE_FROM ? 'degraded' : 'major_outage';
}

/** The 95th percentile from bucket counts, interpolated inside its bucket; null without samples. */
export function p95Of(buckets: Map<number, number> | undefined): number | null {
  if (!buckets) return null;
  const total = [...buckets.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = 0.95 * total;
  let seen = 0;
  for (let index = 0; index <= LATENCY_BOUNDS_MS.length; index += 1) {
    const n = buckets.get(index) ?? 0;
    if (n > 0 && seen + n >= rank) {
      const lower = index === 0 ? 0 : LATENCY_BOUNDS_MS[index - 1]!;
      const upper = LATENCY_BOUNDS_MS[index] ?? lower * 2;
      return Math.round(lower + ((rank - seen) / n) * (upper - lower));
    }
    seen += n;
  }
  return null;
}

const RANK: Record<ComponentStatus, number> = { operational: 0, degraded: 1, major_outage: 2 };

export function buildDocument(components: Array<{ id: string; name: string }>, measured: Measurements, updatedAt: Date): StatusDocument {
  const rows: StatusComponent[] = components.map(({ id, name }) => {
    const status = statusOf(measured.last15m.get(id));
    const rate24h = successRate(measured.last24h.get(id));
    if (id === 'web') return { id, name, status, success_rate_24h: rate24h };
    return { id, name, status, success_rate_15m: successRate(measured.last15m.get(id)), success_rate_24h: rate24h, p95_latency_ms: measured.p95 ? (measured.p95.get(id) ?? null) : p95Of(measured.latency15m.get(id)) };
  });
  let worst: ComponentStatus = 'operational';
  for (const row of rows) {
    // A vendor counts as degraded at most: the service falls back to others.
    const counted: ComponentStatus = row.id.startsWith('vendor:') && row.status === 'major_outage' ? 'degraded' : row.status;
    if (RANK[counted] > RANK[worst]) worst = counted;
  }
  return { status: worst, updated_at: rfc3339(updatedAt), source: 'live', components: rows };
}

/** The document when no measurement can be read and no recent one is held. */
export function unavailableDocument(now: Date): StatusDocument {
  return { status: 'unknown', updated_at: rfc3339(now), source: 'unavailable', components: [] };
}

/** RFC 3339 in UTC, to the second. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
