import { buildDocument, p95Of, statusComponents, statusOf, successRate, unavailableDocument, type Measurements } from './document';
import { LATENCY_BOUNDS_MS, bucketOf, parseRegionalComponents } from './measurements';

const VENDORS = Array.from({ length: 8 }, (_, i) => ({ id: `vendor-${i + 1}`, name: `Vendor ${i + 1}` }));
const COMPONENTS = statusComponents(VENDORS, parseRegionalComponents('vendor-1:us-east,vendor-5:eu-west'));
const empty = (): Measurements => ({ last15m: new Map(), last24h: new Map(), latency15m: new Map() });

describe('status document (spec: Status document)', () => {
  it('components: api, web, vendor-1 … vendor-8, then the two regional ones (RULINGS 10)', () => {
    expect(COMPONENTS.map((component) => component.id)).toEqual(['api', 'web', ...VENDORS.map((vendor) => `vendor:${vendor.id}`), 'vendor:vendor-1-us-east', 'vendor:vendor-5-eu-west']);
    expect(COMPONENTS.at(-1)?.name).toBe('Vendor 5 (eu-west)');
  });

  it.each([
    [{ ok: 0, fail: 0 }, 'operational'],
    [{ ok: 981, fail: 19 }, 'operational'],
    [{ ok: 98, fail: 2 }, 'degraded'],
    [{ ok: 801, fail: 199 }, 'degraded'],
    [{ ok: 80, fail: 20 }, 'major_outage'],
    [{ ok: 0, fail: 5 }, 'major_outage'],
  ])('%p failed share → %s (under 2 %% operational, under 20 %% degraded, else major outage)', (counts, status) => {
    expect(statusOf(counts)).toBe(status);
  });

  it('no requests in the window: operational with null rates and null p95', () => {
    const document = buildDocument(COMPONENTS, empty(), new Date('2026-11-23T08:00:00.123Z'));
    expect(document).toMatchObject({ status: 'operational', updated_at: '2026-11-23T08:00:00Z', source: 'live' });
    expect(document.components[0]).toEqual({ id: 'api', name: 'API', status: 'operational', success_rate_15m: null, success_rate_24h: null, p95_latency_ms: null });
  });

  it('the web row has no 15-minute rate and no p95', () => {
    const web = buildDocument(COMPONENTS, empty(), new Date()).components[1]!;
    expect(web).toEqual({ id: 'web', name: 'Web pages', status: 'operational', success_rate_24h: null });
  });

  it('rates are shares without failure; a vendor in major outage counts as degraded overall, api as itself', () => {
    const measured = empty();
    measured.last15m.set('vendor:vendor-3', { ok: 70, fail: 30 });
    measured.last24h.set('vendor:vendor-3', { ok: 970, fail: 30 });
    let document = buildDocument(COMPONENTS, measured, new Date());
    const vendor = document.components.find((component) => component.id === 'vendor:vendor-3')!;
    expect(vendor).toMatchObject({ status: 'major_outage', success_rate_15m: 0.7, success_rate_24h: 0.97 });
    expect(document.status).toBe('degraded');
    measured.last15m.set('api', { ok: 70, fail: 30 });
    document = buildDocument(COMPONENTS, measured, new Date());
    expect(document.status).toBe('major_outage');
  });

  it('p95 from the latency histogram, interpolated in its bucket', () => {
    expect(p95Of(undefined)).toBeNull();
    expect(p95Of(new Map([[bucketOf(120), 100]]))).toBe(Math.round(100 + 0.95 * (150 - 100)));
    // 90 fast calls and 10 slow ones: the 95th is in the slow bucket.
    expect(p95Of(new Map([[bucketOf(20), 90], [bucketOf(1200), 10]]))).toBe(Math.round(1000 + 0.5 * 500));
    expect(bucketOf(10 ** 7)).toBe(LATENCY_BOUNDS_MS.length);
    expect(successRate({ ok: 2, fail: 1 })).toBe(0.6667);
  });

  it('unavailable: status unknown, nothing measured', () => {
    expect(unavailableDocument(new Date('2026-11-23T08:00:00Z'))).toEqual({ status: 'unknown', updated_at: '2026-11-23T08:00:00Z', source: 'unavailable', components: [] });
  });
});
