import OpenAI from 'openai';
import { catalog } from '@svc/catalog';
import { listPricePico, percentOfPicoToMicros, roundPicoToMicros } from '@svc/pricing';
import { distribution, type SimQuestion } from '../../services/vendor-sim/src/protocols/decision';
import { fleetState } from '../support/fleet-state';

/**
 * The decision model named (spec: svc.decision; Errors, unsupported_for_model for the decision
 * model): typed answers through the openai SDK and plain fetch, the refusals with their params on
 * both APIs, and the cost against the catalog's list prices.
 */
const MODEL = 'vendor-8/decision-1.13.0';
const SYSTEM = 'Triage the support ticket.';
const TICKET = 'My blender order #4411 never arrived, I was charged twice and nobody answers my emails.';
const PROPERTIES = {
  sentiment: { type: 'string', enum: ['positive', 'neutral', 'negative'] },
  urgent: { type: 'boolean' },
  quality: { type: 'integer', minimum: 1, maximum: 5 },
} as const;
const SCHEMA = { type: 'object', properties: PROPERTIES, required: ['sentiment', 'urgent', 'quality'], additionalProperties: false };
const FORMAT = { type: 'json_schema', json_schema: { name: 'ticket', strict: true, schema: SCHEMA } } as const;
/** The questions the gateway asks vendor-8 for this schema (libs/call decision/questions.ts). */
const QUESTIONS: SimQuestion[] = [
  { name: 'sentiment', type: 'choice', options: ['positive', 'neutral', 'negative'] },
  { name: 'urgent', type: 'boolean' },
  { name: 'quality', type: 'score', min: 1, max: 5 },
];
const PROMPT = { model: 'decision-1.13.0', instructions: SYSTEM, messages: [{ role: 'user' as const, content: TICKET }] };

type Svc = Record<string, any>;
const svcOf = (value: unknown) => (value as { svc: Svc }).svc;

describe('the decision model answers typed questions (openai SDK)', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });

  it('a three-property schema: JSON answer, svc.decision in schema order with the spec shapes, from vendor-8', async () => {
    const { data: completion, response } = await client.chat.completions
      .create({ model: MODEL, response_format: FORMAT, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: TICKET }] })
      .withResponse();
    expect(response.headers.get('x-svc-vendor')).toBe('vendor-8');
    expect(completion.model).toBe(MODEL);
    expect(completion.choices[0].finish_reason).toBe('stop');
    const svc = svcOf(completion);
    expect(svc).toMatchObject({ vendor: 'vendor-8', model_served: MODEL, routing: { trigger: 'explicit' }, attempts: 1, tier: { requested: 'standard', applied: 'standard' } });
    expect(Object.keys(svc.decision)).toEqual(['sentiment', 'urgent', 'quality']);

    // Exactly the simulator's distributions for this prompt and question.
    const [choice, yes, score] = QUESTIONS.map((question) => distribution(PROMPT, question));
    const confidence = Math.max(...Object.values(choice));
    const best = Object.keys(choice).find((option) => choice[option] === confidence)!;
    const weighted = Math.round(Object.entries(score).reduce((sum, [level, p]) => sum + Number(level) * p, 0) * 10_000) / 10_000;
    const level = Math.floor(weighted + 0.5);
    expect(svc.decision).toEqual({
      sentiment: { type: 'choice', probabilities: choice, confidence },
      urgent: { type: 'noul', probability: yes.true },
      quality: { type: 'score', value: weighted, probabilities: score, confidence: score[String(level)] },
    });
    expect(Object.keys(svc.decision.sentiment.probabilities)).toEqual(['positive', 'neutral', 'negative']);
    expect(Object.keys(svc.decision.quality.probabilities)).toEqual(['1', '2', '3', '4', '5']);
    // The JSON answer: the most probable option, true at 0.5 and above, the weighted level rounded.
    const answer = JSON.parse(completion.choices[0].message.content!);
    expect(Object.keys(answer)).toEqual(['sentiment', 'urgent', 'quality']);
    expect(answer).toEqual({ sentiment: best, urgent: yes.true >= 0.5, quality: level });
  });

  it('is deterministic: the same request gets the same distributions', async () => {
    const body = { model: MODEL, response_format: FORMAT, messages: [{ role: 'system' as const, content: SYSTEM }, { role: 'user' as const, content: TICKET }] };
    const [first, second] = await Promise.all([client.chat.completions.create(body), client.chat.completions.create(body)]);
    expect(svcOf(second).decision).toEqual(svcOf(first).decision);
    expect(second.choices[0].message.content).toBe(first.choices[0].message.content);
  });

  it('bills its own list price: vendor micros, the 5% plan fee, no call fee, direct = list', async () => {
    const completion = await client.chat.completions.create({ model: MODEL, response_format: FORMAT, messages: [{ role: 'user', content: TICKET }] });
    const svc = svcOf(completion);
    const price = catalog.chatModel(MODEL)!.pricing;
    expect(price).toMatchObject({ input: 0.05, output: 0.2 });
    // One output token per question.
    expect(completion.usage).toMatchObject({ completion_tokens: 3, total_tokens: completion.usage!.prompt_tokens + 3 });
    const pico = listPricePico(price, { inputTokens: completion.usage!.prompt_tokens, outputTokens: 3, cachedTokens: 0, cacheWriteTokens: 0 });
    // e.g. 40 input tokens: 40 × 0.05 + 3 × 0.2 = 2.6 micros → 3.
    const vendor = roundPicoToMicros(pico);
    const fee = percentOfPicoToMicros(pico, catalog.data.plans.paid.service_fee_percent);
    expect(svc.cost).toEqual({ vendor_micros: vendor, service_fee_micros: fee, call_fee_micros: 0, savings_fee_micros: 0, classifier_micros: 0, direct_micros: vendor, saved_micros: vendor - (vendor + fee) });
    expect(svc.cost_micros).toBe(vendor + fee);
  });

  it('drops the sampling parameters it does not take', async () => {
    const { data, response } = await client.chat.completions.create({ model: MODEL, response_format: FORMAT, temperature: 0.3, top_p: 0.9, messages: [{ role: 'user', content: TICKET }] }).withResponse();
    expect(svcOf(data).dropped_parameters).toEqual(['temperature', 'top_p']);
    expect(response.headers.get('x-svc-dropped-params')).toBe('temperature,top_p');
  });

  it('answers on POST /v1/responses (text.format json_schema) with svc.decision', async () => {
    const response = await client.responses.create({ model: MODEL, instructions: SYSTEM, input: TICKET, store: false, text: { format: { type: 'json_schema', name: 'ticket', strict: true, schema: SCHEMA } } });
    expect(response.status).toBe('completed');
    const svc = svcOf(response);
    expect(svc.model_served).toBe(MODEL);
    expect(Object.keys(svc.decision)).toEqual(['sentiment', 'urgent', 'quality']);
    expect(Object.keys(JSON.parse(response.output_text))).toEqual(['sentiment', 'urgent', 'quality']);
    expect(svc.decision.urgent.type).toBe('noul');
  });
});

