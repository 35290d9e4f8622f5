import { anthropicBatchLine } from '../anthropic/anthropic-batch';
import { geminiBatchLine } from '../gemini/gemini-batch';

describe('Anthropic Message Batches result lines', () => {
  it('reads succeeded, errored, canceled and expired lines', () => {
    const message = {
      id: 'msg_01FqfsLoHwgeFbguDgpz48m7',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'text', text: 'Paris.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, cache_read_input_tokens: 4, cache_creation_input_tokens: 0, output_tokens: 3, service_tier: 'batch' },
    };
    expect(anthropicBatchLine({ custom_id: 'a', result: { type: 'succeeded', message } })).toMatchObject({ customId: 'a', outcome: 'succeeded', result: { content: 'Paris.', finishReason: 'stop', usage: { inputTokens: 14, cachedTokens: 4, outputTokens: 3 } } });
    const errored = anthropicBatchLine({ custom_id: 'b', result: { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } } } });
    expect(errored).toMatchObject({ customId: 'b', outcome: 'errored', error: { kind: 'invalid_request', options: { reason: 'max_tokens: Field required' } } });
    expect(anthropicBatchLine({ custom_id: 'c', result: { type: 'errored', error: { type: 'overloaded_error', message: 'Overloaded' } } })).toMatchObject({ error: { kind: 'unavailable' } });
    expect(anthropicBatchLine({ custom_id: 'd', result: { type: 'canceled' } })).toEqual({ customId: 'd', outcome: 'cancelled' });
    expect(anthropicBatchLine({ custom_id: 'e', result: { type: 'expired' } })).toEqual({ customId: 'e', outcome: 'expired' });
    expect(() => anthropicBatchLine({ result: { type: 'expired' } })).toThrow('custom_id');
  });
});

describe('Gemini batch results', () => {
  it('reads inlined responses and responses-file lines, keyed by metadata.key or key', () => {
    const response = { candidates: [{ content: { parts: [{ text: 'Paris.' }], role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 2, totalTokenCount: 11 }, modelVersion: 'gemini-2.5-flash' };
    expect(geminiBatchLine({ response, metadata: { key: 'a' } })).toMatchObject({ customId: 'a', outcome: 'succeeded', result: { content: 'Paris.', finishReason: 'stop', usage: { inputTokens: 9, outputTokens: 2 } } });
    expect(geminiBatchLine({ key: 'b', response })).toMatchObject({ customId: 'b', outcome: 'succeeded' });
    expect(geminiBatchLine({ error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' }, metadata: { key: 'c' } })).toMatchObject({ outcome: 'errored', error: { kind: 'invalid_request', options: { reason: 'Invalid JSON payload received.' } } });
    expect(geminiBatchLine({ error: { code: 13, message: 'Internal error', status: 'INTERNAL' }, metadata: { key: 'd' } })).toMatchObject({ outcome: 'errored', error: { kind: 'server' } });
  });
});
