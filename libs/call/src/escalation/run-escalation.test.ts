import nock from 'nock';
import { catalog } from '@svc/catalog';
import type { Logger } from '@svc/logger';
import type { RouteDecision, RouteQuery } from '@svc/routing';
import { ChatCall, type CallStreamEvent } from '../run-chat-call';
import { parseChatRequest } from '../request/chat-request';
import { MemoryCacheState } from '../cache/cache-policy.memory';
import type { CallerKey, UsageRecord } from '../ports';
import type { CallDeps, CallPolicy } from '../types';
import { HIDDEN_TOOL } from './escalation';

/**
 * Escalation in the pipeline (in-memory ports; vendors through nock at the simulator's address):
 * the hidden tool on Responses turns, the answer check on non-streamed auto calls, one bill.
 */
const SIM = 'http://sim.test';
const WEAK = 'vendor-1/orion-nano-5';
const STRONG = 'vendor-1/orion-mini-5';
const KEY: CallerKey = { key_id: 'key_1', organization_id: 'org_1', plan: 'paid', fallback_policy: 'cross_vendor', byok_vendors: [] };

type Answer = { content?: string; tool?: { name: string; arguments: string }; text?: string };

interface Seen {
  model: string;
  tools: string[];
  stream: boolean;
}

/** Per upstream model: what it answers (a function of the request's tools). */
function vendors(answer: (model: string, tools: string[]) => Answer) {
  const seen: Seen[] = [];
  nock(SIM)
    .persist()
    .post('/v1/chat/completions')
    .reply(function (_uri, body) {
      const request = body as { model: string; stream?: boolean; tools?: Array<{ function: { name: string } }> };
      const tools = (request.tools ?? []).map((tool) => tool.function.name);
      seen.push({ model: request.model, tools, stream: Boolean(request.stream) });
      const reply = answer(request.model, tools);
      const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
      const toolCalls = reply.tool ? [{ id: 'call_x', type: 'function', function: reply.tool }] : undefined;
      const finish = reply.tool ? 'tool_calls' : 'stop';
      if (request.stream) {
        const chunk = (delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}) =>
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: request.model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;
        let sse = chunk({ role: 'assistant', content: '' }, null);
        if (reply.text !== undefined || reply.content !== undefined) sse += chunk({ content: reply.text ?? reply.content }, null);
        if (reply.tool) {
          sse += chunk({ tool_calls: [{ index: 0, id: 'call_x', type: 'function', function: { name: reply.tool.name, arguments: '' } }] }, null);
          sse += chunk({ tool_calls: [{ index: 0, function: { arguments: reply.tool.arguments } }] }, null);
        }
        sse += chunk({}, finish) + `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: request.model, choices: [], usage })}\n\n` + 'data: [DONE]\n\n';
        return [200, sse, { 'content-type': 'text/event-stream' }];
      }
      return [200, { id: 'c', object: 'chat.completion', created: 1, model: request.model, choices: [{ index: 0, message: { role: 'assistant', content: reply.content ?? reply.text ?? null, tool_calls: toolCalls }, finish_reason: finish }], usage }];
    });
  return seen;
}

/** The weak model calls the hidden tool whenever it is offered; everyone else answers text. */
const asksWhenOffered = (model: string, tools: string[]): Answer => (model === 'orion-nano-5' && tools.includes(HIDDEN_TOOL) ? { tool: { name: HIDDEN_TOOL, arguments: '{"reason":"too hard"}' } } : { content: `answer from ${model}` });

