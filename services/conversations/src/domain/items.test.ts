import { ServiceError } from '@svc/errors';
import { IMAGE_CHARACTERS } from '@svc/call';
import { compactionItem, isItemId, itemCharacters, normaliseInputItem, normaliseInputItems, prepareOutputItem, tokensOf } from './items';

function codeOf(run: () => unknown): { code: string; param: string | null } {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return { code: error.code, param: error.param };
    throw error;
  }
  throw new Error('did not throw');
}

describe('input items', () => {
  it('a string is one user message with an input_text part and a new msg_ id', () => {
    const [prepared] = normaliseInputItems('hello there', 'input');
    expect(prepared!.item).toEqual({ type: 'message', id: expect.stringMatching(/^msg_[0-9a-f]{32}$/), status: 'completed', role: 'user', content: [{ type: 'input_text', text: 'hello there' }] });
    expect(prepared!.characters).toBe(11);
  });

  it('text parts follow the role: input_text for user/system/developer, output_text for assistant', () => {
    const items = normaliseInputItems(
      [
        { role: 'developer', content: 'be brief' },
        { type: 'message', role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'output_text', text: 'b' }, { type: 'input_image', image_url: { url: 'https://x/y.png' }, detail: 'low' }] },
        { role: 'assistant', content: [{ type: 'input_text', text: 'c' }] },
      ],
      'input',
    );
    expect(items.map((prepared) => prepared.item)).toEqual([
      expect.objectContaining({ role: 'developer', content: [{ type: 'input_text', text: 'be brief' }] }),
      expect.objectContaining({ role: 'user', content: [{ type: 'input_text', text: 'a' }, { type: 'input_text', text: 'b' }, { type: 'input_image', image_url: 'https://x/y.png', detail: 'low' }] }),
      expect.objectContaining({ role: 'assistant', content: [{ type: 'output_text', text: 'c', annotations: [] }] }),
    ]);
    expect(items[1]!.characters).toBe(2 + IMAGE_CHARACTERS);
  });

  it('function calls and outputs get fc_ and fco_ ids; sent ids are not kept', () => {
    const [call, output] = normaliseInputItems(
      [
        { type: 'function_call', id: 'fc_client', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
      'input',
    );
    expect(call!.item).toEqual({ type: 'function_call', id: expect.stringMatching(/^fc_[0-9a-f]{32}$/), call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}', status: 'completed' });
    expect(output!.item).toEqual({ type: 'function_call_output', id: expect.stringMatching(/^fco_[0-9a-f]{32}$/), call_id: 'call_1', output: 'sunny', status: 'completed' });
    // The call pipeline counts a tool call as the JSON of {id, name, arguments}.
    expect(call!.characters).toBe(JSON.stringify([{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }]).length);
    expect(output!.characters).toBe(5);
  });

  it('a compaction item sent as input is kept as a summary with a cmp_ id', () => {
    const [summary] = normaliseInputItems([{ type: 'compaction', id: 'cmp_client', summary: 'earlier: greetings' }], 'input');
    expect(summary!.item).toEqual({ type: 'compaction', id: expect.stringMatching(/^cmp_[0-9a-f]{32}$/), summary: 'earlier: greetings' });
    expect(codeOf(() => normaliseInputItem({ type: 'compaction' }, 'input[0]'))).toEqual({ code: 'missing_field', param: 'input[0].summary' });
  });

  it('names the offending field with the spec codes', () => {
    expect(codeOf(() => normaliseInputItem({ content: 'x' }, 'items[0]'))).toEqual({ code: 'missing_field', param: 'items[0].role' });
    expect(codeOf(() => normaliseInputItem({ role: 'user' }, 'items[0]'))).toEqual({ code: 'missing_field', param: 'items[0].content' });
    expect(codeOf(() => normaliseInputItem({ role: 'tool', content: 'x' }, 'input[1]'))).toEqual({ code: 'invalid_value', param: 'input[1].role' });
    expect(codeOf(() => normaliseInputItem({ type: 'function_call_output', output: 'x' }, 'input[2]'))).toEqual({ code: 'missing_field', param: 'input[2].call_id' });
    expect(codeOf(() => normaliseInputItem({ type: 'function_call', call_id: 'c', name: 'n' }, 'input[0]'))).toEqual({ code: 'missing_field', param: 'input[0].arguments' });
    expect(codeOf(() => normaliseInputItem({ type: 'reasoning' }, 'input[0]'))).toEqual({ code: 'unsupported_parameter', param: 'input[0].type' });
    expect(codeOf(() => normaliseInputItem({ role: 'user', content: [{ type: 'input_audio' }] }, 'input[0]'))).toEqual({ code: 'unsupported_parameter', param: 'input[0].content[0].type' });
    expect(codeOf(() => normaliseInputItem({ role: 'user', content: [{ type: 'input_image' }] }, 'input[0]'))).toEqual({ code: 'missing_field', param: 'input[0].content[0].image_url' });
    expect(codeOf(() => normaliseInputItem({ role: 'assistant', content: [{ type: 'input_image', image_url: 'x' }] }, 'input[0]'))).toEqual({ code: 'invalid_value', param: 'input[0].content[0].type' });
    expect(codeOf(() => normaliseInputItem('text', 'items[3]'))).toEqual({ code: 'invalid_value', param: 'items[3]' });
    expect(codeOf(() => normaliseInputItems({ role: 'user' }, 'items'))).toEqual({ code: 'invalid_value', param: 'items' });
  });
});

describe('output items', () => {
  it('keeps the rendered shape and replaces the id', () => {
    const message = prepareOutputItem({ type: 'message', id: 'msg_resp_x_0', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hi!', annotations: [] }] }, 0);
    expect(message.item).toEqual({ type: 'message', id: expect.stringMatching(/^msg_[0-9a-f]{32}$/), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hi!', annotations: [] }] });
    expect(message.characters).toBe(3);
    const call = prepareOutputItem({ type: 'function_call', id: 'fc_resp_x_1', call_id: 'call_9', name: 'f', arguments: '{}', status: 'completed' }, 1);
    expect(call.item).toEqual({ type: 'function_call', id: expect.stringMatching(/^fc_[0-9a-f]{32}$/), call_id: 'call_9', name: 'f', arguments: '{}', status: 'completed' });
    expect(codeOf(() => prepareOutputItem({ type: 'reasoning' }, 2))).toEqual({ code: 'invalid_value', param: 'output[2].type' });
  });
});

describe('sizes and ids', () => {
  it('counts tokens with the call pipeline rule (characters / 4, rounded up)', () => {
    expect([tokensOf(0), tokensOf(1), tokensOf(4), tokensOf(5)]).toEqual([0, 1, 1, 2]);
    const compaction = compactionItem('summary text');
    expect(compaction.item).toEqual({ type: 'compaction', id: expect.stringMatching(/^cmp_[0-9a-f]{32}$/), summary: 'summary text' });
    expect(itemCharacters(compaction.item)).toBe(12);
  });

  it('recognises stored item ids of every kind', () => {
    const hex = 'a'.repeat(32);
    expect(['msg', 'fc', 'fco', 'cmp'].map((prefix) => isItemId(`${prefix}_${hex}`))).toEqual([true, true, true, true]);
    expect([isItemId(`resp_${hex}`), isItemId(`msg_${hex.toUpperCase()}`), isItemId('msg_resp_1_0')]).toEqual([false, false, false]);
  });
});
