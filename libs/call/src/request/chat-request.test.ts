import { ServiceError } from '@svc/errors';
import { parseChatRequest, estimateInputTokens } from './chat-request';

const user = { role: 'user', content: 'hi' };
const weather = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const call = (overrides: Record<string, unknown> = {}) => ({ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' }, ...overrides });
const png = `data:image/png;base64,${Buffer.from('png-bytes').toString('base64')}`;

const failure = (body: unknown, headers: Record<string, string> = {}): ServiceError => {
  try {
    parseChatRequest(body, headers);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a failure');
};
/** A body with one user turn plus the given fields. */
const withUser = (fields: Record<string, unknown>) => ({ messages: [user], ...fields });

describe('parseChatRequest refusals', () => {
  it.each([['a string', 'hello'], ['an array', [user]], ['null', null]])('refuses a body that is %s with invalid_json', (_name, body) => {
    expect(failure(body)).toMatchObject({ code: 'invalid_json', status: 400 });
  });

  // [case, body, headers, code, param]
  const cases: [string, unknown, Record<string, string>, string, string][] = [
    // model
    ['a non-string model', withUser({ model: 5 }), {}, 'invalid_value', 'model'],
    // messages
    ['absent messages', {}, {}, 'missing_messages', 'messages'],
    ['null messages', { messages: null }, {}, 'missing_messages', 'messages'],
    ['messages that are not an array', { messages: 'hi' }, {}, 'missing_messages', 'messages'],
    ['empty messages', { messages: [] }, {}, 'missing_messages', 'messages'],
    ['only system and developer messages', { messages: [{ role: 'system', content: 'a' }, { role: 'developer', content: 'b' }] }, {}, 'missing_messages', 'messages'],
    ['turns that are all empty', { messages: [{ role: 'system', content: 'a' }, { role: 'user', content: '' }, { role: 'assistant', content: '' }, { role: 'user', content: [{ type: 'text', text: '' }] }] }, {}, 'missing_messages', 'messages'],
    ['4097 messages', { messages: Array.from({ length: 4097 }, () => user) }, {}, 'too_many_messages', 'messages'],
    ['a message that is not an object', { messages: [user, 'hi'] }, {}, 'invalid_value', 'messages[1]'],
    ['an unknown role', { messages: [{ role: 'robot', content: 'x' }] }, {}, 'invalid_value', 'messages[0].role'],
    ['a missing role', { messages: [user, { content: 'x' }] }, {}, 'invalid_value', 'messages[1].role'],
    ['the legacy function role', { messages: [user, { role: 'function', name: 'f', content: 'x' }] }, {}, 'unsupported_parameter', 'messages[1].role'],
    // content
    ['user content that is a number', { messages: [{ role: 'user', content: 5 }] }, {}, 'invalid_value', 'messages[0].content'],
    ['absent user content', { messages: [{ role: 'user' }] }, {}, 'invalid_value', 'messages[0].content'],
    ['an empty content array', { messages: [{ role: 'user', content: [] }] }, {}, 'invalid_value', 'messages[0].content'],
    ['a text part without text', { messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] }, {}, 'invalid_value', 'messages[0].content'],
    ['a content part that is not an object', { messages: [{ role: 'user', content: ['hi'] }] }, {}, 'invalid_value', 'messages[0].content'],
    ['an input_audio part', { messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'input_audio', input_audio: {} }] }] }, {}, 'unsupported_parameter', 'messages[0].content[1].type'],
    ['a part without a type', { messages: [{ role: 'user', content: [{ text: 'a' }] }] }, {}, 'unsupported_parameter', 'messages[0].content[0].type'],
    ['a refusal part on an assistant message', { messages: [user, { role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] }] }, {}, 'unsupported_parameter', 'messages[1].content[0].type'],
    ['an image part in a system message', { messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: png } }] }, user] }, {}, 'invalid_value', 'messages[0].content'],
    ['an image part in a tool message', { messages: [user, { role: 'assistant', tool_calls: [call()] }, { role: 'tool', tool_call_id: 'c1', content: [{ type: 'image_url', image_url: { url: png } }] }] }, {}, 'invalid_value', 'messages[2].content'],
    ['an assistant message with neither content nor tool_calls', { messages: [user, { role: 'assistant', content: null }] }, {}, 'invalid_value', 'messages[1].content'],
    ['an assistant message with null content and empty tool_calls', { messages: [user, { role: 'assistant', content: null, tool_calls: [] }] }, {}, 'invalid_value', 'messages[1].content'],
    ['an image_url url that is not a string', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 5 } }] }] }, {}, 'invalid_value', 'messages[0].content[0].image_url.url'],
    ['an image_url part without image_url', { messages: [{ role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url' }] }] }, {}, 'invalid_value', 'messages[0].content[1].image_url.url'],
    ['an ftp image URL', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://example.com/a.png' } }] }] }, {}, 'invalid_image_url', 'messages[0].content[0].image_url.url'],
    ['a data: URL that is not a base64 image', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:text/plain;base64,aGk=' } }] }] }, {}, 'invalid_image_url', 'messages[0].content[0].image_url.url'],
    ['an http image URL without a downloader', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }] }, {}, 'invalid_image_url', 'messages[0].content[0].image_url.url'],
    // tool calls and tool messages
    ['tool_calls that are not an array', { messages: [user, { role: 'assistant', content: 'x', tool_calls: {} }] }, {}, 'invalid_value', 'messages[1].tool_calls'],
    ['a tool call without an id', { messages: [user, { role: 'assistant', tool_calls: [call({ id: undefined })] }] }, {}, 'invalid_value', 'messages[1].tool_calls[0].id'],
    ['a tool call of another type', { messages: [user, { role: 'assistant', tool_calls: [call({ type: 'custom' })] }] }, {}, 'invalid_value', 'messages[1].tool_calls[0].type'],
    ['a tool call without a function name', { messages: [user, { role: 'assistant', tool_calls: [call({ function: { arguments: '{}' } })] }] }, {}, 'invalid_value', 'messages[1].tool_calls[0].function.name'],
    ['a tool message without tool_call_id', { messages: [user, { role: 'tool', content: 'ok' }] }, {}, 'invalid_value', 'messages[1].tool_call_id'],
    // tools and tool_choice
    ['tools that are not an array', withUser({ tools: {} }), {}, 'invalid_value', 'tools'],
    ['257 tools', withUser({ tools: Array.from({ length: 257 }, () => weather) }), {}, 'too_many_tools', 'tools'],
    ['a tool of another type', withUser({ tools: [weather, { type: 'web_search' }] }), {}, 'invalid_value', 'tools[1].type'],
    ['a tool name with a space', withUser({ tools: [{ type: 'function', function: { name: 'get weather' } }] }), {}, 'invalid_value', 'tools[0].function.name'],
    ['a tool name of 65 characters', withUser({ tools: [{ type: 'function', function: { name: 'a'.repeat(65) } }] }), {}, 'invalid_value', 'tools[0].function.name'],
    ['a tool without a function', withUser({ tools: [{ type: 'function' }] }), {}, 'invalid_value', 'tools[0].function'],
    ['tool parameters that are not an object', withUser({ tools: [{ type: 'function', function: { name: 'f', parameters: [] } }] }), {}, 'invalid_value', 'tools[0].function.parameters'],
    ['a tool description that is not a string', withUser({ tools: [{ type: 'function', function: { name: 'f', description: 5 } }] }), {}, 'invalid_value', 'tools[0].function.description'],
    ['a tool strict that is not a boolean', withUser({ tools: [{ type: 'function', function: { name: 'f', strict: 'yes' } }] }), {}, 'invalid_value', 'tools[0].function.strict'],
    ['an unknown tool_choice', withUser({ tools: [weather], tool_choice: 'sometimes' }), {}, 'invalid_value', 'tool_choice'],
    ['a malformed tool_choice object', withUser({ tools: [weather], tool_choice: { type: 'function' } }), {}, 'invalid_value', 'tool_choice'],
    ['tool_choice auto without tools', withUser({ tool_choice: 'auto' }), {}, 'invalid_value', 'tool_choice'],
    ['tool_choice required with an empty tools array', withUser({ tools: [], tool_choice: 'required' }), {}, 'invalid_value', 'tool_choice'],
    ['a tool_choice naming a function not among the tools', withUser({ tools: [weather], tool_choice: { type: 'function', function: { name: 'other' } } }), {}, 'invalid_value', 'tool_choice'],
    ['parallel_tool_calls that is not a boolean', withUser({ parallel_tool_calls: 'yes' }), {}, 'invalid_value', 'parallel_tool_calls'],
    // numbers
    ['max_tokens 0', withUser({ max_tokens: 0 }), {}, 'invalid_value', 'max_tokens'],
    ['a fractional max_tokens', withUser({ max_tokens: 1.5 }), {}, 'invalid_value', 'max_tokens'],
    ['max_tokens as a string', withUser({ max_tokens: '10' }), {}, 'invalid_value', 'max_tokens'],
    ['a negative max_completion_tokens', withUser({ max_tokens: 10, max_completion_tokens: -1 }), {}, 'invalid_value', 'max_completion_tokens'],
    ['temperature above 2', withUser({ temperature: 2.5 }), {}, 'invalid_value', 'temperature'],
    ['temperature below 0', withUser({ temperature: -0.1 }), {}, 'invalid_value', 'temperature'],
    ['temperature as a string', withUser({ temperature: '1' }), {}, 'invalid_value', 'temperature'],
    ['top_p above 1', withUser({ top_p: 1.5 }), {}, 'invalid_value', 'top_p'],
    ['top_p below 0', withUser({ top_p: -1 }), {}, 'invalid_value', 'top_p'],
    // stop, stream
    ['five stop sequences', withUser({ stop: ['a', 'b', 'c', 'd', 'e'] }), {}, 'invalid_value', 'stop'],
    ['a stop sequence that is not a string', withUser({ stop: ['a', 1] }), {}, 'invalid_value', 'stop'],
    ['stop as a number', withUser({ stop: 5 }), {}, 'invalid_value', 'stop'],
    ['stream that is not a boolean', withUser({ stream: 'yes' }), {}, 'invalid_value', 'stream'],
    ['stream_options that is not an object', withUser({ stream: true, stream_options: 'usage' }), {}, 'invalid_value', 'stream_options'],
    ['stream_options.include_usage that is not a boolean', withUser({ stream: true, stream_options: { include_usage: 'yes' } }), {}, 'invalid_value', 'stream_options.include_usage'],
    // response_format
    ['response_format that is not an object', withUser({ response_format: 'json' }), {}, 'invalid_value', 'response_format'],
    ['an unknown response_format type', withUser({ response_format: { type: 'xml' } }), {}, 'invalid_value', 'response_format.type'],
    ['a response_format without a type', withUser({ response_format: {} }), {}, 'invalid_value', 'response_format.type'],
    ['json_schema without json_schema', withUser({ response_format: { type: 'json_schema' } }), {}, 'invalid_value', 'response_format.json_schema'],
    ['json_schema without a schema', withUser({ response_format: { type: 'json_schema', json_schema: { name: 'answer' } } }), {}, 'invalid_value', 'response_format.json_schema'],
    ['json_schema with a schema that is not an object', withUser({ response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: 'string' } } }), {}, 'invalid_value', 'response_format.json_schema'],
    ['json_schema with a name that is not a string', withUser({ response_format: { type: 'json_schema', json_schema: { name: 7, schema: { type: 'object' } } } }), {}, 'invalid_value', 'response_format.json_schema'],
    ['json_schema with a strict that is not a boolean', withUser({ response_format: { type: 'json_schema', json_schema: { name: 'a', schema: {}, strict: 'yes' } } }), {}, 'invalid_value', 'response_format.json_schema'],
    // other fields
    ['an unknown reasoning_effort', withUser({ reasoning_effort: 'max' }), {}, 'invalid_value', 'reasoning_effort'],
    ['user that is not a string', withUser({ user: 5 }), {}, 'invalid_value', 'user'],
    ['metadata with a number value', withUser({ metadata: { team: 'a', run: 1 } }), {}, 'invalid_value', 'metadata'],
    ['metadata that is an array', withUser({ metadata: ['a'] }), {}, 'invalid_value', 'metadata'],
    ['store that is not a boolean', withUser({ store: 'yes' }), {}, 'invalid_value', 'store'],
    ['n = 2', withUser({ n: 2 }), {}, 'unsupported_parameter', 'n'],
    ['n = 0', withUser({ n: 0 }), {}, 'invalid_value', 'n'],
    ['n = 1.5', withUser({ n: 1.5 }), {}, 'invalid_value', 'n'],
    // refused parameters
    ['logprobs true', withUser({ logprobs: true }), {}, 'unsupported_parameter', 'logprobs'],
    ['top_logprobs 0', withUser({ top_logprobs: 0 }), {}, 'unsupported_parameter', 'top_logprobs'],
    ['audio', withUser({ audio: { voice: 'alloy', format: 'wav' } }), {}, 'unsupported_parameter', 'audio'],
    ['prediction', withUser({ prediction: { type: 'content', content: 'x' } }), {}, 'unsupported_parameter', 'prediction'],
    ['web_search_options', withUser({ web_search_options: {} }), {}, 'unsupported_parameter', 'web_search_options'],
    ['an audio modality', withUser({ modalities: ['text', 'audio'] }), {}, 'unsupported_parameter', 'modalities'],
    ['modalities that is not an array', withUser({ modalities: 'text' }), {}, 'invalid_value', 'modalities'],
    // svc options in the body
    ['svc that is not an object', withUser({ svc: 'fast' }), {}, 'invalid_value', 'svc'],
    ['an empty svc.session_id', withUser({ svc: { session_id: '' } }), {}, 'invalid_value', 'svc.session_id'],
    ['a 129-character svc.session_id', withUser({ svc: { session_id: 's'.repeat(129) } }), {}, 'invalid_value', 'svc.session_id'],
    ['a numeric svc.session_id', withUser({ svc: { session_id: 5 } }), {}, 'invalid_value', 'svc.session_id'],
    ['empty svc.vendors', withUser({ svc: { vendors: [] } }), {}, 'invalid_value', 'svc.vendors'],
    ['an unknown vendor in svc.vendors', withUser({ svc: { vendors: ['vendor-1', 'vendor-8'] } }), {}, 'invalid_value', 'svc.vendors'],
    ['svc.vendors as a string', withUser({ svc: { vendors: 'vendor-1' } }), {}, 'invalid_value', 'svc.vendors'],
    ['an unknown svc.fallback', withUser({ svc: { fallback: 'sometimes' } }), {}, 'invalid_value', 'svc.fallback'],
    ['svc.cache that is not an object', withUser({ svc: { cache: '5m' } }), {}, 'invalid_value', 'svc.cache'],
    ['an unknown svc.cache.ttl', withUser({ svc: { cache: { ttl: '2h' } } }), {}, 'invalid_value', 'svc.cache.ttl'],
    ['an unknown svc.cache.breakpoints', withUser({ svc: { cache: { breakpoints: 'some' } } }), {}, 'invalid_value', 'svc.cache.breakpoints'],
    ['an unknown svc.split', withUser({ svc: { split: 'on' } }), {}, 'invalid_value', 'svc.split'],
    ['a zero svc.deadline', withUser({ svc: { deadline: '0s' } }), {}, 'invalid_value', 'svc.deadline'],
    ['a svc.deadline without a unit', withUser({ svc: { deadline: '90' } }), {}, 'invalid_value', 'svc.deadline'],
    ['a svc.deadline in days', withUser({ svc: { deadline: '1d' } }), {}, 'invalid_value', 'svc.deadline'],
    ['a svc.deadline over 168h', withUser({ svc: { deadline: '169h' } }), {}, 'invalid_value', 'svc.deadline'],
    ['a negative svc.deadline', withUser({ svc: { deadline: '-5m' } }), {}, 'invalid_value', 'svc.deadline'],
    ['a numeric svc.deadline', withUser({ svc: { deadline: 90 } }), {}, 'invalid_value', 'svc.deadline'],
    // x-svc-* headers, validated like the body options
    ['a 129-character x-svc-session-id', withUser({}), { 'x-svc-session-id': 's'.repeat(129) }, 'invalid_value', 'svc.session_id'],
    ['a bad x-svc-cache-ttl', withUser({}), { 'x-svc-cache-ttl': '2h' }, 'invalid_value', 'svc.cache.ttl'],
    ['a bad x-svc-fallback', withUser({}), { 'x-svc-fallback': 'sometimes' }, 'invalid_value', 'svc.fallback'],
    ['a bad x-svc-split', withUser({}), { 'x-svc-split': 'on' }, 'invalid_value', 'svc.split'],
    ['a bad x-svc-deadline', withUser({}), { 'x-svc-deadline': 'soon' }, 'invalid_value', 'svc.deadline'],
    ['a bad x-svc-fallback over a good body value', withUser({ svc: { fallback: 'none' } }), { 'x-svc-fallback': 'always' }, 'invalid_value', 'svc.fallback'],
  ];

  it.each(cases)('refuses %s', (_name, body, headers, code, param) => {
    const error = failure(body, headers);
    expect({ code: error.code, status: error.status, param: error.param, type: error.type }).toEqual({ code, status: 400, param, type: 'invalid_request_error' });
    expect(error.message).toMatch(/^[A-Z'].+\.$/);
  });
});

