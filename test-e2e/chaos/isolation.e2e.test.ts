import { sleep, startChaosFleet, type ChaosFleet, type Organization } from './support/chaos-fleet';
import { report } from './support/reconcile';
import { call, Load, summarize, type CallSpec, type Outcome } from './support/traffic';

/**
 * Chaos 4: one tenant cannot take a model away from another. Provider health is shared by every
 * tenant (HEALTH_FAILURE_THRESHOLD at its default, 3 retryable failures in 30 s mark a model
 * unhealthy for 30 s), so it must count only retryable vendor failures, never what a client
 * caused. While organization A calls MODEL with `svc.fallback: none` (refused outright once the
 * model is unhealthy), organization B sends hostile requests aimed at the same model: bodies
 * nested past the limit, invalid JSON, wrong types, vendor 4xx answers, tool and response
 * schemas that ask the vendor for absurd instances, calls it abandons mid-way. Every one of A's
 * calls must be answered by MODEL; none of B's may be a 5xx. A control at the end shows the
 * health machinery is live: three real vendor 500s do make A's next call fail.
 */
jest.setTimeout(120_000);

const MODEL = 'vendor-1/orion-mini-5';
const VICTIM_RATE = 6;
const HOSTILE_RATE = 30;
const PHASE_MS = 8000;

function nested(depth: number): unknown {
  let value: unknown = { type: 'string' };
  for (let i = 0; i < depth; i += 1) value = { type: 'object', properties: { a: value }, required: ['a'] };
  return value;
}

/** The same schema as JSON text, built as text: JSON.stringify itself overflows the stack at this depth. */
function nestedText(depth: number): string {
  return `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${'},"required":["a"]}'.repeat(depth)}`;
}

const ask = (text: string) => [{ role: 'user', content: text }];
const tools = (parameters: unknown) => [{ type: 'function', function: { name: 'f', parameters } }];

