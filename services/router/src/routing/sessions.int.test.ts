import { randomBytes } from 'node:crypto';
import { catalog } from '@svc/catalog';
import type { RouteRequest__Output } from '@svc/protos';
import { createRedis, waitReady, type Redis } from '@svc/redis';
import { loadClassifier } from '../classifier';
import { createRouter, type Router } from './route';
import { SESSION_TTL_MS, redisSessionStore, sessionKey, type SessionState } from './sessions';

// Session triggers against the real Redis and the trained classifier. Every key lives under a
// prefix of its own for this run (removed in afterAll); the router's clock is injected.

const PREFIX = `${process.env.REDIS_KEY_PREFIX}router:${process.pid}:${randomBytes(4).toString('hex')}:`;
const T0 = 1_700_000_000_000;
const classifier = loadClassifier();
const clients: Redis[] = [];

function connect(): Redis {
  const client = createRedis({ url: process.env.REDIS_URL!, keyPrefix: PREFIX, failFast: true });
  clients.push(client);
  return client;
}

function replica(redis: Redis, clock: { now: number }): Router {
  return createRouter({ catalog, classifier, sessions: redisSessionStore(redis), now: () => clock.now, sessionTimeoutMs: 1000 });
}

type Msg = { role: string; text: string };
const user = (text: string): Msg => ({ role: 'user', text });
const assistant = (text: string): Msg => ({ role: 'assistant', text });
const tool = (text: string): Msg => ({ role: 'tool', text });

let counter = 0;
const newSession = () => `agent-run-${process.pid}-${(counter += 1)}`;

function request(sessionId: string, messages: Msg[], model = 'auto'): RouteRequest__Output {
  return {
    organization_id: 'org_int',
    key_id: 'key_int',
    model,
    access: { account_disabled: [], organization_disabled: [], project_disabled: [], key_allowed: [] },
    vendors: [],
    needs: { tools: true, vision: false, json_schema: false, input_tokens: 400 },
    fallback: 'cross_vendor',
    session_id: sessionId,
    system_prompt: 'You are a coding agent working in the user repository. Use the tools to read and edit files.',
    messages,
    free_plan: false,
    reasoning_effort: '',
    escalated_from: '',
  };
}

const ask = 'Fix the failing unit test in src/billing/invoice.test.ts, the totals are off by one cent';
const loop1 = [user(ask), assistant('[tool call read_file]'), tool('export function total(lines) { return lines.reduce((a, l) => a + l.amount, 0) }')];
const loop2 = [...loop1, assistant('[tool call run_tests]'), tool('Tests: 12 passed, 12 total')];

