import { validateInstance } from '../schema';
import { json, parseSse, startSim, type RunningSim } from '../testkit';

let sim: RunningSim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());

const headers = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };

function messages(body: unknown, extra: Record<string, string> = {}) {
  return fetch(`${sim.url}/v1/messages`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
}

const hello = { model: 'claude-sim', max_tokens: 512, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }] };
const weather = { name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 3 } }, required: ['city', 'days'] } };

async function events(res: Response) {
  return parseSse(await res.text()).map((e) => ({ event: e.event, data: JSON.parse(e.data) }));
}

describe('POST /v1/messages', () => {
  it('answers a message', async () => {
    const body = await json(messages(hello));
    expect(body).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-sim', stop_reason: 'end_turn', stop_sequence: null });
    expect(body.id).toMatch(/^msg_/);
    expect(body.content).toEqual([{ type: 'text', text: expect.any(String) }]);
    expect(body.usage).toMatchObject({ input_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(body.usage.output_tokens).toBeGreaterThan(0);
  });

  it('streams the event sequence of the Messages API', async () => {
    const unary = await json(messages(hello));
    const res = await messages({ ...hello, stream: true });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const list = await events(res);
    const names = list.map((e) => e.event);
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(names.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    for (const e of list) expect(e.data.type).toBe(e.event);
    expect(list[0]?.data.message).toMatchObject({ role: 'assistant', content: [], stop_reason: null, usage: { input_tokens: 5 } });
    const text = list.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta.text).join('');
    expect(text).toBe(unary.content[0].text);
    expect(list.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: unary.usage.output_tokens } });
  });

  it('uses tools: tool_use with a valid input, then text after the tool_result', async () => {
    const body = await json(messages({ ...hello, tools: [weather], tool_choice: { type: 'any' } }));
    expect(body.stop_reason).toBe('tool_use');
    const use = body.content[0];
    expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather' });
    expect(use.id).toMatch(/^toolu_/);
    expect(validateInstance(weather.input_schema, use.input)).toEqual([]);

    const after = await json(messages({
        ...hello,
        tools: [weather],
        messages: [...hello.messages, { role: 'assistant', content: body.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] }],
      }));
    expect(after.stop_reason).toBe('end_turn');
    expect(after.content[0].type).toBe('text');
  });

  it('streams tool input as input_json_delta', async () => {
    const list = await events(await messages({ ...hello, stream: true, tools: [weather], tool_choice: { type: 'tool', name: 'get_weather' } }));
    const start = list.find((e) => e.event === 'content_block_start');
    expect(start?.data.content_block).toMatchObject({ type: 'tool_use', name: 'get_weather', input: {} });
    const json = list.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta.partial_json).join('');
    expect(validateInstance(weather.input_schema, JSON.parse(json))).toEqual([]);
    expect(list.find((e) => e.event === 'message_delta')?.data.delta.stop_reason).toBe('tool_use');
  });

  it('shows a thinking block when thinking is enabled', async () => {
    const body = await json(messages({ ...hello, max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 1024 } }));
    expect(body.content[0]).toMatchObject({ type: 'thinking', thinking: expect.any(String), signature: expect.any(String) });
    expect(body.content[1].type).toBe('text');
    const list = await events(await messages({ ...hello, stream: true, max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 1024 } }));
    const deltaTypes = new Set(list.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta.type));
    expect(deltaTypes).toEqual(new Set(['thinking_delta', 'signature_delta', 'text_delta']));
  });

  it('spends max_tokens on thinking under x-sim-think-all', async () => {
    const body = await json(messages({ ...hello, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } }, { 'x-sim-think-all': '1' }));
    expect(body.stop_reason).toBe('max_tokens');
    expect(body.content.map((b: { type: string }) => b.type)).toEqual(['thinking']);
    expect(body.usage.output_tokens).toBe(2000);
  });

  it('stops at a stop sequence', async () => {
    const body = await json(messages({ ...hello, stop_sequences: ['three'], messages: [{ role: 'user', content: 'one two three four [echo]' }] }));
    expect(body).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'three', content: [{ type: 'text', text: 'one two ' }] });
  });

  it('writes and then reads the cache at cache_control markers', async () => {
    const system = [{ type: 'text', text: 'rule '.repeat(1200), cache_control: { type: 'ephemeral' } }];
    const request = { ...hello, model: 'claude-cache', system };
    const first = await json(messages(request));
    expect(first.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: first.usage.cache_creation_input_tokens } });
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThanOrEqual(1200);
    const second = await json(messages({ ...request, messages: [{ role: 'user', content: 'Different question' }] }));
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    expect(second.usage.input_tokens).toBe(2);
  });

  it('caches nothing under the minimum prefix, which x-sim-min-cache-prefix lowers; 1h writes are reported apart', async () => {
    const system = [{ type: 'text', text: 'rule '.repeat(50), cache_control: { type: 'ephemeral', ttl: '1h' } }];
    const under = await json(messages({ ...hello, model: 'claude-min', system }));
    expect(under.usage.cache_creation_input_tokens).toBe(0);
    const over = await json(messages({ ...hello, model: 'claude-min', system }, { 'x-sim-min-cache-prefix': '10' }));
    expect(over.usage.cache_creation.ephemeral_1h_input_tokens).toBe(over.usage.cache_creation_input_tokens);
    expect(over.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  it('rejects what the real API rejects', async () => {
    const noVersion = await fetch(`${sim.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'k' }, body: JSON.stringify(hello) });
    expect(noVersion.status).toBe(400);
    expect(await json(noVersion)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' } });
    const noMax = await messages({ model: 'c', messages: hello.messages });
    expect((await json(noMax)).error.message).toBe('max_tokens: Field required');
    const extra = await messages({ ...hello, svc: {} });
    expect((await json(extra)).error.message).toBe('svc: Extra inputs are not permitted');
    const budget = await messages({ ...hello, max_tokens: 1024, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(budget.status).toBe(400);
    const badJson = await fetch(`${sim.url}/v1/messages`, { method: 'POST', headers, body: 'nope' });
    expect(badJson.status).toBe(400);
    expect((await json(badJson)).error.type).toBe('invalid_request_error');
  });

  it('answers a missing or bad key with authentication_error', async () => {
    const missing = await fetch(`${sim.url}/v1/messages`, { method: 'POST', headers: { 'anthropic-version': '2023-06-01' }, body: JSON.stringify(hello) });
    expect(missing.status).toBe(401);
    const bad = await messages(hello, { 'x-api-key': 'sim-bad-key' });
    expect(bad.status).toBe(401);
    expect(await json(bad)).toMatchObject({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
  });
});

describe('Anthropic faults', () => {
  it('status:529 is overloaded_error', async () => {
    const res = await messages(hello, { 'x-sim-fault': 'status:529' });
    expect(res.status).toBe(529);
    expect((await json(res)).error.type).toBe('overloaded_error');
  });

  it('429 carries retry-after and rate_limit_error', async () => {
    const res = await messages(hello, { 'x-sim-fault': '429:9' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('9');
    expect((await json(res)).error.type).toBe('rate_limit_error');
  });

  it('refuse stops with refusal', async () => {
    const body = await json(messages(hello, { 'x-sim-fault': 'refuse' }));
    expect(body).toMatchObject({ stop_reason: 'refusal', content: [] });
  });

  it('cut:0 breaks the stream before any delta', async () => {
    const res = await messages({ ...hello, stream: true }, { 'x-sim-fault': 'cut:0' });
    await expect(res.text()).rejects.toThrow();
  });
});

describe('formatFromInstruction', () => {
  it('reads the JSON instruction the gateway adds where the vendor has no JSON mode', () => {
    const { formatFromInstruction } = jest.requireActual('./anthropic') as typeof import('./anthropic');
    expect(formatFromInstruction(['Be brief.', 'Respond with only a JSON object matching this JSON schema: {"type":"object","properties":{"a":{"type":"string"}}}'])).toEqual({
      type: 'json_schema',
      schema: { type: 'object', properties: { a: { type: 'string' } } },
    });
    expect(formatFromInstruction(['Respond with only a JSON object.'])).toEqual({ type: 'json_object' });
    expect(formatFromInstruction(['Say hi.'])).toBeUndefined();
  });
});
