import nock from 'nock';
import { collect, collectUntilFailure, failure, fixtures, useNock } from '../adapter-testkit.test-support';
import type { CallContext, ChatRequest, StreamEvent } from '../types';
import { openAIAdapter } from './openai-chat-model';

const BASE = 'https://api.openai.com';
const context: CallContext = { baseUrl: `${BASE}/v1`, apiKey: 'sk-test-key' };
const request: ChatRequest = {
  model: 'gpt-4.1',
  system: 'Answer in one sentence.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the capital of France?' }] }],
  maxTokens: 1024,
};

const { fixture, json } = fixtures(__dirname);
const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };

const chat = () => nock(BASE).post('/v1/chat/completions');

useNock();

describe('openAIAdapter.generate', () => {
  it('sends the chat-completions body with a bearer key and normalises a text answer', async () => {
    let sent: unknown;
    nock(BASE, { reqheaders: { authorization: 'Bearer sk-test-key', 'content-type': 'application/json' } })
      .post('/v1/chat/completions', (body) => {
        sent = body;
        return true;
      })
      .reply(200, json('chat-text.json'));
    const result = await openAIAdapter.generate({ ...request, temperature: 0.3, stop: ['END'], user: 'user-42', reasoning: { kind: 'effort', level: 'low' } }, context);
    expect(sent).toEqual({
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'Answer in one sentence.' },
        { role: 'user', content: 'What is the capital of France?' },
      ],
      max_completion_tokens: 1024,
      temperature: 0.3,
      stop: ['END'],
      reasoning_effort: 'low',
      user: 'user-42',
    });
    expect(result).toEqual({
      content: 'The capital of France is Paris.',
      toolCalls: [],
      finishReason: 'stop',
      vendorStopReason: 'stop',
      usage: { inputTokens: 19, outputTokens: 8, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('sends tools, tool calls and tool results in the OpenAI shapes', async () => {
    let sent: Record<string, unknown> | undefined;
    chat()
      .matchHeader('authorization', 'Bearer sk-test-key')
      .reply(200, (_uri, body) => {
        sent = body as Record<string, unknown>;
        return json('chat-text.json');
      });
    await openAIAdapter.generate(
      {
        ...request,
        system: undefined,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
          { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"location":"Boston"}' }] },
          { role: 'tool', toolCallId: 'call_1', content: '21 C' },
        ],
        tools: [{ name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } }],
        toolChoice: { name: 'get_weather' },
        parallelToolCalls: false,
        responseFormat: { type: 'json_object' },
      },
      context,
    );
    expect(sent).toMatchObject({
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Boston"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '21 C' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_object' },
    });
  });

  it('normalises tool calls, empty arguments to {}, with cached and reasoning tokens', async () => {
    chat().reply(200, json('chat-tool-calls.json'));
    const result = await openAIAdapter.generate(request, context);
    expect(result).toEqual({
      content: null,
      toolCalls: [
        { id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_weather', arguments: '{"location":"Boston, MA","unit":"celsius"}' },
        { id: 'call_ABfp4n2YPtgfXk6hZ5dWAgUH', name: 'get_time', arguments: '{}' },
      ],
      finishReason: 'tool_calls',
      vendorStopReason: 'tool_calls',
      usage: { inputTokens: 1180, outputTokens: 210, cachedTokens: 1024, cacheWriteTokens: 0, reasoningTokens: 192 },
    });
  });

  it('reports length with an empty answer when reasoning used the whole budget', async () => {
    chat().reply(200, json('chat-length.json'));
    const result = await openAIAdapter.generate(request, context);
    expect(result).toMatchObject({ content: '', finishReason: 'length', vendorStopReason: 'length', usage: { outputTokens: 64, reasoningTokens: 64 } });
  });

  it('reports content_filter', async () => {
    chat().reply(200, json('chat-content-filter.json'));
    const result = await openAIAdapter.generate(request, context);
    expect(result).toMatchObject({ content: '', finishReason: 'content_filter', usage: { inputTokens: 31, outputTokens: 0, cachedTokens: 0 } });
  });

  it('refuses an answer without choices', async () => {
    chat().reply(200, { id: 'chatcmpl-x', object: 'chat.completion', choices: [] });
    expect(await failure(openAIAdapter.generate(request, context))).toMatchObject({ kind: 'bad_response' });
  });
});

describe('openAIAdapter.stream', () => {
  it('asks for the usage chunk and streams text, finish and usage', async () => {
    let sent: Record<string, unknown> | undefined;
    chat().reply(200, (_uri, body) => {
      sent = body as Record<string, unknown>;
      return fixture('stream-text.sse');
    }, SSE);
    const events = await collect(openAIAdapter.stream(request, context));
    expect(sent).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(events).toEqual([
      { type: 'text', delta: 'The capital' },
      { type: 'text', delta: ' of France is Paris.' },
      { type: 'finish', finishReason: 'stop', vendorStopReason: 'stop' },
      { type: 'usage', usage: { inputTokens: 1200, outputTokens: 8, cachedTokens: 1152, cacheWriteTokens: 0, reasoningTokens: 0 } },
    ]);
  });

  it('streams tool calls by index', async () => {
    chat().reply(200, fixture('stream-tool-calls.sse'), SSE);
    const events = await collect(openAIAdapter.stream(request, context));
    expect(events).toEqual([
      { type: 'tool_call_start', index: 0, id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_weather' },
      { type: 'tool_call_delta', index: 0, arguments: '{"location"' },
      { type: 'tool_call_delta', index: 0, arguments: ':"Boston, MA"}' },
      { type: 'tool_call_start', index: 1, id: 'call_ABfp4n2YPtgfXk6hZ5dWAgUH', name: 'get_time' },
      { type: 'tool_call_delta', index: 1, arguments: '{}' },
      { type: 'finish', finishReason: 'tool_calls', vendorStopReason: 'tool_calls' },
      { type: 'usage', usage: { inputTokens: 180, outputTokens: 90, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 64 } },
    ]);
  });

  it('fails a stream cut before its finish', async () => {
    chat().reply(200, fixture('stream-cut.sse'), SSE);
    const { events, error } = await collectUntilFailure(openAIAdapter.stream(request, context));
    expect(events).toEqual([{ type: 'text', delta: 'The capital' }, { type: 'text', delta: ' of France is Paris.' }]);
    expect(error).toMatchObject({ kind: 'bad_response', retryable: true });
  });

  it('fails a stream that finished but never sent [DONE]', async () => {
    chat().reply(200, fixture('stream-no-done.sse'), SSE);
    const { events, error } = await collectUntilFailure(openAIAdapter.stream(request, context));
    expect(events.map((event) => event.type)).toEqual(['text', 'text', 'finish']);
    expect(error).toMatchObject({ kind: 'bad_response' });
  });

  it('fails on an error chunk', async () => {
    chat().reply(200, fixture('stream-error.sse'), SSE);
    const { events, error } = await collectUntilFailure(openAIAdapter.stream(request, context));
    expect(events).toEqual([{ type: 'text', delta: 'The' }]);
    expect(error).toMatchObject({ kind: 'server' });
  });
});

describe('openAIAdapter errors', () => {
  it('429 is rate_limited with the retry-after seconds', async () => {
    chat().reply(429, json('error-429.json'), { 'retry-after': '2', 'x-ratelimit-remaining-tokens': '0' });
    const error = await failure(openAIAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'rate_limited', retryable: true, options: { status: 429, retryAfterSeconds: 2 } });
  });

  it('401 is auth with the vendor reason', async () => {
    chat().reply(401, json('error-401.json'));
    const error = await failure(openAIAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'auth', retryable: false, options: { status: 401 } });
    expect(error.options.reason).toMatch(/^Incorrect API key provided/);
  });

  it('400 is invalid_request with the vendor reason', async () => {
    chat().reply(400, json('error-400.json'));
    const error = await failure(openAIAdapter.generate(request, context));
    expect(error).toMatchObject({
      kind: 'invalid_request',
      options: { status: 400, reason: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'." },
    });
  });

  it('500 is a retryable server error', async () => {
    chat().reply(500, json('error-500.json'));
    expect(await failure(openAIAdapter.generate(request, context))).toMatchObject({ kind: 'server', retryable: true, options: { status: 500 } });
  });

  it('503 is unavailable', async () => {
    chat().reply(503, json('error-503.json'));
    expect(await failure(openAIAdapter.generate(request, context))).toMatchObject({ kind: 'unavailable', options: { status: 503 } });
  });

  it('a network failure is unavailable', async () => {
    chat().replyWithError(Object.assign(new Error('getaddrinfo ENOTFOUND api.openai.com'), { code: 'ENOTFOUND' }));
    expect(await failure(openAIAdapter.generate(request, context))).toMatchObject({ kind: 'unavailable', retryable: true });
  });
});

describe('openAIAdapter.embed', () => {
  it('posts /embeddings as floats and returns vectors in input order with the token count', async () => {
    let sent: unknown;
    nock(BASE, { reqheaders: { authorization: 'Bearer sk-test-key' } })
      .post('/v1/embeddings', (body) => {
        sent = body;
        return true;
      })
      .reply(200, json('embeddings.json'));
    const result = await openAIAdapter.embed!({ model: 'text-embedding-3-small', input: ['first text', 'second text'], dimensions: 4 }, context);
    expect(sent).toEqual({ model: 'text-embedding-3-small', input: ['first text', 'second text'], encoding_format: 'float', dimensions: 4 });
    expect(result).toEqual({
      vectors: [
        [0.0023, -0.0093, 0.0157, -0.0076],
        [-0.0143, 0.0271, 0.0088, -0.0305],
      ],
      promptTokens: 8,
    });
  });

  it('refuses an answer without data', async () => {
    nock(BASE).post('/v1/embeddings').reply(200, { object: 'list', model: 'text-embedding-3-small' });
    expect(await failure(openAIAdapter.embed!({ model: 'text-embedding-3-small', input: ['x'] }, context))).toMatchObject({ kind: 'bad_response' });
  });

  it('classifies errors like chat', async () => {
    nock(BASE).post('/v1/embeddings').reply(429, json('error-429.json'), { 'retry-after': '3' });
    expect(await failure(openAIAdapter.embed!({ model: 'text-embedding-3-small', input: ['x'] }, context))).toMatchObject({ kind: 'rate_limited', options: { retryAfterSeconds: 3 } });
  });
});
