import { catalog } from '@svc/catalog';
import type { CallerKey } from '@svc/call';
import { batchableModels, checkLine } from './batch-validate';

const key: CallerKey = { key_id: 'key_1', organization_id: 'org_1', plan: 'paid', fallback_policy: 'cross_vendor' };
const BATCHABLE = catalog.data.models.find((model) => model.batch)!.id;
const NOT_BATCHABLE = catalog.data.models.find((model) => !model.batch && model.protocol !== 'decision')!.id;
const line = (fields: Record<string, unknown>) => JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { model: BATCHABLE, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, ...fields });
const error = (result: ReturnType<typeof checkLine>) => ('error' in result ? result.error : undefined);

describe('checkLine (spec: Batch endpoints, the failure reasons; RULINGS 7)', () => {
  it('plans a batchable line at the batch tier with a half-price estimate', () => {
    const result = checkLine(catalog, key, line({}), 1, false);
    expect('plan' in result && result.plan.tier).toBe('batch');
    expect('plan' in result && result.plan.estimateMicros).toBeGreaterThan(0);
  });

  it.each([
    ['invalid_json', '{not json', 'invalid_json'],
    ['invalid_url', line({ url: '/v1/embeddings' }), 'invalid_url'],
    ['method', line({ method: 'GET' }), 'invalid_request'],
    ['body not an object', line({ body: [1] }), 'invalid_request'],
    ['missing_messages', line({ body: { model: BATCHABLE, messages: [] } }), 'missing_messages'],
    ['out of range', line({ body: { model: BATCHABLE, temperature: 9, messages: [{ role: 'user', content: 'x' }] } }), 'invalid_request'],
    ['stream', line({ body: { model: BATCHABLE, stream: true, messages: [{ role: 'user', content: 'x' }] } }), 'invalid_request'],
    ['model_not_found', line({ body: { model: 'vendor-1/nope', messages: [{ role: 'user', content: 'x' }] } }), 'model_not_found'],
  ])('%s', (_name, text, code) => {
    expect(error(checkLine(catalog, key, text, 7, false))).toMatchObject({ code, line: 7 });
  });

  it('model_not_batchable lists the batchable models and the option; allow_standard_price runs it at standard with no_batch_tier', () => {
    const text = line({ body: { model: NOT_BATCHABLE, messages: [{ role: 'user', content: 'x' }] } });
    const refused = error(checkLine(catalog, key, text, 3, false))!;
    expect(refused).toMatchObject({ code: 'model_not_batchable', line: 3, param: 'body.model' });
    expect(refused.message).toContain(BATCHABLE);
    expect(refused.message).toContain('svc.allow_standard_price');
    const allowed = checkLine(catalog, key, text, 3, true);
    // Asked at batch like every line; its model has no batch tier, so the attempt serves it at standard (no_batch_tier).
    expect('plan' in allowed && allowed.plan).toMatchObject({ tier: 'batch' });
    expect('plan' in allowed && allowed.plan && allowed.plan.tierFallback).toBeUndefined();
  });

  it('a model the key may not use is model_not_found; auto with no batchable model for the key is no_batch_model', () => {
    const limited = { ...key, allowed_models: [NOT_BATCHABLE] };
    expect(error(checkLine(catalog, limited, line({}), 1, false))).toMatchObject({ code: 'model_not_found' });
    const auto = line({ body: { model: 'auto', messages: [{ role: 'user', content: 'x' }] } });
    expect(error(checkLine(catalog, limited, auto, 2, false))).toMatchObject({ code: 'no_batch_model', line: 2 });
    expect('plan' in checkLine(catalog, limited, auto, 2, true)).toBe(true);
    expect('plan' in checkLine(catalog, key, auto, 2, false)).toBe(true);
    expect(batchableModels(catalog, limited)).toEqual([]);
  });
});
