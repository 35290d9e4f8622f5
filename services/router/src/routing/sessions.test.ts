import type { RouteRequest__Output } from '@svc/protos';
import { createRouter } from './route';
import {
  LONG_IDLE_MS,
  SESSION_TTL_MS,
  WARM_CACHE_MS,
  detectTrigger,
  looksLikeFeedback,
  looksLikeToolFailure,
  readTurn,
  sessionKey,
  type SessionState,
} from './sessions';
import { M, memoryStore, requestFor, scriptedClassifier, syntheticCatalog } from './synthetic.fixture';

const T0 = 1_700_000_000_000;

function setup() {
  let clock = T0;
  const store = memoryStore();
  const classifier = scriptedClassifier();
  const router = createRouter({ catalog: syntheticCatalog(), classifier, sessions: store, now: () => clock });
  return { router, store, classifier, advance: (ms: number) => void (clock += ms) };
}

type Msg = { role: string; text: string };
const user = (text: string): Msg => ({ role: 'user', text });
const assistant = (text = '[tool call run]'): Msg => ({ role: 'assistant', text });
const tool = (text: string): Msg => ({ role: 'tool', text });
const call = (messages: Msg[], extra: Partial<RouteRequest__Output> = {}) => requestFor({ session_id: 'sess-1', system_prompt: 'You are an agent.', messages, ...extra });

describe('trigger detection rules', () => {
  const prior: SessionState = {
    v: 1, line: 'auto', model: M.A, rule: 'skills', task: 'summarization', task_type: 'summarization', floor: 'none', difficulty: 1, band: 'easy', stakes: 'normal',
    biased: false, confidence: 0.9, turns: 1, tool_failures: 0, decided_ms: T0, last_ms: T0, last_user: 'summarize the report',
  };
  const turn = (messages: Msg[]) => readTurn(messages);
  it.each([
    ['no state', undefined, [user('hi')], 'auto', 0, 'no_prior_decision'],
    ['state for another line', prior, [user('summarize the report'), assistant(), tool('ok')], 'best', 0, 'no_prior_decision'],
    ['tool result after the same user message', prior, [user('summarize the report'), assistant(), tool('ok')], 'auto', 0, 'cache_hit'],
    ['the same user message again (a retry)', prior, [user('summarize the report')], 'auto', 0, 'cache_hit'],
    ['a new user message', prior, [user('summarize the report'), assistant('done'), user('now translate it')], 'auto', 0, 'new_human_message'],
    ['idle past 30 minutes', prior, [user('summarize the report'), assistant(), tool('ok')], 'auto', LONG_IDLE_MS + 1, 'long_idle'],
    ['idle exactly 30 minutes', prior, [user('summarize the report'), assistant(), tool('ok')], 'auto', LONG_IDLE_MS, 'cache_hit'],
    ['explicit feedback', prior, [user('summarize the report'), assistant('done'), user("That's wrong, not what I asked.")], 'auto', 0, 'customer_feedback'],
    ['feedback words in the stored user message only', { ...prior, last_user: "That's wrong, redo it" }, [user("That's wrong, redo it"), assistant(), tool('ok')], 'auto', 0, 'cache_hit'],
    ['three failing tool results', prior, [user('summarize the report'), assistant(), tool('Error: ENOENT'), assistant(), tool('Traceback (most recent call last)'), assistant(), tool('command failed')], 'auto', 0, 'tool_failure_streak'],
    ['two failing tool results', prior, [user('summarize the report'), assistant(), tool('Error: ENOENT'), assistant(), tool('exit code 2')], 'auto', 0, 'cache_hit'],
    ['a good result breaks the streak', prior, [user('summarize the report'), assistant(), tool('Error'), assistant(), tool('Error'), assistant(), tool('all good'), assistant(), tool('Error')], 'auto', 0, 'cache_hit'],
    ['low-confidence prior', { ...prior, confidence: 0.3 }, [user('summarize the report'), assistant(), tool('ok')], 'auto', 0, 'low_confidence_prior'],
  ] as Array<[string, SessionState | undefined, Msg[], string, number, string]>)('%s -> %s', (_name, state, messages, line, idle, trigger) => {
    expect(detectTrigger(state, turn(messages), line, T0 + idle).trigger).toBe(trigger);
  });

  it('a streak fires once: the stored streak at the threshold gives cache_hit', () => {
    const messages = [user('summarize the report'), assistant(), tool('Error'), assistant(), tool('failed'), assistant(), tool('fatal'), assistant(), tool('panic')];
    expect(detectTrigger({ ...prior, tool_failures: 3 }, turn(messages), 'auto', T0).trigger).toBe('cache_hit');
  });

  it.each([
    ['Error: ENOENT: no such file or directory', true],
    ['Traceback (most recent call last):\n  File "x.py"', true],
    ['npm ERR! Test failed.  See above for more details.', true],
    ['{"is_error": true, "content": "denied"}', true],
    ['{"error": {"code": 500}}', true],
    ['process exited with exit code 1', true],
    ['bash: jq: command not found', true],
    ['request timed out after 30s', true],
    ['All 42 tests passed, no errors.', false],
    ['{"error": null, "rows": 3}', false],
    ['exit code 0', false],
    ['Wrote 120 lines to src/app.ts', false],
    [`${'ok '.repeat(300)}error raised in the middle${' fine'.repeat(300)}`, false],
  ])('tool result %j is a failure: %s', (text, failed) => expect(looksLikeToolFailure(text)).toBe(failed));

  it.each([
    ["That's wrong.", true],
    ['this is not what I asked for', true],
    ['Still not working after your change', true],
    ['👎', true],
    ['thumbs down', true],
    ['Eso está mal, no es lo que pedí', true],
    ["C'est faux", true],
    ['Das ist falsch', true],
    ['Isso está errado', true],
    ['Non funziona', true],
    ['Summarize this article for me', false],
    ['Write a function that returns the wrong index on purpose for a test', false],
    [`${'Context paragraph. '.repeat(20)}that's wrong`, false],
  ])('user message %j is feedback: %s', (text, feedback) => expect(looksLikeFeedback(text)).toBe(feedback));
});

