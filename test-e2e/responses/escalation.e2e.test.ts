import OpenAI from 'openai';
import { blendedPrice, catalog } from '@svc/catalog';
import { fleetState } from '../support/fleet-state';

/**
 * Spec (Escalation): on POST /v1/responses under auto, with tool_choice auto or absent, a hidden
 * tool lets the model say the task is beyond it; the turn re-runs with full history on a
 * stronger model; svc.escalated_from `line/model`, routing.trigger `escalation`; later turns stay
 * on the stronger model; the hidden call never appears in output, stored items or the stream.
 * The simulator calls the hidden tool when the last user message carries `[tool:svc_escalate]`
 * and the gateway offers it (services/vendor-sim/README.md).
 */
type Svc = Record<string, any>;
const svcOf = (value: unknown) => (value as { svc: Svc }).svc;
const HIDDEN = 'svc_escalate';
const tools = [{ type: 'function' as const, name: 'lookup', description: 'Look a word up in the glossary', parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] }, strict: false }];

describe('escalation on POST /v1/responses (openai SDK and raw stream bytes)', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });
  const prompt = (tag: string) => `Say hello to the team in one short sentence (${tag}). [tool:${HIDDEN}]`;

  /** The model auto picks for this input when escalation cannot run (tool_choice required): the model an escalation starts from. */
  async function pickFor(input: string): Promise<string> {
    return (await probeFor(input)).model_served as string;
  }
  async function probeFor(input: string): Promise<Svc> {
    const probe = await client.responses.create({ model: 'auto', input, tools, tool_choice: 'required', store: false });
    expect(svcOf(probe).escalated_from).toBeUndefined();
    return svcOf(probe);
  }

  it('the hidden call re-runs the turn on a stronger model; nothing of it is in the output or the stored items; one bill for the answer', async () => {
    const input = prompt('unary');
    const probe = await probeFor(input);
    const weak = probe.model_served as string;
    const { data: response, response: raw } = await client.responses.create({ model: 'auto', input, tools }).withResponse();
    const svc = svcOf(response);
    expect(svc.escalated_from).toBe(`auto/${weak}`);
    expect(svc.routing).toMatchObject({ line: 'auto', trigger: 'escalation' });
    expect(svc.model_served).not.toBe(weak);
    // One floor step up under the skills rule; the earlier rule reports no floor.
    const floors = ['none', 'middle', 'top'];
    if (probe.routing.floor) expect(floors.indexOf(svc.routing.floor)).toBe(floors.indexOf(probe.routing.floor) + 1);
    else expect(svc.routing.floor).toBeUndefined();
    expect(response.model).toBe(svc.model_served);
    expect(raw.headers.get('x-svc-vendor')).toBe(svc.vendor);
    expect(response.status).toBe('completed');
    expect(JSON.stringify(response.output)).not.toContain(HIDDEN);
    expect(response.output.map((item) => item.type)).toEqual(['message']);
    expect(response.output_text.length).toBeGreaterThan(0);
    // Billing: the auto fee once; cost_micros is the answer's own vendor price, fee and call fee.
    expect(svc.cost.call_fee_micros).toBeGreaterThan(0);
    expect(svc.cost_micros).toBe(svc.cost.vendor_micros + svc.cost.service_fee_micros + svc.cost.call_fee_micros);
    // The same request named to the stronger model costs the same at the vendor: the replaced answer is not billed.
    // (Named with the reasoning level routing chose, so the stronger model thinks as much.)
    const named = await client.responses.create({ model: svc.model_served, input, tools, store: false, ...(svc.routing.effort ? { reasoning: { effort: svc.routing.effort } } : {}) } as never);
    expect(svcOf(named).cost.vendor_micros).toBe(svc.cost.vendor_micros);
    expect(response.usage?.input_tokens).toBe(named.usage?.input_tokens);

    const conversationId = (response as unknown as { conversation: { id: string } }).conversation.id;
    expect(svc.session_id).toBe(conversationId);
    // Stored: the user's message (which names the simulator's marker) and the answer; no function call.
    const items = await client.conversations.items.list(conversationId, { order: 'asc' });
    expect(items.data.map((item) => [item.type, (item as { role?: string }).role])).toEqual([['message', 'user'], ['message', 'assistant']]);
    expect(JSON.stringify(items.data[1])).not.toContain(HIDDEN);
    const fetched = await client.responses.retrieve(response.id);
    expect(svcOf(fetched).escalated_from).toBe(`auto/${weak}`);
    expect(JSON.stringify(fetched.output)).not.toContain(HIDDEN);

    // Later turns of the conversation stay on the stronger model: each is routed with the
    // session's floor step, and served by the stronger model unless its own pick at that step is
    // dearer (services/router/src/routing/route.ts). Which of the two a later turn's kind of work
    // leads to is the classifier's reading of it, so the test accepts either and checks the rule.
    const price = (model: string) => blendedPrice(catalog.chatModel(model)!.pricing);
    const stays = (later: Svc) => later.model_served === svc.model_served || price(later.model_served) > price(svc.model_served);
    const next = await client.responses.create({ model: 'auto', input: 'Thanks. Now say goodbye to them.', previous_response_id: response.id, tools });
    expect(stays(svcOf(next))).toBe(true);
    expect(svcOf(next).escalated_from).toBeUndefined();
    expect(svcOf(next).routing.trigger).toBe('new_human_message');
    const third = await client.responses.create({ model: 'auto', input: 'One more short line for them, please.', conversation: conversationId, tools } as never);
    expect(stays(svcOf(third))).toBe(true);
    // Never back to a cheaper model than the one the escalation moved to.
    for (const later of [svcOf(next), svcOf(third)]) expect(price(later.model_served)).toBeGreaterThanOrEqual(price(svc.model_served));
  });

  it('a stream never shows the hidden call: the stronger model streams, response.completed carries escalated_from', async () => {
    const input = prompt('stream');
    const weak = await pickFor(input);
    const response = await fetch(`${state.baseUrl}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'auto', input, tools, stream: true }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = await response.text();
    expect(body).not.toContain(HIDDEN);
    const events = body
      .trim()
      .split('\n\n')
      .map((block) => JSON.parse(block.split('\n').find((line) => line.startsWith('data: '))!.slice(6)) as { type: string; sequence_number: number; response?: Svc; item?: { type: string } });
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, i) => i));
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...events.filter((event) => event.type === 'response.output_text.delta').map(() => 'response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const completed = events.at(-1)!.response!;
    expect(completed.svc.escalated_from).toBe(`auto/${weak}`);
    expect(completed.svc.routing.trigger).toBe('escalation');
    expect(completed.model).toBe(completed.svc.model_served);
    expect(response.headers.get('x-svc-vendor')).toBe(completed.svc.vendor);
    expect(events[0].response!.model).toBe(completed.svc.model_served);
    const items = await client.conversations.items.list(completed.conversation.id, { order: 'asc' });
    expect(items.data.map((item) => [item.type, (item as { role?: string }).role])).toEqual([['message', 'user'], ['message', 'assistant']]);
  });

  it('no escalation where the spec does not offer it: a named model, tool_choice none or a named function', async () => {
    const input = prompt('not offered');
    const named = await client.responses.create({ model: 'vendor-1/orion-nano-5', input, tools });
    expect(svcOf(named).escalated_from).toBeUndefined();
    expect(svcOf(named).model_served).toBe('vendor-1/orion-nano-5');
    const none = await client.responses.create({ model: 'auto', input, tools, tool_choice: 'none' });
    expect(svcOf(none).escalated_from).toBeUndefined();
    expect(svcOf(none).routing.trigger).not.toBe('escalation');
    const forced = await client.responses.create({ model: 'auto', input, tools, tool_choice: { type: 'function', name: 'lookup' } });
    expect(svcOf(forced).escalated_from).toBeUndefined();
    expect(forced.output.map((item) => (item as { name?: string }).name)).toEqual(['lookup']);
  });

  it("a client's own tool named svc_escalate is the client's: its call is in the output, unary and streamed, named or auto", async () => {
    const own = [{ type: 'function' as const, name: HIDDEN, description: 'The client’s own tool', parameters: { type: 'object', properties: {} }, strict: false }];
    const input = `Please do the thing now. [tool:${HIDDEN}]`;
    for (const model of ['vendor-5/breeze-small-3.2', 'auto']) {
      const unary = await client.responses.create({ model, input, tools: own });
      expect(unary.output.map((item) => [item.type, (item as { name?: string }).name])).toEqual([['function_call', HIDDEN]]);
      expect(svcOf(unary).escalated_from).toBeUndefined();
      const chat = await client.chat.completions.create({ model, messages: [{ role: 'user', content: input }], tools: own.map(({ name, description, parameters }) => ({ type: 'function' as const, function: { name, description, parameters } })) });
      expect(chat.choices[0]!.finish_reason).toBe('tool_calls');
      expect(chat.choices[0]!.message.tool_calls?.map((call) => (call as { function: { name: string } }).function.name)).toEqual([HIDDEN]);
    }
  });
});
