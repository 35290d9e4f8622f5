import { catalog } from '@svc/catalog';
import { ServiceError } from '@svc/errors';
import type { RouteRequest__Output } from '@svc/protos';
import { createRouter } from './route';
import { scriptedClassifier } from './synthetic.fixture';

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
  escalated_from: '',
};
// Without a classifier every auto job goes by the earlier rule.
const router = createRouter({ catalog });
const route = (input: RouteRequest__Output) => router.route(input);
const request = (overrides: Partial<RouteRequest__Output>): RouteRequest__Output => ({ ...base, ...overrides });
const failure = async (promise: Promise<unknown>): Promise<ServiceError> => {
  try {
    await promise;
  } catch (error) {
    return error as ServiceError;
  }
  throw new Error('expected a failure');
};

const named = 'vendor-1/orion-mini-5';
const namedModel = catalog.chatModel(named)!;

describe('named models', () => {
  it('serves the named model first, reported as explicit', async () => {
    const result = (await route(request({ model: named })));
    expect(result.candidates[0]).toEqual({ model: named, vendor: 'vendor-1' });
    expect(result.routing).toMatchObject({ trigger: 'explicit' });
    expect(result.auto).toBe(false);
  });

  it('never lists more than 3 attempts', async () => {
    expect((await route(request({ model: named }))).candidates.length).toBeLessThanOrEqual(3);
  });

  it('cross_vendor falls back to models of the same class on any vendor', async () => {
    const fallbacks = (await route(request({ model: named, fallback: 'cross_vendor' }))).candidates.slice(1);
    expect(fallbacks.length).toBeGreaterThan(0);
    for (const candidate of fallbacks) expect(catalog.chatModel(candidate.model)!.tier).toBe(namedModel.tier);
  });

  it('same_vendor falls back only within the vendor and class', async () => {
    for (const candidate of (await route(request({ model: 'vendor-5/breeze-code-2', fallback: 'same_vendor' }))).candidates) {
      expect(candidate.vendor).toBe('vendor-5');
      expect(catalog.chatModel(candidate.model)!.tier).toBe('balanced');
    }
  });

  it('none has no fallbacks', async () => {
    expect((await route(request({ model: named, fallback: 'none' }))).candidates).toEqual([{ model: named, vendor: 'vendor-1' }]);
  });

  it('svc.vendors restricts the fallback set', async () => {
    const result = (await route(request({ model: named, vendors: ['vendor-1', 'vendor-7'] })));
    for (const candidate of result.candidates) expect(['vendor-1', 'vendor-7']).toContain(candidate.vendor);
  });

  it('svc.vendors never takes away the named model itself, only its fallbacks', async () => {
    const result = await route(request({ model: named, vendors: ['vendor-7'] }));
    expect(result.candidates[0]).toEqual({ model: named, vendor: 'vendor-1' });
    for (const candidate of result.candidates.slice(1)) expect(candidate.vendor).toBe('vendor-7');
  });

  it('an unknown model is 404 model_not_found', async () => {
    expect(await failure(route(request({ model: 'vendor-1/nope' })))).toMatchObject({ code: 'model_not_found', status: 404, param: 'model' });
  });

  it.each([
    ['account', { account_disabled: [named] }],
    ['organization', { organization_disabled: [named] }],
    ['project', { project_disabled: [named] }],
    ['key', { key_allowed: ['vendor-1/orion-5'] }],
  ])('a model forbidden at the %s level is 404 model_not_found', async (_level, access) => {
    const error = await failure(route(request({ model: named, access: { ...base.access!, ...access } })));
    expect(error.code).toBe('model_not_found');
  });

  it('a named model that cannot take tools, fallback none: 400 unsupported_parameter naming tools', async () => {
    const noTools = catalog.chatModels.find((model) => !model.capabilities.tools && !model.named_only)!;
    const error = await failure(route(request({ model: noTools.id, fallback: 'none', needs: { ...base.needs!, tools: true } })));
    expect([error.code, error.status, error.param]).toEqual(['unsupported_parameter', 400, 'tools']);
  });

  it.each([
    ['tools', { tools: true }, 'tools'],
    ['vision', { vision: true }, 'vision'],
    ['json_schema', { json_schema: true }, 'json_schema'],
  ] as const)('a named model that fails a capability check (%s) falls back by svc.fallback to models of its class that can', async (_name, needs, capability) => {
    const lacking = catalog.chatModels.filter((model) => !model.capabilities[capability] && !model.named_only);
    for (const model of lacking) {
      const sameClass = catalog.chatModels.filter((other) => other.id !== model.id && !other.named_only && other.tier === model.tier && other.capabilities[capability]);
      for (const fallback of ['same_vendor', 'cross_vendor'] as const) {
        const allowed = sameClass.filter((other) => fallback === 'cross_vendor' || other.vendor === model.vendor);
        const routed = route(request({ model: model.id, fallback, needs: { ...base.needs!, ...needs } }));
        if (allowed.length === 0) {
          const error = await failure(routed);
          expect(error.code).toBe(capability === 'tools' ? 'unsupported_parameter' : 'unsupported_for_model');
          continue;
        }
        const decision = await routed;
        expect(decision.candidates.length).toBeGreaterThan(0);
        for (const candidate of decision.candidates) expect(allowed.map((other) => other.id)).toContain(candidate.model);
      }
    }
    expect(lacking.length).toBeGreaterThan(0);
  });

  it('a named model whose window the input does not fit is 400 context_length_exceeded with the numbers', async () => {
    const model = catalog.chatModel(named)!;
    const error = await failure(route(request({ model: named, needs: { ...base.needs!, input_tokens: model.capabilities.context_window + 1 } })));
    expect([error.code, error.status]).toEqual(['context_length_exceeded', 400]);
    expect(error.message).toContain(String(model.capabilities.context_window + 1));
    expect(error.message).toContain(String(model.capabilities.context_window));
  });

  it('auto with an input no allowed model can hold is 400 context_length_exceeded naming the largest window, not an access level', async () => {
    const largest = Math.max(...catalog.chatModels.filter((model) => !model.named_only).map((model) => model.capabilities.context_window));
    const error = await failure(route(request({ model: 'auto', needs: { ...base.needs!, input_tokens: largest + 1 } })));
    expect([error.code, error.status]).toEqual(['context_length_exceeded', 400]);
    expect(error.message).toContain(`window is ${largest} tokens`);
  });

  it('auto asking for what no allowed model has names the access level that removed the models that have it', async () => {
    const withoutTools = catalog.chatModels.find((model) => !model.named_only && !model.capabilities.tools && catalog.isAutoEligible(model.id))!;
    const error = await failure(route(request({ model: 'auto', needs: { ...base.needs!, tools: true }, access: { ...base.access!, key_allowed: [withoutTools.id] } })));
    expect([error.code, error.param]).toEqual(['no_model_allowed', 'tools']);
    expect(error.message).toBe('No model allowed for this request can take tools. Models that can are not allowed at the key level: check the model access settings at the key level.');
  });

  it('auto with svc.vendors leaving no model names svc.vendors, not an access level', async () => {
    const visionVendors = new Set(catalog.chatModels.filter((model) => model.capabilities.vision).map((model) => model.vendor));
    const without = ['vendor-1', 'vendor-2', 'vendor-3', 'vendor-4', 'vendor-5', 'vendor-6', 'vendor-7'].filter((vendor) => !visionVendors.has(vendor));
    if (without.length > 0) {
      const error = await failure(route(request({ model: 'auto', vendors: without, needs: { ...base.needs!, vision: true } })));
      expect([error.code, error.param]).toEqual(['no_model_allowed', 'messages']);
    }
  });
});

