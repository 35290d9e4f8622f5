import { Readable } from 'node:stream';
import nock from 'nock';
import { collect, collectUntilFailure, failure, fixtures, useNock } from '../adapter-testkit.test-support';
import type { CallContext, ChatRequest, StreamEvent } from '../types';
import { geminiAdapter } from './gemini-chat-model';
import { mapGeminiFinishReason } from './map-gemini-finish-reason';

const BASE = 'https://generativelanguage.googleapis.com';
const MODEL = 'gemini-2.5-flash';
const GENERATE = `/v1beta/models/${MODEL}:generateContent`;
const STREAM = `/v1beta/models/${MODEL}:streamGenerateContent`;
const context: CallContext = { baseUrl: BASE, apiKey: 'AIzaSy-test-key' };
const request: ChatRequest = {
  model: MODEL,
  system: 'Answer in one sentence.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the capital of France?' }] }],
  maxTokens: 1024,
};

const { fixture, json } = fixtures(__dirname);
const SSE = { 'content-type': 'text/event-stream' };
const CALL_ID = /^call_[0-9a-f]{24}$/;

const generate = () => nock(BASE).post(GENERATE);
const stream = () => nock(BASE).post(STREAM).query({ alt: 'sse' });

useNock();

describe('geminiAdapter.generate', () => {
  it('calls generateContent with the key header and normalises a text answer, leaving thoughts out', async () => {
    nock(BASE, { reqheaders: { 'x-goog-api-key': 'AIzaSy-test-key', 'content-type': 'application/json' } })
      .post(GENERATE)
      .reply(200, json('response-text.json'), { 'content-type': 'application/json; charset=UTF-8' });
    const result = await geminiAdapter.generate(request, { ...context, baseUrl: `${BASE}/` });
    expect(result).toEqual({
      content: 'The capital of France is Paris.',
      toolCalls: [],
      finishReason: 'stop',
      vendorStopReason: 'STOP',
      // Thinking is output: 7 answer tokens + 24 thought tokens.
      usage: { inputTokens: 9, outputTokens: 31, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 24 },
    });
  });

  it('forwards the context headers', async () => {
    nock(BASE, { reqheaders: { 'x-sim-fault': 'none' } })
      .post(GENERATE)
      .reply(200, json('response-text.json'));
    await geminiAdapter.generate(request, { ...context, headers: { 'x-sim-fault': 'none' } });
  });

  it('turns functionCall parts into tool calls with made-up ids, null content and tool_calls', async () => {
    generate().reply(200, json('response-function-call.json'));
    const result = await geminiAdapter.generate(request, context);
    expect(result.content).toBeNull();
    expect(result.toolCalls).toEqual([
      { id: expect.stringMatching(CALL_ID), name: 'get_weather', arguments: '{"location":"Paris","unit":"celsius"}' },
      { id: expect.stringMatching(CALL_ID), name: 'get_time', arguments: '{}' },
    ]);
    expect(result.toolCalls[0]!.id).not.toBe(result.toolCalls[1]!.id);
    expect(result).toMatchObject({ finishReason: 'tool_calls', vendorStopReason: 'STOP' });
    expect(result.usage).toEqual({ inputTokens: 118, outputTokens: 31 + 63, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 63 });
  });

  it('keeps a function call id Gemini gives', async () => {
    generate().reply(200, {
      candidates: [{ content: { parts: [{ functionCall: { id: 'fc-7f3a', name: 'get_time', args: {} } }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 5, totalTokenCount: 25 },
    });
    const result = await geminiAdapter.generate(request, context);
    expect(result.toolCalls).toEqual([{ id: 'fc-7f3a', name: 'get_time', arguments: '{}' }]);
  });

  it('takes the prompt count as all input (it already includes the cached part)', async () => {
    generate().reply(200, json('response-cache-usage.json'));
    const result = await geminiAdapter.generate(request, context);
    expect(result.usage).toEqual({ inputTokens: 5240, outputTokens: 14, cachedTokens: 4096, cacheWriteTokens: 0 });
  });

  it('reports a safety stop as content_filter', async () => {
    generate().reply(200, json('response-safety.json'));
    const result = await geminiAdapter.generate(request, context);
    expect(result).toEqual({
      content: '',
      toolCalls: [],
      finishReason: 'content_filter',
      vendorStopReason: 'SAFETY',
      usage: { inputTokens: 12, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0 },
    });
  });

  it('reports a blocked prompt as content_filter with empty content', async () => {
    generate().reply(200, json('response-prompt-blocked.json'));
    const result = await geminiAdapter.generate(request, context);
    expect(result).toEqual({
      content: '',
      toolCalls: [],
      finishReason: 'content_filter',
      vendorStopReason: 'PROHIBITED_CONTENT',
      usage: { inputTokens: 15, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0 },
    });
  });

  it('reports MAX_TOKENS as length, also when thinking used the whole budget', async () => {
    generate().reply(200, json('response-max-tokens.json'));
    const result = await geminiAdapter.generate(request, context);
    expect(result).toEqual({
      content: '',
      toolCalls: [],
      finishReason: 'length',
      vendorStopReason: 'MAX_TOKENS',
      usage: { inputTokens: 10, outputTokens: 99, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 99 },
    });
  });

  it('refuses an answer without candidates or feedback', async () => {
    generate().reply(200, { usageMetadata: { promptTokenCount: 3 } });
    expect(await failure(geminiAdapter.generate(request, context))).toMatchObject({ kind: 'bad_response' });
  });
});

describe('mapGeminiFinishReason', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    ['MAX_TOKENS', false, 'length'],
    ['MAX_TOKENS', true, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['BLOCKLIST', false, 'content_filter'],
    ['SPII', false, 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'stop'],
    ['OTHER', false, 'stop'],
    ['FINISH_REASON_UNSPECIFIED', false, 'stop'],
  ] as const)('%s (function calls: %s) -> %s', (reason, calls, expected) => {
    expect(mapGeminiFinishReason(reason, calls)).toBe(expected);
  });
});

describe('geminiAdapter.stream', () => {
  it('calls streamGenerateContent with alt=sse and streams text, finish, then the last usage', async () => {
    nock(BASE, { reqheaders: { 'x-goog-api-key': 'AIzaSy-test-key' } })
      .post(STREAM)
      .query({ alt: 'sse' })
      .reply(200, fixture('stream-text.sse'), SSE);
    const events = await collect(geminiAdapter.stream(request, context));
    expect(events).toEqual([
      { type: 'text', delta: 'The capital' },
      { type: 'text', delta: ' of France is Paris.' },
      { type: 'finish', finishReason: 'stop', vendorStopReason: 'STOP' },
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 7 + 24, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 24 } },
    ]);
  });

  it('streams each function call as a start and one delta with all its arguments', async () => {
    stream().reply(200, fixture('stream-function-call.sse'), SSE);
    const events = await collect(geminiAdapter.stream(request, context));
    expect(events).toEqual([
      { type: 'text', delta: 'Checking both.' },
      { type: 'tool_call_start', index: 0, id: expect.stringMatching(CALL_ID), name: 'get_weather' },
      { type: 'tool_call_delta', index: 0, arguments: '{"location":"Paris","unit":"celsius"}' },
      { type: 'tool_call_start', index: 1, id: expect.stringMatching(CALL_ID), name: 'get_time' },
      { type: 'tool_call_delta', index: 1, arguments: '{}' },
      { type: 'finish', finishReason: 'tool_calls', vendorStopReason: 'STOP' },
      { type: 'usage', usage: { inputTokens: 118, outputTokens: 34 + 63, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 63 } },
    ]);
  });

  it('reads chunks split anywhere across network reads', async () => {
    const text = fixture('stream-text.sse');
    const chunks: Buffer[] = [];
    for (let i = 0; i < text.length; i += 5) chunks.push(Buffer.from(text.slice(i, i + 5)));
    stream().reply(200, () => Readable.from(chunks), SSE);
    const events = await collect(geminiAdapter.stream(request, context));
    expect(events.map((event) => event.type)).toEqual(['text', 'text', 'finish', 'usage']);
  });

  it('finishes a blocked prompt with content_filter', async () => {
    stream().reply(200, fixture('stream-prompt-blocked.sse'), SSE);
    const events = await collect(geminiAdapter.stream(request, context));
    expect(events).toEqual([
      { type: 'finish', finishReason: 'content_filter', vendorStopReason: 'PROHIBITED_CONTENT' },
      { type: 'usage', usage: { inputTokens: 15, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0 } },
    ]);
  });

  it('fails a stream cut before the chunk with finishReason', async () => {
    stream().reply(200, fixture('stream-cut.sse'), SSE);
    const { events, error } = await collectUntilFailure(geminiAdapter.stream(request, context));
    expect(events).toEqual([
      { type: 'text', delta: 'The capital' },
      { type: 'text', delta: ' of France is Paris.' },
    ]);
    expect(error).toMatchObject({ kind: 'bad_response', retryable: true });
  });

  it('classifies an error chunk by its code', async () => {
    stream().reply(200, fixture('stream-error.sse'), SSE);
    const { events, error } = await collectUntilFailure(geminiAdapter.stream(request, context));
    expect(events).toEqual([{ type: 'text', delta: 'The capital' }]);
    expect(error).toMatchObject({ kind: 'unavailable', retryable: true, options: { reason: 'The model is overloaded. Please try again later.' } });
  });

  it('classifies an HTTP error before the stream like a unary call', async () => {
    stream().reply(503, json('error-503.json'));
    const { error } = await collectUntilFailure(geminiAdapter.stream(request, context));
    expect(error).toMatchObject({ kind: 'unavailable', options: { status: 503 } });
  });
});

