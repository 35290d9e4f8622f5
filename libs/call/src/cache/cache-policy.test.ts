import { catalog, type ChatModel, type Vendor } from '@svc/catalog';
import { parseChatRequest, type ChatRequestInput } from '../request/chat-request';
import { CACHE_OFF, FAR_APART_MS, LONG_PROMPT_TOKENS, TTL_MS, baseTtl, decideCache, planCache, promptShape, type CacheDecision, type CacheState } from './cache-policy';
import { MemoryCacheState } from './cache-policy.memory';

const T0 = 1_700_000_000_000;
const ORG = 'org_a';
const MINUTE = 60_000;

function fakeClock(start = T0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const model = (id: string): ChatModel => catalog.chatModel(id)!;
const vendorOf = (m: ChatModel): Vendor => catalog.vendor(m.vendor)!;

/** vendor-2 (explicit markers) with the smallest minimum, 512 tokens. */
const MINI = model('vendor-2/lyric-mini-3');
/** vendor-2 with a 4096-token minimum. */
const HAIKU = model('vendor-2/lyric-haiku-4.5');
/** vendor-1: automatic from 1024 tokens. */
const ORION = model('vendor-1/orion-mini-5');
/** vendor-3: automatic from 4096 tokens. */
const LUMEN = model('vendor-3/lumen-2.5-flash');
/** A vendor with no prompt cache. */
const NO_CACHE = catalog.chatModels.find((m) => vendorOf(m).cache === 'none')!;

/** Text of about `tokens` tokens under the characters / 4 estimate. */
const text = (tokens: number, seed = 'a') => `${seed} `.repeat(tokens * 2).slice(0, tokens * 4);
const LONG_SYSTEM = text(1500, 'system');
const MID_SYSTEM = text(700, 'mid');

type Body = Record<string, unknown>;
const request = (body: Body, headers: Record<string, string> = {}): ChatRequestInput => parseChatRequest({ messages: [{ role: 'user', content: 'hi' }], ...body }, headers);
const withSystem = (system: string, extra: Body = {}, question = 'hi'): Body => ({ messages: [{ role: 'system', content: system }, { role: 'user', content: question }], ...extra });

describe('baseTtl', () => {
  it.each([
    ['no request ttl, no session', undefined, undefined, '5m'],
    ['request 5m', '5m', undefined, '5m'],
    ['request 1h', '1h', undefined, '1h'],
    ['previous turn 4 minutes ago', undefined, T0 - 4 * MINUTE, '5m'],
    ['previous turn exactly 5 minutes ago (not over)', undefined, T0 - FAR_APART_MS, '5m'],
    ['previous turn 5 minutes and 1 ms ago', undefined, T0 - FAR_APART_MS - 1, '1h'],
    ['previous turn 6 minutes ago, request 5m wins', '5m', T0 - 6 * MINUTE, '5m'],
    ['previous turn 2 hours ago', undefined, T0 - 120 * MINUTE, '1h'],
  ] as const)('%s → %s', (_name, requested, previous, expected) => {
    expect(baseTtl(requested, previous, T0)).toBe(expected);
  });
});

describe('promptShape', () => {
  it('estimates characters / 4 over tools, system and messages, an image counting 1000 characters', () => {
    const shape = promptShape(request({ messages: [{ role: 'system', content: 'x'.repeat(400) }, { role: 'user', content: 'y'.repeat(40) }] }));
    expect(shape).toMatchObject({ tokens: 110, headTokens: 100, earlierTurns: false });
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    const withImage = promptShape(request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'abcd' }, { type: 'image_url', image_url: { url: image } }] }] }));
    expect(withImage.tokens).toBe(Math.ceil(1004 / 4));
    const tools = [{ type: 'function', function: { name: 'lookup', description: 'd'.repeat(400), parameters: { type: 'object', properties: {} } } }];
    expect(promptShape(request({ tools })).tokens).toBeGreaterThan(100);
  });

  it('hashes the whole prompt and the part before the last message', () => {
    const a = promptShape(request(withSystem(LONG_SYSTEM, {}, 'question one')));
    const b = promptShape(request(withSystem(LONG_SYSTEM, {}, 'question two')));
    const again = promptShape(request(withSystem(LONG_SYSTEM, {}, 'question one')));
    expect(a.promptHash).toMatch(/^[0-9a-f]{64}$/);
    expect(again).toEqual(a);
    expect(b.promptHash).not.toBe(a.promptHash);
    expect(b.headHash).toBe(a.headHash);
    expect(promptShape(request(withSystem(`${LONG_SYSTEM}!`, {}, 'question one'))).headHash).not.toBe(a.headHash);
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];
    expect(promptShape(request(withSystem(LONG_SYSTEM, { tools }, 'question one'))).headHash).not.toBe(a.headHash);
  });

  it.each([
    ['one user message', [{ role: 'user', content: 'q' }], false],
    ['two user messages', [{ role: 'user', content: 'q' }, { role: 'user', content: 'more' }], false],
    ['an assistant prefill last', [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'Sure:' }], false],
    ['an answered turn', [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }, { role: 'user', content: 'q2' }], true],
    [
      'a tool result last',
      [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'result' },
      ],
      true,
    ],
  ])('earlier turns with %s: %s', (_name, messages, expected) => {
    expect(promptShape(request({ messages })).earlierTurns).toBe(expected);
  });
});

