import type { RouteRequest__Output } from '@svc/protos';
import { createRouter } from './route';
import type { SessionState } from './sessions';
import { M, memoryStore, requestFor, scriptedClassifier, syntheticCatalog } from './synthetic.fixture';

/**
 * Spec (Escalation): the turn re-runs on the cheapest model one floor step up (or, under the
 * earlier rule, the next model up the curve); routing.trigger `escalation`; later turns stay on
 * the stronger model. Thresholds on the synthetic catalog (summarization, easy band):
 * scores A .85, B .90, C .93, D .96, E .98, F .99. Floor none: .80 -> A. Floor middle: the
 * ceil(2*6/3) = 4th most skilled, .93 -> C is the cheapest at or above it.
 */

function setup() {
  const store = memoryStore();
  const router = createRouter({ catalog: syntheticCatalog(), classifier: scriptedClassifier(), sessions: store, now: () => 1_700_000_000_000 });
  return { router, store };
}

type Msg = { role: string; text: string };
const user = (text: string): Msg => ({ role: 'user', text });
const call = (messages: Msg[], extra: Partial<RouteRequest__Output> = {}) => requestFor({ session_id: 'conv_1', messages, ...extra });
const models = (candidates: Array<{ model: string }> | undefined) => (candidates ?? []).map((candidate) => candidate.model);

describe('escalation routing', () => {
  it('an auto decision lists where an escalation would go: the cheapest model one floor step up', async () => {
    const { router } = setup();
    const first = await router.route(call([user('summarization d1')]));
    expect(models(first.candidates)[0]).toBe(M.A);
    expect(first.routing).toMatchObject({ floor: 'none', trigger: 'no_prior_decision' });
    expect(models(first.escalation)).toEqual([M.C, M.D, M.E]);
  });

  it('escalated_from routes the turn one floor step up with trigger escalation, and records it in the session', async () => {
    const { router, store } = setup();
    await router.route(call([user('summarization d1')]));
    const escalated = await router.route(call([user('summarization d1')], { escalated_from: M.A }));
    expect(models(escalated.candidates)).toEqual([M.C, M.D, M.E]);
    expect(escalated.routing).toMatchObject({ line: 'auto', trigger: 'escalation', floor: 'middle', task: 'summarization', band: 'easy', cell: 'summarization/easy' });
    expect(escalated.auto).toBe(true);
    const state = [...store.data.values()].map((raw) => JSON.parse(raw) as SessionState)[0];
    expect(state).toMatchObject({ model: M.C, escalated_model: M.C, escalation_steps: 1, floor: 'middle' });
  });

  it('later turns stay on the stronger model: a tool turn reuses it, a new human message keeps the raised floor', async () => {
    const { router } = setup();
    await router.route(call([user('summarization d1')]));
    await router.route(call([user('summarization d1')], { escalated_from: M.A }));
    const toolTurn = await router.route(call([user('summarization d1'), { role: 'assistant', text: '[tool call x]' }, { role: 'tool', text: 'ok' }]));
    expect(toolTurn.routing?.trigger).toBe('cache_hit');
    expect(models(toolTurn.candidates)[0]).toBe(M.C);
    const next = await router.route(call([user('summarization d1'), { role: 'assistant', text: 'done' }, user('summarization d2 another one')]));
    expect(next.routing).toMatchObject({ trigger: 'new_human_message', floor: 'middle' });
    expect(models(next.candidates)[0]).toBe(M.C);
  });

  it('under the earlier rule the escalation is the next model up the curve, and later turns keep it', async () => {
    const { router } = setup();
    const first = await router.route(call([user('hello there')]));
    expect(first.routing?.task).toBe('other');
    expect(models(first.candidates)[0]).toBe(M.A);
    expect(models(first.escalation)[0]).toBe(M.B);
    const escalated = await router.route(call([user('hello there')], { escalated_from: M.A }));
    expect(models(escalated.candidates)).toEqual([M.B, M.G, M.C]);
    expect(escalated.routing?.trigger).toBe('escalation');
    expect(escalated.routing?.floor ?? '').toBe('');
    const next = await router.route(call([user('hello there'), { role: 'assistant', text: 'hi' }, user('how are you')]));
    expect(models(next.candidates)[0]).toBe(M.B);
  });

  it('no stronger model: the top floor has no step up, and the top of the curve has nothing above it', async () => {
    const { router } = setup();
    const best = await router.route(call([user('summarization d1')], { model: 'auto/best', session_id: 'conv_best' }));
    expect(best.routing?.floor).toBe('top');
    expect(best.escalation).toEqual([]);
    const onlyTop = await router.route(call([user('hello there')], { session_id: 'conv_top', access: { account_disabled: [], organization_disabled: [], project_disabled: [], key_allowed: [M.F] } }));
    expect(models(onlyTop.candidates)).toEqual([M.F]);
    expect(onlyTop.escalation).toEqual([]);
  });

  it('escalates without session state too (classifies the turn again)', async () => {
    const router = createRouter({ catalog: syntheticCatalog(), classifier: scriptedClassifier() });
    const escalated = await router.route(requestFor({ messages: [user('summarization d1')], escalated_from: M.A }));
    expect(models(escalated.candidates)[0]).toBe(M.C);
    expect(escalated.routing?.trigger).toBe('escalation');
  });

  it('a session on another line starts over: no earlier escalation carries into it', async () => {
    const { router } = setup();
    await router.route(call([user('summarization d1')]));
    await router.route(call([user('summarization d1')], { escalated_from: M.A }));
    const other = await router.route(call([user('summarization d1')], { model: 'auto/cheap' }));
    expect(other.routing?.trigger).toBe('no_prior_decision');
    expect(models(other.candidates)[0]).toBe(M.A);
  });
});