function ports(options: { escalation?: string[]; escalationRoute?: (query: RouteQuery) => Promise<RouteDecision> } = {}) {
  const records: UsageRecord[] = [];
  const released: string[] = [];
  const queries: RouteQuery[] = [];
  const refunds: number[] = [];
  const escalation = (options.escalation ?? [STRONG]).map((model) => ({ model, vendor: model.split('/')[0] }));
  const deps: CallDeps = {
    catalog,
    router: {
      route: async (query) => {
        queries.push(query);
        if (query.escalated_from) {
          if (options.escalationRoute) return options.escalationRoute(query);
          return { candidates: escalation, auto: true, routing: { line: 'auto', floor: 'middle', trigger: 'escalation' }, escalation: [] };
        }
        return { candidates: [{ model: WEAK, vendor: 'vendor-1' }], auto: true, routing: { line: 'auto', floor: 'none', trigger: 'no_prior_decision' }, escalation };
      },
    },
    billing: { admit: async () => ({ headers: {}, baseline_model: '', baseline_calls: 3 }), release: async (callId) => void released.push(callId) },
    usage: { record: async (record) => void records.push(record) },
    tokens: {
      check: async () => ({ headers: {}, charged: 1000 }),
      refund: async (_key, _charged, actual) => void refunds.push(actual),
      peek: async () => ({}),
    },
    health: { isHealthy: () => true, recordFailure: () => undefined, order: (candidates) => candidates },
    cacheState: new MemoryCacheState(),
    ownKeys: { forOrganization: async () => ({}) },
    vendors: { simUrl: SIM, keys: {} },
    logger: { warn: jest.fn(), error: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger,
    attemptTimeoutMs: 2_000,
    attemptTimeoutLongMs: 2_000,
    topupUrl: 'https://svc.test/topup',
  };
  return { deps, records, released, queries, refunds };
}

const chat = (body: Record<string, unknown> = {}) => parseChatRequest({ model: 'auto', messages: [{ role: 'user', content: 'Prove the theorem.' }], svc: { session_id: 'conv_1' }, ...body }, {});
const responses: CallPolicy = { stream: false, escalation: true };
const signal = () => new AbortController().signal;

async function collect(events: AsyncIterable<CallStreamEvent>): Promise<CallStreamEvent[]> {
  const out: CallStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('escalation by the model (Responses turns)', () => {
  it('the hidden call re-runs the turn on the stronger model: escalated_from line/model, trigger escalation, one bill for the answer', async () => {
    const seen = vendors(asksWhenOffered);
    const { deps, records, released, queries, refunds } = ports();
    const call = await ChatCall.start(deps, chat(), { key: KEY }, responses, signal());
    const outcome = await call.unary(signal());
    expect(outcome?.result.content).toBe('answer from orion-mini-5');
    expect(outcome?.result.toolCalls).toEqual([]);
    expect(outcome?.served.model).toBe(STRONG);
    expect(outcome?.svc).toMatchObject({ model_served: STRONG, escalated_from: `auto/${WEAK}`, routing: { trigger: 'escalation', floor: 'middle' }, attempts: 2, session_id: 'conv_1' });
    // The weak model saw the hidden tool; the stronger one did not.
    expect(seen.map((request) => [request.model, request.tools])).toEqual([['orion-nano-5', [HIDDEN_TOOL]], ['orion-mini-5', []]]);
    // The router was asked where to go (and keeps the session there).
    expect(queries[1]).toMatchObject({ escalated_from: WEAK, session_id: 'conv_1', model: 'auto' });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ model: STRONG, input_tokens: 100, output_tokens: 20 });
    expect(records[0].call_fee_micros).toBe(catalog.data.auto_call_fee_micros);
    expect(released).toEqual([]);
    // The key's token bucket counts both vendor calls.
    expect(refunds).toEqual([240]);
  });

  it('no hidden tool under tool_choice none, required or a named function, on chat completions, or when no stronger model exists', async () => {
    const seen = vendors((model) => ({ content: `answer from ${model}` }));
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];
    for (const toolChoice of ['none', 'required', { type: 'function', function: { name: 'lookup' } }]) {
      const { deps } = ports();
      await (await ChatCall.start(deps, chat({ tools, tool_choice: toolChoice }), { key: KEY }, responses, signal())).unary(signal()).catch(() => undefined);
    }
    const { deps } = ports();
    await (await ChatCall.start(deps, chat(), { key: KEY }, { stream: false }, signal())).unary(signal());
    const none = ports({ escalation: [] });
    await (await ChatCall.start(none.deps, chat(), { key: KEY }, responses, signal())).unary(signal());
    expect(seen.filter((request) => request.tools.includes(HIDDEN_TOOL))).toEqual([]);
  });

  it('named models get no escalation', async () => {
    const seen = vendors(asksWhenOffered);
    const { deps } = ports();
    const outcome = await (await ChatCall.start(deps, chat({ model: WEAK }), { key: KEY }, responses, signal())).unary(signal());
    expect(outcome?.svc.escalated_from).toBeUndefined();
    expect(seen[0].tools).toEqual([]);
  });

  it('the router unavailable: the stronger models of the call decision serve, trigger escalation', async () => {
    vendors(asksWhenOffered);
    const { deps } = ports({ escalationRoute: async () => Promise.reject(new Error('router down')) });
    const outcome = await (await ChatCall.start(deps, chat(), { key: KEY }, responses, signal())).unary(signal());
    expect(outcome?.svc).toMatchObject({ model_served: STRONG, escalated_from: `auto/${WEAK}`, routing: { trigger: 'escalation' } });
  });

  it('a stream is held until its first output: a hidden call never reaches it, the stronger model streams instead', async () => {
    vendors(asksWhenOffered);
    const { deps, records } = ports();
    const call = await ChatCall.start(deps, chat({ stream: true }), { key: KEY }, { ...responses, stream: true }, signal());
    const stream = await call.stream(signal());
    expect(stream.served.model).toBe(STRONG);
    const events = await collect(stream.events);
    expect(events.filter((event) => event.type === 'tool_call_start')).toEqual([]);
    expect(events.filter((event) => event.type === 'text').map((event) => (event as { delta: string }).delta).join('')).toBe('answer from orion-mini-5');
    const done = events.at(-1) as { type: 'done'; svc: Record<string, unknown> };
    expect(done.svc).toMatchObject({ escalated_from: `auto/${WEAK}`, routing: { trigger: 'escalation' }, model_served: STRONG });
    expect(records).toHaveLength(1);
    expect(records[0].model).toBe(STRONG);
  });

  it('a stream whose text came first keeps its answer; a later hidden call is left out of it', async () => {
    vendors((model, tools) => (tools.includes(HIDDEN_TOOL) ? { text: 'partial answer', tool: { name: HIDDEN_TOOL, arguments: '{}' } } : { content: 'x' }));
    const { deps } = ports();
    const stream = await (await ChatCall.start(deps, chat({ stream: true }), { key: KEY }, { ...responses, stream: true }, signal())).stream(signal());
    expect(stream.served.model).toBe(WEAK);
    const events = await collect(stream.events);
    expect(events.filter((event) => event.type === 'tool_call_start' || event.type === 'tool_call_delta')).toEqual([]);
    const done = events.at(-1) as { type: 'done'; finishReason: string; svc: Record<string, unknown> };
    expect(done.finishReason).toBe('stop');
    expect(done.svc.escalated_from).toBeUndefined();
  });

  it('a stream that answers text is passed through unchanged', async () => {
    vendors((model) => ({ content: `answer from ${model}` }));
    const { deps, queries } = ports();
    const stream = await (await ChatCall.start(deps, chat({ stream: true }), { key: KEY }, { ...responses, stream: true }, signal())).stream(signal());
    const events = await collect(stream.events);
    expect(events.filter((event) => event.type === 'text').map((event) => (event as { delta: string }).delta).join('')).toBe('answer from orion-nano-5');
    expect(queries).toHaveLength(1);
  });
});

