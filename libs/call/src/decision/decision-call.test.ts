import nock from 'nock';
import { catalog, DECISION_MODEL_ID } from '@svc/catalog';
import type { Logger } from '@svc/logger';
import { routeNamed, type RouteDecision, type RouteQuery } from '@svc/routing';
import { runChatCall } from '../run-chat-call';
import { parseChatRequest } from '../request/chat-request';
import { MemoryCacheState } from '../cache/cache-policy.memory';
import type { AdmitQuery, CallerKey, UsageRecord } from '../ports';
import type { CallDeps, CallPolicy } from '../types';

/**
 * The decision model through the whole pipeline with in-memory ports: vendor-8's decision API and
 * the OpenAI protocol answer through nock at the simulator's address.
 */
const SIM = 'http://sim.test';
const THREE = { sentiment: { type: 'string', enum: ['positive', 'neutral', 'negative'] }, urgent: { type: 'boolean' }, quality: { type: 'integer', minimum: 1, maximum: 5 } };
const FORMAT = { type: 'json_schema', json_schema: { name: 'ticket', strict: true, schema: { type: 'object', properties: THREE, required: ['sentiment', 'urgent', 'quality'], additionalProperties: false } } };
const DISTRIBUTIONS = [
  { name: 'sentiment', probabilities: { positive: 0.1, neutral: 0.2, negative: 0.7 } },
  { name: 'urgent', probabilities: { true: 0.8, false: 0.2 } },
  { name: 'quality', probabilities: { '1': 0.4, '2': 0.3, '3': 0.2, '4': 0.1, '5': 0 } },
];

function decisions(options: { status?: number } = {}) {
  const seen: Array<Record<string, unknown>> = [];
  nock(SIM)
    .persist()
    .post('/v1/decisions')
    .reply((_uri, body) => {
      seen.push(body as Record<string, unknown>);
      if (options.status) return [options.status, { error: { message: 'no', type: 'server_error', param: null, code: null } }];
      return [200, { id: 'dec_1', object: 'decision', created: 1, model: 'decision-1.13.0', answers: DISTRIBUTIONS, usage: { input_tokens: 57, output_tokens: 3 } }];
    });
  return seen;
}

function chatCompletions() {
  const seen: string[] = [];
  nock(SIM)
    .persist()
    .post('/v1/chat/completions')
    .reply((_uri, body) => {
      const model = (body as { model: string }).model;
      seen.push(model);
      const content = JSON.stringify({ sentiment: 'negative', urgent: true, quality: 1 });
      return [200, { id: 'c', object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 60, completion_tokens: 14, total_tokens: 74 } }];
    });
  return seen;
}

const KEY: CallerKey = { key_id: 'key_1', organization_id: 'org_1', plan: 'paid', fallback_policy: 'cross_vendor', byok_vendors: [] };
const CLASSIFIED = { line: 'auto', task: 'classification_tagging', task_type: 'classification_tagging', difficulty: 2, band: 'easy', stakes: 'normal', confidence: 0.9, reason: 'Labels for a support ticket.', trigger: 'no_prior_decision', classifier: 'trained' };
const autoRoute = (routing: Record<string, unknown> = CLASSIFIED) => async (): Promise<RouteDecision> => ({
  candidates: [
    { model: 'vendor-1/orion-nano-5', vendor: 'vendor-1' },
    { model: 'vendor-3/lumen-2.5-flash-lite', vendor: 'vendor-3' },
  ],
  routing,
  auto: true,
  effort: '',
  escalation: [],
});

function ports(route: (query: RouteQuery) => Promise<RouteDecision> = async (query) => routeNamed(catalog, query)) {
  const records: UsageRecord[] = [];
  const admitted: AdmitQuery[] = [];
  const deps: CallDeps = {
    catalog,
    router: { route },
    billing: { admit: async (query) => (admitted.push(query), { headers: {}, baseline_model: '', baseline_calls: 3 }), release: async () => undefined },
    usage: { record: async (record) => void records.push(record) },
    health: { isHealthy: () => true, recordFailure: () => undefined, order: (candidates) => [...candidates] },
    cacheState: new MemoryCacheState(),
    ownKeys: { forOrganization: async () => ({}) },
    vendors: { simUrl: SIM, keys: {} },
    logger: { warn: jest.fn(), error: jest.fn(), info: jest.fn() } as unknown as Logger,
    attemptTimeoutMs: 2_000,
    attemptTimeoutLongMs: 2_000,
    topupUrl: 'https://svc.test/topup',
  };
  return { deps, records, admitted };
}

