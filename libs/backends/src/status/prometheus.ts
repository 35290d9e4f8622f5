import type { Catalog } from '@svc/catalog';
import type { Measurements, WindowCounts } from './document';
import type { RegionalComponent } from './measurements';

/**
 * The status document's measurements read from Prometheus (the deployed option,
 * `STATUS_SOURCE=prometheus`): the counters and histograms every service already exports
 * (svc_http_requests_total, svc_http_request_duration_ms, svc_vendor_attempts_total,
 * svc_vendor_attempt_duration_ms), queried over the HTTP API of the Prometheus that scrapes
 * them. Same components and the same rules as the Redis measurements: `api` is every /v1 route
 * (failed: 5xx), `web` the pages, a vendor's attempts failed when `retryable` (fatal and aborted
 * are not the vendor's failures), the regional components by the served model's region.
 */
type Sample = { metric: Record<string, string>; value: [number, string] };
export type PrometheusFetch = (url: string, init: { signal: AbortSignal }) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

const API_ROUTES = 'route=~"/v1/.+"';
const WEB_ROUTES = 'route=~"/status|/analyze"';

export function prometheusReader(options: { url: string; catalog: Catalog; regional: RegionalComponent[]; fetch?: PrometheusFetch; timeoutMs?: number }) {
  const fetcher: PrometheusFetch = options.fetch ?? ((url, init) => fetch(url, init));
  const regionalOf = new Map<string, string>();
  for (const model of options.catalog.data.models) {
    const regional = options.regional.find((entry) => entry.vendor === model.vendor && entry.region === model.location);
    if (regional) regionalOf.set(model.id, `vendor:${regional.vendor}-${regional.region}`);
  }

  async function query(promql: string, atMs: number): Promise<Sample[]> {
    const url = `${options.url.replace(/\/$/, '')}/api/v1/query?query=${encodeURIComponent(promql)}&time=${atMs / 1000}`;
    const response = await fetcher(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 4_000) });
    if (!response.ok) throw new Error(`prometheus answered ${response.status} to ${promql}`);
    const body = (await response.json()) as { status?: string; data?: { resultType?: string; result?: Sample[] } };
    if (body.status !== 'success' || body.data?.resultType !== 'vector') throw new Error(`prometheus could not run ${promql}`);
    return body.data.result ?? [];
  }

  const add = (into: Map<string, WindowCounts>, component: string, ok: boolean, n: number) => {
    const entry = into.get(component) ?? { ok: 0, fail: 0 };
    if (ok) entry.ok += n;
    else entry.fail += n;
    into.set(component, entry);
  };

  async function counts(window: string, atMs: number): Promise<Map<string, WindowCounts>> {
    const [api, web, vendors] = await Promise.all([
      query(`sum by (status_code) (increase(svc_http_requests_total{${API_ROUTES}}[${window}]))`, atMs),
      query(`sum by (status_code) (increase(svc_http_requests_total{${WEB_ROUTES}}[${window}]))`, atMs),
      query(`sum by (vendor, model, outcome) (increase(svc_vendor_attempts_total{outcome=~"ok|retryable"}[${window}]))`, atMs),
    ]);
    const out = new Map<string, WindowCounts>();
    for (const [component, samples] of [['api', api], ['web', web]] as const) {
      // 499: the client left before an answer (not counted).
      for (const sample of samples) if (sample.metric.status_code !== '499') add(out, component, !/^5/.test(sample.metric.status_code ?? ''), Math.round(Number(sample.value[1])));
    }
    for (const sample of vendors) {
      const n = Math.round(Number(sample.value[1]));
      const ok = sample.metric.outcome === 'ok';
      add(out, `vendor:${sample.metric.vendor}`, ok, n);
      const regional = regionalOf.get(sample.metric.model ?? '');
      if (regional) add(out, regional, ok, n);
    }
    return out;
  }

  /** p95 per component from cumulative buckets (le → count), interpolated inside its bucket. */
  async function p95(atMs: number): Promise<Map<string, number | null>> {
    const [api, vendors] = await Promise.all([
      query(`sum by (le) (increase(svc_http_request_duration_ms_bucket{${API_ROUTES}}[15m]))`, atMs),
      query(`sum by (le, vendor, model) (increase(svc_vendor_attempt_duration_ms_bucket[15m]))`, atMs),
    ]);
    const buckets = new Map<string, Map<number, number>>();
    const addBucket = (component: string, le: string | undefined, n: number) => {
      const bound = le === '+Inf' ? Infinity : Number(le);
      if (Number.isNaN(bound)) return;
      const entry = buckets.get(component) ?? new Map<number, number>();
      entry.set(bound, (entry.get(bound) ?? 0) + n);
      buckets.set(component, entry);
    };
    for (const sample of api) addBucket('api', sample.metric.le, Number(sample.value[1]));
    for (const sample of vendors) {
      addBucket(`vendor:${sample.metric.vendor}`, sample.metric.le, Number(sample.value[1]));
      const regional = regionalOf.get(sample.metric.model ?? '');
      if (regional) addBucket(regional, sample.metric.le, Number(sample.value[1]));
    }
    const out = new Map<string, number | null>();
    for (const [component, cumulative] of buckets) out.set(component, quantileOfCumulative(cumulative, 0.95));
    return out;
  }

  return async (nowMs: number): Promise<Measurements> => {
    const [last15m, last24h, p95ByComponent] = await Promise.all([counts('15m', nowMs), counts('24h', nowMs), p95(nowMs)]);
    return { last15m, last24h, latency15m: new Map(), p95: p95ByComponent };
  };
}

/** The q-quantile of a cumulative histogram (upper bound → count at or below it), interpolated; null when empty. */
export function quantileOfCumulative(cumulative: Map<number, number>, q: number): number | null {
  const bounds = [...cumulative.keys()].sort((a, b) => a - b);
  const total = cumulative.get(Infinity) ?? (bounds.length > 0 ? cumulative.get(bounds.at(-1)!)! : 0);
  if (!total || total <= 0) return null;
  const rank = q * total;
  let previousBound = 0;
  let previousCount = 0;
  for (const bound of bounds) {
    const count = cumulative.get(bound)!;
    if (count >= rank) {
      if (!Number.isFinite(bound)) return Math.round(previousBound);
      const inBucket = count - previousCount;
      return Math.round(inBucket > 0 ? previousBound + ((rank - previousCount) / inBucket) * (bound - previousBound) : bound);
    }
    previousBound = bound;
    previousCount = count;
  }
  return Math.round(previousBound);
}
