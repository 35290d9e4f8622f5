import { ResponsesStreamWriter, outputItems, replayEvents, responseObject, servedHead, withStoredIds } from './responses';

const parse = (bytes: string) =>
  bytes
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [event, data] = block.split('\n');
      return { event: event.slice('event: '.length), data: JSON.parse(data.slice('data: '.length)) as Record<string, unknown> };
    });

describe('ResponsesStreamWriter', () => {
  it('text: the spec order, sequence numbers from 0, stream item ids', () => {
    const writer = new ResponsesStreamWriter('resp_1');
    const bytes = writer.start({ id: 'resp_1' }) + writer.textDelta('Hel') + writer.textDelta('lo') + writer.finish(false) + writer.end('completed', { id: 'resp_1' });
    const events = parse(bytes);
    expect(events.map((event) => event.event)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_event, index) => index));
    expect(events.every((event) => event.data.type === event.event)).toBe(true);
    expect(events[4].data).toMatchObject({ item_id: 'msg_resp_1_0', output_index: 0, content_index: 0, delta: 'Hel' });
    expect(events[6].data).toMatchObject({ text: 'Hello' });
    expect(writer.items()).toEqual([{ type: 'message', id: 'msg_resp_1_0', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hello', annotations: [] }] }]);
  });

  it('tool calls: added, argument deltas, done; text closed first', () => {
    const writer = new ResponsesStreamWriter('resp_2');
    const bytes = writer.textDelta('Let me check.') + writer.toolCallStart(0, 'call_a', 'get') + writer.toolCallDelta(0, '{"x"') + writer.toolCallDelta(0, ':1}') + writer.finish(false);
    const types = parse(bytes).map((event) => event.event);
    expect(types).toEqual(['response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done']);
    expect(writer.items()[1]).toEqual({ type: 'function_call', id: 'fc_resp_2_1', call_id: 'call_a', name: 'get', arguments: '{"x":1}', status: 'completed' });
  });

  it('error after the stream began', () => {
    const writer = new ResponsesStreamWriter('resp_3');
    expect(parse(writer.error('upstream_error', 'bad'))[0]).toEqual({ event: 'error', data: { type: 'error', sequence_number: 0, code: 'upstream_error', message: 'bad', param: null } });
  });
});

describe('responseObject', () => {
  const head = { id: 'resp_4', createdAt: 1, model: 'm', metadata: {}, store: true, background: false, maxOutputTokens: 4096, conversationId: 'conv_1', echo: { tools: [], toolChoice: 'auto', parallelToolCalls: true } };
  it('incomplete carries incomplete_details; usage in the Responses shape', () => {
    const output = outputItems('resp_4', { content: 'Hi', toolCalls: [] }, true);
    const object = responseObject(head, { status: 'incomplete', output, usage: { inputTokens: 10, outputTokens: 3, cachedTokens: 4, cacheWriteTokens: 0 } });
    expect(object).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, conversation: { id: 'conv_1' }, usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 4 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 13 } });
  });

  it('stored ids replace the stream ids by position', () => {
    const output = outputItems('resp_4', { content: 'Hi', toolCalls: [{ id: 'c', name: 'n', arguments: '{}' }] }, false);
    expect(withStoredIds(output, [{ index: 1, id: 'fc_stored' }, { index: 0, id: 'msg_stored' }]).map((item) => item.id)).toEqual(['msg_stored', 'fc_stored']);
  });
});

describe('servedHead (max_output_tokens as applied)', () => {
  const head = { id: 'resp_5', createdAt: 1, model: 'auto', metadata: {}, store: true, background: false, maxOutputTokens: 100_000, conversationId: 'conv_1', echo: { tools: [], toolChoice: 'auto', parallelToolCalls: true } };
  it('names the model that answered and lowers max_output_tokens to what it was sent with; null stays null', () => {
    expect(servedHead(head, { model: 'vendor-4/atlas-3.1-8b', maxTokens: 8192 })).toMatchObject({ model: 'vendor-4/atlas-3.1-8b', maxOutputTokens: 8192 });
    expect(servedHead({ ...head, maxOutputTokens: 100 }, { model: 'm', maxTokens: 100 })).toMatchObject({ maxOutputTokens: 100 });
    expect(servedHead({ ...head, maxOutputTokens: null }, { model: 'm', maxTokens: 100 })).toMatchObject({ maxOutputTokens: null });
    expect(responseObject(servedHead(head, { model: 'm', maxTokens: 4096 }), { status: 'completed', output: [], usage: null }).max_output_tokens).toBe(4096);
  });
});

describe('replayEvents (GET ?stream=true)', () => {
  const message = { type: 'message', id: 'msg_a', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] };

  it('a completed response: the live order, ending with response.completed carrying it', () => {
    const events = parse(replayEvents({ id: 'resp_1', status: 'completed', output: [message] }));
    expect(events.map((event) => event.event)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
    expect(events.at(-1)!.data.response).toMatchObject({ id: 'resp_1', status: 'completed', output: [{ id: 'msg_a' }] });
    // The stream form of the id until the terminal event, as a live stream sends it.
    expect(events[4]!.data).toMatchObject({ type: 'response.output_text.delta', item_id: 'msg_resp_1_0', delta: 'Hi' });
    expect(events[7]!.data).toMatchObject({ item: { id: 'msg_resp_1_0', status: 'completed' } });
  });

  it('a failed response: its error event before response.failed, as the live stream sent them', () => {
    const events = parse(replayEvents({ id: 'resp_2', status: 'failed', output: [], error: { code: 'upstream_error', message: 'The vendor failed.' } }));
    expect(events.map((event) => event.event)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);
    expect(events[2].data).toEqual({ type: 'error', sequence_number: 2, code: 'upstream_error', message: 'The vendor failed.', param: null });
    expect(parse(replayEvents({ id: 'resp_2', status: 'failed', output: [], error: { code: 'upstream_error', message: 'x' } }, 2)).map((event) => event.event)).toEqual(['response.failed']);
  });

  it('a cancelled response ends with response.failed and no error event', () => {
    expect(parse(replayEvents({ id: 'resp_3', status: 'cancelled', output: [], error: { code: 'cancelled', message: 'x' } })).map((event) => event.event)).toEqual(['response.created', 'response.in_progress', 'response.failed']);
  });
});
