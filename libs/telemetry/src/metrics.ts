import { metrics, type Counter, type Histogram, type Meter, type MeterProvider, type ObservableGauge } from '@opentelemetry/api';

/**
 * The service's own metrics (README, Operations › Metrics), one typed facade over the OTel
 * metrics API. Prometheus sees each name with dots turned into underscores and `_total` added to
 * counters (svc.http.requests → svc_http_requests_total).
 *
 * Attribute values are bounded sets: route patterns, status codes, error codes, catalog vendor
 * and model ids, queue names. Never ids, keys, prompts or raw URLs.
 */

/** Bucket bounds (ms) of every duration histogram: 1 ms up to the 10-minute long call. */
export const DURATION_BUCKETS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000, 120000, 600000];

export type HttpRequestAttributes = { route: string; method: string; status_code: string };
export type HttpErrorAttributes = { route: string; code: string };
export type HttpDurationAttributes = { route: string; status_code: string };
/** ok: the vendor answered (a stream: its first event); retryable / fatal: the error's class; aborted: the client left. */
export type VendorOutcome = 'ok' | 'retryable' | 'fatal' | 'aborted';
export type VendorAttemptAttributes = { vendor: string; model: string; outcome: VendorOutcome };
export type VendorDurationAttributes = { vendor: string; model: string };
export type FallbackAttributes = { from_model: string; to_model: string };
/** reason: `asked` (the model called the hidden escalation tool) or the answer check that failed. */
export type EscalationAttributes = { from_model: string; to_model: string; reason: string };
export type RateLimitScope = 'ip' | 'key_requests' | 'key_tokens';
export type RateLimitAttributes = { scope: RateLimitScope };
export type QueueAttributes = { queue: string };
/** line: the auto line, or 'named' for a named model; trigger: the session trigger ('explicit' for named). */
export type RouteAttributes = { line: string; trigger: string; outcome: 'ok' | 'error' };

export interface SvcMetrics {
  /** svc.http.requests: requests answered by the edge. */
  requests: Counter<HttpRequestAttributes>;
  /** svc.http.errors: error responses by their error code. */
  errors: Counter<HttpErrorAttributes>;
  /** svc.http.request.duration_ms: time from the request's arrival to the end of its response. */
  requestDuration: Histogram<HttpDurationAttributes>;
  /** svc.vendor.attempts: each call to a vendor, by outcome. */
  vendorAttempts: Counter<VendorAttemptAttributes>;
  /** svc.vendor.attempt.duration_ms: each vendor attempt (a stream: until its first event). */
  vendorDuration: Histogram<VendorDurationAttributes>;
  /** svc.vendor.fallbacks: calls served by a later candidate than the first one tried. */
  fallbacks: Counter<FallbackAttributes>;
  /** svc.call.escalations: answers auto replaced by a stronger model's (spec: Escalation, svc.escalated_from). */
  escalations: Counter<EscalationAttributes>;
  /** svc.call.capacity_fallbacks: flex attempts refused for capacity and served at standard (spec: Deadline and flex rules 2). */
  capacityFallbacks: Counter<{ vendor: string; model: string }>;
  /** svc.rate_limit.refusals: 429s from the per-address and per-key limits. */
  rateLimitRefusals: Counter<RateLimitAttributes>;
  /** svc.billing.settlements: ledger rows written (duplicates skipped are not counted). */
  settlementsWritten: Counter;
  /** svc.billing.ledger_lag_ms: from the call's occurred_at to its ledger row. */
  ledgerLagMs: Histogram;
  /** svc.queue.depth: messages ready in a queue (polled). */
  queueDepth: ObservableGauge<QueueAttributes>;
  /** svc.queue.job_age_ms: age of a message's job when a consumer takes it. */
  jobAgeMs: Histogram<QueueAttributes>;
  /** svc.router.routes: Route RPCs. */
  routes: Counter<RouteAttributes>;
  /** svc.router.route.duration_ms: Route RPC time in the router. */
  routeDuration: Histogram<RouteAttributes>;
  /** svc.responses.history_cache: turns continuing from a previous response, by whether the edge held its history (hit) or asked BuildHistory (miss). */
  historyCache: Counter<{ result: 'hit' | 'miss' }>;
}

const durationMs = (description: string) => ({ unit: 'ms', description, advice: { explicitBucketBoundaries: DURATION_BUCKETS_MS } });

/** The instruments on one meter (tests pass a meter of their own provider). */
export function createSvcMetrics(meter: Meter): SvcMetrics {
  return {
    requests: meter.createCounter('svc.http.requests', { description: 'HTTP requests answered, by route, method and status code' }),
    errors: meter.createCounter('svc.http.errors', { description: 'HTTP error responses, by route and error code' }),
    requestDuration: meter.createHistogram('svc.http.request.duration_ms', durationMs('HTTP request duration, by route and status code')),
    vendorAttempts: meter.createCounter('svc.vendor.attempts', { description: 'Vendor attempts, by vendor, model and outcome' }),
    vendorDuration: meter.createHistogram('svc.vendor.attempt.duration_ms', durationMs('Vendor attempt duration (streams: until the first event), by vendor and model')),
    fallbacks: meter.createCounter('svc.vendor.fallbacks', { description: 'Calls served by a fallback candidate, by first model tried and serving model' }),
    escalations: meter.createCounter('svc.call.escalations', { description: 'Answers replaced by a stronger model, by model replaced, serving model and reason' }),
    capacityFallbacks: meter.createCounter('svc.call.capacity_fallbacks', { description: 'Flex attempts refused for capacity and retried at standard, by vendor and model' }),
    rateLimitRefusals: meter.createCounter('svc.rate_limit.refusals', { description: 'Rate-limit refusals (429), by scope' }),
    settlementsWritten: meter.createCounter('svc.billing.settlements', { description: 'Usage records written to the ledger' }),
    ledgerLagMs: meter.createHistogram('svc.billing.ledger_lag_ms', durationMs('Time from a call to its ledger row')),
    queueDepth: meter.createObservableGauge('svc.queue.depth', { description: 'Messages ready in the queue' }),
    jobAgeMs: meter.createHistogram('svc.queue.job_age_ms', durationMs('Age of a job when its consumer takes it, by queue')),
    routes: meter.createCounter('svc.router.routes', { description: 'Route RPCs, by line, trigger and outcome' }),
    routeDuration: meter.createHistogram('svc.router.route.duration_ms', durationMs('Route RPC duration, by line, trigger and outcome')),
    historyCache: meter.createCounter('svc.responses.history_cache', { description: "Responses turns continuing from a previous response, by whether the edge held the thread's history" }),
  };
}

let current: { provider: MeterProvider; instruments: SvcMetrics } | undefined;

/**
 * The process's instruments, created once on the global meter provider's `svc` meter. They are
 * created again if the global provider changes (the SDK started after a first use, or a test
 * registered its own), so an early call never pins no-op instruments.
 */
export function svcMetrics(): SvcMetrics {
  const provider = metrics.getMeterProvider();
  if (current?.provider !== provider) current = { provider, instruments: createSvcMetrics(provider.getMeter('svc')) };
  return current.instruments;
}

/** Milliseconds since a `performance.now()` reading. */
export function elapsedMs(startedAt: number): number {
  return performance.now() - startedAt;
}