describe('decideCache: one call against fresh state', () => {
  const EARLIER_TURNS = { messages: [{ role: 'system', content: LONG_SYSTEM }, { role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }, { role: 'user', content: 'q2' }] };
  const cases: Array<{ rule: string; body: Body; headers?: Record<string, string>; model: ChatModel; expected: Omit<CacheDecision, 'reason'> & { reason: CacheDecision['reason'] } }> = [
    // Spec: "cache.ttl `none` turns caching off"; "breakpoints `none` ... forces ttl `none`".
    { rule: 'ttl none on the explicit vendor', body: withSystem(LONG_SYSTEM, { svc: { cache: { ttl: 'none' } } }), model: MINI, expected: CACHE_OFF },
    { rule: 'ttl none by header', body: withSystem(LONG_SYSTEM), headers: { 'x-svc-cache-ttl': 'none' }, model: MINI, expected: CACHE_OFF },
    { rule: 'breakpoints none with ttl 1h', body: withSystem(LONG_SYSTEM, { svc: { cache: { ttl: '1h', breakpoints: 'none' } } }), model: MINI, expected: CACHE_OFF },
    { rule: 'breakpoints none in a session', body: withSystem(LONG_SYSTEM, { svc: { session_id: 's', cache: { breakpoints: 'none' } } }), model: MINI, expected: CACHE_OFF },
    { rule: 'no prompt cache at the vendor', body: withSystem(LONG_SYSTEM), model: NO_CACHE, expected: { ttl: 'none', ttlApplied: '', reason: 'no_cache_vendor' } },
    // Spec rule 3: "There `ttl` and `breakpoints` are accepted and ignored."
    { rule: 'automatic vendor, short prompt', body: {}, model: ORION, expected: { ttl: '5m', ttlApplied: '5m', reason: 'automatic' } },
    { rule: 'automatic vendor ignores ttl 1h', body: withSystem(LONG_SYSTEM, { svc: { cache: { ttl: '1h' } } }), model: ORION, expected: { ttl: '1h', ttlApplied: '5m', reason: 'automatic' } },
    { rule: 'automatic vendor ignores ttl none', body: withSystem(LONG_SYSTEM, { svc: { cache: { ttl: 'none' } } }), model: ORION, expected: { ttl: 'none', ttlApplied: '5m', reason: 'automatic' } },
    { rule: 'automatic_4096 vendor ignores breakpoints none', body: withSystem(LONG_SYSTEM, { svc: { cache: { breakpoints: 'none' } } }), model: LUMEN, expected: { ttl: 'none', ttlApplied: '5m', reason: 'automatic' } },
    { rule: 'automatic_4096 vendor, first appearance of a long prompt', body: withSystem(LONG_SYSTEM), model: LUMEN, expected: { ttl: '5m', ttlApplied: '5m', reason: 'automatic' } },
    // Spec rule 2: "Prefixes under that model's minimum (512 to 4,096 tokens) report 0."
    { rule: 'under the 512 minimum', body: withSystem(text(400)), model: MINI, expected: { ttl: 'none', ttlApplied: '', reason: 'under_min_prefix' } },
    { rule: 'under the 4096 minimum, even in a session with ttl 1h', body: withSystem(LONG_SYSTEM, { svc: { session_id: 's', cache: { ttl: '1h' } } }), model: HAIKU, expected: { ttl: 'none', ttlApplied: '', reason: 'under_min_prefix' } },
    // Spec rule 4 applies from 1,024 tokens: a shorter prompt over the minimum is written at once.
    { rule: 'between the minimum and 1024 tokens: written at once', body: withSystem(MID_SYSTEM), model: MINI, expected: { ttl: '5m', ttlApplied: '5m', reason: 'marked' } },
    { rule: 'long prompt, first appearance', body: withSystem(LONG_SYSTEM), model: MINI, expected: { ttl: 'none', ttlApplied: '', reason: 'first_appearance' } },
    { rule: 'long prompt with an assistant prefill only: first appearance', body: { messages: [{ role: 'system', content: LONG_SYSTEM }, { role: 'user', content: 'q' }, { role: 'assistant', content: 'Sure' }] }, model: MINI, expected: { ttl: 'none', ttlApplied: '', reason: 'first_appearance' } },
    // Spec rule 4: "Calls in a session, requests with earlier turns, and requests that set cache.ttl are written at once."
    { rule: 'long prompt in a session', body: withSystem(LONG_SYSTEM, { svc: { session_id: 's' } }), model: MINI, expected: { ttl: '5m', ttlApplied: '5m', reason: 'marked' } },
    { rule: 'long prompt in a session by header', body: withSystem(LONG_SYSTEM), headers: { 'x-svc-session-id': 's' }, model: MINI, expected: { ttl: '5m', ttlApplied: '5m', reason: 'marked' } },
    { rule: 'long prompt with earlier turns', body: EARLIER_TURNS, model: MINI, expected: { ttl: '5m', ttlApplied: '5m', reason: 'marked' } },
    {
      rule: 'long prompt ending in a tool result',
      body: {
        messages: [
          { role: 'system', content: LONG_SYSTEM },
          { role: 'user', content: 'q' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'result' },
        ],
      },
      model: MINI,
      expected: { ttl: '5m', ttlApplied: '5m', reason: 'marked' },
    },
    { rule: 'long prompt with ttl 5m set', body: withSystem(LONG_SYSTEM, { svc: { cache: { ttl: '5m' } } }), model: MINI, expected: { ttl: '5m', ttlApplied: '5m', reason: 'marked' } },
    { rule: 'long prompt with ttl 1h set', body: withSystem(LONG_SYSTEM, { svc: { cache: { ttl: '1h' } } }), model: MINI, expected: { ttl: '1h', ttlApplied: '1h', reason: 'marked' } },
    { rule: 'long prompt with ttl 1h by header', body: withSystem(LONG_SYSTEM), headers: { 'x-svc-cache-ttl': '1h' }, model: MINI, expected: { ttl: '1h', ttlApplied: '1h', reason: 'marked' } },
    { rule: 'explicit breakpoints auto changes nothing', body: withSystem(MID_SYSTEM, { svc: { cache: { breakpoints: 'auto' } } }), model: MINI, expected: { ttl: '5m', ttlApplied: '5m', reason: 'marked' } },
  ];

  it.each(cases)('$rule', async ({ body, headers, model: m, expected }) => {
    const clock = fakeClock();
    const decision = await decideCache(request(body, headers), m, vendorOf(m), { organizationId: ORG, state: new MemoryCacheState(clock.now), now: clock.now() });
    expect(decision).toEqual(expected);
  });

  it('uses a long prompt of exactly 1024 tokens as long and one of 1023 as short', async () => {
    const decide = (tokens: number) => decideCache(request(withSystem(text(tokens - 1), {}, 'x')), MINI, vendorOf(MINI), { organizationId: ORG, state: new MemoryCacheState(), now: T0 });
    expect(promptShape(request(withSystem(text(LONG_PROMPT_TOKENS - 1), {}, 'x'))).tokens).toBe(LONG_PROMPT_TOKENS);
    expect((await decide(LONG_PROMPT_TOKENS)).reason).toBe('first_appearance');
    expect((await decide(LONG_PROMPT_TOKENS - 1)).reason).toBe('marked');
  });
});

