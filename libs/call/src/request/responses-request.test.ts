import { ServiceError } from '@svc/errors';
import { parseInputItems, parseMetadata, parseResponsesRequest } from './responses-request';

const failure = (body: unknown): ServiceError => {
  try {
    parseResponsesRequest(body, {});
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('parseResponsesRequest', () => {
  it('a string input is one user message; defaults: model auto, store true, max_output_tokens 4096, compaction auto', () => {
    const parsed = parseResponsesRequest({ input: 'hi' }, {});
    expect(parsed.chat.model).toBe('auto');
    expect(parsed.chat.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    expect(parsed.chat.maxTokens).toBe(4096);
    expect(parsed).toMatchObject({ store: true, background: false, stream: false, maxOutputTokens: 4096, compaction: 'auto', metadata: {} });
    expect(parsed.items).toEqual([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }]);
    expect(parsed.echo).toMatchObject({ tools: [], toolChoice: 'auto', parallelToolCalls: true });
  });

  it('instructions become the system prompt and a stored developer item', () => {
    const parsed = parseResponsesRequest({ input: 'hi', instructions: 'Be brief.' }, {});
    expect(parsed.chat.system).toBe('Be brief.');
    expect(parsed.items[0]).toEqual({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be brief.' }] });
  });

  it('function calls join the assistant turn; outputs become tool messages', () => {
    const parsed = parseResponsesRequest(
      {
        input: [
          { role: 'user', content: 'weather?' },
          { type: 'function_call', call_id: 'c1', name: 'get', arguments: '{"a":1}' },
          { type: 'function_call', call_id: 'c2', name: 'get', arguments: '{"a":2}' },
          { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
          { type: 'function_call_output', call_id: 'c2', output: { rain: false } },
        ],
        tools: [{ type: 'function', name: 'get', parameters: { type: 'object', properties: {} } }],
      },
      {},
    );
    expect(parsed.chat.messages[1]).toEqual({ role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'get', arguments: '{"a":1}' }, { id: 'c2', name: 'get', arguments: '{"a":2}' }] });
    expect(parsed.chat.messages[3]).toEqual({ role: 'tool', toolCallId: 'c2', content: '{"rain":false}' });
    expect(parsed.chat.tools).toEqual([{ name: 'get', parameters: { type: 'object', properties: {} } }]);
  });

  it('text.format, reasoning.effort and flat tools map onto the chat request', () => {
    const parsed = parseResponsesRequest({ input: 'x', text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } }, reasoning: { effort: 'low' } }, {});
    expect(parsed.chat.responseFormat).toEqual({ type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true });
    expect(parsed.chat.reasoningEffort).toBe('low');
  });

  it('include, truncation and user are listed as ignored', () => {
    expect(parseResponsesRequest({ input: 'x', include: [], truncation: 'auto', user: 'u' }, {}).chat.ignoredParameters).toEqual(['include', 'truncation', 'user']);
    // So is any field the service does not read.
    expect(parseResponsesRequest({ input: 'x', user: 'u', service_tier: 'flex', prompt_cache_key: 'k', safety_identifier: null }, {}).chat.ignoredParameters).toEqual(['user', 'service_tier', 'prompt_cache_key']);
  });

  it.each([
    [{}, 'missing_field', 'input'],
    [{ input: [] }, 'invalid_value', 'input'],
    [{ input: [{ role: 'user' }] }, 'missing_field', 'input[0].content'],
    [{ input: [{ content: 'x' }] }, 'missing_field', 'input[0].role'],
    [{ input: [{ type: 'function_call_output', output: 'x' }] }, 'missing_field', 'input[0].call_id'],
    [{ input: [{ type: 'reasoning' }] }, 'unsupported_parameter', 'input[0].type'],
    [{ input: [{ role: 'user', content: [{ type: 'input_audio' }] }] }, 'unsupported_parameter', 'input[0].content[0].type'],
    [{ input: 'x', max_output_tokens: 0 }, 'invalid_value', 'max_output_tokens'],
    [{ input: 'x', temperature: 9 }, 'invalid_value', 'temperature'],
    [{ input: 'x', reasoning: { effort: 'huge' } }, 'invalid_value', 'reasoning.effort'],
    [{ input: 'x', background: true, store: false }, 'invalid_value', 'store'],
    [{ input: 'x', background: true, stream: true }, 'invalid_value', 'stream'],
    [{ input: 'x', metadata: { k: 1 } }, 'invalid_value', 'metadata'],
    [{ input: 'x', svc: { retention_days: 366 } }, 'invalid_value', 'svc.retention_days'],
    [{ input: 'x', svc: { compaction: 'never' } }, 'invalid_value', 'svc.compaction'],
    [{ input: 'x', tool_choice: 'required' }, 'invalid_value', 'tool_choice'],
    [{ input: 'x', top_p: 0 }, 'invalid_value', 'top_p'],
    [{ input: 'x', top_p: 1.01 }, 'invalid_value', 'top_p'],
    [{ input: 'x', top_p: '0.5' }, 'invalid_value', 'top_p'],
    [{ input: 'x', tools: [{ type: 'function', name: 'bad name!' }] }, 'invalid_value', 'tools[0].name'],
  ])('%j → %s %s', (body, code, param) => {
    const error = failure(body);
    expect([error.code, error.param]).toEqual([code, param]);
  });

  it('top_p is above 0 up to 1 (the chat rule is 0 to 1)', () => {
    expect(failure({ input: 'x', top_p: 0 }).message).toBe("'top_p' must be a number above 0 and up to 1.");
    expect(parseResponsesRequest({ input: 'x', top_p: 1 }, {}).chat.topP).toBe(1);
    expect(parseResponsesRequest({ input: 'x', top_p: 0.001 }, {}).chat.topP).toBe(0.001);
  });

  it('a tool_choice of no known shape is refused in the Responses shape', () => {
    const error = failure({ input: 'x', tools: [{ type: 'function', name: 'f' }], tool_choice: 'whatever' });
    expect([error.code, error.param, error.message]).toEqual(['invalid_value', 'tool_choice', "'tool_choice' must be 'auto', 'none', 'required' or {type: 'function', name}."]);
    expect(parseResponsesRequest({ input: 'x', tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'function', name: 'f' } }, {}).chat.toolChoice).toEqual({ name: 'f' });
  });

  it('a conversation is an id or {id}', () => {
    expect(parseResponsesRequest({ input: 'x', conversation: { id: 'conv_1' } }, {}).conversationId).toBe('conv_1');
    expect(parseResponsesRequest({ input: 'x', conversation: 'conv_2' }, {}).conversationId).toBe('conv_2');
  });
});

