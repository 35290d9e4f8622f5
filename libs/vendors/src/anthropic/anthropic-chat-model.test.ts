import { join } from 'node:path';
import { Readable } from 'node:stream';
import nock from 'nock';
import { VendorError } from '../errors';
import { collect, collectUntilFailure, failure, fixtures, useNock } from '../adapter-testkit.test-support';
import type { CallContext, ChatRequest, StreamEvent } from '../types';
import { anthropicAdapter } from './anthropic-chat-model';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';

const BASE = 'https://api.anthropic.com';
const context: CallContext = { baseUrl: BASE, apiKey: 'sk-ant-test-key' };
const request: ChatRequest = {
  model: 'claude-sonnet-4-5-20250929',
  system: 'Answer in one sentence.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the capital of France?' }] }],
  maxTokens: 1024,
};

const { fixture, json } = fixtures(__dirname);
const SSE = { 'content-type': 'text/event-stream; charset=utf-8' };

const messages = () => nock(BASE).post('/v1/messages');

useNock();

describe('anthropicAdapter.generate', () => {
  it('calls POST /v1/messages with the key, the API version and JSON, and normalises a text answer', async () => {
    nock(BASE, { reqheaders: { 'x-api-key': 'sk-ant-test-key', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' } })
      .post('/v1/messages')
      .reply(200, json('message-text.json'), { 'content-type': 'application/json', 'request-id': 'req_011CSHoEeqs5C35K2UUqR7Fy' });
    const result = await anthropicAdapter.generate(request, { ...context, baseUrl: `${BASE}/` });
    expect(result).toEqual({
      content: 'The capital of France is Paris.',
      toolCalls: [],
      finishReason: 'stop',
      vendorStopReason: 'end_turn',
      usage: { inputTokens: 21, outputTokens: 10, cachedTokens: 0, cacheWriteTokens: 0 },
    });
  });

  it('forwards the context headers', async () => {
    nock(BASE, { reqheaders: { 'x-sim-fault': 'none' } })
      .post('/v1/messages')
      .reply(200, json('message-text.json'));
    await anthropicAdapter.generate(request, { ...context, headers: { 'x-sim-fault': 'none' } });
  });

  it('turns tool_use blocks into tool calls with JSON-string arguments, keeping the text', async () => {
    messages().reply(200, json('message-tool-use.json'));
    const result = await anthropicAdapter.generate(request, context);
    expect(result.content).toBe("I'll check the current weather in San Francisco for you.");
    expect(result.toolCalls).toEqual([{ id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' }]);
    expect(result.finishReason).toBe('tool_calls');
    expect(result.vendorStopReason).toBe('tool_use');
  });

  it('gives null content when only tool calls were produced, ignores thinking, and writes empty input as {}', async () => {
    messages().reply(200, json('message-thinking-tool-only.json'));
    const result = await anthropicAdapter.generate(request, context);
    expect(result.content).toBeNull();
    expect(result.toolCalls).toEqual([
      { id: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', name: 'get_weather', arguments: '{"location":"Paris"}' },
      { id: 'toolu_01GmY4pXzQh2kR8sVw3nJ5tB', name: 'get_time', arguments: '{}' },
    ]);
    expect(result.finishReason).toBe('tool_calls');
  });

  it('counts cache reads and writes inside the input tokens (Anthropic reports them apart)', async () => {
    messages().reply(200, json('message-cache-usage.json'));
    const result = await anthropicAdapter.generate(request, context);
    expect(result.usage).toEqual({ inputTokens: 21 + 1800 + 248, outputTokens: 17, cachedTokens: 1800, cacheWriteTokens: 248 });
  });

  it('reports a refusal as content_filter with the raw stop reason', async () => {
    messages().reply(200, json('message-refusal.json'));
    const result = await anthropicAdapter.generate(request, context);
    expect(result).toMatchObject({ content: '', toolCalls: [], finishReason: 'content_filter', vendorStopReason: 'refusal' });
  });

  it('reports max_tokens as length', async () => {
    messages().reply(200, json('message-max-tokens.json'));
    const result = await anthropicAdapter.generate(request, context);
    expect(result).toMatchObject({ content: 'Once upon a time, in a village at the edge of', finishReason: 'length', vendorStopReason: 'max_tokens' });
  });

  it('reports stop_sequence as stop', async () => {
    messages().reply(200, json('message-stop-sequence.json'));
    const result = await anthropicAdapter.generate(request, context);
    expect(result).toMatchObject({ finishReason: 'stop', vendorStopReason: 'stop_sequence' });
  });

  it('refuses a 200 that is not a message', async () => {
    messages().reply(200, { type: 'message', role: 'assistant' });
    expect(await failure(anthropicAdapter.generate(request, context))).toMatchObject({ kind: 'bad_response' });
  });

  it('refuses a 200 whose body is not JSON', async () => {
    messages().reply(200, '<html>Bad gateway</html>', { 'content-type': 'text/html' });
    expect(await failure(anthropicAdapter.generate(request, context))).toMatchObject({ kind: 'bad_response' });
  });
});

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['a_later_reason', 'stop'],
    [null, 'stop'],
  ])('%s -> %s', (reason, expected) => {
    expect(mapAnthropicStopReason(reason)).toBe(expected);
  });
});

describe('anthropicAdapter.stream', () => {
  it('streams text deltas, then finish, then usage with cache reads counted as input', async () => {
    let sent: Record<string, unknown> | undefined;
    messages()
      .matchHeader('x-api-key', 'sk-ant-test-key')
      .matchHeader('anthropic-version', '2023-06-01')
      .reply(200, (_uri, body) => {
        sent = body as Record<string, unknown>;
        return fixture('stream-text.sse');
      }, SSE);
    const events = await collect(anthropicAdapter.stream(request, context));
    expect(sent?.stream).toBe(true);
    expect(events).toEqual([
      { type: 'text', delta: 'Hello' },
      { type: 'text', delta: '! How can I' },
      { type: 'text', delta: ' help you today?' },
      { type: 'finish', finishReason: 'stop', vendorStopReason: 'end_turn' },
      { type: 'usage', usage: { inputTokens: 12 + 1536, outputTokens: 12, cachedTokens: 1536, cacheWriteTokens: 0 } },
    ]);
  });

  it('streams tool calls numbered among tool calls only, skipping thinking', async () => {
    messages().reply(200, fixture('stream-tool-use.sse'), SSE);
    const events = await collect(anthropicAdapter.stream(request, context));
    expect(events).toEqual([
      { type: 'text', delta: 'Let me check the weather.' },
      { type: 'tool_call_start', index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather' },
      { type: 'tool_call_delta', index: 0, arguments: '{"location":' },
      { type: 'tool_call_delta', index: 0, arguments: ' "San Fra' },
      { type: 'tool_call_delta', index: 0, arguments: 'ncisco, CA"}' },
      { type: 'tool_call_start', index: 1, id: 'toolu_01HzkBq2ZCp5nJvmrEDgN8ka', name: 'get_time' },
      { type: 'finish', finishReason: 'tool_calls', vendorStopReason: 'tool_use' },
      { type: 'usage', usage: { inputTokens: 472, outputTokens: 89, cachedTokens: 0, cacheWriteTokens: 0 } },
    ]);
  });

  it('reads events split anywhere across network chunks, with CRLF line ends', async () => {
    const text = fixture('stream-text.sse').replace(/\n/g, '\r\n');
    const chunks: Buffer[] = [];
    for (let i = 0; i < text.length; i += 7) chunks.push(Buffer.from(text.slice(i, i + 7)));
    messages().reply(200, () => Readable.from(chunks), SSE);
    const events = await collect(anthropicAdapter.stream(request, context));
    expect(events.filter((event) => event.type === 'text').map((event) => (event as { delta: string }).delta).join('')).toBe('Hello! How can I help you today?');
    expect(events.slice(-2).map((event) => event.type)).toEqual(['finish', 'usage']);
  });

  it('fails a stream cut before message_stop, after the text it received', async () => {
    messages().reply(200, fixture('stream-cut.sse'), SSE);
    const { events, error } = await collectUntilFailure(anthropicAdapter.stream(request, context));
    expect(events).toEqual([
      { type: 'text', delta: 'Hello' },
      { type: 'text', delta: '! How can I' },
    ]);
    expect(error).toBeInstanceOf(VendorError);
    expect(error).toMatchObject({ kind: 'bad_response', retryable: true });
  });

  it('classifies an overloaded error event as unavailable', async () => {
    messages().reply(200, fixture('stream-error-overloaded.sse'), SSE);
    const { events, error } = await collectUntilFailure(anthropicAdapter.stream(request, context));
    expect(events).toEqual([{ type: 'text', delta: 'Hel' }]);
    expect(error).toMatchObject({ kind: 'unavailable', retryable: true });
    expect(error.options.reason).toBe('Overloaded');
  });

  it('classifies another error event as a server error', async () => {
    messages().reply(200, fixture('stream-error-api.sse'), SSE);
    const { error } = await collectUntilFailure(anthropicAdapter.stream(request, context));
    expect(error).toMatchObject({ kind: 'server', retryable: true });
    expect(error.options.reason).toBe('Internal server error');
  });

  it('fails on an unreadable event', async () => {
    messages().reply(200, 'event: message_start\ndata: {"type":"message_start",\n\n', SSE);
    const { error } = await collectUntilFailure(anthropicAdapter.stream(request, context));
    expect(error).toMatchObject({ kind: 'bad_response' });
  });

  // Through the HTTP mock the cut body ends as if complete, so the adapter sees a stream without
  // message_stop (bad_response); on a real socket the same cut is a network error (unavailable).
  // Either way the failure is retryable and never a clean end.
  it('classifies a connection lost mid-stream as a retryable failure', async () => {
    const body = new Readable({ read() {} });
    body.push(fixture('stream-cut.sse'));
    messages().reply(200, () => body, SSE);
    // Cut once the first event reached the reader (a timer could fire before anyone listens).
    async function* cutAfterFirstEvent(events: AsyncIterable<StreamEvent>) {
      let cut = false;
      for await (const event of events) {
        yield event;
        if (!cut) {
          cut = true;
          body.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
        }
      }
    }
    const { error } = await collectUntilFailure(cutAfterFirstEvent(anthropicAdapter.stream(request, context)));
    expect(['unavailable', 'bad_response']).toContain(error?.kind);
    expect(error?.retryable).toBe(true);
  });

  it('classifies an HTTP error before the stream like a unary call', async () => {
    messages().reply(429, json('error-429.json'), { 'retry-after': '12' });
    const { events, error } = await collectUntilFailure(anthropicAdapter.stream(request, context));
    expect(events).toEqual([]);
    expect(error).toMatchObject({ kind: 'rate_limited', options: { status: 429, retryAfterSeconds: 12 } });
  });
});

describe('anthropicAdapter errors', () => {
  it('429 is rate_limited with the retry-after seconds', async () => {
    messages().reply(429, json('error-429.json'), { 'retry-after': '30', 'anthropic-ratelimit-requests-remaining': '0' });
    const error = await failure(anthropicAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'rate_limited', retryable: true, options: { status: 429, retryAfterSeconds: 30 } });
  });

  it('401 is auth, with the vendor reason, not retried', async () => {
    messages().reply(401, json('error-401.json'));
    const error = await failure(anthropicAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'auth', retryable: false, options: { status: 401, reason: 'invalid x-api-key' } });
  });

  it('400 is invalid_request with the vendor reason', async () => {
    messages().reply(400, json('error-400.json'));
    const error = await failure(anthropicAdapter.generate(request, context));
    expect(error).toMatchObject({
      kind: 'invalid_request',
      retryable: false,
      options: { status: 400, reason: 'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row' },
    });
  });

  it('500 is a retryable server error', async () => {
    messages().reply(500, json('error-500.json'));
    const error = await failure(anthropicAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'server', retryable: true, options: { status: 500 } });
  });

  it('529 overloaded is unavailable', async () => {
    messages().reply(529, json('error-529.json'));
    const error = await failure(anthropicAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'unavailable', retryable: true, options: { status: 529 } });
  });

  it('an error body that is not JSON still classifies by status', async () => {
    messages().reply(502, '<html>502 Bad Gateway</html>', { 'content-type': 'text/html' });
    const error = await failure(anthropicAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'server', options: { status: 502 } });
  });

  it('a network failure is unavailable', async () => {
    messages().replyWithError(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }));
    const error = await failure(anthropicAdapter.generate(request, context));
    expect(error).toMatchObject({ kind: 'unavailable', retryable: true });
  });

  it('an attempt past its time limit is a timeout', async () => {
    messages().delay(2_000).reply(200, json('message-text.json'));
    const error = await failure(anthropicAdapter.generate(request, { ...context, signal: AbortSignal.timeout(50) }));
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('a cancelled call is aborted', async () => {
    messages().delay(2_000).reply(200, json('message-text.json'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await failure(anthropicAdapter.generate(request, { ...context, signal: controller.signal }));
    expect(error).toMatchObject({ kind: 'aborted', retryable: false });
  });
});
