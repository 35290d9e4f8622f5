import { randomBytes } from 'node:crypto';
import { catalog } from '@svc/catalog';
import { createRedis, type Redis } from '@svc/redis';
import { createStatusRecorder, parseRegionalComponents } from './measurements';
import { createStatusService, STALE_FOR_MS } from './status-service';
import { statusComponents } from './document';

/**
 * The status document against the real Redis (a key prefix of this run): measurements written by
 * one recorder, the document computed by one service and shared with another (two replicas), and
 * the metrics store cut: stale with the last good document, unavailable past 5 minutes.
 */
const logger = { warn: jest.fn(), info: jest.fn() };
const regional = parseRegionalComponents('vendor-1:us-east,vendor-5:eu-west');
const components = statusComponents(catalog.data.vendors, regional);

describe('status measurements and document (real Redis)', () => {
  let redis: Redis;
  let clock = Date.parse('2026-11-23T08:00:30Z');
  let broken = false;
  // The same connection, cut on demand (the metrics store unreachable).
  let flaky: Redis;

  beforeAll(() => {
    redis = createRedis({ url: process.env.REDIS_URL!, keyPrefix: `${process.env.REDIS_KEY_PREFIX ?? 'svctest:'}status-${randomBytes(4).toString('hex')}:` });
    flaky = new Proxy(redis, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (broken && ['set', 'get', 'pipeline'].includes(String(property))) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
          return value.apply(target, args);
        };
      },
    });
  });
  afterAll(async () => redis.quit());

  it('counts api and vendor attempts per component; two replicas serve one document; stale, then unavailable', async () => {
    const recorder = createStatusRecorder({ redis, catalog, regional, logger, now: () => clock, flushMs: 60_000 });
    for (let i = 0; i < 95; i += 1) recorder.record('api', true, 40);
    for (let i = 0; i < 5; i += 1) recorder.record('api', false, 900);
    // vendor-1/orion-mini-5 is served in us-east: its regional component counts it too.
    for (let i = 0; i < 70; i += 1) recorder.attemptObserver({ vendor: 'vendor-1', model: 'vendor-1/orion-mini-5', outcome: 'ok', durationMs: 30 });
    for (let i = 0; i < 30; i += 1) recorder.attemptObserver({ vendor: 'vendor-1', model: 'vendor-1/orion-mini-5', outcome: 'retryable', durationMs: 5000 });
    // Not the vendor's failures: a rejected request, a client that left.
    recorder.attemptObserver({ vendor: 'vendor-1', model: 'vendor-1/orion-mini-5', outcome: 'fatal', durationMs: 5 });
    recorder.attemptObserver({ vendor: 'vendor-1', model: 'vendor-1/orion-mini-5', outcome: 'aborted', durationMs: 5 });
    await recorder.close();

    const first = createStatusService({ redis: flaky, components, logger, recomputeMs: 30_000, now: () => clock });
    const second = createStatusService({ redis: flaky, components, logger, recomputeMs: 30_000, now: () => clock });
    try {
      const one = await first.document();
      const two = await second.document();
      expect(two).toEqual(one);
      expect(one).toMatchObject({ status: 'degraded', source: 'live', updated_at: '2026-11-23T08:00:30Z' });
      const byId = Object.fromEntries(one.components.map((component) => [component.id, component]));
      expect(byId.api).toMatchObject({ status: 'degraded', success_rate_15m: 0.95, success_rate_24h: 0.95 });
      expect(byId['vendor:vendor-1']).toMatchObject({ status: 'major_outage', success_rate_15m: 0.7 });
      expect(byId['vendor:vendor-1-us-east']).toMatchObject({ status: 'major_outage', success_rate_15m: 0.7 });
      expect(byId['vendor:vendor-1']!.p95_latency_ms).toBeGreaterThan(3000);
      expect(byId['vendor:vendor-2']).toMatchObject({ status: 'operational', success_rate_15m: null, p95_latency_ms: null });
      expect(JSON.stringify(one)).not.toMatch(/org_|key_|call_/);

      // The store is cut: the last good document, stale, for up to 5 minutes of its age.
      broken = true;
      clock += 60_000;
      await first.refresh();
      expect(first.current()).toMatchObject({ source: 'stale', status: 'degraded', updated_at: '2026-11-23T08:00:30Z' });
      clock += STALE_FOR_MS;
      expect(first.current()).toMatchObject({ source: 'unavailable', status: 'unknown', components: [] });
      // Back: live again at the next recompute.
      broken = false;
      await first.refresh();
      expect(first.current().source).toBe('live');
    } finally {
      first.close();
      second.close();
    }
  });
});
