import { sleep, startChaosFleet, type ChaosFleet } from './support/chaos-fleet';
import { report } from './support/reconcile';

/**
 * GET /v1/status from live measurements (spec: Status document), on a fleet of its own (its own
 * Redis prefix, so no other test's traffic counts), two edge replicas, the document recomputed
 * every second: a vendor at 5 % failures is degraded, at 30 % it is in major outage while the
 * overall status counts it as degraded at most; `api` follows its own rate; both replicas serve
 * the same document; with the metrics store cut the document goes stale.
 */
jest.setTimeout(150_000);

type Component = { id: string; name: string; status: string; success_rate_15m?: number | null; success_rate_24h: number | null; p95_latency_ms?: number | null };
type StatusDocument = { status: string; updated_at: string; source: string; components: Component[] };

describe('chaos: the live status document', () => {
  let chaos: ChaosFleet;

  beforeAll(async () => {
    chaos = await startChaosFleet({ name: 'status', replicas: { edge: 2 }, env: { STATUS_RECOMPUTE_MS: '1000' } });
  }, 120_000);

  afterAll(async () => {
    await chaos?.stop();
  }, 60_000);

  const edges = () => chaos.fleet.instances.filter((instance) => instance.service === 'edge').map((instance) => `http://127.0.0.1:${instance.port}/v1`);

  async function status(baseUrl = chaos.baseUrl): Promise<StatusDocument> {
    const response = await fetch(`${baseUrl}/status`);
    expect(response.status).toBe(200);
    return (await response.json()) as StatusDocument;
  }

  async function calls(apiKey: string, model: string, count: number, failEvery: number): Promise<number> {
    let failed = 0;
    for (let start = 0; start < count; start += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, count - start) }, async (_, offset) => {
          const index = start + offset;
          const fault = index % failEvery === 0 ? { 'x-sim-fault': 'status:500' } : {};
          const response = await fetch(`${chaos.baseUrl}/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...fault },
            body: JSON.stringify({ model, max_tokens: 5, messages: [{ role: 'user', content: `status ${index}` }], svc: { fallback: 'none' } }),
          });
          await response.arrayBuffer();
          if (response.status >= 500) failed += 1;
        }),
      );
    }
    return failed;
  }

  async function until(check: (document: StatusDocument) => boolean, timeoutMs = 15_000): Promise<StatusDocument> {
    const started = Date.now();
    let document = await status();
    while (!check(document) && Date.now() - started < timeoutMs) {
      await sleep(300);
      document = await status();
    }
    return document;
  }

  it('thresholds from injected vendor faults, one document on both replicas, stale when the store is cut', async () => {
    const organization = chaos.newOrganization();
    const quiet = await status();
    expect(quiet.source).toBe('live');
    expect(quiet.components.map((component) => component.id)).toEqual(['api', 'web', ...Array.from({ length: 8 }, (_, i) => `vendor:vendor-${i + 1}`), 'vendor:vendor-1-us-east', 'vendor:vendor-5-eu-west']);
    expect(quiet.components.find((component) => component.id === 'web')).toEqual({ id: 'web', name: 'Web pages', status: 'operational', success_rate_24h: null });
    expect(quiet.components.find((component) => component.id === 'vendor:vendor-7')).toMatchObject({ status: 'operational', success_rate_15m: null, p95_latency_ms: null });

    // vendor-7 at 5 % failed attempts: degraded.
    const failed7 = await calls(organization.apiKey, 'vendor-7/vega-4-fast', 200, 20);
    expect(failed7).toBe(10);
    let document = await until((doc) => doc.components.find((component) => component.id === 'vendor:vendor-7')?.success_rate_15m === 0.95);
    const vendor7 = document.components.find((component) => component.id === 'vendor:vendor-7')!;
    expect(vendor7).toMatchObject({ status: 'degraded', success_rate_15m: 0.95, success_rate_24h: 0.95 });
    expect(vendor7.p95_latency_ms).toEqual(expect.any(Number));
    const api = document.components.find((component) => component.id === 'api')!;
    expect(api.status).toBe('degraded');
    expect(document.status).toBe('degraded');

    // vendor-4 at 30 %: major outage for the vendor, still degraded at most overall; api by its own rate.
    await calls(organization.apiKey, 'vendor-4/atlas-3.1-8b', 100, 3);
    document = await until((doc) => doc.components.find((component) => component.id === 'vendor:vendor-4')?.status === 'major_outage');
    expect(document.components.find((component) => component.id === 'vendor:vendor-4')).toMatchObject({ status: 'major_outage' });
    const apiNow = document.components.find((component) => component.id === 'api')!;
    const apiFailed = 1 - (apiNow.success_rate_15m ?? 1);
    expect(apiNow.status).toBe(apiFailed < 0.02 ? 'operational' : apiFailed < 0.2 ? 'degraded' : 'major_outage');
    expect(document.status).toBe(apiNow.status === 'major_outage' ? 'major_outage' : 'degraded');

    // Both replicas serve the same document (computed once, shared through the store).
    const [one, two] = edges();
    let a = await status(one);
    let b = await status(two);
    // Replicas switch to a new period's document within moments of each other: compare away from a switch.
    for (let i = 0; i < 20 && a.updated_at !== b.updated_at; i += 1) {
      await sleep(50);
      a = await status(one);
      b = await status(two);
    }
    expect(b).toEqual(a);
    expect(JSON.stringify(a)).not.toContain(organization.organizationId);

    // The metrics store cut: the last good document, stale.
    chaos.proxies.redis.cut();
    try {
      const stale = await until((doc) => doc.source === 'stale', 15_000);
      expect(stale.source).toBe('stale');
      expect(stale.components.length).toBe(12);
      report('status', { vendor7: vendor7, api: apiNow, overall: document.status, stale_updated_at: stale.updated_at });
    } finally {
      chaos.proxies.redis.restore();
    }
    expect((await until((doc) => doc.source === 'live', 30_000)).source).toBe('live');
  });
});
