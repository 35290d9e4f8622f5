import OpenAI from 'openai';
import { catalog } from '@svc/catalog';
import { listPricePico, percentOfPicoToMicros, roundPicoToMicros } from '@svc/pricing';
import { fleetState } from '../support/fleet-state';

/**
 * jev under auto (spec: the `jev` lever, svc.routing, svc.decision): a json_schema of typed
 * questions on a job the decision model can do goes to it when it is cheaper than the routed
 * pick; a free-text field, a stream or the best line leave the request to the pick.
 */
const DECISION = 'vendor-8/decision-1.13.0';
// The router's trained classifier reads this as classification_tagging, easy, normal stakes.
const SYSTEM = 'Classify the review.';
const REVIEW = 'Is this review positive? "Great battery life, fast shipping, would buy again."';
const PROPERTIES = {
  sentiment: { type: 'string', enum: ['positive', 'neutral', 'negative'] },
  mentions_shipping: { type: 'boolean' },
  stars: { type: 'integer', minimum: 1, maximum: 5 },
};
const schemaOf = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });
const formatOf = (properties: Record<string, unknown>) => ({ type: 'json_schema' as const, json_schema: { name: 'review', strict: true, schema: schemaOf(properties) } });
const messages = [
  { role: 'system' as const, content: SYSTEM },
  { role: 'user' as const, content: REVIEW },
];

type Svc = Record<string, any>;
const svcOf = (value: unknown) => (value as { svc: Svc }).svc;
const micros = (usd: string) => Math.round(Number(usd) * 1_000_000);
/** The one token estimate (characters / 4, rounded up). */
const tokens = (characters: number) => Math.ceil(characters / 4);