/** Calls in sequence against one state and one clock, as the handler makes them. */
function session(clock = fakeClock(), state: CacheState = new MemoryCacheState(clock.now)) {
  return {
    clock,
    state,
    call: (body: Body, m: ChatModel = MINI, organizationId = ORG, headers: Record<string, string> = {}) =>
      decideCache(request(body, headers), m, vendorOf(m), { organizationId, state, now: clock.now() }),
  };
}

describe('second appearance (spec rule 4)', () => {
  it('writes a long prompt on its second appearance within the lifetime, then again after it lapses', async () => {
    const s = session();
    const body = withSystem(LONG_SYSTEM);
    expect(await s.call(body)).toMatchObject({ ttl: 'none', reason: 'first_appearance' });
    s.clock.advance(4 * MINUTE);
    expect(await s.call(body)).toEqual({ ttl: '5m', ttlApplied: '5m', reason: 'marked' });
    s.clock.advance(TTL_MS['5m'] - 1);
    expect((await s.call(body)).reason).toBe('marked');
    // A gap longer than the lifetime: the prompt appears for the first time again.
    s.clock.advance(TTL_MS['5m'] + 1);
    expect((await s.call(body)).reason).toBe('first_appearance');
    expect((await s.call(body)).reason).toBe('marked');
  });

  it('writes a long system prompt on its second call whatever the question', async () => {
    const s = session();
    expect((await s.call(withSystem(LONG_SYSTEM, {}, 'first question'))).reason).toBe('first_appearance');
    expect((await s.call(withSystem(LONG_SYSTEM, {}, 'second question'))).reason).toBe('marked');
  });

  it('does not write one-off long documents behind a short shared system prompt', async () => {
    const s = session();
    expect((await s.call(withSystem('You are terse.', {}, text(1500, 'doc1')))).reason).toBe('first_appearance');
    expect((await s.call(withSystem('You are terse.', {}, text(1500, 'doc2')))).reason).toBe('first_appearance');
    expect((await s.call(withSystem('You are terse.', {}, text(1500, 'doc1')))).reason).toBe('marked');
  });

  it('counts appearances per organization', async () => {
    const s = session();
    const body = withSystem(LONG_SYSTEM);
    await s.call(body, MINI, 'org_a');
    expect((await s.call(body, MINI, 'org_b')).reason).toBe('first_appearance');
    expect((await s.call(body, MINI, 'org_a')).reason).toBe('marked');
  });

  it('counts appearances across the explicit vendor’s models, not on automatic vendors', async () => {
    const s = session();
    const body = withSystem(LONG_SYSTEM);
    expect((await s.call(body, ORION)).reason).toBe('automatic');
    expect((await s.call(body, MINI)).reason).toBe('first_appearance');
    expect((await s.call(body, model('vendor-2/lyric-sonnet-4.5'))).reason).toBe('marked');
  });
});

