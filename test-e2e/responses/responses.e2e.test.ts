import OpenAI from 'openai';
import { fleetState, newOrganization } from '../support/fleet-state';

const MODEL = 'vendor-1/orion-mini-5';
type Svc = Record<string, unknown>;
const svcOf = (value: unknown) => (value as { svc: Svc }).svc;

describe('POST /v1/responses and the stored turn (openai SDK)', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });

  it('answers a string input with a stored response in a new conversation', async () => {
    const response = await client.responses.create({ model: MODEL, input: 'Say hello.' });
    expect(response.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(response).toMatchObject({ object: 'response', status: 'completed', model: MODEL, store: true, error: null, incomplete_details: null, previous_response_id: null, max_output_tokens: 4096, tool_choice: 'auto', parallel_tool_calls: true, tools: [] });
    expect(response.output).toHaveLength(1);
    const message = response.output[0] as { type: string; id: string; role: string; status: string; content: Array<{ type: string; text: string; annotations: unknown[] }> };
    expect(message).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
    expect(message.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(message.content[0]).toMatchObject({ type: 'output_text', annotations: [] });
    expect(response.output_text.length).toBeGreaterThan(0);
    const usage = response.usage!;
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
    expect(usage.input_tokens_details.cached_tokens).toBe(0);
    expect(usage.output_tokens_details.reasoning_tokens).toBe(0);
    const conversation = (response as unknown as { conversation: { id: string } }).conversation;
    expect(conversation.id).toMatch(/^conv_[0-9a-f]{32}$/);
    expect(svcOf(response)).toMatchObject({ call_id: `call_${response.id.slice(5)}`, session_id: conversation.id, vendor: 'vendor-1', model_served: MODEL });
  });

  it('GET shows the stored response (max_output_tokens null, tools [], tool_choice auto, parallel_tool_calls true)', async () => {
    const created = await client.responses.create({ model: MODEL, input: 'Remember me.', tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} }, strict: false }], tool_choice: 'none' });
    const fetched = await client.responses.retrieve(created.id);
    expect(fetched).toMatchObject({ id: created.id, status: 'completed', max_output_tokens: null, tools: [], tool_choice: 'auto', parallel_tool_calls: true });
    expect(fetched.output.map((item) => (item as { id: string }).id)).toEqual(created.output.map((item) => (item as { id: string }).id));
  });

  it('continues a thread by previous_response_id and by conversation; items list all turns in order', async () => {
    const first = await client.responses.create({ model: MODEL, input: 'First question.' });
    const conversationId = (first as unknown as { conversation: { id: string } }).conversation.id;
    const second = await client.responses.create({ model: MODEL, input: 'Second question.', previous_response_id: first.id });
    expect((second as unknown as { conversation: { id: string } }).conversation.id).toBe(conversationId);
    expect(second.previous_response_id).toBe(first.id);
    // More input than the first turn: the history was sent.
    expect(second.usage!.input_tokens).toBeGreaterThan(first.usage!.input_tokens);
    const third = await client.responses.create({ model: MODEL, input: 'Third question.', conversation: conversationId } as never);
    expect(third.usage!.input_tokens).toBeGreaterThan(second.usage!.input_tokens);
    const items = await client.conversations.items.list(conversationId, { order: 'asc' });
    const messages = items.data.filter((item) => item.type === 'message') as Array<{ role: string; content: Array<{ text: string }> }>;
    expect(messages.map((item) => item.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(messages[0].content[0].text).toBe('First question.');
    expect(messages[4].content[0].text).toBe('Third question.');
  });

  it('an older previous_response_id branches: the new turn does not see the other branch', async () => {
    const root = await client.responses.create({ model: MODEL, input: 'Root.' });
    const a = await client.responses.create({ model: MODEL, input: 'Branch A with a long long message to make the history bigger than the other branch.', previous_response_id: root.id });
    const b = await client.responses.create({ model: MODEL, input: 'B.', previous_response_id: root.id });
    expect(b.usage!.input_tokens).toBeLessThan(a.usage!.input_tokens);
  });

  it('store false keeps nothing: the id is not retrievable', async () => {
    const response = await client.responses.create({ model: MODEL, input: 'Do not keep this.', store: false });
    expect(response.store).toBe(false);
    expect((response as unknown as { conversation: unknown }).conversation).toBeNull();
    // Its output items still carry item ids of the message form.
    expect(response.output[0]).toMatchObject({ type: 'message', id: expect.stringMatching(/^msg_[0-9a-f]{32}$/) });
    await expect(client.responses.retrieve(response.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
  });

  it('DELETE removes the turn and what follows it on its thread', async () => {
    const first = await client.responses.create({ model: MODEL, input: 'One.' });
    const second = await client.responses.create({ model: MODEL, input: 'Two.', previous_response_id: first.id });
    const deleted = await client.responses.delete(first.id);
    expect(deleted).toEqual({ id: first.id, object: 'response', deleted: true });
    await expect(client.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
    await expect(client.responses.retrieve(second.id)).rejects.toMatchObject({ status: 404 });
  });

  it('a turn from a response follows its stored history at once: items added, the response deleted (the edge drops its copy when the history changes)', async () => {
    const first = await client.responses.create({ model: MODEL, input: 'One.' });
    const second = await client.responses.create({ model: MODEL, input: 'Two.', previous_response_id: first.id });
    const conversationId = (second as unknown as { conversation: { id: string } }).conversation.id;
    // Twice from the same response: the same input both ways (the second from the edge's copy).
    const before = await client.responses.create({ model: MODEL, input: 'Three.', previous_response_id: second.id, store: false });
    const again = await client.responses.create({ model: MODEL, input: 'Three.', previous_response_id: second.id, store: false });
    expect(again.usage!.input_tokens).toBe(before.usage!.input_tokens);
    // Items added to the conversation are part of every thread's history from now on.
    await client.conversations.items.create(conversationId, { items: [{ type: 'message', role: 'user', content: 'A note added to the conversation afterwards, long enough to count for several tokens.' }] });
    const after = await client.responses.create({ model: MODEL, input: 'Three.', previous_response_id: second.id, store: false });
    expect(after.usage!.input_tokens).toBeGreaterThan(before.usage!.input_tokens);
    // Deleting the first turn deletes the second: continuing from it is refused, stored or not.
    await client.responses.delete(first.id);
    await expect(client.responses.create({ model: MODEL, input: 'Four.', previous_response_id: second.id, store: false })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
    await expect(client.responses.create({ model: MODEL, input: 'Four.', previous_response_id: second.id })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
  });

  it('a function call, then its output in the next turn', async () => {
    const tools = [{ type: 'function' as const, name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: false }];
    const call = await client.responses.create({ model: MODEL, input: 'What is the weather in Oslo? [tool]', tools });
    const item = call.output.find((entry) => entry.type === 'function_call') as { id: string; call_id: string; name: string; arguments: string; status: string };
    expect(item).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' });
    expect(item.id).toMatch(/^fc_[0-9a-f]{32}$/);
    expect(() => JSON.parse(item.arguments)).not.toThrow();
    const answer = await client.responses.create({ model: MODEL, previous_response_id: call.id, tools, input: [{ type: 'function_call_output', call_id: item.call_id, output: '{"celsius": 4}' }] });
    expect(answer.status).toBe('completed');
    expect(answer.output[0].type).toBe('message');
  });

  it('max_output_tokens hit: status incomplete with incomplete_details', async () => {
    const response = await client.responses.create({ model: MODEL, input: 'Write a long story about the sea, with many details.', max_output_tokens: 3 });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
  });

  it('refusals in the envelope with the Responses field names', async () => {
    await expect(client.responses.create({ model: MODEL } as never)).rejects.toMatchObject({ status: 400, code: 'missing_field', param: 'input' });
    await expect(client.responses.create({ model: MODEL, input: [{ role: 'user' }] } as never)).rejects.toMatchObject({ status: 400, code: 'missing_field', param: 'input[0].content' });
    await expect(client.responses.create({ model: MODEL, input: 'x', temperature: 3 })).rejects.toMatchObject({ status: 400, code: 'invalid_value', param: 'temperature' });
    await expect(client.responses.create({ model: MODEL, input: 'x', max_output_tokens: 0 })).rejects.toMatchObject({ status: 400, code: 'invalid_value', param: 'max_output_tokens' });
    await expect(client.responses.create({ model: MODEL, input: 'x', previous_response_id: 'resp_0123456789abcdef0123456789abcdef' })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
    await expect(client.responses.create({ model: 'no-such/model', input: 'x' })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('text that cannot be stored (a NUL, an unpaired surrogate) is 400 invalid_value, refused with the request (before any vendor work)', async () => {
    const org = newOrganization({ credit: '5000000' });
    const own = new OpenAI({ baseURL: state.baseUrl, apiKey: org.apiKey, maxRetries: 0 });
    await expect(own.responses.create({ model: MODEL, input: 'hello\u0000' })).rejects.toMatchObject({ status: 400, code: 'invalid_value', param: 'input' });
    await expect(own.responses.create({ model: MODEL, input: 'hi', instructions: 'a\ud800b' })).rejects.toMatchObject({ status: 400, code: 'invalid_value', param: 'instructions' });
    await expect(own.conversations.create({ metadata: { k: 'v\u0000' } })).rejects.toMatchObject({ status: 400, code: 'invalid_value', param: 'metadata.k' });
    // A body that is not an object is invalid_json, as on every other endpoint.
    const array = await fetch(`${state.baseUrl}/conversations`, { method: 'POST', headers: { authorization: `Bearer ${org.apiKey}`, 'content-type': 'application/json' }, body: '[]' });
    expect(array.status).toBe(400);
    expect((await array.json()).error.code).toBe('invalid_json');
    // The same text with store false is sent on (nothing is stored).
    expect((await own.responses.create({ model: MODEL, input: 'hello\u0000', store: false })).status).toBe('completed');
  });

  it('include, truncation and user are accepted and listed in svc.ignored_parameters', async () => {
    const response = await client.responses.create({ model: MODEL, input: 'hi', user: 'u1', truncation: 'auto' } as never);
    expect(svcOf(response).ignored_parameters).toEqual(['truncation', 'user']);
  });

  it('rate-limit headers on every responses response; 402 at zero balance before any vendor work', async () => {
    const created = await client.responses.create({ model: MODEL, input: 'Headers.' });
    for (const response of [
      await fetch(`${state.baseUrl}/responses/${created.id}`, { headers: { authorization: `Bearer ${state.apiKey}` } }),
      await fetch(`${state.baseUrl}/responses/resp_0123456789abcdef0123456789abcdef`, { headers: { authorization: `Bearer ${state.apiKey}` } }),
    ]) {
      expect(response.headers.get('x-ratelimit-limit-requests')).toMatch(/^\d+$/);
      expect(response.headers.get('x-ratelimit-remaining-tokens')).toMatch(/^\d+$/);
    }
    const broke = newOrganization({ credit: '0', orgFlags: ['--stop-at-zero'] });
    const client402 = new OpenAI({ baseURL: state.baseUrl, apiKey: broke.apiKey, maxRetries: 0 });
    await expect(client402.responses.create({ model: MODEL, input: 'No credit.' })).rejects.toMatchObject({ status: 402, code: 'insufficient_credits' });
  });

  it("another organization's response and conversation ids are not found", async () => {
    const mine = await client.responses.create({ model: MODEL, input: 'Private.' });
    const other = newOrganization();
    const stranger = new OpenAI({ baseURL: state.baseUrl, apiKey: other.apiKey, maxRetries: 0 });
    await expect(stranger.responses.retrieve(mine.id)).rejects.toMatchObject({ status: 404, code: 'response_not_found' });
    const conversationId = (mine as unknown as { conversation: { id: string } }).conversation.id;
    await expect(stranger.conversations.retrieve(conversationId)).rejects.toMatchObject({ status: 404, code: 'conversation_not_found' });
    await expect(stranger.responses.create({ model: MODEL, input: 'x', previous_response_id: mine.id })).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found' });
  });
});

describe('Responses stream (spec: Responses stream)', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });

  it('the SDK stream ends with the stored response', async () => {
    const stream = client.responses.stream({ model: MODEL, input: 'Stream hello.' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(final.status).toBe('completed');
    const message = final.output[0] as { id: string; content: Array<{ text: string }> };
    expect(deltas.join('')).toBe(message.content[0].text);
    expect(message.id).toMatch(/^msg_[0-9a-f]{32}$/);
    const fetched = await client.responses.retrieve(final.id);
    expect(fetched.output_text).toBe(message.content[0].text);
  });

  it('raw bytes: event and data lines, sequence numbers from 0, the text order, no [DONE]', async () => {
    const response = await fetch(`${state.baseUrl}/responses`, { method: 'POST', headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, input: 'Raw bytes please.', stream: true }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-svc-vendor')).toBe('vendor-1');
    const text = await response.text();
    expect(text).not.toContain('[DONE]');
    const blocks = text.split('\n\n').filter((block) => block.trim() !== '');
    const events = blocks.map((block) => {
      const [eventLine, dataLine, ...rest] = block.split('\n');
      expect(rest).toEqual([]);
      expect(eventLine).toMatch(/^event: /);
      expect(dataLine).toMatch(/^data: /);
      const data = JSON.parse(dataLine.slice(6)) as { type: string; sequence_number: number; item_id?: string };
      expect(data.type).toBe(eventLine.slice(7));
      return data;
    });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
    const types = events.map((event) => event.type);
    const compact = types.filter((type, index) => type !== 'response.output_text.delta' || types[index - 1] !== 'response.output_text.delta');
    expect(compact).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
    const delta = events.find((event) => event.type === 'response.output_text.delta')!;
    expect(delta).toMatchObject({ output_index: 0, content_index: 0 });
    const completed = events.at(-1) as unknown as { response: { id: string; output: Array<{ id: string }> } };
    expect(delta.item_id).toBe(`msg_${completed.response.id}_0`);
    expect(completed.response.output[0].id).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it('raw bytes of a tool call: added, arguments deltas, arguments done, item done', async () => {
    const body = { model: MODEL, stream: true, input: 'Weather in Paris? [tool]', tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] };
    const response = await fetch(`${state.baseUrl}/responses`, { method: 'POST', headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const types = (await response.text())
      .split('\n\n')
      .filter((block) => block.trim() !== '')
      .map((block) => (JSON.parse(block.split('\n')[1].slice(6)) as { type: string }).type);
    const compact = types.filter((type, index) => type !== 'response.function_call_arguments.delta' || types[index - 1] !== 'response.function_call_arguments.delta');
    expect(compact).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done', 'response.completed']);
  });
});

describe('a Responses stream that fails once it began (spec: Responses stream, States and transitions)', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });

  it('sends event: error, then response.failed; the failed response and the conversation it names read back', async () => {
    const response = await fetch(`${state.baseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json', 'x-svc-fallback': 'none', 'x-sim-fault': 'cut:2' },
      body: JSON.stringify({ model: MODEL, input: 'Tell me a longer story please.', stream: true }),
    });
    expect(response.status).toBe(200);
    const events = (await response.text())
      .split('\n\n')
      .filter((block) => block.trim() !== '')
      .map((block) => ({ event: block.split('\n')[0].slice(7), data: JSON.parse(block.split('\n')[1].slice(6)) as Record<string, unknown> }));
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_event, index) => index));
    const [error, failed] = events.slice(-2);
    expect(error.event).toBe('error');
    expect(error.data).toEqual({ type: 'error', sequence_number: events.length - 2, code: 'upstream_error', message: expect.any(String), param: null });
    expect(failed.event).toBe('response.failed');
    const object = failed.data.response as { id: string; status: string; conversation: { id: string }; error: { code: string }; output: Array<{ id: string }> };
    expect(object).toMatchObject({ status: 'failed', error: { code: 'upstream_error' } });
    const created = events[0].data.response as { id: string; conversation: { id: string } };
    expect(object.id).toBe(created.id);
    expect(object.conversation.id).toBe(created.conversation.id);
    // The ids the client was given read back: the response as the terminal event showed it.
    // The text the cut cut short is not an item: what is stored is whole.
    expect(object.output).toEqual([]);
    const fetched = await client.responses.retrieve(object.id);
    expect(fetched).toMatchObject({ id: object.id, status: 'failed', error: { code: 'upstream_error' } });
    expect(fetched.output.map((item) => (item as { id: string }).id)).toEqual(object.output.map((item) => item.id));
    const conversation = await client.conversations.retrieve(object.conversation.id);
    expect(conversation.id).toBe(object.conversation.id);
    const items = await client.conversations.items.list(object.conversation.id);
    expect(items.data.map((item) => [item.type, (item as { role?: string }).role, (item as { status?: string }).status])).toEqual([['message', 'user', 'completed']]);
    // A failed response is not the conversation's latest turn: a turn continuing the conversation answers.
    const next = await client.responses.create({ model: MODEL, input: 'Try again.', conversation: object.conversation.id } as never);
    expect(next.status).toBe('completed');
  });
});

describe('GET /v1/responses/{id}?stream=true replays a stored response', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });

  it('replays the events from any point (starting_after), ending with the stored response', async () => {
    const created = await client.responses.create({ model: MODEL, input: 'Replay me.' });
    const all: Array<{ type: string; sequence_number: number }> = [];
    for await (const event of await client.responses.retrieve(created.id, { stream: true })) all.push(event as never);
    expect(all.map((event) => event.sequence_number)).toEqual(all.map((_event, index) => index));
    expect(all[0].type).toBe('response.created');
    const last = all.at(-1) as unknown as { type: string; response: { id: string; output: Array<{ id: string }> } };
    expect(last.type).toBe('response.completed');
    expect(last.response.output[0].id).toBe((created.output[0] as { id: string }).id);
    // As a live stream: the stream form of the item id until the terminal event.
    const delta = all.find((event) => event.type === 'response.output_text.delta') as unknown as { item_id: string };
    expect(delta.item_id).toBe(`msg_${created.id}_0`);
    const later: Array<{ sequence_number: number }> = [];
    for await (const event of await client.responses.retrieve(created.id, { stream: true, starting_after: 2 })) later.push(event as never);
    expect(later[0].sequence_number).toBe(3);
    expect(later).toHaveLength(all.length - 3);
  });
});

describe('conversation endpoints (openai SDK)', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });

  it('create with metadata and items, get, update metadata, add and list items, delete', async () => {
    const created = await client.conversations.create({ metadata: { topic: 'demo' }, items: [{ type: 'message', role: 'user', content: 'Stored without a turn.' }] });
    expect(created.id).toMatch(/^conv_[0-9a-f]{32}$/);
    expect(created).toMatchObject({ object: 'conversation', metadata: { topic: 'demo' } });
    expect(svcOf(created)).toMatchObject({ entries: 1 });
    expect(await client.conversations.retrieve(created.id)).toMatchObject({ id: created.id, metadata: { topic: 'demo' } });
    expect(await client.conversations.update(created.id, { metadata: { topic: 'changed' } })).toMatchObject({ metadata: { topic: 'changed' } });
    // A body without metadata replaces nothing.
    const untouched = await fetch(`${state.baseUrl}/conversations/${created.id}`, { method: 'POST', headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json' }, body: '{}' });
    expect(await untouched.json()).toMatchObject({ id: created.id, metadata: { topic: 'changed' } });
    const added = await client.conversations.items.create(created.id, { items: [{ type: 'message', role: 'user', content: 'Another.' }] });
    expect(added.data).toHaveLength(1);
    const listed = await client.conversations.items.list(created.id, { limit: 1, order: 'desc' });
    expect(listed.data).toHaveLength(1);
    expect((listed.data[0] as { content: Array<{ text: string }> }).content[0].text).toBe('Another.');
    const next = await client.conversations.items.list(created.id, { limit: 1, order: 'desc', after: listed.data[0].id as string });
    expect((next.data[0] as { content: Array<{ text: string }> }).content[0].text).toBe('Stored without a turn.');
    const deleted = await client.conversations.delete(created.id);
    expect(deleted).toMatchObject({ id: created.id, object: 'conversation.deleted', deleted: true });
    await expect(client.conversations.retrieve(created.id)).rejects.toMatchObject({ status: 404, code: 'conversation_not_found' });
  });

  it('items of several MB in one request are stored (the service-to-service messages take what the 32 MB body limit lets in)', async () => {
    // Each over grpc's default 4 MiB message, within the thread's 2,000,000 estimated tokens.
    const created = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'x'.repeat(4_500_000) }] });
    expect(svcOf(created)).toMatchObject({ entries: 1 });
    const conversation = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'A start.' }] });
    const added = await client.conversations.items.create(conversation.id, { items: Array.from({ length: 3 }, (_, index) => ({ type: 'message' as const, role: 'user' as const, content: `${index}`.repeat(1_500_000) })) });
    expect(added.data).toHaveLength(3);
    const listed = await client.conversations.items.list(conversation.id, { limit: 10 });
    expect(listed.data).toHaveLength(4);
    await client.conversations.delete(created.id);
    await client.conversations.delete(conversation.id);
  }, 60_000);

  it('a thread holds at most 4000 entries: the turn past it is refused before any vendor work', async () => {
    const items = Array.from({ length: 3999 }, (_, index) => ({ type: 'message' as const, role: 'user' as const, content: `note ${index}` }));
    const conversation = await client.conversations.create({ items });
    expect(svcOf(conversation)).toMatchObject({ entries: 3999 });
    await expect(client.responses.create({ model: MODEL, input: 'one more', conversation: conversation.id } as never)).rejects.toMatchObject({ status: 400, code: 'conversation_too_large' });
    await expect(client.conversations.items.create(conversation.id, { items: [{ type: 'message', role: 'user', content: 'a' }, { type: 'message', role: 'user', content: 'b' }, { type: 'message', role: 'user', content: 'c' }] })).rejects.toMatchObject({ status: 400, code: 'conversation_too_large' });
    expect(svcOf(await client.conversations.retrieve(conversation.id))).toMatchObject({ entries: 3999 });
  });

  it('refuses bad metadata, retention and list parameters', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`k${index}`, 'v']));
    await expect(client.conversations.create({ metadata: tooMany })).rejects.toMatchObject({ status: 400, code: 'invalid_value', param: 'metadata' });
    await expect(client.conversations.create({ svc: { retention_days: 400 } } as never)).rejects.toMatchObject({ status: 400, code: 'invalid_value', param: 'svc.retention_days' });
    const created = await client.conversations.create({});
    await expect(client.conversations.items.list(created.id, { limit: 101 })).rejects.toMatchObject({ status: 400, code: 'invalid_value', param: 'limit' });
    await expect(client.conversations.items.create(created.id, { items: [] })).rejects.toMatchObject({ status: 400, code: 'missing_field', param: 'items' });
  });

  it('a response in a conversation created first continues it; retention 0 deletes it once answered', async () => {
    const conversation = await client.conversations.create({});
    const response = await client.responses.create({ model: MODEL, input: 'In a given conversation.', conversation: conversation.id } as never);
    expect((response as unknown as { conversation: { id: string } }).conversation.id).toBe(conversation.id);
    const fleeting = await client.responses.create({ model: MODEL, input: 'Forget me.', svc: { retention_days: 0 } } as never);
    const fleetingConversation = (fleeting as unknown as { conversation: { id: string } }).conversation.id;
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(client.conversations.retrieve(fleetingConversation)).rejects.toMatchObject({ status: 404 });
    await expect(client.responses.retrieve(fleeting.id)).rejects.toMatchObject({ status: 404 });
  });
});
