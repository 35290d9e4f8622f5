import { sleep, startChaosFleet, type ChaosFleet, type Organization } from './support/chaos-fleet';
import { reconcile, report } from './support/reconcile';
import { call, Load, mixedCall, summarize, type CallSpec, type Outcome } from './support/traffic';

/**
 * Chaos 3: the vendor attempt time limit under concurrent load. The fleet runs with
 * ATTEMPT_TIMEOUT_MS (and the long limit) at 1.5 s. While 25 req/s of ordinary billed traffic
 * runs, calls whose vendor never answers (vendor-sim `x-sim-fault: timeout`), answers too late
 * (a time to first token past the limit) or streams too slowly are sent on every path: unary
 * and streamed chat with fallback none, with fallback to a healthy model, auto, embeddings.
 * Every one must end — 504 upstream_timeout (an error event once a stream has started), or a
 * fallback's answer — within the attempt limit plus 5 s, and no request of either kind may stay
 * open longer than that.
 */
jest.setTimeout(120_000);

const ATTEMPT_MS = 1500;
const BAR_MS = ATTEMPT_MS + 5000;
const BACKGROUND_RATE = 25;
const HUNG_RATE = 4;
const PHASE_MS = 10_000;

const question = (index: number) => [{ role: 'user', content: `deadline ${index}: answer briefly` }];

/** The hung calls, in turn: what is sent and what ending is expected. */
const HUNG: Array<{ label: string; spec: (index: number) => Omit<CallSpec, 'label'>; expect: 'timeout' | 'answered' }> = [
  {
    label: 'unary, vendor silent, fallback none',
    spec: (index) => ({ body: { model: 'vendor-1/orion-mini-5', max_tokens: 20, messages: question(index), svc: { fallback: 'none' } }, headers: { 'x-sim-fault': 'timeout' } }),
    expect: 'timeout',
  },
  {
    label: 'stream, vendor silent, fallback none',
    spec: (index) => ({ body: { model: 'vendor-2/lyric-haiku-4.5', max_tokens: 20, stream: true, messages: question(index), svc: { fallback: 'none' } }, headers: { 'x-sim-fault': 'timeout' } }),
    expect: 'timeout',
  },
  {
    label: 'unary, first token after 60 s, fallback none',
    spec: (index) => ({ body: { model: 'vendor-3/lumen-2.5-flash', max_tokens: 20, messages: question(index), svc: { fallback: 'none' } }, headers: { 'x-sim-ttft-ms': '60000' } }),
    expect: 'timeout',
  },
  {
    label: 'stream, 1 token a second, fallback none',
    spec: (index) => ({ body: { model: 'vendor-1/orion-mini-5', max_tokens: 200, stream: true, messages: question(index), svc: { fallback: 'none' } }, headers: { 'x-sim-tps': '1' } }),
    expect: 'timeout',
  },
  {
    label: 'unary, named model silent, falls back',
    spec: (index) => ({ body: { model: 'vendor-1/orion-mini-5', max_tokens: 20, messages: question(index), svc: { fallback: 'cross_vendor' } }, headers: { 'x-sim-fault': 'timeout', 'x-sim-fault-model': 'orion-mini-5' } }),
    expect: 'answered',
  },
  {
    label: 'auto, every vendor silent',
    spec: (index) => ({ body: { model: 'auto', max_tokens: 20, messages: question(index) }, headers: { 'x-sim-fault': 'timeout' } }),
    expect: 'timeout',
  },
  {
    label: 'embeddings, vendor silent',
    spec: (index) => ({ path: '/embeddings', body: { model: 'vendor-1/orion-embed-3-small', input: [`deadline ${index}`] }, headers: { 'x-sim-fault': 'timeout' } }),
    expect: 'timeout',
  },
  {
    label: 'stream, every vendor silent, falls back twice',
    spec: (index) => ({ body: { model: 'vendor-1/orion-4.1-mini', max_tokens: 20, stream: true, messages: question(index), svc: { fallback: 'cross_vendor' } }, headers: { 'x-sim-fault': 'timeout' } }),
    expect: 'timeout',
  },
];