describe('the answer check (non-streamed auto calls)', () => {
  it('an empty answer is replaced by the stronger model answer (chat completions)', async () => {
    vendors((model) => (model === 'orion-nano-5' ? { content: '' } : { content: 'a real answer' }));
    const { deps, records } = ports();
    const outcome = await (await ChatCall.start(deps, chat(), { key: KEY }, { stream: false }, signal())).unary(signal());
    expect(outcome?.result.content).toBe('a real answer');
    expect(outcome?.svc).toMatchObject({ model_served: STRONG, escalated_from: `auto/${WEAK}`, routing: { trigger: 'escalation' } });
    expect(records).toHaveLength(1);
  });

  it('an answer that does not fit the json_schema is replaced', async () => {
    vendors((model) => (model === 'orion-nano-5' ? { content: '{"name": 3}' } : { content: '{"name":"Ada"}' }));
    const { deps } = ports();
    const format = { type: 'json_schema', json_schema: { name: 'person', schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } };
    const outcome = await (await ChatCall.start(deps, chat({ response_format: format }), { key: KEY }, { stream: false }, signal())).unary(signal());
    expect(outcome?.result.content).toBe('{"name":"Ada"}');
    expect(outcome?.svc.escalated_from).toBe(`auto/${WEAK}`);
  });

  it('a passing answer is not checked further; streams and named models are never checked', async () => {
    const seen = vendors(() => ({ content: '' }));
    const { deps } = ports();
    const named = await (await ChatCall.start(deps, chat({ model: WEAK }), { key: KEY }, { stream: false }, signal())).unary(signal());
    expect(named?.svc.escalated_from).toBeUndefined();
    const stream = await (await ChatCall.start(deps, chat({ stream: true }), { key: KEY }, { stream: true }, signal())).stream(signal());
    await collect(stream.events);
    expect(seen.map((request) => request.model)).toEqual(['orion-nano-5', 'orion-nano-5']);
  });

  it('no stronger model answers: the checked answer stands, billed once', async () => {
    vendors((model) => (model === 'orion-nano-5' ? { content: '' } : { content: 'never' }));
    nock.cleanAll();
    nock(SIM)
      .persist()
      .post('/v1/chat/completions')
      .reply(function (_uri, body) {
        const model = (body as { model: string }).model;
        if (model !== 'orion-nano-5') return [500, { error: { message: 'down', type: 'server_error' } }];
        return [200, { id: 'c', object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 0, total_tokens: 10 } }];
      });
    const { deps, records } = ports();
    const outcome = await (await ChatCall.start(deps, chat(), { key: KEY }, { stream: false }, signal())).unary(signal());
    expect(outcome?.svc).toMatchObject({ model_served: WEAK });
    expect(outcome?.svc.escalated_from).toBeUndefined();
    expect(records).toHaveLength(1);
    expect(records[0].model).toBe(WEAK);
  });
});
