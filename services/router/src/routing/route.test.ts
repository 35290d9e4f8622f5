import { catalog } from '@svc/catalog';
import { ServiceError } from '@svc/errors';
import type { RouteRequest__Output } from '@svc/protos';
import { route } from './route';

const base: RouteRequest__Output = {
  organization_id: 'org_1',
  key_id: 'key_1',
  model: '',
  access: { account_disabled: [], organization_disabled: [], project_disabled: [], key_allowed: [] },
  vendors: [],
  needs: { tools: false, vision: false, json_schema: false, input_tokens: 10 },
  fallback: 'cross_vendor',
  session_id: '',
  system_prompt: '',
  messages: [],
  free_plan: false,
  reasoning_effort: '',
};
const request = (overrides: Partial<RouteRequest__Output>): RouteRequest__Output => ({ ...base, ...overrides });
const failure = (fn: () => unknown): ServiceError => {
  try {
    fn();
  } catch (error) {
    return error as ServiceError;
  }
  throw new Error('expected a failure');
};

const named = 'vendor-1/orion-mini-5';
const namedModel = catalog.chatModel(named)!;

describe('named models', () => {
  it('serves the named model first, reported as explicit', () => {
    const result = route(catalog, request({ model: named }));
    expect(result.candidates[0]).toEqual({ model: named, vendor: 'vendor-1' });
    expect(result.routing).toMatchObject({ trigger: 'explicit' });
    expect(result.auto).toBe(false);
  });

  it('never lists more than 3 attempts', () => {
    expect(route(catalog, request({ model: named })).candidates.length).toBeLessThanOrEqual(3);
  });

  it('cross_vendor falls back to models of the same class on any vendor', () => {
    const fallbacks = route(catalog, request({ model: named, fallback: 'cross_vendor' })).candidates.slice(1);
    expect(fallbacks.length).toBeGreaterThan(0);
    for (const candidate of fallbacks) expect(catalog.chatModel(candidate.model)!.tier).toBe(namedModel.tier);
  });

  it('same_vendor falls back only within the vendor and class', () => {
    for (const candidate of route(catalog, request({ model: 'vendor-5/breeze-code-2', fallback: 'same_vendor' })).candidates) {
      expect(candidate.vendor).toBe('vendor-5');
      expect(catalog.chatModel(candidate.model)!.tier).toBe('balanced');
    }
  });

  it('none has no fallbacks', () => {
    expect(route(catalog, request({ model: named, fallback: 'none' })).candidates).toEqual([{ model: named, vendor: 'vendor-1' }]);
  });

  it('svc.vendors restricts the fallback set', () => {
    const result = route(catalog, request({ model: named, vendors: ['vendor-1', 'vendor-7'] }));
    for (const candidate of result.candidates) expect(['vendor-1', 'vendor-7']).toContain(candidate.vendor);
  });

  it('an unknown model is 404 model_not_found', () => {
    expect(failure(() => route(catalog, request({ model: 'vendor-1/nope' })))).toMatchObject({ code: 'model_not_found', status: 404, param: 'model' });
  });

  it.each([
    ['account', { account_disabled: [named] }],
    ['organization', { organization_disabled: [named] }],
    ['project', { project_disabled: [named] }],
    ['key', { key_allowed: ['vendor-1/orion-5'] }],
  ])('a model forbidden at the %s level is 404 model_not_found', (_level, access) => {
    const error = failure(() => route(catalog, request({ model: named, access: { ...base.access!, ...access } })));
    expect(error.code).toBe('model_not_found');
  });

  it('a named model that cannot take what is asked, with fallback none, is 503 no_provider_available', () => {
    const noTools = catalog.chatModels.find((model) => !model.capabilities.tools && !model.named_only)!;
    const error = failure(() => route(catalog, request({ model: noTools.id, fallback: 'none', needs: { ...base.needs!, tools: true } })));
    expect([error.code, error.status]).toEqual(['no_provider_available', 503]);
  });
});

describe('auto (earlier rule)', () => {
  it('an omitted model means auto, with the plain auto line', () => {
    const result = route(catalog, request({ model: '' }));
    expect(result.auto).toBe(true);
    expect(result.routing?.line).toBe('auto');
  });

  it.each([
    ['auto/cheap', 'cheap'],
    ['auto/balanced', 'balanced'],
    ['auto/best', 'best'],
  ])('%s reports line %s', (model, line) => {
    expect(route(catalog, request({ model })).routing?.line).toBe(line);
  });

  it('picks only models enabled for the key', () => {
    const allowed = ['vendor-6/deep-v3.2', 'vendor-1/orion-5'];
    for (const candidate of route(catalog, request({ model: 'auto', access: { ...base.access!, key_allowed: allowed } })).candidates) expect(allowed).toContain(candidate.model);
  });

  it('picks only free models for an organization on the Free plan', () => {
    for (const candidate of route(catalog, request({ model: 'auto', free_plan: true })).candidates) expect(catalog.chatModel(candidate.model)!.free).toBe(true);
  });

  it('respects what the request needs', () => {
    for (const candidate of route(catalog, request({ model: 'auto', needs: { ...base.needs!, tools: true, json_schema: true } })).candidates) {
      expect(catalog.chatModel(candidate.model)!.capabilities).toMatchObject({ tools: true, json_schema: true });
    }
  });

  it('no usable model is 400 no_model_allowed naming the level to check', () => {
    const error = failure(() => route(catalog, request({ model: 'auto', access: { ...base.access!, key_allowed: ['vendor-8/decision-1.13.0'] } })));
    expect([error.code, error.status]).toEqual(['no_model_allowed', 400]);
    expect(error.message).toContain('key level');
  });
});