const ticket = (body: Record<string, unknown> = {}) =>
  parseChatRequest({ messages: [{ role: 'system', content: 'Triage the ticket.' }, { role: 'user', content: 'My order never arrived and nobody answers.' }], response_format: FORMAT, ...body }, {});
const unary: CallPolicy = { stream: false };
const signal = () => new AbortController().signal;

async function answered(deps: CallDeps, body: Record<string, unknown>, policy: CallPolicy = unary) {
  const outcome = await runChatCall(deps, ticket(body), { key: KEY }, policy, signal());
  if (outcome?.kind !== 'unary') throw new Error('expected a unary result');
  return outcome;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('the decision model, named', () => {
  it('asks the typed questions, answers JSON and svc.decision in schema order, and bills its own list price', async () => {
    const seen = decisions();
    const { deps, records } = ports();
    const outcome = await answered(deps, { model: DECISION_MODEL_ID, temperature: 0.2 });
    expect(seen).toEqual([
      {
        model: 'decision-1.13.0',
        instructions: 'Triage the ticket.',
        messages: [{ role: 'user', content: 'My order never arrived and nobody answers.' }],
        questions: [
          { name: 'sentiment', type: 'choice', options: ['positive', 'neutral', 'negative'] },
          { name: 'urgent', type: 'boolean' },
          { name: 'quality', type: 'score', min: 1, max: 5 },
        ],
      },
    ]);
    expect(JSON.parse(outcome.result.content ?? '')).toEqual({ sentiment: 'negative', urgent: true, quality: 2 });
    expect(Object.keys(outcome.svc.decision as object)).toEqual(['sentiment', 'urgent', 'quality']);
    expect(outcome.svc.decision).toEqual({
      sentiment: { type: 'choice', probabilities: { positive: 0.1, neutral: 0.2, negative: 0.7 }, confidence: 0.7 },
      urgent: { type: 'noul', probability: 0.8 },
      // 1(0.4) + 2(0.3) + 3(0.2) + 4(0.1) = 2.0
      quality: { type: 'score', value: 2, probabilities: { '1': 0.4, '2': 0.3, '3': 0.2, '4': 0.1, '5': 0 }, confidence: 0.3 },
    });
    // 57 × 0.05 + 3 × 0.2 = 3.45 micros → 3; the plan fee is 5% of 3.45 = 0.1725 → 0.
    expect(outcome.svc).toMatchObject({ model_served: DECISION_MODEL_ID, vendor: 'vendor-8', cost_micros: 3, cost: { vendor_micros: 3, service_fee_micros: 0, call_fee_micros: 0, direct_micros: 3, saved_micros: 0 }, dropped_parameters: ['temperature'] });
    expect(records[0]).toMatchObject({ model: DECISION_MODEL_ID, input_tokens: 57, output_tokens: 3, vendor_micros: 3, cost_micros: 3 });
  });

  it('refuses before any vendor work, naming the field of the API asked (Responses: text.format)', async () => {
    const seen = decisions();
    const { deps, admitted } = ports();
    const body = { model: DECISION_MODEL_ID, response_format: { type: 'json_schema', json_schema: { name: 't', schema: { type: 'object', properties: { ...THREE, note: { type: 'string' } } } } } };
    await expect(runChatCall(deps, ticket(body), { key: KEY }, unary, signal())).rejects.toMatchObject({ code: 'unsupported_for_model', param: 'response_format.json_schema.schema.properties.note' });
    await expect(runChatCall(deps, ticket(body), { key: KEY }, { ...unary, api: 'responses' }, signal())).rejects.toMatchObject({ code: 'unsupported_for_model', param: 'text.format.schema.properties.note' });
    await expect(runChatCall(deps, ticket({ model: DECISION_MODEL_ID, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }] }), { key: KEY }, { ...unary, api: 'responses' }, signal())).rejects.toMatchObject({ code: 'unsupported_for_model', param: 'input' });
    expect(seen).toEqual([]);
    expect(admitted).toEqual([]);
  });

  it('checks model access first: a key that may not use it gets model_not_found', async () => {
    const { deps } = ports();
    const input = ticket({ model: DECISION_MODEL_ID, tools: [{ type: 'function', function: { name: 'f' } }] });
    await expect(runChatCall(deps, input, { key: { ...KEY, allowed_models: ['vendor-1/orion-nano-5'] } }, unary, signal())).rejects.toMatchObject({ code: 'model_not_found' });
  });

  it('a batch line it answers is served at its own price: tier fallback decision', async () => {
    decisions();
    const { deps } = ports();
    const outcome = await answered(deps, { model: DECISION_MODEL_ID }, { stream: false, tier: 'batch' });
    expect(outcome.svc.tier).toEqual({ requested: 'batch', applied: 'standard', fallback: 'decision' });
  });
});

