import { ServiceError } from '@svc/errors';
import { expiresAtFor, renderConversation, rfc3339, validateMetadata, validateRetentionDays } from './conversation-object';
import { assignOutputIds, getView, parseResponseBody } from './response-object';

const code = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return error instanceof ServiceError ? `${error.code}:${error.param}` : 'other';
  }
};

describe('conversation object', () => {
  const row = {
    id: 'conv_' + 'a'.repeat(32),
    metadata: { topic: 'demo' },
    retentionDays: null,
    expiresAt: new Date('2025-03-01T10:00:00.750Z'),
    lastTurnAt: new Date('2025-02-01T10:00:00.250Z'),
    createdAt: new Date('2025-01-01T00:00:01.999Z'),
  };

  it('renders the spec shape, retention_days only when the conversation has its own', () => {
    expect(renderConversation(row, { entries: 3, characters: 9 })).toEqual({
      id: row.id,
      object: 'conversation',
      created_at: 1735689601,
      metadata: { topic: 'demo' },
      svc: { entries: 3, token_estimate: 3, expires_at: '2025-03-01T10:00:00Z', last_turn_at: '2025-02-01T10:00:00Z' },
    });
    expect(renderConversation({ ...row, retentionDays: 0 }, { entries: 0, characters: 0 }).svc.retention_days).toBe(0);
  });

  it('rfc3339 and the retention clock', () => {
    expect(rfc3339(new Date('2025-01-02T03:04:05.678Z'))).toBe('2025-01-02T03:04:05Z');
    expect(expiresAtFor(new Date('2025-01-01T00:00:00Z'), 30).toISOString()).toBe('2025-01-31T00:00:00.000Z');
    expect(expiresAtFor(new Date('2025-01-01T00:00:00Z'), 0).toISOString()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('metadata: up to 16 string keys, keys up to 64 and values up to 512 characters', () => {
    expect(validateMetadata(undefined)).toEqual({});
    expect(validateMetadata(null)).toEqual({});
    expect(validateMetadata({ a: 'b' })).toEqual({ a: 'b' });
    const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v']));
    expect(code(() => validateMetadata(sixteen))).toBe('ok');
    expect(code(() => validateMetadata({ ...sixteen, k16: 'v' }))).toBe('invalid_value:metadata');
    expect(code(() => validateMetadata({ a: 1 }))).toBe('invalid_value:metadata');
    expect(code(() => validateMetadata(['a']))).toBe('invalid_value:metadata');
    expect(code(() => validateMetadata({ ['k'.repeat(65)]: 'v' }))).toBe('invalid_value:metadata');
    expect(code(() => validateMetadata({ k: 'v'.repeat(513) }))).toBe('invalid_value:metadata');
  });

  it('retention_days: an integer 0 to 365', () => {
    expect([0, 365].map((days) => validateRetentionDays(days))).toEqual([0, 365]);
    for (const days of [-1, 366, 1.5]) expect(code(() => validateRetentionDays(days))).toBe('invalid_value:svc.retention_days');
  });
});

describe('response object', () => {
  const id = 'resp_' + 'b'.repeat(32);
  const conversation = 'conv_' + 'c'.repeat(32);

  it('replaces the stream ids of the output by stored ids and sets the conversation', () => {
    const body = parseResponseBody(
      {
        id,
        object: 'response',
        status: 'completed',
        output: [
          { type: 'function_call', id: `fc_${id}_0`, call_id: 'call_1', name: 'f', arguments: '{}', status: 'completed' },
          { type: 'message', id: `msg_${id}_1`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'done', annotations: [] }] },
        ],
        conversation: null,
      },
      id,
    );
    const { body: stored, items, storedIds } = assignOutputIds(body, conversation);
    expect(stored.conversation).toEqual({ id: conversation });
    expect(storedIds).toEqual([
      { index: 0, previous_id: `fc_${id}_0`, id: expect.stringMatching(/^fc_[0-9a-f]{32}$/) },
      { index: 1, previous_id: `msg_${id}_1`, id: expect.stringMatching(/^msg_[0-9a-f]{32}$/) },
    ]);
    expect((stored.output as Array<{ id: string }>).map((item) => item.id)).toEqual(storedIds.map((entry) => entry.id));
    expect(items.map((prepared) => prepared.item)).toEqual(stored.output);
  });

  it('refuses another id, an unknown status or a non-array output', () => {
    expect(code(() => parseResponseBody({ id: 'resp_other', status: 'completed' }, id))).toBe('invalid_value:response.id');
    expect(code(() => parseResponseBody({ status: 'in_progress' }, id))).toBe('invalid_value:response.status');
    expect(code(() => parseResponseBody({ status: 'completed', output: {} }, id))).toBe('invalid_value:response.output');
    expect(parseResponseBody({ status: 'queued' }, id)).toEqual({ id, status: 'queued', output: [] });
  });

  it('GET shows max_output_tokens null, tools [], tool_choice auto, parallel_tool_calls true', () => {
    expect(getView({ id, max_output_tokens: 100, tools: [{ type: 'function', name: 'f' }], tool_choice: 'required', parallel_tool_calls: false, model: 'm' })).toEqual({
      id,
      max_output_tokens: null,
      tools: [],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      model: 'm',
    });
  });
});