/** B's requests, in turn. Each aims at MODEL unless it says otherwise. */
const HOSTILE: Array<{ label: string; spec: (index: number) => Omit<CallSpec, 'label'>; abortAfterMs?: number }> = [
  {
    label: 'tool schema nested 5000 deep',
    spec: (i) => ({ body: `{"model":"${MODEL}","messages":${JSON.stringify(ask(`h${i}`))},"tools":[{"type":"function","function":{"name":"f","parameters":${nestedText(5000)}}}],"svc":{"fallback":"none"}}` }),
  },
  { label: 'response schema nested 40 deep (80 JSON levels)', spec: (i) => ({ body: { model: MODEL, messages: ask(`h${i}`), response_format: { type: 'json_schema', json_schema: { name: 'x', schema: nested(40) } }, svc: { fallback: 'none' } } }) },
  { label: 'invalid JSON', spec: () => ({ body: `{"model":"${MODEL}","messages":[{"role":"user","content":"x"}` }) },
  { label: 'wrong types', spec: () => ({ body: { model: MODEL, messages: 'hello', max_tokens: 'ten', svc: { fallback: 'none' } } }) },
  { label: 'vendor 400 (invalid)', spec: (i) => ({ body: { model: MODEL, max_tokens: 10, messages: ask(`h${i}`), svc: { fallback: 'none' } }, headers: { 'x-sim-fault': 'invalid' } }) },
  { label: 'vendor 400', spec: (i) => ({ body: { model: MODEL, max_tokens: 10, messages: ask(`h${i}`), svc: { fallback: 'none' } }, headers: { 'x-sim-fault': 'status:400' } }) },
  { label: 'vendor 404', spec: (i) => ({ body: { model: MODEL, max_tokens: 10, messages: ask(`h${i}`), svc: { fallback: 'none' } }, headers: { 'x-sim-fault': 'status:404' } }) },
  { label: 'vendor 422', spec: (i) => ({ body: { model: MODEL, max_tokens: 10, messages: ask(`h${i}`), svc: { fallback: 'none' } }, headers: { 'x-sim-fault': 'status:422' } }) },
  { label: 'malformed fault header (vendor 400)', spec: (i) => ({ body: { model: MODEL, max_tokens: 10, messages: ask(`h${i}`), svc: { fallback: 'none' } }, headers: { 'x-sim-fault': 'explode:now' } }) },
  {
    label: 'tool schema asking for 10^8 items',
    spec: (i) => ({ body: { model: MODEL, max_tokens: 50, messages: ask(`h${i}`), tools: tools({ type: 'object', properties: { a: { type: 'array', minItems: 100_000_000, items: { type: 'string', minLength: 1_000_000_000 } } }, required: ['a'] }), tool_choice: 'required', svc: { fallback: 'none' } } }),
  },
  {
    label: 'response schema with two recursive required properties',
    spec: (i) => ({ body: { model: MODEL, max_tokens: 50, messages: ask(`h${i}`), response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object', properties: { l: { $ref: '#' }, r: { $ref: '#' } }, required: ['l', 'r'] } } }, svc: { fallback: 'none' } } }),
  },
  { label: 'abandoned mid-call', spec: (i) => ({ body: { model: MODEL, max_tokens: 10, messages: ask(`h${i}`), svc: { fallback: 'none' } }, headers: { 'x-sim-ttft-ms': '2000' } }), abortAfterMs: 150 },
  { label: 'empty user content (vendor-2 rejects it)', spec: () => ({ body: { model: 'vendor-2/lyric-haiku-4.5', max_tokens: 10, messages: ask(''), svc: { fallback: 'none' } } }) },
  { label: 'bad image data URL', spec: () => ({ body: { model: MODEL, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,@@@' } }] }] } }) },
  { label: 'tool_choice naming no tool', spec: (i) => ({ body: { model: MODEL, messages: ask(`h${i}`), tools: tools({}), tool_choice: { type: 'function', function: { name: 'nope' } } } }) },
  { label: 'model id of 100,000 characters', spec: (i) => ({ body: { model: `vendor-1/${'m'.repeat(100_000)}`, messages: ask(`h${i}`) } }) },
];

describe('chaos: cross-tenant health isolation', () => {
  let chaos: ChaosFleet;
  let victim: Organization;
  let hostile: Organization;

  beforeAll(async () => {
    chaos = await startChaosFleet({ name: 'isolation', env: { HEALTH_FAILURE_THRESHOLD: '3', HEALTH_REFRESH_MS: '250', FORWARD_SIM_HEADERS: 'true' } });
    victim = chaos.newOrganization();
    hostile = chaos.newOrganization();
  }, 120_000);

  afterAll(async () => {
    await chaos?.stop();
  }, 60_000);

  it(`a hostile organization cannot make another's fallback-none calls on ${MODEL} fail`, async () => {
    const victimLoad = new Load((index) =>
      call(chaos.baseUrl, victim.apiKey, { label: 'victim', organizationId: victim.organizationId, body: { model: MODEL, max_tokens: 16, messages: ask(`victim ${index}`), svc: { fallback: 'none' } }, timeoutMs: 30_000 }),
    );
    const served: string[] = [];
    const hostileLoad = new Load(async (index) => {
      const kind = HOSTILE[index % HOSTILE.length]!;
      const spec = { label: kind.label, organizationId: hostile.organizationId, timeoutMs: kind.abortAfterMs ?? 30_000, ...kind.spec(index) };
      const outcome = await call(chaos.baseUrl, hostile.apiKey, spec);
      // The abandoned call: the client giving up is the point, not an answer.
      if (kind.abortAfterMs && outcome.error === 'client timeout') return { ...outcome, error: 'abandoned' };
      return outcome;
    });
    victimLoad.start(VICTIM_RATE);
    hostileLoad.start(HOSTILE_RATE);
    await sleep(PHASE_MS);
    const hostileOutcomes = await hostileLoad.stop();
    // The victim keeps calling a little after the last hostile request (health is read every 250 ms).
    await sleep(1500);
    const victimOutcomes: Outcome[] = await victimLoad.stop();

    // Control: real retryable vendor failures (500) do mark the model unhealthy for everyone.
    for (let i = 0; i < 3; i += 1) {
      const failed = await call(chaos.baseUrl, hostile.apiKey, { label: 'control', body: { model: MODEL, max_tokens: 10, messages: ask(`control ${i}`), svc: { fallback: 'none' } }, headers: { 'x-sim-fault': 'status:500' } });
      expect(failed.status).toBe(502);
    }
    await sleep(1000);
    const control = await call(chaos.baseUrl, victim.apiKey, { label: 'control', body: { model: MODEL, max_tokens: 10, messages: ask('control'), svc: { fallback: 'none' } } });

    const victimTraffic = summarize(victimOutcomes);
    const hostileTraffic = summarize(hostileOutcomes);
    const byKind = HOSTILE.map((kind) => {
      const outcomes = hostileOutcomes.filter((outcome) => outcome.label === kind.label);
      const statuses: Record<string, number> = {};
      for (const outcome of outcomes) {
        const key = outcome.error === 'abandoned' ? 'abandoned' : `${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
      return { kind: kind.label, calls: outcomes.length, statuses };
    });
    const hostile5xx = hostileOutcomes.filter((outcome) => outcome.status >= 500).length;
    const victimWrongModel = victimOutcomes.filter((outcome) => outcome.answered && outcome.model !== MODEL).length;
    report('isolation', {
      model: MODEL,
      health_failure_threshold: 3,
      victim_requests: victimTraffic.requests,
      victim_answered: victimTraffic.answered,
      victim_statuses: victimTraffic.statuses,
      victim_max_request_ms: victimTraffic.max_request_ms,
      hostile_requests: hostileTraffic.requests,
      hostile_5xx: hostile5xx,
      hostile_bare_refusals: hostileTraffic.bare_refusals,
      hostile_by_kind: byKind,
      control_after_three_vendor_500s: `${control.status} ${control.code ?? ''}`.trim(),
    });

    expect(victimTraffic.answered).toBe(victimTraffic.requests);
    expect(victimWrongModel).toBe(0);
    expect(hostile5xx).toBe(0);
    expect(hostileTraffic.bare_refusals).toBe(0);
    expect(hostileOutcomes.filter((outcome) => outcome.status === 0 && outcome.error !== 'abandoned')).toEqual([]);
    expect({ status: control.status, code: control.code }).toEqual({ status: 503, code: 'no_provider_available' });
  });
});
