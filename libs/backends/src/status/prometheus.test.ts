import { catalog } from '@svc/catalog';
import { buildDocument, statusComponents } from './document';
import { parseRegionalComponents } from './measurements';
import { prometheusReader, quantileOfCumulative } from './prometheus';

/** A Prometheus HTTP API that answers each query from a table (the PromQL text → vector samples). */
function fakePrometheus(answers: Array<[RegExp, Array<{ metric: Record<string, string>; value: string }>]>) {
  const asked: string[] = [];
  const fetch = async (url: string) => {
    const query = decodeURIComponent(new URL(url).searchParams.get('query') ?? '');
    asked.push(query);
    const found = answers.find(([pattern]) => pattern.test(query));
    const result = (found?.[1] ?? []).map((sample) => ({ metric: sample.metric, value: [1_700_000_000, sample.value] }));
    return { ok: true, status: 200, json: async () => ({ status: 'success', data: { resultType: 'vector', result } }) };
  };
  return { fetch, asked };
}

describe('status measurements from Prometheus', () => {
  const regional = parseRegionalComponents('vendor-1:us-east,vendor-5:eu-west');

  it('api, web and vendors (and the regional rows) from the exported counters; p95 from the buckets', async () => {
    const prometheus = fakePrometheus([
      [/svc_http_requests_total\{route=~"\/v1\/\.\+"\}\[15m\]/, [{ metric: { status_code: '200' }, value: '95' }, { metric: { status_code: '502' }, value: '5' }, { metric: { status_code: '499' }, value: '40' }]],
      [/svc_http_requests_total\{route=~"\/v1\/\.\+"\}\[24h\]/, [{ metric: { status_code: '200' }, value: '1990' }, { metric: { status_code: '503' }, value: '10' }]],
      [/svc_vendor_attempts_total.*\[15m\]/, [{ metric: { vendor: 'vendor-1', model: 'vendor-1/orion-mini-5', outcome: 'ok' }, value: '70' }, { metric: { vendor: 'vendor-1', model: 'vendor-1/orion-mini-5', outcome: 'retryable' }, value: '30' }]],
      [/svc_http_request_duration_ms_bucket/, [{ metric: { le: '50' }, value: '90' }, { metric: { le: '100' }, value: '100' }, { metric: { le: '+Inf' }, value: '100' }]],
    ]);
    const read = prometheusReader({ url: 'http://prometheus.test:9090/', catalog, regional, fetch: prometheus.fetch });
    const document = buildDocument(statusComponents(catalog.data.vendors, regional), await read(Date.parse('2026-11-23T08:00:00Z')), new Date('2026-11-23T08:00:00Z'));
    const byId = Object.fromEntries(document.components.map((component) => [component.id, component]));
    expect(byId.api).toMatchObject({ status: 'degraded', success_rate_15m: 0.95, success_rate_24h: 0.995, p95_latency_ms: 75 });
    expect(byId['vendor:vendor-1']).toMatchObject({ status: 'major_outage', success_rate_15m: 0.7 });
    expect(byId['vendor:vendor-1-us-east']).toMatchObject({ status: 'major_outage', success_rate_15m: 0.7 });
    expect(byId['vendor:vendor-2']).toMatchObject({ status: 'operational', success_rate_15m: null, p95_latency_ms: null });
    expect(document.status).toBe('degraded');
    expect(prometheus.asked.some((query) => query.includes('outcome=~"ok|retryable"'))).toBe(true);
  });

  it('a Prometheus that fails makes the read fail (the document goes stale)', async () => {
    const read = prometheusReader({ url: 'http://prometheus.test:9090', catalog, regional, fetch: async () => ({ ok: false, status: 503, json: async () => ({}) }) });
    await expect(read(Date.now())).rejects.toThrow(/prometheus answered 503/);
  });

  it('quantiles from cumulative buckets', () => {
    expect(quantileOfCumulative(new Map(), 0.95)).toBeNull();
    expect(quantileOfCumulative(new Map([[10, 50], [20, 100], [Infinity, 100]]), 0.95)).toBe(19);
    expect(quantileOfCumulative(new Map([[10, 0], [Infinity, 10]]), 0.95)).toBe(10);
  });
});