describe('session ttl (spec rule 5)', () => {
  it('gives 1h to a session call whose previous turn was over 5 minutes ago', async () => {
    const s = session();
    const body = withSystem(MID_SYSTEM, { svc: { session_id: 'sess-1' } });
    expect(await s.call(body)).toMatchObject({ ttl: '5m', ttlApplied: '5m' });
    s.clock.advance(4 * MINUTE);
    expect(await s.call(body)).toMatchObject({ ttl: '5m', ttlApplied: '5m' });
    s.clock.advance(6 * MINUTE);
    expect(await s.call(body)).toEqual({ ttl: '1h', ttlApplied: '1h', reason: 'marked' });
    s.clock.advance(30_000);
    expect(await s.call(body)).toMatchObject({ ttl: '5m' });
  });

  it('keeps sessions apart, by id and by organization', async () => {
    const s = session();
    await s.call(withSystem(MID_SYSTEM, { svc: { session_id: 'one' } }));
    s.clock.advance(10 * MINUTE);
    expect((await s.call(withSystem(MID_SYSTEM, { svc: { session_id: 'two' } }))).ttl).toBe('5m');
    expect((await s.call(withSystem(MID_SYSTEM, { svc: { session_id: 'one' } }), MINI, 'org_b')).ttl).toBe('5m');
    expect((await s.call(withSystem(MID_SYSTEM, { svc: { session_id: 'one' } }))).ttl).toBe('1h');
  });

  it('lets a ttl the request sets win over the session rule', async () => {
    const s = session();
    await s.call(withSystem(MID_SYSTEM, { svc: { session_id: 'sess' } }));
    s.clock.advance(10 * MINUTE);
    expect(await s.call(withSystem(MID_SYSTEM, { svc: { session_id: 'sess', cache: { ttl: '5m' } } }))).toMatchObject({ ttl: '5m', ttlApplied: '5m' });
  });

  it('records turns that are not cached, so the next turn knows the gap', async () => {
    const s = session();
    await s.call(withSystem(MID_SYSTEM, { svc: { session_id: 'sess', cache: { ttl: 'none' } } }));
    s.clock.advance(7 * MINUTE);
    await s.call(withSystem(MID_SYSTEM, { svc: { session_id: 'sess' } }), NO_CACHE);
    s.clock.advance(7 * MINUTE);
    await s.call(withSystem(MID_SYSTEM, { svc: { session_id: 'sess' } }), ORION);
    s.clock.advance(1 * MINUTE);
    expect((await s.call(withSystem(MID_SYSTEM, { svc: { session_id: 'sess' } }))).ttl).toBe('5m');
  });

  it('writes a long prompt at once in a far-apart session, at 1h', async () => {
    const s = session();
    const body = withSystem(LONG_SYSTEM, { svc: { session_id: 'sess' } });
    expect(await s.call(body)).toMatchObject({ ttl: '5m', reason: 'marked' });
    s.clock.advance(20 * MINUTE);
    expect(await s.call(body)).toEqual({ ttl: '1h', ttlApplied: '1h', reason: 'marked' });
  });
});