describe('what the decision model refuses: 400 unsupported_for_model naming the field (plain fetch)', () => {
  const state = fleetState();
  const post = async (path: string, body: Record<string, unknown>) => {
    const response = await fetch(`${state.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as { error: Record<string, unknown> }, vendor: response.headers.get('x-svc-vendor') };
  };
  const withProperty = (name: string, schema: unknown) => ({ type: 'json_schema', json_schema: { name: 'ticket', schema: { type: 'object', properties: { ...PROPERTIES, [name]: schema } } } });
  const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' } };
  const toolTurns = [
    { role: 'user', content: TICKET },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"id":"4411"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"status":"lost"}' },
  ];

  it.each<[string, Record<string, unknown>, string]>([
    ['no response_format', {}, 'response_format'],
    ['a text response_format', { response_format: { type: 'text' } }, 'response_format'],
    ['a json_object response_format', { response_format: { type: 'json_object' } }, 'response_format'],
    ['a schema without properties', { response_format: { type: 'json_schema', json_schema: { name: 't', schema: { type: 'object' } } } }, 'response_format.json_schema.schema'],
    ['a free-text property', { response_format: withProperty('note', { type: 'string' }) }, 'response_format.json_schema.schema.properties.note'],
    ['a number property', { response_format: withProperty('amount', { type: 'number' }) }, 'response_format.json_schema.schema.properties.amount'],
    ['a nested property', { response_format: withProperty('customer', { type: 'object', properties: { vip: { type: 'boolean' } } }) }, 'response_format.json_schema.schema.properties.customer'],
    ['an array property', { response_format: withProperty('tags', { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }) }, 'response_format.json_schema.schema.properties.tags'],
    ['tools', { response_format: FORMAT, tools: [{ type: 'function', function: { name: 'lookup_order', parameters: { type: 'object' } } }] }, 'tools'],
    ['images', { response_format: FORMAT, messages: [{ role: 'user', content: [{ type: 'text', text: TICKET }, image] }] }, 'messages'],
    ['tool results', { response_format: FORMAT, messages: toolTurns }, 'messages'],
    ['stream true', { response_format: FORMAT, stream: true }, 'stream'],
  ])('chat completions: %s → param %s', async (_name, body, param) => {
    const result = await post('/chat/completions', { model: MODEL, messages: [{ role: 'user', content: TICKET }], ...body });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param, code: 'unsupported_for_model' } });
  });

  const textFormat = (properties: Record<string, unknown>) => ({ format: { type: 'json_schema', name: 'ticket', schema: { type: 'object', properties } } });
  it.each<[string, Record<string, unknown>, string]>([
    ['no text.format', {}, 'text.format'],
    ['a free-text property', { text: textFormat({ ...PROPERTIES, note: { type: 'string' } }) }, 'text.format.schema.properties.note'],
    ['a nested property', { text: textFormat({ customer: { type: 'object', properties: {} } }) }, 'text.format.schema.properties.customer'],
    ['tools', { text: textFormat(PROPERTIES), tools: [{ type: 'function', name: 'lookup_order', parameters: { type: 'object' } }] }, 'tools'],
    ['images', { text: textFormat(PROPERTIES), input: [{ role: 'user', content: [{ type: 'input_text', text: TICKET }, { type: 'input_image', image_url: image.image_url.url }] }] }, 'input'],
    [
      'tool results',
      { text: textFormat(PROPERTIES), input: [{ role: 'user', content: TICKET }, { type: 'function_call', call_id: 'call_1', name: 'lookup_order', arguments: '{}' }, { type: 'function_call_output', call_id: 'call_1', output: '{"status":"lost"}' }] },
      'input',
    ],
    ['stream true', { text: textFormat(PROPERTIES), stream: true }, 'stream'],
  ])('responses: %s → param %s', async (_name, body, param) => {
    const result = await post('/responses', { model: MODEL, input: TICKET, store: false, ...body });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param, code: 'unsupported_for_model' } });
  });
});
