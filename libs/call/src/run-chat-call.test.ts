import nock from 'nock';
import { catalog } from '@svc/catalog';
import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import { routeNamed, type RouteDecision, type RouteQuery } from '@svc/routing';
import { ChatCall, runChatCall, type CallStreamEvent } from './run-chat-call';
import { parseChatRequest } from './request/chat-request';
import { MemoryCacheState } from './cache/cache-policy.memory';
import type { AdmitQuery, CallerKey, UsageRecord } from './ports';
import type { CallDeps, CallPolicy } from './types';

/**
 * The pipeline with in-memory ports and no server: vendors answer through nock at their HTTP
 * boundary (the simulator's address, OpenAI protocol).
 */
const SIM = 'http://sim.test';

interface VendorAnswer {
  status?: number;
  content?: string;
  finish?: string;
  reasoning?: number;
  delayMs?: number;
  /** Flex asked for and refused for capacity (OpenAI: 429 resource_unavailable). */
  noFlexCapacity?: boolean;
  /** prompt_tokens_details.cached_tokens the vendor reports. */
  cached?: number;
}

/** Answers chat completions per upstream model id; records what each request carried. */
function vendors(answers: Record<string, VendorAnswer>) {
  const seen: Array<{ model: string; authorization: string | undefined; stream: boolean; serviceTier?: string }> = [];
  const delayMs = Math.max(0, ...Object.values(answers).map((answer) => answer.delayMs ?? 0));
  nock(SIM)
    .persist()
    .post('/v1/chat/completions')
    .delay(delayMs)
    .reply(function (_uri, body) {
      const request = body as { model: string; stream?: boolean; service_tier?: string };
      seen.push({ model: request.model, authorization: this.req.headers.authorization as string | undefined, stream: Boolean(request.stream), ...(request.service_tier ? { serviceTier: request.service_tier } : {}) });
      const answer = answers[request.model] ?? { status: 503 };
      if (answer.status) return [answer.status, { error: { message: 'no', type: 'server_error' } }];
      if (answer.noFlexCapacity && request.service_tier === 'flex') return [429, { error: { message: 'Resource unavailable', type: 'invalid_request_error', code: 'resource_unavailable' } }];
      const tier = request.service_tier === 'flex' ? { service_tier: 'flex' } : {};
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, completion_tokens_details: { reasoning_tokens: answer.reasoning ?? 0 }, ...(answer.cached ? { prompt_tokens_details: { cached_tokens: answer.cached } } : {}) };
      if (request.stream) {
        const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: request.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
        const sse = chunk({ role: 'assistant', content: '' }, null) + chunk({ content: answer.content ?? 'hello' }, null) + chunk({}, answer.finish ?? 'stop') + `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: request.model, choices: [], usage, ...tier })}\n\n` + 'data: [DONE]\n\n';
        return [200, sse, { 'content-type': 'text/event-stream' }];
      }
      return [200, { id: 'c', object: 'chat.completion', created: 1, model: request.model, choices: [{ index: 0, message: { role: 'assistant', content: answer.content ?? 'hello' }, finish_reason: answer.finish ?? 'stop' }], usage, ...tier }];
    });
  return seen;
}

const KEY: CallerKey = { key_id: 'key_1', organization_id: 'org_1', plan: 'paid', fallback_policy: 'cross_vendor', byok_vendors: [] };

function ports(options: { admit?: (query: AdmitQuery) => Promise<Record<string, unknown>>; route?: (query: RouteQuery) => Promise<RouteDecision>; unhealthy?: string[]; ownKeys?: Record<string, string> } = {}) {
  const records: UsageRecord[] = [];
  const released: string[] = [];
  const admitted: AdmitQuery[] = [];
  const failures: string[] = [];
  const deps: CallDeps = {
    catalog,
    router: { route: options.route ?? (async (query) => routeNamed(catalog, { ...query, model: 'vendor-4/atlas-4-maverick' })) },
    billing: {
      admit: async (query) => {
        admitted.push(query);
        return options.admit ? options.admit(query) : { headers: { 'x-svc-quota-scope': 'key' }, baseline_model: '', baseline_calls: 3 };
      },
      release: async (callId) => void released.push(callId),
    },
    usage: { record: async (record) => void records.push(record) },
    health: {
      isHealthy: (model) => !(options.unhealthy ?? []).includes(model),
      recordFailure: (model) => void failures.push(model),
      order: (candidates) => [...candidates].sort((a, b) => Number((options.unhealthy ?? []).includes(a.model)) - Number((options.unhealthy ?? []).includes(b.model))),
    },
    cacheState: new MemoryCacheState(),
    ownKeys: { forOrganization: async () => options.ownKeys ?? {} },
    vendors: { simUrl: SIM, keys: {} },
    logger: { warn: jest.fn(), error: jest.fn(), info: jest.fn() } as unknown as Logger,
    attemptTimeoutMs: 2_000,
    attemptTimeoutLongMs: 2_000,
    topupUrl: 'https://svc.test/topup',
  };
  return { deps, records, released, admitted, failures };
}