describe('session routing state (real Redis)', () => {
  let redis: Redis;

  beforeAll(async () => {
    redis = connect();
    await waitReady(redis);
  });

  afterAll(async () => {
    const raw = createRedis({ url: process.env.REDIS_URL! });
    const leftovers = await raw.keys(`${PREFIX}*`);
    if (leftovers.length > 0) await raw.del(...leftovers);
    await Promise.all([...clients, raw].map((client) => client.quit()));
  });

  it('same session id: tool-result turns give cache_hit and the same model; a new user message gives new_human_message', async () => {
    const clock = { now: T0 };
    const router = replica(redis, clock);
    const session = newSession();

    const first = await router.route(request(session, [user(ask)]));
    // A coding agent's turn: the trained weights name it debugging or a tool call (the coding agent's
    // system prompt weighs in); either way a confident decision that the tool turns reuse.
    expect(first.routing).toMatchObject({ trigger: 'no_prior_decision' });
    expect(['code:debugging', 'agent:tool_dispatch']).toContain(first.routing!.task_type);
    expect(first.routing!.confidence).toBeGreaterThanOrEqual(0.5);
    const model = first.candidates![0].model;

    for (const messages of [loop1, loop2]) {
      clock.now += 2_000;
      const turn = await router.route(request(session, messages));
      expect(turn.routing).toMatchObject({ trigger: 'cache_hit', task_type: first.routing!.task_type, band: first.routing!.band });
      expect(turn.candidates![0].model).toBe(model);
      expect(turn.auto).toBe(true);
    }

    clock.now += 2_000;
    const next = await router.route(request(session, [...loop2, assistant('Fixed: rounding now happens per line.'), user('Now write a SQL query that lists invoices with a negative total per customer')]));
    expect(next.routing).toMatchObject({ trigger: 'new_human_message', task_type: 'code:sql_database' });
  });

  it('state expires after the TTL (injected clock), and Redis holds it for one hour after the last call', async () => {
    const clock = { now: T0 };
    const router = replica(redis, clock);
    const session = newSession();
    await router.route(request(session, [user(ask)]));
    const key = sessionKey(request(session, []))!;
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(SESSION_TTL_MS - 5_000);
    expect(ttl).toBeLessThanOrEqual(SESSION_TTL_MS);

    clock.now += SESSION_TTL_MS - 1;
    expect((await router.route(request(session, loop1))).routing?.trigger).toBe('long_idle');
    // The TTL restarts with every call: an hour after the first call the state is still there.
    clock.now += SESSION_TTL_MS - 1;
    expect((await router.route(request(session, loop1))).routing?.trigger).toBe('long_idle');
    clock.now += SESSION_TTL_MS;
    expect((await router.route(request(session, loop1))).routing?.trigger).toBe('no_prior_decision');
  });

  it('works across router replicas: each reads what the other wrote', async () => {
    const clock = { now: T0 };
    const [redisA, redisB] = [connect(), connect()];
    await Promise.all([waitReady(redisA), waitReady(redisB)]);
    const a = replica(redisA, clock);
    const b = replica(redisB, clock);
    const session = newSession();
    const first = await a.route(request(session, [user(ask)]));
    clock.now += 1_000;
    const second = await b.route(request(session, loop1));
    expect(second.routing?.trigger).toBe('cache_hit');
    expect(second.candidates![0].model).toBe(first.candidates![0].model);
    clock.now += 1_000;
    expect((await a.route(request(session, loop2))).routing?.trigger).toBe('cache_hit');
  });

  it('stores metadata only: no prompt, the last 200 characters of the last user message', async () => {
    const clock = { now: T0 };
    const router = replica(redis, clock);
    const session = newSession();
    const long = `${'Context line about the invoice module. '.repeat(20)}Please fix the rounding bug.`;
    await router.route(request(session, [user(long)]));
    const raw = (await redis.get(sessionKey(request(session, []))!))!;
    expect(raw).not.toContain('coding agent');
    const state = JSON.parse(raw) as SessionState;
    expect(state.last_user).toBe(long.slice(-200));
    expect(state).toMatchObject({ v: 1, line: 'auto', turns: 1, last_ms: T0 });
  });

  it('a tool failure streak and customer feedback re-decide', async () => {
    const clock = { now: T0 };
    const router = replica(redis, clock);
    const session = newSession();
    await router.route(request(session, [user(ask)]));
    const failing = [...loop1, assistant('[tool call run_tests]'), tool('FAILED src/billing/invoice.test.ts\nError: expected 100 to be 101'), assistant('[tool call run_tests]'), tool('Traceback (most recent call last):'), assistant('[tool call run_tests]'), tool('npm ERR! Test failed.')];
    clock.now += 1_000;
    expect((await router.route(request(session, failing))).routing?.trigger).toBe('tool_failure_streak');
    clock.now += 1_000;
    const feedback = await router.route(request(session, [...failing, assistant('I could not fix it.'), user("That's wrong, the test still fails. Fix the rounding in total().")]));
    expect(feedback.routing?.trigger).toBe('customer_feedback');
  });

  it('without a session id, tool turns of the same system prompt and user message reuse the decision', async () => {
    const clock = { now: T0 };
    const router = replica(redis, clock);
    const unique = `${ask} (${randomBytes(4).toString('hex')})`;
    const first = await router.route(request('', [user(unique)]));
    clock.now += 1_000;
    const turn = await router.route(request('', [user(unique), assistant('[tool call read_file]'), tool('ok')]));
    expect(turn.routing?.trigger).toBe('cache_hit');
    expect(turn.candidates![0].model).toBe(first.candidates![0].model);
  });
});
