import { ServiceError } from '@svc/errors';
import { parseChatRequest, estimateInputTokens } from './request';

const user = { role: 'user', content: 'hi' };
const failure = (body: unknown, headers: Record<string, string> = {}): ServiceError => {
  try {
    parseChatRequest(body, headers);
  } catch (error) {
    return error as ServiceError;
  }
  throw new Error('expected a failure');
};

describe('parseChatRequest', () => {
  it('defaults an omitted model to auto', () => {
    expect(parseChatRequest({ messages: [user] }, {}).model).toBe('auto');
  });

  it('joins system and developer texts with a blank line into one system prompt', () => {
    const parsed = parseChatRequest({ messages: [{ role: 'system', content: 'A' }, { role: 'developer', content: [{ type: 'text', text: 'B' }] }, user] }, {});
    expect(parsed.system).toBe('A\n\nB');
    expect(parsed.messages).toHaveLength(1);
  });

  it('replaces invalid tool-call argument JSON with {}', () => {
    const parsed = parseChatRequest(
      { messages: [user, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{not json' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'ok' }] },
      {},
    );
    expect(parsed.messages[1]).toEqual({ role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'f', arguments: '{}' }] });
  });

  it('lets max_completion_tokens win over max_tokens', () => {
    expect(parseChatRequest({ messages: [user], max_tokens: 10, max_completion_tokens: 20 }, {}).maxTokens).toBe(20);
  });

  it.each([
    [{}, 'missing_messages'],
    [{ messages: [] }, 'missing_messages'],
    [{ messages: [{ role: 'system', content: 'only system' }] }, 'missing_messages'],
    [{ messages: Array.from({ length: 4097 }, () => user) }, 'too_many_messages'],
  ])('refuses %j with %s', (body, code) => {
    expect(failure(body).code).toBe(code);
  });

  it.each(['logprobs', 'top_logprobs', 'audio', 'prediction', 'web_search_options'])('refuses %s with unsupported_parameter', (field) => {
    expect(failure({ messages: [user], [field]: field === 'top_logprobs' ? 2 : true })).toMatchObject({ code: 'unsupported_parameter', param: field });
  });

  it('refuses n above 1, non-text modalities and the legacy function role', () => {
    expect(failure({ messages: [user], n: 2 })).toMatchObject({ code: 'unsupported_parameter', param: 'n' });
    expect(failure({ messages: [user], modalities: ['text', 'audio'] })).toMatchObject({ code: 'unsupported_parameter', param: 'modalities' });
    expect(failure({ messages: [{ role: 'function', content: 'x', name: 'f' }] })).toMatchObject({ code: 'unsupported_parameter', param: 'messages[0].role' });
  });

  it('names the field of an out-of-range value', () => {
    expect(failure({ messages: [user], temperature: 3 })).toMatchObject({ code: 'invalid_value', param: 'temperature', status: 400 });
    expect(failure({ messages: [user], top_p: -1 })).toMatchObject({ code: 'invalid_value', param: 'top_p' });
    expect(failure({ messages: [{ role: 'robot', content: 'x' }] })).toMatchObject({ code: 'invalid_value', param: 'messages[0].role' });
  });

  it('lists accepted-and-ignored parameters only when non-default', () => {
    const parsed = parseChatRequest({ messages: [user], seed: 1, presence_penalty: 0, frequency_penalty: 0.5, logit_bias: {} }, {});
    expect(parsed.ignoredParameters).toEqual(['seed', 'frequency_penalty']);
  });

  it('lets x-svc-* headers win over the body', () => {
    const parsed = parseChatRequest({ messages: [user], svc: { session_id: 'body', fallback: 'none' } }, { 'x-svc-session-id': 'header', 'x-svc-fallback': 'same_vendor' });
    expect(parsed.svc).toMatchObject({ sessionId: 'header', fallback: 'same_vendor' });
  });

  it('refuses a bad svc.fallback with param svc.fallback', () => {
    expect(failure({ messages: [user] }, { 'x-svc-fallback': 'sometimes' })).toMatchObject({ code: 'invalid_value', param: 'svc.fallback' });
  });

  it('estimates input tokens as characters / 4', () => {
    expect(estimateInputTokens(parseChatRequest({ messages: [{ role: 'system', content: 'abcd' }, { role: 'user', content: 'abcdefgh' }] }, {}))).toBe(3);
  });
});