describe('parseChatRequest normalisation', () => {
  it('defaults an omitted model to auto and keeps a named one', () => {
    expect(parseChatRequest({ messages: [user] }, {})).toMatchObject({ model: 'auto', requestedModel: undefined });
    expect(parseChatRequest({ model: 'vendor-1/orion-mini-5', messages: [user] }, {})).toMatchObject({ model: 'vendor-1/orion-mini-5', requestedModel: 'vendor-1/orion-mini-5' });
  });

  it('joins system and developer texts with a blank line into one system prompt', () => {
    const parsed = parseChatRequest({ messages: [{ role: 'system', content: 'A' }, user, { role: 'developer', content: [{ type: 'text', text: 'B' }, { type: 'text', text: 'C' }] }] }, {});
    expect(parsed.system).toBe('A\n\nBC');
    expect(parsed.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('replaces invalid tool-call argument JSON with {} and keeps valid arguments', () => {
    const parsed = parseChatRequest(
      {
        messages: [
          user,
          { role: 'assistant', content: null, tool_calls: [call({ id: 'c1', function: { name: 'f', arguments: '{not json' } }), call({ id: 'c2' }), call({ id: 'c3', function: { name: 'g' } }), call({ id: 'c4', function: { name: 'h', arguments: '[1]' } })] },
          { role: 'tool', tool_call_id: 'c1', content: 'ok' },
        ],
      },
      {},
    );
    expect(parsed.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [
        { id: 'c1', name: 'f', arguments: '{}' },
        { id: 'c2', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { id: 'c3', name: 'g', arguments: '{}' },
        { id: 'c4', name: 'h', arguments: '{}' },
      ],
    });
    expect(parsed.messages[2]).toEqual({ role: 'tool', toolCallId: 'c1', content: 'ok' });
  });

  it('takes an assistant message with absent content and tool_calls, or with text parts (RULINGS 11)', () => {
    const parsed = parseChatRequest({ messages: [user, { role: 'assistant', tool_calls: [call()] }, { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'sunny' }] }, { role: 'assistant', content: [{ type: 'text', text: 'It is sunny.' }] }] }, {});
    expect(parsed.messages[1]).toMatchObject({ role: 'assistant', content: null });
    expect(parsed.messages[2]).toEqual({ role: 'tool', toolCallId: 'c1', content: 'sunny' });
    expect(parsed.messages[3]).toEqual({ role: 'assistant', content: 'It is sunny.' });
  });

  it('lets max_completion_tokens win over max_tokens', () => {
    expect(parseChatRequest(withUser({ max_tokens: 10, max_completion_tokens: 20 }), {}).maxTokens).toBe(20);
    expect(parseChatRequest(withUser({ max_tokens: 10 }), {}).maxTokens).toBe(10);
    expect(parseChatRequest(withUser({}), {}).maxTokens).toBeUndefined();
  });

  it('treats null optional fields as absent and ignores unknown fields (listing them as ignored)', () => {
    const parsed = parseChatRequest(withUser({ temperature: null, top_p: null, tools: null, tool_choice: null, stop: null, n: null, logprobs: false, top_logprobs: null, web_search_options: null, svc: null, frobnicate: true }), {});
    expect(parsed).toMatchObject({ temperature: undefined, topP: undefined, tools: undefined, toolChoice: undefined, stop: undefined, ignoredParameters: ['frobnicate'] });
    expect(parsed.svc).toEqual({ sessionId: undefined, vendors: undefined, fallback: undefined, cacheTtl: undefined, cacheBreakpoints: undefined, split: undefined, deadlineMs: undefined });
  });

  it('accepts the boundaries of temperature, top_p, n and the limits', () => {
    expect(parseChatRequest(withUser({ temperature: 2, top_p: 0, n: 1 }), {})).toMatchObject({ temperature: 2, topP: 0 });
    expect(parseChatRequest({ messages: Array.from({ length: 4096 }, () => user) }, {}).messages).toHaveLength(4096);
    expect(parseChatRequest(withUser({ tools: Array.from({ length: 256 }, () => weather) }), {}).tools).toHaveLength(256);
    expect(parseChatRequest(withUser({ stop: ['a', 'b', 'c', 'd'] }), {}).stop).toEqual(['a', 'b', 'c', 'd']);
  });

  it('normalises stop to a list', () => {
    expect(parseChatRequest(withUser({ stop: 'END' }), {}).stop).toEqual(['END']);
    expect(parseChatRequest(withUser({ stop: [] }), {}).stop).toBeUndefined();
  });

  it('normalises tools with the default empty object schema and a named tool_choice', () => {
    const parsed = parseChatRequest(withUser({ tools: [weather, { type: 'function', function: { name: 'ping', description: 'Ping.', strict: true } }], tool_choice: { type: 'function', function: { name: 'ping' } }, parallel_tool_calls: false }), {});
    expect(parsed.tools).toEqual([
      { name: 'get_weather', parameters: weather.function.parameters },
      { name: 'ping', description: 'Ping.', parameters: { type: 'object', properties: {} } },
    ]);
    expect(parsed.toolChoice).toEqual({ name: 'ping' });
    expect(parsed.parallelToolCalls).toBe(false);
    expect(parseChatRequest(withUser({ tool_choice: 'none' }), {}).toolChoice).toBe('none');
  });

  it('normalises response_format', () => {
    expect(parseChatRequest(withUser({ response_format: { type: 'json_object' } }), {}).responseFormat).toEqual({ type: 'json_object' });
    expect(parseChatRequest(withUser({ response_format: { type: 'text' } }), {}).responseFormat).toEqual({ type: 'text' });
    const schema = { type: 'object', properties: { answer: { type: 'string' } } };
    expect(parseChatRequest(withUser({ response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } } }), {}).responseFormat).toEqual({ type: 'json_schema', name: 'answer', schema, strict: true });
    expect(parseChatRequest(withUser({ response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } } }), {}).responseFormat).toEqual({ type: 'json_schema', name: 'answer', schema });
    // Only the schema is required (spec: response_format); the vendors that want a name get one.
    expect(parseChatRequest(withUser({ response_format: { type: 'json_schema', json_schema: { schema } } }), {}).responseFormat).toEqual({ type: 'json_schema', name: 'response', schema });
  });

  it('passes reasoning_effort, user, metadata and stream through; accepts store and stream_options', () => {
    const parsed = parseChatRequest(withUser({ reasoning_effort: 'xhigh', user: 'u-1', metadata: { team: 'a' }, stream: true, stream_options: { include_usage: true }, store: true }), {});
    expect(parsed).toMatchObject({ reasoningEffort: 'xhigh', user: 'u-1', metadata: { team: 'a' }, stream: true });
    expect(parseChatRequest(withUser({}), {}).stream).toBe(false);
  });

  it('lists accepted-and-ignored parameters only when non-default', () => {
    expect(parseChatRequest(withUser({ seed: 1, presence_penalty: 0, frequency_penalty: 0.5, logit_bias: {} }), {}).ignoredParameters).toEqual(['seed', 'frequency_penalty']);
    expect(parseChatRequest(withUser({ seed: null, presence_penalty: -1, logit_bias: { '50256': -100 } }), {}).ignoredParameters).toEqual(['logit_bias', 'presence_penalty']);
  });

  it('lists every other field it does not read (the legacy functions, service_tier, a misspelt name), null ones left out', () => {
    const parsed = parseChatRequest(withUser({ seed: 3, functions: [{ name: 'f' }], function_call: 'auto', service_tier: 'flex', temprature: 0.2, verbosity: null, stream_options: { include_usage: true }, store: false }), {});
    expect(parsed.ignoredParameters).toEqual(['seed', 'functions', 'function_call', 'service_tier', 'temprature']);
  });

  it('reads the svc options from the body', () => {
    const parsed = parseChatRequest(withUser({ svc: { session_id: 's-1', vendors: ['vendor-2', 'vendor-7', 'vendor-2'], fallback: 'cross_vendor', cache: { ttl: '1h', breakpoints: 'auto' }, split: 'off', deadline: '15m', allow_standard_price: true } }), {});
    expect(parsed.svc).toEqual({ sessionId: 's-1', vendors: ['vendor-2', 'vendor-7'], fallback: 'cross_vendor', cacheTtl: '1h', cacheBreakpoints: 'auto', split: 'off', deadlineMs: 900_000 });
  });

  it('lets every x-svc-* header win over the body', () => {
    const parsed = parseChatRequest(withUser({ svc: { session_id: 'body', fallback: 'none', cache: { ttl: '5m', breakpoints: 'auto' }, split: 'off', deadline: '90s', vendors: ['vendor-1'] } }), {
      'x-svc-session-id': 'header',
      'x-svc-fallback': 'same_vendor',
      'x-svc-cache-ttl': '1h',
      'x-svc-split': 'auto',
      'x-svc-deadline': '24h',
    });
    expect(parsed.svc).toEqual({ sessionId: 'header', fallback: 'same_vendor', cacheTtl: '1h', cacheBreakpoints: 'auto', split: 'auto', deadlineMs: 86_400_000, vendors: ['vendor-1'] });
  });

  it('lets a good header replace a bad body value', () => {
    expect(parseChatRequest(withUser({ svc: { fallback: 'sometimes' } }), { 'x-svc-fallback': 'none' }).svc.fallback).toBe('none');
  });

  it('reads the first value of a repeated header', () => {
    expect(parseChatRequest(withUser({}), { 'x-svc-session-id': ['first', 'second'] } as unknown as Record<string, string>).svc.sessionId).toBe('first');
  });

  it.each([
    ['90s', 90_000],
    ['15m', 900_000],
    ['24h', 86_400_000],
    ['1.5h', 5_400_000],
    ['0.5s', 500],
    ['168h', 604_800_000],
    ['10080m', 604_800_000],
  ])('parses svc.deadline %s into %d ms', (deadline, ms) => {
    expect(parseChatRequest(withUser({ svc: { deadline } }), {}).svc.deadlineMs).toBe(ms);
  });

  it('forces cache ttl none when breakpoints is none, whatever the body or header ttl', () => {
    expect(parseChatRequest(withUser({ svc: { cache: { breakpoints: 'none', ttl: '1h' } } }), {}).svc).toMatchObject({ cacheTtl: 'none', cacheBreakpoints: 'none' });
    expect(parseChatRequest(withUser({ svc: { cache: { breakpoints: 'none' } } }), { 'x-svc-cache-ttl': '5m' }).svc).toMatchObject({ cacheTtl: 'none', cacheBreakpoints: 'none' });
  });

  it('decodes data: images into parts and lists every image', () => {
    const parsed = parseChatRequest({ messages: [{ role: 'system', content: 's' }, { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: png, detail: 'high' } }] }] }, {});
    expect(parsed.needsVision).toBe(true);
    expect(parsed.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', mediaType: 'image/png', data: Buffer.from('png-bytes') }] });
    expect(parsed.images).toEqual([{ messageIndex: 1, partIndex: 1, vendorMessageIndex: 0, url: png, decoded: true, param: 'messages[1].content[1].image_url.url' }]);
  });

  it('keeps http(s) images for a downloader when asked, out of the parts', () => {
    const url = 'https://example.com/cat.png';
    const parsed = parseChatRequest({ messages: [{ role: 'system', content: 's' }, user, { role: 'user', content: [{ type: 'image_url', image_url: { url } }, { type: 'text', text: 'and?' }] }] }, {}, { remoteImages: 'defer' });
    expect(parsed.needsVision).toBe(true);
    expect(parsed.messages[1]).toEqual({ role: 'user', content: [{ type: 'text', text: 'and?' }] });
    expect(parsed.images).toEqual([{ messageIndex: 2, partIndex: 0, vendorMessageIndex: 1, url, decoded: false, param: 'messages[2].content[0].image_url.url' }]);
  });

  it('needs no vision without images', () => {
    expect(parseChatRequest(withUser({}), {})).toMatchObject({ needsVision: false, images: [] });
  });
});