describe('jev under auto', () => {
  it('answers a classification of typed questions with the decision model when cheaper, and says so in svc.routing', async () => {
    const seen = decisions();
    const chats = chatCompletions();
    const { deps, admitted, records } = ports(autoRoute());
    const outcome = await answered(deps, { model: 'auto' });
    expect(seen).toHaveLength(1);
    expect(chats).toEqual([]);
    expect(outcome.served.model).toBe(DECISION_MODEL_ID);
    expect(outcome.svc.routing).toMatchObject({ line: 'auto', task_type: 'classification_tagging', reason: expect.stringMatching(/^jev: the json_schema maps onto the decision model's questions and it is cheaper \(decision-1\.13\.0 \d\.\d{6} USD, pick vendor-1\/orion-nano-5 \d\.\d{6} USD\)\. Labels for a support ticket\.$/) });
    expect(Object.keys(outcome.svc.decision as object)).toEqual(['sentiment', 'urgent', 'quality']);
    // The auto fee once, at the decision model's list price: 3.45 micros → 3, fee 0, call fee 50.
    expect(outcome.svc).toMatchObject({ cost_micros: 3 + catalog.data.auto_call_fee_micros, cost: { vendor_micros: 3, call_fee_micros: catalog.data.auto_call_fee_micros } });
    // Admission reserved the routed pick (a fallback to it never overshoots).
    expect(admitted).toHaveLength(1);
    expect(records[0]).toMatchObject({ model: DECISION_MODEL_ID, line: 'auto' });
  });

  it('falls back to the routed pick when the decision model fails, reporting the router’s routing', async () => {
    decisions({ status: 500 });
    const chats = chatCompletions();
    const { deps } = ports(autoRoute());
    const outcome = await answered(deps, { model: 'auto' });
    expect(chats).toEqual(['orion-nano-5']);
    expect(outcome.served.model).toBe('vendor-1/orion-nano-5');
    expect(outcome.svc.attempts).toBe(2);
    expect(outcome.svc.decision).toBeUndefined();
    expect((outcome.svc.routing as { reason: string }).reason).toBe('Labels for a support ticket.');
  });

  it('leaves a schema with a free-text field to the routed pick', async () => {
    const seen = decisions();
    const chats = chatCompletions();
    const { deps } = ports(autoRoute());
    const outcome = await answered(deps, { model: 'auto', response_format: { type: 'json_schema', json_schema: { name: 't', schema: { type: 'object', properties: { ...THREE, summary: { type: 'string' } } } } } });
    expect(seen).toEqual([]);
    expect(chats).toEqual(['orion-nano-5']);
    expect(outcome.svc.decision).toBeUndefined();
    expect((outcome.svc.routing as { reason: string }).reason).not.toMatch(/jev/);
  });

  it('leaves a writing job, and a switched-off jev, to the routed pick', async () => {
    decisions();
    const chats = chatCompletions();
    const writing = ports(autoRoute({ ...CLASSIFIED, task_type: 'content_writing' }));
    expect((await answered(writing.deps, { model: 'auto' })).served.model).toBe('vendor-1/orion-nano-5');
    const off = ports(autoRoute());
    off.deps.jev = { enabled: false, lines: ['auto'], taskTypes: ['classification_tagging'], maxDifficulty: 3, minConfidence: 0.5 };
    expect((await answered(off.deps, { model: 'auto' })).served.model).toBe('vendor-1/orion-nano-5');
    expect(chats).toEqual(['orion-nano-5', 'orion-nano-5']);
  });
});