describe('chaos: the attempt deadline under concurrent load', () => {
  let chaos: ChaosFleet;
  let organization: Organization;

  beforeAll(async () => {
    chaos = await startChaosFleet({ name: 'deadline', env: { ATTEMPT_TIMEOUT_MS: String(ATTEMPT_MS), ATTEMPT_TIMEOUT_LONG_MS: String(ATTEMPT_MS), FORWARD_SIM_HEADERS: 'true' } });
    organization = chaos.newOrganization();
  }, 120_000);

  afterAll(async () => {
    await chaos?.stop();
  }, 60_000);

  it(`every call on a silent or slow vendor ends within the attempt limit + 5 s (${BAR_MS} ms) while ${BACKGROUND_RATE} req/s of other traffic runs`, async () => {
    const background = new Load((index) => mixedCall(chaos.baseUrl, organization, index)).start(BACKGROUND_RATE);
    const hung = new Load((index) => {
      const kind = HUNG[index % HUNG.length]!;
      return call(chaos.baseUrl, organization.apiKey, { label: kind.label, organizationId: organization.organizationId, timeoutMs: 60_000, ...kind.spec(index) });
    });
    await sleep(500);
    hung.start(HUNG_RATE);
    await sleep(PHASE_MS);
    const [hungOutcomes, backgroundOutcomes] = await Promise.all([hung.stop(), background.stop()]);
    const all: Outcome[] = [...hungOutcomes, ...backgroundOutcomes];
    const hungTraffic = summarize(hungOutcomes);
    const backgroundTraffic = summarize(backgroundOutcomes);
    const byKind = HUNG.map((kind) => {
      const outcomes = hungOutcomes.filter((outcome) => outcome.label === kind.label);
      const wrong = outcomes.filter((outcome) => {
        const timedOut = outcome.code === 'upstream_timeout' && outcome.envelope === true;
        return kind.expect === 'timeout' ? !timedOut : !outcome.answered;
      });
      return { kind: kind.label, calls: outcomes.length, max_ms: summarize(outcomes).max_request_ms, unexpected: wrong.length, unexpected_samples: wrong.slice(0, 3).map((outcome) => ({ status: outcome.status, code: outcome.code, error: outcome.error, ms: outcome.end - outcome.start })) };
    });
    const ledger = await reconcile(chaos, [organization.organizationId], all);
    report('deadline', {
      attempt_timeout_ms: ATTEMPT_MS,
      bar_ms: BAR_MS,
      background_rate_per_s: BACKGROUND_RATE,
      hung_calls: hungTraffic.requests,
      hung_statuses: hungTraffic.statuses,
      hung_codes: hungTraffic.codes,
      hung_max_request_ms: hungTraffic.max_request_ms,
      by_kind: byKind,
      background_requests: backgroundTraffic.requests,
      background_answered: backgroundTraffic.answered,
      background_max_request_ms: backgroundTraffic.max_request_ms,
      max_request_ms: Math.max(hungTraffic.max_request_ms, backgroundTraffic.max_request_ms),
      ledger_rows: ledger.ledger_rows,
      lost: ledger.lost,
      double: ledger.double,
      phantom: ledger.phantom,
    });

    expect(hungTraffic.requests).toBeGreaterThanOrEqual(HUNG.length * 4);
    expect(byKind.filter((kind) => kind.unexpected > 0)).toEqual([]);
    expect(Math.max(hungTraffic.max_request_ms, backgroundTraffic.max_request_ms)).toBeLessThanOrEqual(BAR_MS);
    expect(backgroundTraffic.answered).toBe(backgroundTraffic.requests);
    expect({ lost: ledger.lost, double: ledger.double, phantom: ledger.phantom }).toEqual({ lost: 0, double: 0, phantom: 0 });
  });
});