const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}) => parseChatRequest({ messages: [{ role: 'user', content: 'Say hello.' }], ...body }, headers);
const unary: CallPolicy = { stream: false };
const signal = () => new AbortController().signal;

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('one billed chat call (in-memory ports)', () => {
  it('named: routed in process, admitted once, one attempt, billed once with the svc object', async () => {
    const seen = vendors({ 'orion-mini-5': { content: 'Hello!' } });
    const { deps, records, released, admitted } = ports();
    const outcome = await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY }, unary, signal());
    if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
    expect(outcome.result.content).toBe('Hello!');
    expect(outcome.served).toEqual({ vendor: 'vendor-1', model: 'vendor-1/orion-mini-5', byok: false, dropped: [], maxTokens: expect.any(Number) });
    expect(outcome.svc).toMatchObject({ model_served: 'vendor-1/orion-mini-5', attempts: 1, tier: { requested: 'standard', applied: 'standard' } });
    expect(outcome.headers['x-svc-quota-scope']).toBe('key');
    expect(admitted).toHaveLength(1);
    expect(admitted[0]).toMatchObject({ auto: false, byok: false, key_id: 'key_1' });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ call_id: outcome.svc.call_id, kind: 'chat', model: 'vendor-1/orion-mini-5', input_tokens: 10, output_tokens: 5 });
    expect(records[0].call_fee_micros).toBe(0);
    expect(released).toEqual([]);
    expect(seen.map((request) => request.model)).toEqual(['orion-mini-5']);
  });

  it('auto: the router port picks, admission reserves the pick, and the auto call fee is billed', async () => {
    vendors({ 'atlas-4-maverick': { content: 'ok' } });
    const { deps, records, admitted } = ports({ route: async (query) => ({ ...routeNamed(catalog, { ...query, model: 'vendor-4/atlas-4-maverick' }), auto: true, routing: { line: 'balanced', task_type: 'chat', confidence: 0.9 } }) });
    const outcome = await runChatCall(deps, chat({ model: 'auto' }), { key: KEY }, unary, signal());
    if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
    expect(outcome.svc).toMatchObject({ model_served: 'vendor-4/atlas-4-maverick', routing: { line: 'balanced', task_type: 'chat' } });
    expect(admitted[0]).toMatchObject({ auto: true });
    expect(records[0].call_fee_micros).toBe(catalog.data.auto_call_fee_micros);
    expect(records[0].line).toBe('balanced');
  });

  it('cross_vendor: a retryable failure falls back to the next candidate and counts against health', async () => {
    const { deps, records, failures } = ports();
    const fallbacks = routeNamed(catalog, { organization_id: 'org_1', key_id: 'key_1', model: 'vendor-1/orion-mini-5', fallback: 'cross_vendor' }).candidates;
    const second = catalog.chatModel(fallbacks[1].model)!;
    vendors({ 'orion-mini-5': { status: 503 }, [second.upstream_id]: { content: 'from the fallback' } });
    const outcome = await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5', svc: { fallback: 'cross_vendor' } }), { key: KEY }, unary, signal());
    if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
    expect(outcome.svc).toMatchObject({ model_served: second.id, attempts: 2 });
    expect(failures).toEqual(['vendor-1/orion-mini-5']);
    expect(records).toHaveLength(1);
  });

  it('same_vendor: only the named vendor is tried', async () => {
    const seen = vendors({});
    const { deps, released, records } = ports();
    const failure = await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5', svc: { fallback: 'same_vendor' } }), { key: KEY }, unary, signal()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceError);
    expect((failure as ServiceError).headers['x-svc-vendor']).toBe('vendor-1');
    const tried = seen.map((request) => catalog.chatModels.find((model) => model.upstream_id === request.model)!.vendor);
    expect(new Set(tried)).toEqual(new Set(['vendor-1']));
    expect(records).toHaveLength(0);
    expect(released).toHaveLength(1);
  });

  it('fallback none: an unhealthy named model is refused with 503 no_provider_available and its reservation released', async () => {
    const seen = vendors({ 'orion-mini-5': { content: 'never' } });
    const { deps, released } = ports({ unhealthy: ['vendor-1/orion-mini-5'] });
    const failure = (await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5', svc: { fallback: 'none' } }), { key: KEY }, unary, signal()).catch((error: unknown) => error)) as ServiceError;
    expect([failure.status, failure.code]).toEqual([503, 'no_provider_available']);
    expect(failure.headers['x-svc-quota-scope']).toBe('key');
    expect(released).toHaveLength(1);
    expect(seen).toHaveLength(0);
  });

  it("own key: the organization's key serves, only its vendor is tried, and nothing is reserved for credit", async () => {
    const seen = vendors({ 'orion-mini-5': { content: 'mine' } });
    const { deps, records, admitted } = ports({ ownKeys: { 'vendor-1': 'sk-own' } });
    const outcome = await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: { ...KEY, byok_vendors: ['vendor-1'] } }, unary, signal());
    if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
    expect(seen[0].authorization).toBe('Bearer sk-own');
    expect(outcome.svc.byok).toBe(true);
    expect(admitted[0]).toMatchObject({ byok: true, estimated_micros: 0 });
    expect(records[0]).toMatchObject({ byok: true, vendor_micros: 0 });
  });

  it('no_answer: a reasoning budget spent with no answer is not billed and gives the reservation back', async () => {
    vendors({ 'orion-mini-5': { content: '', finish: 'length', reasoning: 64 } });
    const { deps, records, released } = ports();
    const outcome = await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5', max_tokens: 64 }), { key: KEY }, unary, signal());
    if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
    expect(outcome.svc.no_answer).toMatch(/max_tokens 64/);
    expect(outcome.svc.cost_micros).toBe(0);
    expect(records).toHaveLength(0);
    expect(released).toHaveLength(1);
  });

  it('a failure after admission releases the reservation once and bills nothing', async () => {
    vendors({ 'orion-mini-5': { status: 400 } });
    const { deps, records, released } = ports();
    const failure = (await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY }, unary, signal()).catch((error: unknown) => error)) as ServiceError;
    expect(failure.code).toBe('upstream_invalid_request');
    expect(records).toHaveLength(0);
    expect(released).toHaveLength(1);
  });

  it('work alongside the answer runs while the usage is published; both end before the answer is returned', async () => {
    vendors({ 'orion-mini-5': { content: 'Hello!' } });
    const { deps, records } = ports();
    let releaseUsage!: () => void;
    const usageHeld = new Promise<void>((resolve) => (releaseUsage = resolve));
    deps.usage = { record: async (record) => void (await usageHeld, records.push(record)) };
    const started: string[] = [];
    const call = await ChatCall.start(deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY }, unary, signal());
    const outcome = call.unary(signal(), {
      run: async (answer) => {
        started.push(answer.result.content ?? '');
        releaseUsage();
        return 'stored';
      },
      undo: async () => undefined,
    });
    const result = await outcome;
    expect(started).toEqual(['Hello!']);
    expect(result?.alongside).toBe('stored');
    expect(records).toHaveLength(1);
  });

  it('usage that cannot be published undoes the work alongside and fails the call; work that fails leaves the answer billed', async () => {
    vendors({ 'orion-mini-5': { content: 'Hello!' } });
    const broken = ports();
    broken.deps.usage = { record: async () => Promise.reject(new ServiceError('billing_unavailable', 'no broker')) };
    const undone: unknown[] = [];
    const call = await ChatCall.start(broken.deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY }, unary, signal());
    await expect(call.unary(signal(), { run: async () => 'stored', undo: async (done, error) => void undone.push([done, (error as ServiceError).code]) })).rejects.toMatchObject({ code: 'billing_unavailable' });
    expect(undone).toEqual([['stored', 'billing_unavailable']]);

    const { deps, records, released } = ports();
    const again = await ChatCall.start(deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY }, unary, signal());
    await expect(again.unary(signal(), { run: async () => Promise.reject(new ServiceError('conversation_not_found', 'gone')), undo: async () => undefined })).rejects.toMatchObject({ code: 'conversation_not_found' });
    expect(records).toHaveLength(1);
    expect(released).toHaveLength(0);

    // A synchronous throw in the work alongside does not skip the settlement either.
    const third = await ChatCall.start(deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY }, unary, signal());
    const sync = () => {
      throw new Error('render failed');
    };
    await expect(third.unary(signal(), { run: sync, undo: async () => undefined })).rejects.toThrow('render failed');
    expect(records).toHaveLength(2);
  });

  it('a refusal at admission reserves nothing and calls no vendor', async () => {
    const seen = vendors({ 'orion-mini-5': { content: 'never' } });
    const { deps, records, released } = ports({ admit: async () => Promise.reject(new ServiceError('insufficient_credits', 'no credit')) });
    await expect(runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY }, unary, signal())).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(seen).toHaveLength(0);
    expect(records).toHaveLength(0);
    expect(released).toHaveLength(0);
  });

  it("a caller's gate (the edge's per-address check) runs beside admission; no vendor is asked before it passes", async () => {
    const seen = vendors({ 'orion-mini-5': { content: 'Hello!' } });
    const { deps, admitted, records } = ports();
    let pass!: (refusal: Error | undefined) => void;
    const gate = new Promise<Error | undefined>((resolve) => (pass = resolve));
    const running = runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY, gate }, unary, signal());
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Admission ran while the gate was still open; nothing reached a vendor.
    expect(admitted).toHaveLength(1);
    expect(seen).toHaveLength(0);
    pass(undefined);
    const outcome = await running;
    expect(outcome?.kind).toBe('unary');
    expect(seen).toHaveLength(1);
    expect(records).toHaveLength(1);
  });

  it("a gate's refusal wins over every other step: the reservation is released, no vendor or router is asked", async () => {
    const seen = vendors({ 'orion-mini-5': { content: 'never' } });
    const refusal = new ServiceError('ip_rate_limit_exceeded', 'Too many requests from your address.');
    // Named: admission answered (and reserved), the gate refused: released once.
    const named = ports();
    await expect(runChatCall(named.deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY, gate: Promise.resolve(refusal) }, unary, signal())).rejects.toBe(refusal);
    expect(named.admitted).toHaveLength(1);
    expect(named.released).toHaveLength(1);
    // Admission refusing too: the gate's refusal is still the answer.
    const broke = ports({ admit: async () => Promise.reject(new ServiceError('insufficient_credits', 'no credit')) });
    await expect(runChatCall(broke.deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY, gate: Promise.resolve(refusal) }, unary, signal())).rejects.toBe(refusal);
    // An unknown model: the same.
    await expect(runChatCall(named.deps, chat({ model: 'vendor-1/no-such-model' }), { key: KEY, gate: Promise.resolve(refusal) }, unary, signal())).rejects.toBe(refusal);
    // Auto: the router is not asked before the gate passes, so a refused call never reaches it.
    const route = jest.fn(async (query: RouteQuery) => routeNamed(catalog, { ...query, model: 'vendor-4/atlas-4-maverick' }));
    const auto = ports({ route });
    await expect(runChatCall(auto.deps, chat({ model: 'auto' }), { key: KEY, gate: Promise.resolve(refusal) }, unary, signal())).rejects.toBe(refusal);
    expect(route).not.toHaveBeenCalled();
    expect(auto.admitted).toHaveLength(0);
    expect(seen).toHaveLength(0);
  });

  it('the attempt deadline is a timer the call owns: a silent vendor ends in 504 upstream_timeout', async () => {
    vendors({ 'orion-mini-5': { content: 'late', delayMs: 1_500 } });
    const { deps, released } = ports();
    deps.attemptTimeoutMs = 100;
    const started = Date.now();
    const failure = (await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5', svc: { fallback: 'none' } }), { key: KEY }, unary, signal()).catch((error: unknown) => error)) as ServiceError;
    expect([failure.status, failure.code]).toEqual([504, 'upstream_timeout']);
    expect(Date.now() - started).toBeLessThan(1_400);
    expect(released).toHaveLength(1);
  });

  it('stream: the first event then the rest, ending with done once the usage is published', async () => {
    vendors({ 'orion-mini-5': { content: 'streamed hello' } });
    const { deps, records } = ports();
    const call = await ChatCall.start(deps, chat({ model: 'vendor-1/orion-mini-5', stream: true }), { key: KEY }, { stream: true }, signal());
    const stream = await call.stream(signal());
    const events: CallStreamEvent[] = [];
    for await (const event of stream.events) {
      if (event.type === 'done') expect(records).toHaveLength(1);
      events.push(event);
    }
    expect(events.filter((event) => event.type === 'text').map((event) => (event as { delta: string }).delta).join('')).toBe('streamed hello');
    expect(events.at(-1)).toMatchObject({ type: 'done', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5 } });
    expect(records).toHaveLength(1);
  });

  it('stream: a reader that stops early (the client left) is billed for what it was sent: the prompt estimate and the output counted', async () => {
    vendors({ 'orion-mini-5': { content: 'streamed hello' } });
    const { deps, records, released } = ports();
    const call = await ChatCall.start(deps, chat({ model: 'vendor-1/orion-mini-5', stream: true }), { key: KEY }, { stream: true }, signal());
    const stream = await call.stream(signal());
    let sent = '';
    for await (const event of stream.events) {
      if (event.type === 'text') {
        sent += event.delta;
        break;
      }
    }
    expect(sent).toBe('streamed hello');
    expect(records).toHaveLength(1);
    // "Say hello." is 10 characters: 3 tokens by the estimate; "streamed hello" is 3 tokens of o200k (stream, ed, hello).
    expect(records[0]).toMatchObject({ input_tokens: 3, output_tokens: 3, model: 'vendor-1/orion-mini-5' });
    expect(Number(records[0]!.cost_micros)).toBeGreaterThan(0);
    expect(released).toHaveLength(0);
  });

  it('an image still to download is never sent without its bytes: with no downloader the call is refused before any vendor work', async () => {
    const seen = vendors({ 'orion-5': { content: 'a cat' } });
    const { deps, admitted } = ports();
    const input = parseChatRequest({ model: 'vendor-1/orion-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: 'https://images.example/cat.png' } }] }] }, {}, { remoteImages: 'defer' });
    await expect(runChatCall(deps, input, { key: KEY }, unary, signal())).rejects.toMatchObject({ code: 'invalid_image_url', param: 'messages[0].content[1].image_url.url' });
    expect(seen).toHaveLength(0);
    expect(admitted).toHaveLength(0);
  });

  it('cache reads reported by a vendor the catalog lists without a prompt cache are priced and reported as plain input', async () => {
    vendors({ 'atlas-4-maverick': { content: 'ok', cached: 8 }, 'orion-mini-5': { content: 'ok', cached: 8 } });
    const cacheless = await runChatCall(ports().deps, chat({ model: 'vendor-4/atlas-4-maverick' }), { key: KEY }, unary, signal());
    expect(cacheless).toMatchObject({ result: { usage: { inputTokens: 10, cachedTokens: 0 } }, svc: { cache: { read_tokens: 0, write_tokens: 0 } } });
    // A vendor with a cache keeps what it read.
    const cached = await runChatCall(ports().deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY }, unary, signal());
    expect(cached).toMatchObject({ result: { usage: { inputTokens: 10, cachedTokens: 8 } }, svc: { cache: { read_tokens: 8 } } });
  });

  it("a caller's cache ttl applies where the request set none (batch and background lines)", async () => {
    vendors({ 'orion-mini-5': { content: 'ok' } });
    const { deps } = ports();
    const outcome = await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5' }), { key: KEY }, { stream: false, cacheTtl: 'none', tier: 'batch' }, signal());
    if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
    expect(outcome.svc.tier).toEqual({ requested: 'batch', applied: 'batch' });
  });
});

