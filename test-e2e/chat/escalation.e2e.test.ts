import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import { fleetState } from '../support/fleet-state';

/**
 * Spec (svc.escalated_from): a non-streamed auto answer that fails the service's check is
 * replaced by a stronger model's answer (docs: the check is empty text, a tool call that does not
 * fit the request's tools, a missed tool_choice, or text that does not fit json_object /
 * json_schema). The simulator's `empty` and `not-json` faults, aimed at the picked model with
 * x-sim-fault-model, fail the check deterministically.
 */
type Svc = Record<string, any>;
const svcOf = (value: unknown) => (value as { svc: Svc }).svc;
const upstream = (model: string) => model.split('/').slice(1).join('/');

describe('escalation on chat completions: the answer check (openai SDK)', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });
  const messages = (tag: string) => [{ role: 'user' as const, content: `Write one friendly line about the weekly team meeting (${tag}).` }];

  async function pickFor(body: Record<string, unknown>): Promise<string> {
    const probe = await client.chat.completions.create({ model: 'auto', ...body } as never, { headers: { 'x-svc-session-id': `probe-${randomUUID()}` } });
    expect(svcOf(probe).escalated_from).toBeUndefined();
    return svcOf(probe).model_served as string;
  }

  it('an empty answer is replaced by a stronger model: escalated_from, trigger escalation, billed once; the session stays on the stronger model', async () => {
    const body = { messages: messages('empty') };
    const weak = await pickFor(body);
    const session = `esc-${randomUUID()}`;
    const headers = { 'x-sim-fault': 'empty', 'x-sim-fault-model': upstream(weak), 'x-svc-session-id': session };
    const { data: completion, response } = await client.chat.completions.create({ model: 'auto', ...body }, { headers }).withResponse();
    const svc = svcOf(completion);
    expect(svc.escalated_from).toBe(`auto/${weak}`);
    expect(svc.routing).toMatchObject({ line: 'auto', trigger: 'escalation' });
    expect(svc.model_served).not.toBe(weak);
    expect(completion.model).toBe(svc.model_served);
    expect(response.headers.get('x-svc-vendor')).toBe(svc.vendor);
    expect(completion.choices[0].message.content?.length).toBeGreaterThan(0);
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(svc.session_id).toBe(session);
    expect(svc.cost_micros).toBe(svc.cost.vendor_micros + svc.cost.service_fee_micros + svc.cost.call_fee_micros);
    // The replaced answer is not billed: the vendor price is the stronger model's own for the same request.
    // (Named with the reasoning level routing chose, so the stronger model thinks as much.)
    const named = await client.chat.completions.create({ model: svc.model_served, ...body, ...(svc.routing.effort ? { reasoning_effort: svc.routing.effort } : {}) } as never);
    expect(svcOf(named).cost.vendor_micros).toBe(svc.cost.vendor_micros);

    const next = await client.chat.completions.create(
      { model: 'auto', messages: [...body.messages, { role: 'assistant', content: completion.choices[0].message.content ?? '' }, { role: 'user', content: 'Thanks, now one line to close the meeting.' }] },
      { headers: { 'x-svc-session-id': session } },
    );
    expect(svcOf(next).model_served).toBe(svc.model_served);
    expect(svcOf(next).routing.trigger).toBe('new_human_message');
    expect(svcOf(next).escalated_from).toBeUndefined();
  });

  it('an answer that is not JSON under a json_schema response_format is replaced by one that fits', async () => {
    const body = {
      messages: messages('schema'),
      response_format: { type: 'json_schema' as const, json_schema: { name: 'line', strict: true, schema: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'], additionalProperties: false } } },
    };
    const weak = await pickFor(body);
    const completion = await client.chat.completions.create({ model: 'auto', ...body }, { headers: { 'x-sim-fault': 'not-json', 'x-sim-fault-model': upstream(weak) } });
    expect(svcOf(completion).escalated_from).toBe(`auto/${weak}`);
    expect(svcOf(completion).routing.trigger).toBe('escalation');
    const parsed = JSON.parse(completion.choices[0].message.content ?? '') as { line: unknown };
    expect(typeof parsed.line).toBe('string');
  });

  it('streams are not checked, named models are never escalated, and a passing answer is kept', async () => {
    const body = { messages: messages('stream') };
    const weak = await pickFor(body);
    const fault = { 'x-sim-fault': 'empty', 'x-sim-fault-model': upstream(weak) };
    const stream = await client.chat.completions.create({ model: 'auto', ...body, stream: true }, { headers: fault });
    let content = '';
    let svc: Svc | undefined;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta?.content ?? '';
      if ((chunk as unknown as { svc?: Svc }).svc) svc = (chunk as unknown as { svc: Svc }).svc;
    }
    expect(content).toBe('');
    expect(svc?.model_served).toBe(weak);
    expect(svc?.escalated_from).toBeUndefined();

    const named = await client.chat.completions.create({ model: weak, ...body }, { headers: fault });
    expect(named.choices[0].message.content).toBe('');
    expect(svcOf(named).escalated_from).toBeUndefined();

    const passing = await client.chat.completions.create({ model: 'auto', ...body });
    expect(svcOf(passing).model_served).toBe(weak);
    expect(svcOf(passing).escalated_from).toBeUndefined();
  });
});