describe('jev: auto answers typed questions with the decision model when cheaper', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });

  it('serves a classification of typed questions on the decision model, svc.routing says so, svc.decision in schema order', async () => {
    const completion = await client.chat.completions.create({ model: 'auto', response_format: formatOf(PROPERTIES), messages });
    const svc = svcOf(completion);
    expect(svc.model_served).toBe(DECISION);
    expect(svc.vendor).toBe('vendor-8');
    expect(svc.routing).toMatchObject({ line: 'auto', task_type: 'classification_tagging', stakes: 'normal' });
    expect(svc.routing.reason).toMatch(/^jev: the json_schema maps onto the decision model's questions and it is cheaper \(decision-1\.13\.0 \d+\.\d{6} USD, pick vendor-\d\/[a-z0-9.-]+ \d+\.\d{6} USD\)\./);
    expect(Object.keys(svc.decision)).toEqual(['sentiment', 'mentions_shipping', 'stars']);
    expect(svc.decision).toMatchObject({ sentiment: { type: 'choice' }, mentions_shipping: { type: 'noul' }, stars: { type: 'score' } });
    const answer = JSON.parse(completion.choices[0].message.content!);
    expect(Object.keys(answer)).toEqual(['sentiment', 'mentions_shipping', 'stars']);
  });

  it('the prices in the reason are the list prices of the estimate, and the decision model’s is lower', async () => {
    const completion = await client.chat.completions.create({ model: 'auto', response_format: formatOf(PROPERTIES), messages });
    const [, jevUsd, pickModel, pickUsd] = /\(decision-1\.13\.0 (\d+\.\d{6}) USD, pick (\S+) (\d+\.\d{6}) USD\)/.exec(svcOf(completion).routing.reason)!;
    // Input: the system prompt and the message, characters / 4.
    const input = tokens(SYSTEM.length + REVIEW.length);
    // The decision model reads the questions' JSON too and bills one output token per question.
    const questions = [
      { name: 'sentiment', type: 'choice', options: ['positive', 'neutral', 'negative'] },
      { name: 'mentions_shipping', type: 'boolean' },
      { name: 'stars', type: 'score', min: 1, max: 5 },
    ];
    const decision = catalog.chatModel(DECISION)!.pricing;
    const jev = listPricePico(decision, { inputTokens: input + tokens(JSON.stringify(questions).length), outputTokens: 3, cachedTokens: 0, cacheWriteTokens: 0 });
    expect(micros(jevUsd)).toBe(roundPicoToMicros(jev));
    // The pick reads the schema's JSON and writes the widest answer the schema allows.
    const pick = catalog.chatModel(pickModel)!.pricing;
    const widest = JSON.stringify({ sentiment: 'positive', mentions_shipping: false, stars: 5 });
    const routed = listPricePico(pick, { inputTokens: input + tokens(JSON.stringify(schemaOf(PROPERTIES)).length), outputTokens: tokens(widest.length), cachedTokens: 0, cacheWriteTokens: 0 });
    expect(micros(pickUsd)).toBe(roundPicoToMicros(routed));
    expect(jev < routed).toBe(true);
  });

  it('bills the decision model’s own list price, the plan fee and the auto fee once', async () => {
    const completion = await client.chat.completions.create({ model: 'auto', response_format: formatOf(PROPERTIES), messages });
    const svc = svcOf(completion);
    expect(svc.model_served).toBe(DECISION);
    const pico = listPricePico(catalog.chatModel(DECISION)!.pricing, { inputTokens: completion.usage!.prompt_tokens, outputTokens: completion.usage!.completion_tokens, cachedTokens: 0, cacheWriteTokens: 0 });
    const vendor = roundPicoToMicros(pico);
    const fee = percentOfPicoToMicros(pico, catalog.data.plans.paid.service_fee_percent);
    expect(completion.usage!.completion_tokens).toBe(3);
    expect(svc.cost).toMatchObject({ vendor_micros: vendor, service_fee_micros: fee, call_fee_micros: catalog.data.auto_call_fee_micros, savings_fee_micros: 0, classifier_micros: 0 });
    expect(svc.cost_micros).toBe(vendor + fee + catalog.data.auto_call_fee_micros);
  });

  it('also on POST /v1/responses (text.format json_schema)', async () => {
    const response = await client.responses.create({ model: 'auto', instructions: SYSTEM, input: REVIEW, store: false, text: { format: { type: 'json_schema', name: 'review', strict: true, schema: schemaOf(PROPERTIES) } } });
    const svc = svcOf(response);
    expect(svc.model_served).toBe(DECISION);
    expect(svc.routing.reason).toMatch(/^jev: /);
    expect(Object.keys(svc.decision)).toEqual(['sentiment', 'mentions_shipping', 'stars']);
    expect(Object.keys(JSON.parse(response.output_text))).toEqual(['sentiment', 'mentions_shipping', 'stars']);
  });

  it('not when the schema has a free-text field: the routed pick answers', async () => {
    const completion = await client.chat.completions.create({ model: 'auto', response_format: formatOf({ ...PROPERTIES, summary: { type: 'string' } }), messages });
    const svc = svcOf(completion);
    expect(svc.model_served).not.toBe(DECISION);
    expect(svc.decision).toBeUndefined();
    expect(svc.routing.reason ?? '').not.toMatch(/jev/);
    expect(typeof JSON.parse(completion.choices[0].message.content!).summary).toBe('string');
  });

  it('not on the best line, nor on a stream', async () => {
    const best = await client.chat.completions.create({ model: 'auto/best', response_format: formatOf(PROPERTIES), messages });
    expect(svcOf(best).model_served).not.toBe(DECISION);
    const stream = await client.chat.completions.create({ model: 'auto', stream: true, response_format: formatOf(PROPERTIES), messages });
    let served = '';
    for await (const chunk of stream) if ((chunk as unknown as { svc?: Svc }).svc) served = svcOf(chunk).model_served;
    expect(served).not.toBe('');
    expect(served).not.toBe(DECISION);
  });

  it('falls back to the routed pick when the decision model fails, and then reports the router’s routing', async () => {
    const completion = await client.chat.completions.create({ model: 'auto', response_format: formatOf(PROPERTIES), messages }, { headers: { 'x-sim-fault': 'status:500', 'x-sim-fault-model': 'decision-1.13.0' } });
    const svc = svcOf(completion);
    expect(svc.model_served).not.toBe(DECISION);
    expect(svc.attempts).toBe(2);
    expect(svc.decision).toBeUndefined();
    expect(svc.routing.reason ?? '').not.toMatch(/^jev/);
  });
});