describe('auto without a classifier (earlier rule)', () => {
  it('an omitted model means auto, with the plain auto line', async () => {
    const result = (await route(request({ model: '' })));
    expect(result.auto).toBe(true);
    expect(result.routing?.line).toBe('auto');
  });

  it.each([
    ['auto/cheap', 'cheap'],
    ['auto/balanced', 'balanced'],
    ['auto/best', 'best'],
  ])('%s reports line %s', async (model, line) => {
    expect((await route(request({ model }))).routing?.line).toBe(line);
  });

  it('picks only models enabled for the key', async () => {
    const allowed = ['vendor-6/deep-v3.2', 'vendor-1/orion-5'];
    for (const candidate of (await route(request({ model: 'auto', access: { ...base.access!, key_allowed: allowed } }))).candidates) expect(allowed).toContain(candidate.model);
  });

  it('picks only free models for an organization on the Free plan', async () => {
    for (const candidate of (await route(request({ model: 'auto', free_plan: true }))).candidates) expect(catalog.chatModel(candidate.model)!.free).toBe(true);
  });

  it('respects what the request needs', async () => {
    for (const candidate of (await route(request({ model: 'auto', needs: { ...base.needs!, tools: true, json_schema: true } }))).candidates) {
      expect(catalog.chatModel(candidate.model)!.capabilities).toMatchObject({ tools: true, json_schema: true });
    }
  });

  it('no usable model is 400 no_model_allowed naming the level to check', async () => {
    const error = await failure(route(request({ model: 'auto', access: { ...base.access!, key_allowed: ['vendor-8/decision-1.13.0'] } })));
    expect([error.code, error.status]).toEqual(['no_model_allowed', 400]);
    expect(error.message).toContain('key level');
  });
});