describe('parseInputItems', () => {
  it('names refusals under its root', () => {
    expect(() => parseInputItems([{ type: 'function_call', name: 'x' }], 'items')).toThrow(expect.objectContaining({ code: 'missing_field', param: 'items[0].call_id' }));
  });
});

describe('parseMetadata (responses, conversations, batches)', () => {
  it('counts characters as code points: 512 emoji fit, 513 do not; 64-character keys likewise', () => {
    expect(parseMetadata({ k: '😀'.repeat(512) })).toEqual({ k: '😀'.repeat(512) });
    expect(() => parseMetadata({ k: '😀'.repeat(513) })).toThrow(expect.objectContaining({ code: 'invalid_value', param: 'metadata' }));
    expect(parseMetadata({ ['😀'.repeat(64)]: 'v' })).toEqual({ ['😀'.repeat(64)]: 'v' });
    expect(() => parseMetadata({ ['😀'.repeat(65)]: 'v' })).toThrow(expect.objectContaining({ code: 'invalid_value' }));
  });

  it('refuses text that cannot be stored (a NUL, an unpaired surrogate) in a key or a value, naming it', () => {
    expect(() => parseMetadata({ a: '\u0000' })).toThrow(expect.objectContaining({ code: 'invalid_value', param: 'metadata.a' }));
    expect(() => parseMetadata({ a: '\ud800' })).toThrow(expect.objectContaining({ code: 'invalid_value', param: 'metadata.a' }));
    expect(() => parseMetadata({ 'a\u0000': 'b' })).toThrow(expect.objectContaining({ code: 'invalid_value', param: 'metadata' }));
    expect(parseMetadata({ emoji: '😀' })).toEqual({ emoji: '😀' });
  });

  it('takes up to 16 string pairs; absent or null is {}', () => {
    const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v']));
    expect(parseMetadata(sixteen)).toEqual(sixteen);
    expect(() => parseMetadata({ ...sixteen, k16: 'v' })).toThrow(expect.objectContaining({ code: 'invalid_value' }));
    expect(() => parseMetadata({ k: 1 })).toThrow(expect.objectContaining({ code: 'invalid_value' }));
    expect(() => parseMetadata([])).toThrow(expect.objectContaining({ code: 'invalid_value' }));
    expect(parseMetadata(undefined)).toEqual({});
    expect(parseMetadata(null)).toEqual({});
  });
});

