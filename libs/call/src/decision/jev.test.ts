import { catalog, DECISION_MODEL_ID, type ChatModel } from '@svc/catalog';
import { parseChatRequest } from '../request/chat-request';
import { DEFAULT_JEV_SETTINGS, jevCheck, jevPrices, jevReason, jevRoute, type JevJob } from './jev';

const THREE = { sentiment: { type: 'string', enum: ['positive', 'neutral', 'negative'] }, urgent: { type: 'boolean' }, quality: { type: 'integer', minimum: 1, maximum: 5 } };
const schemaFormat = (properties: Record<string, unknown>) => ({ type: 'json_schema', json_schema: { name: 'ticket', schema: { type: 'object', properties } } });
// 40,000 characters: 10,000 input tokens by the one estimate (characters / 4).
const request = (body: Record<string, unknown> = {}) => parseChatRequest({ model: 'auto', messages: [{ role: 'user', content: 'x'.repeat(40_000) }], response_format: schemaFormat(THREE), ...body }, {});
const job: JevJob = { line: 'auto', task_type: 'classification_tagging', difficulty: 2, stakes: 'normal', confidence: 0.8 };
const nano = catalog.chatModel('vendor-1/orion-nano-5')!;
const decision = catalog.chatModel(DECISION_MODEL_ID)!;

describe('jev prices (list prices, the one token estimate)', () => {
  it('prices both sides from the catalog rates', () => {
    const prices = jevPrices(decision, nano, request(), [
      { name: 'sentiment', type: 'choice', options: ['positive', 'neutral', 'negative'] },
      { name: 'urgent', type: 'boolean' },
      { name: 'quality', type: 'score', min: 1, max: 5 },
    ]);
    // The questions' JSON is 167 characters (42 tokens); the schema's 184 (46); the widest answer
    // {"sentiment":"positive","urgent":false,"quality":5} 51 (13); one output token per question.
    expect(prices.tokens).toEqual({ input: 10_000, jevInput: 10_042, jevOutput: 3, pickInput: 10_046, pickOutput: 13 });
    // decision-1.13.0: 10,042 × 0.05 + 3 × 0.2 = 502.7 micros → 503.
    expect(decision.pricing).toMatchObject({ input: 0.05, output: 0.2 });
    expect(prices.jevMicros).toBe(503);
    // orion-nano-5: 10,046 × 0.05 + 13 × 0.4 = 507.5 micros → 508 (half up).
    expect(nano.pricing).toMatchObject({ input: 0.05, output: 0.4 });
    expect(prices.pickMicros).toBe(508);
    expect(prices.cheaper).toBe(true);
  });
});