describe('estimateInputTokens', () => {
  it('estimates input tokens as characters / 4', () => {
    expect(estimateInputTokens(parseChatRequest({ messages: [{ role: 'system', content: 'abcd' }, { role: 'user', content: 'abcdefgh' }] }, {}))).toBe(3);
  });

  it('counts an image as 1000 characters, downloaded or not', () => {
    const image = (url: string) => ({ messages: [{ role: 'user', content: [{ type: 'text', text: 'abcd' }, { type: 'image_url', image_url: { url } }] }] });
    expect(estimateInputTokens(parseChatRequest(image(png), {}))).toBe(251);
    expect(estimateInputTokens(parseChatRequest(image('http://example.com/a.png'), {}, { remoteImages: 'defer' }))).toBe(251);
  });
});

describe('deep nesting (one client cannot turn its own input into server errors)', () => {
  const nested = (depth: number): Record<string, unknown> => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < depth; i += 1) schema = { type: 'object', properties: { a: schema } };
    return schema;
  };

  it('refuses a tool schema nested thousands of levels deep with 400 invalid_value naming the tool', () => {
    const error = failure({ messages: [user], tools: [weather, { type: 'function', function: { name: 'deep', parameters: nested(5000) } }] });
    expect([error.status, error.code, error.param]).toEqual([400, 'invalid_value', 'tools[1]']);
  });

  it('refuses deep nesting anywhere in the body (a message, response_format)', () => {
    expect(failure({ messages: [user, { role: 'user', content: [{ type: 'text', text: 'x', extra: nested(100) }] }] }).param).toBe('messages[1]');
    expect(failure({ messages: [user], response_format: { type: 'json_schema', json_schema: { name: 'x', schema: nested(100) } } }).param).toBe('response_format');
  });

  it('accepts ordinary schemas', () => {
    expect(parseChatRequest({ messages: [user], tools: [{ type: 'function', function: { name: 'ok', parameters: nested(20) } }] }, {}).tools).toHaveLength(1);
  });
});
