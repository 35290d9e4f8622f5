import { MeterProvider, MetricReader, DataPointType } from '@opentelemetry/sdk-metrics';
import { DURATION_BUCKETS_MS, createSvcMetrics, inMemoryMetrics, svcMetrics, type InMemoryMetrics } from './index';

class Reader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

describe('createSvcMetrics on a meter of its own', () => {
  it('records counters and histograms with their attributes, histograms in ms buckets', async () => {
    const reader = new Reader();
    const provider = new MeterProvider({ readers: [reader] });
    const instruments = createSvcMetrics(provider.getMeter('svc'));
    instruments.requests.add(1, { route: '/v1/chat/completions', method: 'POST', status_code: '200' });
    instruments.requests.add(1, { route: '/v1/chat/completions', method: 'POST', status_code: '200' });
    instruments.requestDuration.record(42, { route: '/v1/chat/completions', status_code: '200' });

    const { resourceMetrics, errors } = await reader.collect();
    expect(errors).toEqual([]);
    const byName = new Map(resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).map((metric) => [metric.descriptor.name, metric]));
    const requests = byName.get('svc.http.requests')!;
    expect(requests.dataPointType).toBe(DataPointType.SUM);
    expect(requests.dataPoints).toEqual([expect.objectContaining({ attributes: { route: '/v1/chat/completions', method: 'POST', status_code: '200' }, value: 2 })]);
    const duration = byName.get('svc.http.request.duration_ms')!;
    expect(duration.descriptor.unit).toBe('ms');
    expect(duration.dataPointType).toBe(DataPointType.HISTOGRAM);
    if (duration.dataPointType !== DataPointType.HISTOGRAM) throw new Error('not a histogram');
    const point = duration.dataPoints[0]!;
    expect(point.attributes).toEqual({ route: '/v1/chat/completions', status_code: '200' });
    expect(point.value.buckets.boundaries).toEqual(DURATION_BUCKETS_MS);
    expect(point.value.count).toBe(1);
    expect(point.value.sum).toBe(42);
    // 42 ms falls in the (20, 50] bucket.
    expect(point.value.buckets.counts[DURATION_BUCKETS_MS.indexOf(50)]).toBe(1);
    await provider.shutdown();
  });
});

describe('svcMetrics() on the global provider', () => {
  let memory: InMemoryMetrics;
  beforeEach(() => {
    memory = inMemoryMetrics();
  });
  afterEach(() => memory.stop());

  it('creates the instruments once per provider', () => {
    expect(svcMetrics()).toBe(svcMetrics());
  });

  it('follows a provider registered after a first use', async () => {
    const before = svcMetrics();
    await memory.stop();
    memory = inMemoryMetrics();
    expect(svcMetrics()).not.toBe(before);
    svcMetrics().settlementsWritten.add(3);
    expect(await memory.sum('svc.billing.settlements')).toBe(3);
  });

  it('records every instrument with its low-cardinality attributes', async () => {
    const m = svcMetrics();
    m.errors.add(1, { route: '/v1/chat/completions', code: 'invalid_api_key' });
    m.vendorAttempts.add(1, { vendor: 'vendor-1', model: 'model-a', outcome: 'ok' });
    m.vendorAttempts.add(1, { vendor: 'vendor-1', model: 'model-a', outcome: 'retryable' });
    m.vendorDuration.record(1500, { vendor: 'vendor-1', model: 'model-a' });
    m.fallbacks.add(1, { from_model: 'model-a', to_model: 'model-b' });
    m.rateLimitRefusals.add(1, { scope: 'ip' });
    m.rateLimitRefusals.add(2, { scope: 'key_tokens' });
    m.ledgerLagMs.record(250);
    m.jobAgeMs.record(120, { queue: 'usage.settle' });
    m.routes.add(1, { line: 'balanced', trigger: 'no_prior_decision', outcome: 'ok' });
    m.routeDuration.record(3, { line: 'named', trigger: 'explicit', outcome: 'ok' });
    const observe = (result: { observe(value: number, attributes: { queue: string }): void }) => result.observe(7, { queue: 'usage.settle' });
    m.queueDepth.addCallback(observe);

    expect(await memory.sum('svc.http.errors', { code: 'invalid_api_key', route: '/v1/chat/completions' })).toBe(1);
    expect(await memory.sum('svc.vendor.attempts', { vendor: 'vendor-1', model: 'model-a' })).toBe(2);
    expect(await memory.sum('svc.vendor.attempts', { outcome: 'retryable' })).toBe(1);
    expect(await memory.histogram('svc.vendor.attempt.duration_ms', { vendor: 'vendor-1', model: 'model-a' })).toMatchObject({ count: 1, sum: 1500, boundaries: DURATION_BUCKETS_MS });
    expect(await memory.sum('svc.vendor.fallbacks', { from_model: 'model-a', to_model: 'model-b' })).toBe(1);
    expect(await memory.sum('svc.rate_limit.refusals', { scope: 'ip' })).toBe(1);
    expect(await memory.sum('svc.rate_limit.refusals', { scope: 'key_tokens' })).toBe(2);
    expect(await memory.histogram('svc.billing.ledger_lag_ms')).toMatchObject({ count: 1, sum: 250 });
    expect(await memory.histogram('svc.queue.job_age_ms', { queue: 'usage.settle' })).toMatchObject({ count: 1, sum: 120 });
    expect(await memory.sum('svc.queue.depth', { queue: 'usage.settle' })).toBe(7);
    expect(await memory.sum('svc.router.routes', { line: 'balanced', trigger: 'no_prior_decision', outcome: 'ok' })).toBe(1);
    expect(await memory.histogram('svc.router.route.duration_ms', { line: 'named' })).toMatchObject({ count: 1, sum: 3 });
    m.queueDepth.removeCallback(observe);
  });

  it('records nothing anywhere once no provider is registered', async () => {
    await memory.stop();
    expect(() => svcMetrics().requests.add(1, { route: 'r', method: 'GET', status_code: '200' })).not.toThrow();
    memory = inMemoryMetrics();
    expect(await memory.points('svc.http.requests')).toEqual([]);
  });
});