describe('jevCheck: the gate, then the price check', () => {
  it('applies to typed questions on a classification job when cheaper, with the analyzer params', () => {
    const check = jevCheck(catalog, request(), job, nano);
    expect(check).toMatchObject({
      applies: true,
      model: 'decision-1.13.0',
      fields: [
        { name: 'sentiment', type: 'choice' },
        { name: 'urgent', type: 'boolean' },
        { name: 'quality', type: 'score' },
      ],
      pickModel: 'vendor-1/orion-nano-5',
      jevUsd: 0.000503,
      pickUsd: 0.000508,
    });
    expect(check.reason).toBeUndefined();
  });

  it.each<[string, Parameters<typeof jevCheck>, string]>([
    ['a free-text field', [catalog, request({ response_format: schemaFormat({ ...THREE, note: { type: 'string' } }) }), job, nano], 'not_typed'],
    ['no json_schema', [catalog, request({ response_format: { type: 'json_object' } }), job, nano], 'not_typed'],
    ['tools', [catalog, request({ tools: [{ type: 'function', function: { name: 'f' } }] }), job, nano], 'request'],
    ['a stream', [catalog, request({ stream: true }), job, nano], 'request'],
    ['images', [catalog, request({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }] }), job, nano], 'request'],
    ['the best line', [catalog, request(), { ...job, line: 'best' }, nano], 'line'],
    ['a writing job', [catalog, request(), { ...job, task_type: 'content_writing' }, nano], 'task_type'],
    ['no classification', [catalog, request(), { line: 'auto', difficulty: 0, confidence: 0 }, nano], 'task_type'],
    ['a hard job', [catalog, request(), { ...job, difficulty: 4 }, nano], 'difficulty'],
    ['high stakes', [catalog, request(), { ...job, stakes: 'high' }, nano], 'stakes'],
    ['low confidence', [catalog, request(), { ...job, confidence: 0.4 }, nano], 'confidence'],
    ['a key that may not use it', [catalog, request(), job, nano, { access: { key_allowed: ['vendor-1/orion-nano-5'] } }], 'model_access'],
    ['an organization that switched it off', [catalog, request(), job, nano, { access: { organization_disabled: [DECISION_MODEL_ID] } }], 'model_access'],
    ['svc.vendors', [catalog, request(), job, nano, { vendors: ['vendor-1'] }], 'vendors'],
    ['the Free limits', [catalog, request(), job, nano, { free_plan: true }], 'free_plan'],
    ['an input over its window', [catalog, request({ messages: [{ role: 'user', content: 'x'.repeat(4 * 40_000) }] }), job, nano], 'context'],
    ['jev switched off', [catalog, request(), job, nano, {}, { ...DEFAULT_JEV_SETTINGS, enabled: false }], 'disabled'],
  ])('not for %s', (_name, args, reason) => {
    const check = jevCheck(...args);
    expect(check.applies).toBe(false);
    expect(check.reason).toBe(reason);
  });

  it('not when the pick is cheaper (price_check), with both prices', () => {
    // A pick at 0.04 input: 10,046 × 0.04 + 13 × 0.4 = 407.04 micros, under the decision model's 502.7.
    const cheap: ChatModel = { ...nano, id: 'vendor-1/cheaper', pricing: { ...nano.pricing, input: 0.04 } };
    const check = jevCheck(catalog, request(), job, cheap);
    expect(check).toMatchObject({ applies: false, reason: 'price_check', pickModel: 'vendor-1/cheaper', jevUsd: 0.000503, pickUsd: 0.000407 });
  });

  it('follows the configured thresholds', () => {
    const settings = { ...DEFAULT_JEV_SETTINGS, taskTypes: ['qa_knowledge'], maxDifficulty: 5, minConfidence: 0.9, lines: ['auto', 'best'] };
    expect(jevCheck(catalog, request(), { ...job, task_type: 'qa_knowledge', difficulty: 5, confidence: 0.95, line: 'best' }, nano, {}, settings).applies).toBe(true);
    expect(jevCheck(catalog, request(), job, nano, {}, settings).reason).toBe('task_type');
  });
});

describe('the routing decision jev makes', () => {
  const check = jevCheck(catalog, request(), job, nano);

  it('puts the decision model first and keeps the routed candidates as fallbacks', () => {
    const route = jevRoute(catalog, { candidates: [{ model: nano.id, vendor: 'vendor-1' }, { model: 'vendor-3/lumen-2.5-flash-lite', vendor: 'vendor-3' }], routing: { line: 'auto', reason: 'Sentiment labels for a review.' }, auto: true }, check);
    expect(route.candidates.map((candidate) => candidate.model)).toEqual([DECISION_MODEL_ID, nano.id, 'vendor-3/lumen-2.5-flash-lite']);
    expect(route.routing?.reason).toBe("jev: the json_schema maps onto the decision model's questions and it is cheaper (decision-1.13.0 0.000503 USD, pick vendor-1/orion-nano-5 0.000508 USD). Sentiment labels for a review.");
    expect(route.auto).toBe(true);
  });

  it('says so alone when the classifier gave no sentence', () => {
    expect(jevReason(check, '')).toMatch(/^jev: .*USD\)\.$/);
  });
});