describe('auto on the committed catalog (hand-derived from its skill table)', () => {
  // code:debugging, medium band, 29 scored models: floor none needs 0.60, so the cheapest
  // reaching it is orion-nano-5 (0.66 at blended 0.3125); breeze-small-3.2 (0.42) is cheaper but
  // below. Floor middle (upper two thirds: the 20th best score, 0.71) gives deep-v3.2 (0.75 at
  // 0.385). Floor top (upper third: the 10th best, 0.86) gives quill-3-coder-480b (0.93 at 1.3).
  const scripted = createRouter({ catalog, classifier: scriptedClassifier() });
  it.each([
    ['auto', 'code:debugging d3', 'none', 'vendor-1/orion-nano-5'],
    ['auto/cheap', 'code:debugging d3', 'none', 'vendor-1/orion-nano-5'],
    ['auto/balanced', 'code:debugging d3', 'middle', 'vendor-6/deep-v3.2'],
    ['auto', 'code:debugging d3 high', 'middle', 'vendor-6/deep-v3.2'],
    ['auto/best', 'code:debugging d3', 'top', 'vendor-6/quill-3-coder-480b'],
    ['auto/balanced', 'code:debugging d3 high', 'top', 'vendor-6/quill-3-coder-480b'],
  ])('%s, %s -> floor %s, %s', async (model, user, floor, pick) => {
    const result = await scripted.route(request({ model, messages: [{ role: 'user', text: user }] }));
    expect(result.candidates[0].model).toBe(pick);
    expect(result.routing).toMatchObject({ floor, cell: 'code:debugging/medium' });
  });

  it('every auto pick, for every kind of work, band and line, is auto-eligible and within the key', async () => {
    const allowed = catalog.chatModels.filter((model) => model.vendor !== 'vendor-1').map((model) => model.id);
    for (const task of ['summarization', 'code:debugging', 'math', 'other', 'translation']) {
      for (const difficulty of [1, 3, 4, 5]) {
        for (const model of ['auto', 'auto/balanced', 'auto/best']) {
          const result = await scripted.route(request({ model, access: { ...base.access!, key_allowed: allowed }, messages: [{ role: 'user', text: `${task} d${difficulty}` }] }));
          for (const candidate of result.candidates) {
            expect(catalog.isAutoEligible(candidate.model)).toBe(true);
            expect(candidate.vendor).not.toBe('vendor-1');
          }
        }
      }
    }
  });
});
