import { fromBase64 } from '../embeddings';
import { validateInstance } from '../schema';
import { json, parseSse, startSim, type RunningSim } from '../testkit';

let sim: RunningSim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());

const auth = { authorization: 'Bearer sk-test', 'content-type': 'application/json' };

function chat(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', headers: { ...auth, ...headers }, body: JSON.stringify(body) });
}

const hello = { model: 'gpt-sim', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello there' }] };
const weather = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['city', 'unit'], additionalProperties: false } },
};

async function chunks(res: Response) {
  return parseSse(await res.text()).map((e) => (e.data === '[DONE]' ? '[DONE]' : JSON.parse(e.data)));
}

describe('POST /v1/chat/completions', () => {
  it('answers a chat completion, the same way twice', async () => {
    const first = await json(chat(hello));
    const second = await json(chat(hello));
    expect(first).toMatchObject({ object: 'chat.completion', model: 'gpt-sim', choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: 'stop', logprobs: null }] });
    expect(first.id).toMatch(/^chatcmpl-/);
    expect(typeof first.choices[0].message.content).toBe('string');
    expect(second.choices[0].message.content).toBe(first.choices[0].message.content);
    expect(first.usage).toMatchObject({ prompt_tokens: 5, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } });
    expect(first.usage.total_tokens).toBe(first.usage.prompt_tokens + first.usage.completion_tokens);
  });

  it('streams chunks in order and ends with the usage chunk and [DONE]', async () => {
    const unary = await json(chat(hello));
    const res = await chat({ ...hello, stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = await chunks(res);
    expect(events.at(-1)).toBe('[DONE]');
    const [first, ...rest] = events.slice(0, -1);
    expect(first.choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null });
    const usage = rest.at(-1);
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toEqual(unary.usage);
    const finish = rest.at(-2);
    expect(finish.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    const text = rest.slice(0, -2).map((c: { choices: Array<{ delta: { content: string } }> }) => c.choices[0]?.delta.content).join('');
    expect(text).toBe(unary.choices[0].message.content);
    for (const event of events.slice(0, -1)) expect(event).toMatchObject({ object: 'chat.completion.chunk', id: first.id });
  });

  it('sends no usage chunk without include_usage', async () => {
    const events = await chunks(await chat({ ...hello, stream: true }));
    expect(events.filter((e) => e !== '[DONE]' && e.choices.length === 0)).toHaveLength(0);
    expect(events.at(-2).choices[0].finish_reason).toBe('stop');
  });

  it('cuts at max_tokens with finish length', async () => {
    const body = await json(chat({ ...hello, max_completion_tokens: 2 }));
    expect(body.choices[0].finish_reason).toBe('length');
    expect(body.usage.completion_tokens).toBe(2);
  });

  it('honours stop sequences', async () => {
    const body = await json(chat({ model: 'gpt-sim', messages: [{ role: 'user', content: 'alpha beta gamma [echo]' }], stop: ['gamma'] }));
    expect(body.choices[0]).toMatchObject({ message: { content: 'alpha beta ' }, finish_reason: 'stop' });
  });

  it('calls a tool with schema-valid arguments, then answers the tool result with text', async () => {
    const body = await json(chat({ ...hello, tools: [weather], tool_choice: 'required' }));
    const choice = body.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls[0];
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(call.id).toMatch(/^call_/);
    expect(validateInstance(weather.function.parameters, JSON.parse(call.function.arguments))).toEqual([]);

    const after = await json(chat({ ...hello, tools: [weather], messages: [...hello.messages, choice.message, { role: 'tool', tool_call_id: call.id, content: '{"temp": 20}' }] }));
    expect(after.choices[0].finish_reason).toBe('stop');
    expect(after.choices[0].message.content.length).toBeGreaterThan(0);
  });

  it('calls a tool under auto only on the [tool] marker', async () => {
    const plain = await json(chat({ ...hello, tools: [weather] }));
    expect(plain.choices[0].finish_reason).toBe('stop');
    const marked = await json(chat({ model: 'gpt-sim', tools: [weather], messages: [{ role: 'user', content: 'weather please [tool]' }] }));
    expect(marked.choices[0].finish_reason).toBe('tool_calls');
  });

  it('streams a tool call as id/name first, then argument fragments', async () => {
    const events = await chunks(await chat({ ...hello, stream: true, tools: [weather], tool_choice: { type: 'function', function: { name: 'get_weather' } } }));
    const deltas = events.slice(0, -1).map((e) => e.choices[0]);
    expect(deltas[0].delta.tool_calls[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
    const args = deltas
      .slice(1, -1)
      .map((d: { delta: { tool_calls: Array<{ function: { arguments: string } }> } }) => d.delta.tool_calls[0]?.function.arguments)
      .join('');
    expect(validateInstance(weather.function.parameters, JSON.parse(args))).toEqual([]);
    expect(deltas.at(-1).finish_reason).toBe('tool_calls');
  });

  it('returns schema-valid JSON for a json_schema response format', async () => {
    const schema = { type: 'object', properties: { title: { type: 'string' }, score: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['title', 'score'], additionalProperties: false };
    const body = await json(chat({ ...hello, response_format: { type: 'json_schema', json_schema: { name: 'r', strict: true, schema } } }));
    expect(validateInstance(schema, JSON.parse(body.choices[0].message.content))).toEqual([]);
  });

  it('reports reasoning tokens, and an empty length answer under x-sim-think-all', async () => {
    const reasoned = await json(chat({ ...hello, reasoning_effort: 'high' }));
    expect(reasoned.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    const burnt = await json(chat({ ...hello, reasoning_effort: 'low', max_completion_tokens: 64 }, { 'x-sim-think-all': '1' }));
    expect(burnt.choices[0]).toMatchObject({ message: { content: '' }, finish_reason: 'length' });
    expect(burnt.usage).toMatchObject({ completion_tokens: 64, completion_tokens_details: { reasoning_tokens: 64 } });
  });

  it('reports cached_tokens for a repeated long prefix', async () => {
    const long = { model: 'gpt-cache', messages: [{ role: 'system', content: 'word '.repeat(1300) }, { role: 'user', content: 'q1' }] };
    const first = await json(chat(long));
    expect(first.usage.prompt_tokens_details.cached_tokens).toBe(0);
    const second = await json(chat({ ...long, messages: [long.messages[0], { role: 'user', content: 'another' }] }));
    expect(second.usage.prompt_tokens_details.cached_tokens).toBe(1280);
    expect(second.usage.prompt_tokens).toBeGreaterThan(1280);
  });

  it('rejects bad requests with OpenAI error bodies', async () => {
    const bad = await fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', headers: auth, body: '{"model":' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatchObject({ type: 'invalid_request_error', param: null, code: null });

    const empty = await chat({ model: 'gpt-sim', messages: [] });
    expect((await json(empty)).error).toMatchObject({ param: 'messages', code: 'empty_array' });

    const unknown = await chat({ ...hello, svc: { x: 1 } });
    expect((await json(unknown)).error.message).toBe('Unrecognized request argument supplied: svc');

    const role = await chat({ model: 'gpt-sim', messages: [{ role: 'robot', content: 'x' }] });
    expect((await json(role)).error).toMatchObject({ param: 'messages[0].role', code: 'invalid_value' });
  });

  it('rejects a missing key and the bad key with 401', async () => {
    const missing = await fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(hello) });
    expect(missing.status).toBe(401);
    const badKey = await chat(hello, { authorization: 'Bearer sim-bad-key' });
    expect(badKey.status).toBe(401);
    expect((await json(badKey)).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
  });
});

describe('OpenAI faults', () => {
  it('status:<code> answers that status with an OpenAI error body', async () => {
    const res = await chat(hello, { 'x-sim-fault': 'status:503' });
    expect(res.status).toBe(503);
    expect((await json(res)).error).toMatchObject({ type: 'server_error' });
  });

  it('429:<seconds> sends retry-after', async () => {
    const res = await chat(hello, { 'x-sim-fault': '429:3' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect((await json(res)).error).toMatchObject({ code: 'rate_limit_exceeded' });
  });

  it('auth and invalid give the real shapes', async () => {
    const authRes = await chat(hello, { 'x-sim-fault': 'auth' });
    expect(authRes.status).toBe(401);
    expect((await json(authRes)).error.code).toBe('invalid_api_key');
    const invalid = await chat(hello, { 'x-sim-fault': 'invalid' });
    expect(invalid.status).toBe(400);
    expect((await json(invalid)).error.type).toBe('invalid_request_error');
  });

  it('refuse finishes with content_filter', async () => {
    const body = await json(chat(hello, { 'x-sim-fault': 'refuse' }));
    expect(body.choices[0]).toMatchObject({ finish_reason: 'content_filter', message: { content: null } });
    const events = await chunks(await chat({ ...hello, stream: true }, { 'x-sim-fault': 'refuse' }));
    expect(events.at(-2).choices[0].finish_reason).toBe('content_filter');
  });

  it('cut:<n> breaks a stream after n content chunks', async () => {
    const res = await chat({ ...hello, stream: true }, { 'x-sim-fault': 'cut:2' });
    expect(res.status).toBe(200);
    const decoder = new TextDecoder();
    let received = '';
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          received += decoder.decode(value, { stream: true });
        }
      })(),
    ).rejects.toThrow();
    const events = parseSse(received);
    expect(events.map((e) => JSON.parse(e.data).choices[0].delta.content)).toEqual(['', expect.any(String), expect.any(String)]);
  });

  it('cut breaks a unary body midway', async () => {
    const res = await chat(hello, { 'x-sim-fault': 'cut:1' });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('x-sim-fault-model limits the fault to one model', async () => {
    const headers = { 'x-sim-fault': 'status:500', 'x-sim-fault-model': 'gpt-primary' };
    expect((await chat({ ...hello, model: 'gpt-primary' }, headers)).status).toBe(500);
    expect((await chat({ ...hello, model: 'gpt-fallback' }, headers)).status).toBe(200);
  });

  it('a malformed fault header is a 400 naming the header', async () => {
    const res = await chat(hello, { 'x-sim-fault': 'explode' });
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toMatch(/x-sim-fault/);
  });
});

describe('POST /v1/embeddings', () => {
  function embeddings(body: unknown, headers: Record<string, string> = {}) {
    return fetch(`${sim.url}/v1/embeddings`, { method: 'POST', headers: { ...auth, ...headers }, body: JSON.stringify(body) });
  }

  it('returns float vectors with usage', async () => {
    const body = await json(embeddings({ model: 'text-embedding-3-small', input: ['hello world', 'bye'] }));
    expect(body).toMatchObject({ object: 'list', model: 'text-embedding-3-small', usage: { prompt_tokens: 3, total_tokens: 3 } });
    expect(body.data).toHaveLength(2);
    expect(body.data[1]).toMatchObject({ object: 'embedding', index: 1 });
    expect(body.data[0].embedding).toHaveLength(1536);
  });

  it('returns base64 float32 when asked, honouring dimensions', async () => {
    const floats = await json(embeddings({ model: 'e', input: 'same text', dimensions: 32 }));
    const b64 = await json(embeddings({ model: 'e', input: 'same text', dimensions: 32, encoding_format: 'base64' }));
    expect(typeof b64.data[0].embedding).toBe('string');
    expect(fromBase64(b64.data[0].embedding)).toEqual(floats.data[0].embedding);
    expect(floats.data[0].embedding).toHaveLength(32);
  });

  it('omits usage for the vendor that does not report it', async () => {
    expect((await json(embeddings({ model: 'e', input: 'x' }, { 'x-sim-omit-usage': '1' }))).usage).toBeUndefined();
    expect((await json(embeddings({ model: 'embed-noreport', input: 'x' }))).usage).toBeUndefined();
  });

  it('validates input and encoding_format', async () => {
    expect((await embeddings({ model: 'e', input: [] })).status).toBe(400);
    expect((await embeddings({ model: 'e', input: 'x', encoding_format: 'hex' })).status).toBe(400);
    expect((await embeddings({ model: 'e', input: 'x', dimensions: 5000 })).status).toBe(400);
  });

  it('takes faults too', async () => {
    const res = await embeddings({ model: 'e', input: 'x' }, { 'x-sim-fault': '429:2' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
  });
});