/** A CacheState that counts its calls (and can fail). */
function countingState(inner: CacheState, fail = false) {
  const calls = { seen: 0, lastTurn: 0 };
  const state: CacheState = {
    seen: async (...args) => {
      calls.seen += 1;
      if (fail) throw new Error('store down');
      return inner.seen(...args);
    },
    lastTurn: async (...args) => {
      calls.lastTurn += 1;
      if (fail) throw new Error('store down');
      return inner.lastTurn(...args);
    },
  };
  return { state, calls };
}

describe('planCache: one call, several candidates', () => {
  it('records a session turn once however many candidates are tried', async () => {
    const { state, calls } = countingState(new MemoryCacheState());
    const plan = planCache(request(withSystem(LONG_SYSTEM, { svc: { session_id: 's' } })), { organizationId: ORG, state, now: T0 });
    for (const m of [MINI, ORION, NO_CACHE, model('vendor-2/lyric-sonnet-4.5')]) await plan.forModel(m, vendorOf(m));
    expect(calls).toEqual({ seen: 0, lastTurn: 1 });
  });

  it('asks about an appearance once, and only for an explicit-vendor candidate that could write', async () => {
    const { state, calls } = countingState(new MemoryCacheState());
    const plan = planCache(request(withSystem(LONG_SYSTEM)), { organizationId: ORG, state, now: T0 });
    expect((await plan.forModel(ORION, vendorOf(ORION))).reason).toBe('automatic');
    expect((await plan.forModel(HAIKU, vendorOf(HAIKU))).reason).toBe('under_min_prefix');
    expect(calls.seen).toBe(0);
    expect((await plan.forModel(MINI, vendorOf(MINI))).reason).toBe('first_appearance');
    // The fallback candidate of the same call is the same appearance, not the second.
    expect((await plan.forModel(model('vendor-2/lyric-sonnet-4.5'), vendorOf(MINI))).reason).toBe('first_appearance');
    expect(calls).toEqual({ seen: 1, lastTurn: 0 });
  });

  it('asks nothing for a short prompt outside a session', async () => {
    const { state, calls } = countingState(new MemoryCacheState());
    const plan = planCache(request(withSystem(MID_SYSTEM)), { organizationId: ORG, state, now: T0 });
    expect((await plan.forModel(MINI, vendorOf(MINI))).reason).toBe('marked');
    expect(calls).toEqual({ seen: 0, lastTurn: 0 });
  });

  it('treats a failing store as a first turn and a first appearance', async () => {
    const { state } = countingState(new MemoryCacheState(), true);
    const long = planCache(request(withSystem(LONG_SYSTEM)), { organizationId: ORG, state, now: T0 });
    expect(await long.forModel(MINI, vendorOf(MINI))).toEqual({ ttl: 'none', ttlApplied: '', reason: 'first_appearance' });
    const inSession = planCache(request(withSystem(LONG_SYSTEM, { svc: { session_id: 's' } })), { organizationId: ORG, state, now: T0 });
    expect(await inSession.forModel(MINI, vendorOf(MINI))).toEqual({ ttl: '5m', ttlApplied: '5m', reason: 'marked' });
  });

  it('passes the appearance lifetime to the store', async () => {
    const seen = jest.fn(async () => false);
    const state: CacheState = { seen, lastTurn: async () => undefined };
    await decideCache(request(withSystem(LONG_SYSTEM, {}, 'short')), MINI, vendorOf(MINI), { organizationId: ORG, state, now: T0 });
    const shape = promptShape(request(withSystem(LONG_SYSTEM, {}, 'short')));
    expect(seen).toHaveBeenCalledWith(ORG, [shape.promptHash, shape.headHash], TTL_MS['5m']);
    seen.mockClear();
    await decideCache(request(withSystem('short', {}, LONG_SYSTEM)), MINI, vendorOf(MINI), { organizationId: ORG, state, now: T0 });
    expect(seen).toHaveBeenCalledWith(ORG, [promptShape(request(withSystem('short', {}, LONG_SYSTEM))).promptHash], TTL_MS['5m']);
  });
});

describe('MemoryCacheState', () => {
  it('answers whether any prefix appeared within its lifetime and records them all', async () => {
    const clock = fakeClock();
    const state = new MemoryCacheState(clock.now);
    expect(await state.seen(ORG, ['a'], 1000)).toBe(false);
    expect(await state.seen(ORG, ['a', 'b'], 1000)).toBe(true);
    expect(await state.seen(ORG, ['b'], 1000)).toBe(true);
    clock.advance(1000);
    expect(await state.seen(ORG, ['a', 'b'], 1000)).toBe(false);
    expect(await state.seen('other', ['a'], 1000)).toBe(false);
  });

  it('returns the previous turn and records the new one', async () => {
    const state = new MemoryCacheState();
    expect(await state.lastTurn(ORG, 's', T0)).toBeUndefined();
    expect(await state.lastTurn(ORG, 's', T0 + 5)).toBe(T0);
    expect(await state.lastTurn(ORG, 's', T0 + 9)).toBe(T0 + 5);
  });
});