describe('svc.deadline and the flex tier (spec: Deadline and flex rules, svc.tier)', () => {
  // vendor-1/orion-mini-5 has a flex tier (list 0.25/2.00 per million; flex half); vendor-1/orion-4.1 has none.
  const listMicros = (input: number, output: number, inputTokens = 10, outputTokens = 5) => Math.round((inputTokens * input + outputTokens * output) / 1) / 1;

  it('under 15 minutes nothing changes: standard asked and served, no service_tier sent', async () => {
    const seen = vendors({ 'orion-mini-5': {} });
    const { deps } = ports();
    const outcome = await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5', svc: { deadline: '14m' } }), { key: KEY }, unary, signal());
    if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
    expect(outcome.svc.tier).toEqual({ requested: 'standard', applied: 'standard' });
    expect(seen[0].serviceTier).toBeUndefined();
  });

  it('from 15 minutes a model with flex is asked for flex, served and billed at the flex price (half)', async () => {
    const seen = vendors({ 'orion-mini-5': {} });
    const { deps, records } = ports();
    const outcome = await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5' }, { 'x-svc-deadline': '15m' }), { key: KEY }, unary, signal());
    if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
    expect(seen[0].serviceTier).toBe('flex');
    expect(outcome.svc.tier).toEqual({ requested: 'flex', applied: 'flex' });
    const cost = outcome.svc.cost as Record<string, number>;
    // 10 input at 0.125 and 5 output at 1.00 per million tokens: 1.25 + 5 = 6.25 µ$ → 6 (half of 12.5 → 13 at standard).
    expect(cost.vendor_micros).toBe(Math.round(listMicros(0.125, 1)));
    expect(cost.direct_micros).toBe(cost.vendor_micros);
    expect(records[0].vendor_micros).toBe(cost.vendor_micros);
  });

  it('flex refused for capacity: the same model at standard at once, billed at standard, fallback capacity', async () => {
    const seen = vendors({ 'orion-mini-5': { noFlexCapacity: true } });
    const { deps, records, failures } = ports();
    const outcome = await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5', svc: { deadline: '2h' } }), { key: KEY }, unary, signal());
    if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
    expect(seen.map((request) => [request.model, request.serviceTier ?? 'standard'])).toEqual([
      ['orion-mini-5', 'flex'],
      ['orion-mini-5', 'standard'],
    ]);
    expect(outcome.svc).toMatchObject({ model_served: 'vendor-1/orion-mini-5', attempts: 1, tier: { requested: 'flex', applied: 'standard', fallback: 'capacity' } });
    expect((outcome.svc.cost as Record<string, number>).vendor_micros).toBe(Math.round(listMicros(0.25, 2)));
    expect(records).toHaveLength(1);
    expect(failures).toEqual([]);
  });

  it('a stream at flex reports the served tier too', async () => {
    const seen = vendors({ 'orion-mini-5': {} });
    const { deps } = ports();
    const call = await ChatCall.start(deps, chat({ model: 'vendor-1/orion-mini-5', stream: true, svc: { deadline: '30m' } }), { key: KEY }, { stream: true }, signal());
    let svc: Record<string, unknown> | undefined;
    const stream = await call.stream(signal());
    for await (const event of stream.events) if (event.type === 'done') svc = event.svc;
    expect(seen[0]).toMatchObject({ stream: true, serviceTier: 'flex' });
    expect(svc?.tier).toEqual({ requested: 'flex', applied: 'flex' });
  });

  it('a model without flex under a 15-minute deadline: flex requested, standard applied', async () => {
    const seen = vendors({ 'orion-4.1': {} });
    const { deps } = ports();
    const outcome = await runChatCall(deps, chat({ model: 'vendor-1/orion-4.1', svc: { deadline: '900s' } }), { key: KEY }, unary, signal());
    if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
    expect(seen[0].serviceTier).toBeUndefined();
    expect(outcome.svc.tier).toEqual({ requested: 'flex', applied: 'standard' });
  });

  it('24 hours or more asks for batch; a synchronous call is served at flex with fallback synchronous', async () => {
    const seen = vendors({ 'orion-mini-5': {} });
    const { deps } = ports();
    const outcome = await runChatCall(deps, chat({ model: 'vendor-1/orion-mini-5', svc: { deadline: '24h' } }), { key: KEY }, unary, signal());
    if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
    expect(seen[0].serviceTier).toBe('flex');
    expect(outcome.svc.tier).toEqual({ requested: 'batch', applied: 'flex', fallback: 'synchronous' });
  });

  it('auto asks the router to compare at flex prices from 15 minutes, and not below', async () => {
    vendors({ 'atlas-4-maverick': {} });
    const asked: RouteQuery[] = [];
    const { deps } = ports({ route: async (query) => (asked.push(query), { ...routeNamed(catalog, { ...query, model: 'vendor-4/atlas-4-maverick' }), auto: true }) });
    await runChatCall(deps, chat({ model: 'auto', svc: { deadline: '20m' } }), { key: KEY }, unary, signal());
    await runChatCall(deps, chat({ model: 'auto', svc: { deadline: '5m' } }), { key: KEY }, unary, signal());
    expect(asked.map((query) => query.price_tier)).toEqual(['flex', undefined]);
  });
});