describe('session keys', () => {
  const base = { organization_id: 'org_1', session_id: '', system_prompt: 'sys', messages: [user('hello')] };
  it('hash the session id under the organization, hash-tagged', () => {
    const key = sessionKey({ ...base, session_id: 'abc' })!;
    expect(key).toMatch(/^sess:\{org_1:id:[0-9a-f]{32}\}$/);
    expect(key).not.toContain('abc');
    expect(sessionKey({ ...base, session_id: 'abc', organization_id: 'org_2' })).not.toBe(key);
  });
  it('without a session id, key on the system prompt plus the last user message', () => {
    const key = sessionKey(base)!;
    expect(key).toMatch(/^sess:\{org_1:pm:[0-9a-f]{32}\}$/);
    expect(sessionKey({ ...base, messages: [user('hello'), assistant(), tool('x')] })).toBe(key);
    expect(sessionKey({ ...base, messages: [user('hello'), assistant('hi'), user('next')] })).not.toBe(key);
    expect(sessionKey({ ...base, system_prompt: 'other' })).not.toBe(key);
  });
  it('none without a session id or any prompt text', () => {
    expect(sessionKey({ ...base, system_prompt: '', messages: [] })).toBeUndefined();
  });
});

describe('sessions through the router (in-memory store, injected clock)', () => {
  it('a tool-result turn reuses the decision without classifying; a new user message is classified again', async () => {
    const { router, classifier } = setup();
    const first = await router.route(call([user('summarization d3')]));
    expect(first.routing).toMatchObject({ trigger: 'no_prior_decision', band: 'medium' });
    expect(first.candidates![0].model).toBe(M.B);
    classifier.classify.mockClear();

    const loop = await router.route(call([user('summarization d3'), assistant(), tool('{"rows": 3}')]));
    expect(loop.routing).toMatchObject({ trigger: 'cache_hit', band: 'medium', task_type: 'summarization', classifier: 'svc-router-classifier/1@feedface', confidence: 0.9, effort: 'medium' });
    expect(loop.candidates![0].model).toBe(M.B);
    expect(loop.auto).toBe(true);
    expect(classifier.classify).not.toHaveBeenCalled();

    const next = await router.route(call([user('summarization d3'), assistant(), tool('{}'), assistant('done'), user('summarization d5')]));
    expect(next.routing).toMatchObject({ trigger: 'new_human_message', band: 'frontier' });
    expect(next.candidates![0].model).toBe(M.D);
    expect(classifier.classify).toHaveBeenCalledTimes(1);
  });

  it('low confidence in the prior decision classifies the next turn again', async () => {
    const { router, classifier } = setup();
    await router.route(call([user('summarization d2 c0.3')]));
    classifier.classify.mockClear();
    const loop = await router.route(call([user('summarization d2 c0.3'), assistant(), tool('ok')]));
    expect(loop.routing).toMatchObject({ trigger: 'low_confidence_prior', biased: true });
    expect(classifier.classify).toHaveBeenCalledTimes(1);
  });

  it('long idle and expiry follow the injected clock', async () => {
    const { router, advance } = setup();
    const turn = [user('summarization d1'), assistant(), tool('ok')];
    await router.route(call([user('summarization d1')]));
    advance(LONG_IDLE_MS + 1);
    expect((await router.route(call(turn))).routing?.trigger).toBe('long_idle');
    advance(LONG_IDLE_MS);
    expect((await router.route(call(turn))).routing?.trigger).toBe('cache_hit');
    advance(LONG_IDLE_MS + 1);
    expect((await router.route(call(turn))).routing?.trigger).toBe('long_idle');
    advance(SESSION_TTL_MS);
    expect((await router.route(call(turn))).routing?.trigger).toBe('no_prior_decision');
  });

  it('customer feedback moves the floor one step up', async () => {
    const { router } = setup();
    const first = await router.route(call([user('summarization d1')]));
    expect(first.routing?.floor).toBe('none');
    const feedback = await router.route(call([user('summarization d1'), assistant('Here it is'), user("summarization d1 that's wrong")]));
    // The scripted classifier reads "summarization d1" from the start of the message; the cue is found in its first 160 characters.
    expect(feedback.routing).toMatchObject({ trigger: 'customer_feedback', floor: 'middle' });
    expect(feedback.candidates![0].model).toBe(M.C);
    const loop = await router.route(call([user('summarization d1'), assistant('Here it is'), user("summarization d1 that's wrong"), assistant(), tool('ok')]));
    expect(loop.routing).toMatchObject({ trigger: 'cache_hit', floor: 'middle' });
    expect(loop.candidates![0].model).toBe(M.C);
  });

  it('a tool failure streak re-decides once, one floor step up', async () => {
    const { router } = setup();
    const start = [user('summarization d3')];
    await router.route(call(start));
    const failing = [...start, assistant(), tool('Error: boom'), assistant(), tool('Error: boom'), assistant(), tool('Error: boom')];
    const streak = await router.route(call(failing));
    expect(streak.routing).toMatchObject({ trigger: 'tool_failure_streak', floor: 'middle' });
    expect(streak.candidates![0].model).toBe(M.C);
    const after = await router.route(call([...failing, assistant(), tool('Error: boom')]));
    expect(after.routing).toMatchObject({ trigger: 'cache_hit' });
    expect(after.candidates![0].model).toBe(M.C);
  });

  it('a different line in the same session is a new decision', async () => {
    const { router } = setup();
    await router.route(call([user('summarization d1')]));
    const best = await router.route(call([user('summarization d1'), assistant(), tool('ok')], { model: 'auto/best' }));
    expect(best.routing).toMatchObject({ trigger: 'no_prior_decision', line: 'best' });
  });

  it('without a session id, reuse is keyed on the system prompt plus the last user message', async () => {
    const { router, classifier } = setup();
    const noId = (messages: Msg[]) => requestFor({ system_prompt: 'You are an agent.', messages });
    await router.route(noId([user('summarization d3')]));
    classifier.classify.mockClear();
    expect((await router.route(noId([user('summarization d3'), assistant(), tool('ok')]))).routing?.trigger).toBe('cache_hit');
    expect(classifier.classify).not.toHaveBeenCalled();
    expect((await router.route(noId([user('summarization d3'), assistant('done'), user('summarization d1')]))).routing?.trigger).toBe('no_prior_decision');
  });

  it('on a cache hit whose model is no longer eligible, the stored job is picked again without classifying', async () => {
    const { router, classifier } = setup();
    await router.route(call([user('summarization d1')]));
    classifier.classify.mockClear();
    const result = await router.route(call([user('summarization d1'), assistant(), tool('ok')], { needs: { tools: false, vision: true, json_schema: false, input_tokens: 10 } }));
    expect(result.routing?.trigger).toBe('cache_hit');
    expect(result.candidates![0].model).toBe(M.C);
    expect(classifier.classify).not.toHaveBeenCalled();
  });

  it('stores metadata only: no system prompt, at most 200 characters of the last user message, TTL by last call', async () => {
    const { router, store } = setup();
    const long = `summarization d1 ${'x'.repeat(500)} TAIL`;
    await router.route(call([user(long)], { system_prompt: 'SECRET SYSTEM PROMPT' }));
    const [raw] = [...store.data.values()];
    expect(raw).not.toContain('SECRET');
    const state = JSON.parse(raw) as SessionState;
    expect(state.last_user).toBe(long.slice(-200));
    expect(Object.keys(state).sort()).toEqual(
      ['v', 'line', 'model', 'rule', 'task', 'task_type', 'floor', 'difficulty', 'band', 'stakes', 'biased', 'confidence', 'classifier', 'signal_steps', 'turns', 'tool_failures', 'decided_ms', 'last_ms', 'last_user'].sort(),
    );
    expect(state).toMatchObject({ line: 'auto', model: M.A, turns: 1, last_ms: T0 });
  });

  it('routes as a first call when the store fails or is slow', async () => {
    const warn = jest.fn();
    const failing = createRouter({ catalog: syntheticCatalog(), classifier: scriptedClassifier(), logger: { warn }, sessions: { read: () => Promise.reject(new Error('down')), write: () => Promise.reject(new Error('down')) } });
    expect((await failing.route(call([user('summarization d1')]))).routing?.trigger).toBe('no_prior_decision');
    expect(warn).toHaveBeenCalled();
    const slow = createRouter({ catalog: syntheticCatalog(), sessionTimeoutMs: 20, sessions: { read: () => new Promise(() => {}), write: () => new Promise(() => {}) } });
    const started = Date.now();
    expect((await slow.route(call([user('x')]))).routing?.trigger).toBe('no_prior_decision');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('sticky: the warm prompt cache keeps the previous model', () => {
  // First call: easy job with high stakes -> floor middle -> C (vendor-1, automatic cache,
  // cache_read 0.05 against input 0.5). Next message: easy, normal -> cold pick A (0.1 flat).
  // 20,000 input tokens, almost all cached on C: C warm ~ 19,99x*0.05 + 500*0.5 = 1,250 against
  // A cold 20,000*0.1 + 500*0.1 = 2,050 -> C is kept.
  const history = (extraTokens: number) => ({ needs: { tools: false, vision: false, json_schema: false, input_tokens: extraTokens } });
  const second = [user('summarization d1 high'), assistant('ok'), user('summarization d1')];

  it.each([
    ['large warm prefix, within 5 minutes', 20_000, 60_000, M.C, { model: M.C, cold_pick: M.A }],
    ['prefix below the vendor minimum (1024)', 900, 60_000, M.A, null],
    ['small prefix, cheaper cold', 1_100, 60_000, M.A, null],
    ['cache gone cold (over 5 minutes)', 20_000, WARM_CACHE_MS + 1, M.A, null],
  ])('%s', async (_name, tokens, idle, pick, sticky) => {
    const { router, advance } = setup();
    const first = await router.route(call([user('summarization d1 high')]));
    expect(first.candidates![0].model).toBe(M.C);
    advance(idle);
    const result = await router.route(call(second, history(tokens)));
    expect(result.routing?.trigger).toBe('new_human_message');
    expect(result.candidates![0].model).toBe(pick);
    expect(result.routing?.sticky).toEqual(sticky);
    if (sticky) expect(result.candidates!.map((candidate) => candidate.model)).toEqual([M.C, M.A, M.B]);
  });

  it('never keeps a model below the new floor', async () => {
    const { router } = setup();
    await router.route(call([user('summarization d1')])); // A
    const result = await router.route(call([user('summarization d1'), assistant('ok'), user('summarization d4')], history(50_000)));
    expect(result.candidates![0].model).toBe(M.C);
    expect(result.routing?.sticky ?? null).toBeNull();
  });
});