describe('geminiAdapter errors', () => {
  it('429 is rate_limited, the wait read from RetryInfo when no Retry-After is sent', async () => {
    generate().reply(429, json('error-429.json'));
    const error = await failure(geminiAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'rate_limited', retryable: true, options: { status: 429, retryAfterSeconds: 37 } });
  });

  it('429 prefers the Retry-After header', async () => {
    generate().reply(429, json('error-429.json'), { 'retry-after': '5' });
    const error = await failure(geminiAdapter.generate(request, context));
    expect(error.options.retryAfterSeconds).toBe(5);
  });

  it('a rejected key (400 API_KEY_INVALID) is auth', async () => {
    generate().reply(400, json('error-400-api-key.json'));
    const error = await failure(geminiAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'auth', retryable: false, options: { status: 400, reason: 'API key not valid. Please pass a valid API key.' } });
  });

  it('403 is auth', async () => {
    generate().reply(403, json('error-403.json'));
    const error = await failure(geminiAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'auth', options: { status: 403 } });
  });

  it('400 is invalid_request with the vendor reason', async () => {
    generate().reply(400, json('error-400.json'));
    const error = await failure(geminiAdapter.generate(request, context));
    expect(error).toMatchObject({
      kind: 'invalid_request',
      retryable: false,
      options: { status: 400, reason: '* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for OBJECT type\n' },
    });
  });

  it('500 is a retryable server error', async () => {
    generate().reply(500, json('error-500.json'));
    const error = await failure(geminiAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'server', retryable: true, options: { status: 500 } });
  });

  it('503 is unavailable', async () => {
    generate().reply(503, json('error-503.json'));
    const error = await failure(geminiAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'unavailable', retryable: true, options: { status: 503 } });
  });

  it('a network failure is unavailable', async () => {
    generate().replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const error = await failure(geminiAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'unavailable', retryable: true });
  });

  it('an attempt past its time limit is a timeout', async () => {
    generate().delay(2_000).reply(200, json('response-text.json'));
    const error = await failure(geminiAdapter.generate(request, { ...context, signal: AbortSignal.timeout(50) }));
    expect(error).toMatchObject({ kind: 'timeout' });
  });
});

describe('geminiAdapter', () => {
  it('has no embed', () => {
    expect(geminiAdapter.embed).toBeUndefined();
  });
});