describe('text that cannot be stored (NUL, unpaired surrogates)', () => {
  const refused = (body: Record<string, unknown>) => failure({ model: 'vendor-1/orion-5', ...body });

  it('refuses it with 400 invalid_value naming the field, before any vendor work', () => {
    expect(refused({ input: 'hello\u0000' })).toMatchObject({ code: 'invalid_value', param: 'input' });
    expect(refused({ input: 'a\ud800b' })).toMatchObject({ code: 'invalid_value', param: 'input' });
    expect(refused({ input: [{ role: 'user', content: [{ type: 'input_text', text: 'x\udc00' }] }] })).toMatchObject({ param: 'input[0].content[0].text' });
    expect(refused({ input: 'hi', instructions: 'be\u0000' })).toMatchObject({ param: 'instructions' });
    expect(refused({ input: 'hi', metadata: { ['k\u0000']: 'v' } })).toMatchObject({ param: 'metadata' });
  });

  it('takes paired surrogates (emoji) and, with store false, anything', () => {
    expect(() => parseResponsesRequest({ model: 'vendor-1/orion-5', input: 'party 🎉', metadata: { k: '🎉' } }, {})).not.toThrow();
    expect(() => parseResponsesRequest({ model: 'vendor-1/orion-5', input: 'hello\u0000', store: false }, {})).not.toThrow();
  });
});

describe('Responses field names in refusals', () => {
  it("names 'input' where the chat shape would say 'messages'", () => {
    const catchIt = (body: Record<string, unknown>) => failure({ model: 'vendor-1/orion-5', ...body });
    expect(catchIt({ input: [{ role: 'system', content: 'be nice' }] })).toMatchObject({ code: 'missing_messages', param: 'input' });
    expect(catchIt({ input: Array.from({ length: 4097 }, () => ({ role: 'user', content: 'x' })) })).toMatchObject({ code: 'too_many_messages', param: 'input', message: 'At most 4096 input items are allowed.' });
  });
});

describe('images downloaded after parsing', () => {
  it('name the input part, as the Responses API names it, for a later invalid_image_url', () => {
    const parsed = parseResponsesRequest(
      {
        model: 'vendor-1/orion-5',
        instructions: 'Describe.',
        input: [
          { role: 'user', content: 'first' },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'this one' }, { type: 'input_image', image_url: 'https://images.example/cat.png' }] },
        ],
      },
      {},
      { remoteImages: 'defer' },
    );
    expect(parsed.chat.images.map((image) => image.param)).toEqual(['input[1].content[1].image_url']);
  });
});
