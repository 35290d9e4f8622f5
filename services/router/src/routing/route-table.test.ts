import { ServiceError } from '@svc/errors';
import type { RouteRequest__Output } from '@svc/protos';
import { createRouter } from './route';
import { M, requestFor, scriptedClassifier, syntheticCatalog, baseRequest } from './synthetic.fixture';

// Table-driven routing over the synthetic catalog (see synthetic.fixture.ts for its models and
// the hand-derived thresholds below). Six models have summarization skills, so per band:
//   easy      none >= .80 -> A   middle >= .93 (4th best of 6) -> C   top >= .98 (2nd best) -> E
//   medium    none >= .60 -> B   middle >= .75 -> C                    top >= .92 -> E
//   hard      none >= .40 -> C   middle >= .45 -> C                    top >= .75 -> E
//   frontier  none >= .20 -> D   middle max(.20, .15) -> D             top >= .40 -> E

const catalog = syntheticCatalog();
const classifier = scriptedClassifier();
const router = createRouter({ catalog, classifier });
const route = (request: RouteRequest__Output) => router.route(request);
const models = async (request: RouteRequest__Output) => (await route(request)).candidates!.map((candidate) => candidate.model);

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    return error as ServiceError;
  }
  throw new Error('expected a failure');
}

describe('line x band x stakes (skills rule, summarization)', () => {
  it.each([
    // line            job                         floor     candidates (pick first)
    ['auto', 'summarization d1', 'none', [M.A, M.B, M.C]],
    ['auto', 'summarization d2 high', 'middle', [M.C, M.D, M.E]],
    ['auto/cheap', 'summarization d3', 'none', [M.B, M.C, M.D]],
    ['auto/cheap', 'summarization d3 high', 'middle', [M.C, M.D, M.E]],
    ['auto', 'summarization d4', 'middle', [M.C, M.D, M.E]],
    ['auto', 'summarization d4 high', 'middle', [M.C, M.D, M.E]],
    ['auto/cheap', 'summarization d5', 'middle', [M.D, M.E, M.F]],
    ['auto/balanced', 'summarization d2', 'middle', [M.C, M.D, M.E]],
    ['auto/balanced', 'summarization d3', 'middle', [M.C, M.D, M.E]],
    ['auto/balanced', 'summarization d3 high', 'top', [M.E, M.F, M.D]],
    ['auto/balanced', 'summarization d4', 'top', [M.E, M.F, M.D]],
    ['auto/balanced', 'summarization d5 high', 'top', [M.E, M.F, M.D]],
    ['auto/best', 'summarization d1', 'top', [M.E, M.F, M.D]],
    ['auto/best', 'summarization d3', 'top', [M.E, M.F, M.D]],
    ['auto/best', 'summarization d5 high', 'top', [M.E, M.F, M.D]],
  ])('%s, %s -> floor %s, %j', async (model, user, floor, expected) => {
    const result = await route(requestFor({ model, user }));
    expect(result.candidates!.map((candidate) => candidate.model)).toEqual(expected);
    expect(result.routing).toMatchObject({ floor, task: 'summarization', task_type: 'summarization', trigger: 'no_prior_decision' });
    expect(result.auto).toBe(true);
  });

  it.each([
    ['summarization d1', 1, 'easy'],
    ['summarization d2', 2, 'easy'],
    ['summarization d3', 3, 'medium'],
    ['summarization d4', 4, 'hard'],
    ['summarization d5', 5, 'frontier'],
  ])('%s is difficulty %i, band %s, cell summarization/%s', async (user, difficulty, band) => {
    expect((await route(requestFor({ user }))).routing).toMatchObject({ difficulty, band, cell: `summarization/${band}`, biased: false });
  });

  it.each([
    // job                          difficulty band      biased  pick on auto
    ['summarization d1 c0.49', 2, 'easy', true, M.A],
    ['summarization d2 c0.3', 3, 'medium', true, M.B],
    ['summarization d3 c0.2', 4, 'hard', true, M.C],
    ['summarization d4 c0.1', 5, 'frontier', true, M.D],
    ['summarization d5 c0.1', 5, 'frontier', false, M.D],
    ['summarization d2 c0.5', 2, 'easy', false, M.A],
  ])('low confidence raises the difficulty: %s -> %i %s biased=%s', async (user, difficulty, band, biased, pick) => {
    const result = await route(requestFor({ user }));
    expect(result.routing).toMatchObject({ difficulty, band, biased });
    expect(result.candidates![0].model).toBe(pick);
  });
});

describe('eligibility', () => {
  const access = baseRequest.access!;
  it.each([
    ['free plan, auto easy', { free_plan: true, user: 'summarization d1' }, [M.A, M.B], ''],
    ['free plan, balanced easy (thirds among free models)', { free_plan: true, model: 'auto/balanced', user: 'summarization d1' }, [M.A, M.B], M.C],
    ['free plan, best easy', { free_plan: true, model: 'auto/best', user: 'summarization d1' }, [M.B, M.A], M.E],
    ['key allow list without E, best easy', { model: 'auto/best', user: 'summarization d1', access: { ...access, key_allowed: [M.A, M.B, M.C, M.D, M.F] } }, [M.D, M.F, M.C], ''],
    ['organization disables A', { user: 'summarization d1', access: { ...access, organization_disabled: [M.A] } }, [M.B, M.C, M.D], ''],
    ['account disables A and B', { user: 'summarization d1', access: { ...access, account_disabled: [M.A, M.B] } }, [M.C, M.D, M.E], ''],
    ['project disables C (upper two thirds of A, B, D, E, F reach .90)', { model: 'auto/balanced', user: 'summarization d1', access: { ...access, project_disabled: [M.C] } }, [M.B, M.D, M.E], ''],
    ['needs vision', { user: 'summarization d1', needs: { ...baseRequest.needs!, vision: true } }, [M.C, M.D, M.E], ''],
    ['needs json_schema', { user: 'summarization d1', needs: { ...baseRequest.needs!, json_schema: true } }, [M.B, M.C, M.D], ''],
    ['context must fit 50k tokens', { user: 'summarization d1', needs: { ...baseRequest.needs!, input_tokens: 50_000 } }, [M.B, M.C, M.D], ''],
    ['context must fit 300k tokens', { user: 'summarization d1', needs: { ...baseRequest.needs!, input_tokens: 300_000 } }, [M.E, M.F], ''],
    ['svc.vendors vendor-1, auto medium', { user: 'summarization d3', vendors: ['vendor-1'] }, [M.C, M.D], ''],
    ['svc.vendors vendor-1, best medium', { model: 'auto/best', user: 'summarization d3', vendors: ['vendor-1'] }, [M.D, M.C], ''],
  ] as Array<[string, Partial<RouteRequest__Output> & { user?: string }, string[], string]>)('%s', async (_name, overrides, expected, paid) => {
    const result = await route(requestFor(overrides));
    expect(result.candidates!.map((candidate) => candidate.model)).toEqual(expected);
    expect(result.paid_would_use).toBe(paid);
  });

  it('never picks a model that is not auto-eligible (H: no skills, off the curve)', async () => {
    for (const model of ['auto', 'auto/balanced', 'auto/best']) {
      for (const user of ['other d1', 'summarization d1', 'math d1', '']) expect(await models(requestFor({ model, user }))).not.toContain(M.H);
    }
    expect(catalog.isAutoEligible(M.H)).toBe(false);
  });

  it.each([
    ['key', { key_allowed: [M.H] }],
    ['key', { key_allowed: ['vendor-8/decision-1.13.0'] }],
    ['account', { account_disabled: [M.A, M.B, M.C, M.D, M.E, M.F, M.G] }],
    ['project', { project_disabled: [M.A, M.B, M.C, M.D, M.E, M.F, M.G] }],
  ])('no usable model is 400 no_model_allowed naming the %s level', async (level, restriction) => {
    const error = await failure(route(requestFor({ user: 'summarization d1', access: { ...baseRequest.access!, ...restriction } })));
    expect([error.code, error.status, error.param]).toEqual(['no_model_allowed', 400, 'model']);
    expect(error.message).toContain(`${level} level`);
  });
});

describe('earlier rule (kind other, or no skill data for the cell)', () => {
  // Curve A, B, G, C, D, E, F (n = 7): step 0 starts at A, step 1 at index 2 (G), step 2 at index 4 (D).
  it.each([
    ['auto', 'other d1', [M.A, M.B, M.G], 'other/easy'],
    ['auto/cheap', 'other d2 high', [M.G, M.C, M.D], 'other/easy'],
    ['auto', 'other d4', [M.G, M.C, M.D], 'other/hard'],
    ['auto/balanced', 'other d1', [M.G, M.C, M.D], 'other/easy'],
    ['auto/balanced', 'other d4', [M.D, M.E, M.F], 'other/hard'],
    ['auto/balanced', 'other d2 high', [M.D, M.E, M.F], 'other/easy'],
    ['auto/best', 'other d1', [M.D, M.E, M.F], 'other/easy'],
    ['auto/best', 'other d5 high', [M.D, M.E, M.F], 'other/frontier'],
    ['auto', 'math d1', [M.A, M.B, M.G], 'other/easy'],
    ['auto/best', 'math d3', [M.D, M.E, M.F], 'other/medium'],
  ])('%s, %s -> %j (floor absent)', async (model, user, expected, cell) => {
    const result = await route(requestFor({ model, user }));
    expect(result.candidates!.map((candidate) => candidate.model)).toEqual(expected);
    expect(result.routing).toMatchObject({ floor: '', task: 'other', task_type: user.split(' ')[0], cell });
  });

  it('a cell with skill data for one model routes by skills with that model alone', async () => {
    const result = await route(requestFor({ user: 'math d4' }));
    expect(result.candidates!.map((candidate) => candidate.model)).toEqual([M.F]);
    expect(result.routing).toMatchObject({ floor: 'middle', task: 'math', cell: 'math/hard' });
  });

  it.each([
    ['auto', [M.A, M.B]],
    ['auto/balanced', [M.A, M.B]],
    ['auto/best', [M.B, M.A]],
  ])('free plan, %s: the curve among free models -> %j', async (model, expected) => {
    expect(await models(requestFor({ model, user: 'other d1', free_plan: true }))).toEqual(expected);
  });

  it.each([
    ['auto', [M.A, M.B, M.G]],
    ['auto/balanced', [M.G, M.C, M.D]],
    ['auto/best', [M.D, M.E, M.F]],
  ])('nothing to classify, %s: the curve from the line floor, no classifier, no evidence', async (model, expected) => {
    const result = await route(requestFor({ model, messages: [] }));
    expect(result.candidates!.map((candidate) => candidate.model)).toEqual(expected);
    expect(result.routing).toMatchObject({ task: 'other', task_type: '', difficulty: 0, band: '', confidence: 0, classifier: '', effort: '', effort_reason: 'no evidence' });
  });
});

describe('effort', () => {
  it.each([
    ['auto', 'summarization d1', '', 'low', 'band evidence'],
    ['auto', 'summarization d3', '', 'medium', 'band evidence'],
    ['auto', 'summarization d4', '', 'high', 'band evidence'],
    ['auto', 'summarization d5', '', 'xhigh', 'band evidence'],
    ['auto', 'summarization d3 high', '', 'high', 'high stakes'],
    ['auto/best', 'summarization d3', '', 'high', 'best line'],
    ['auto/best', 'summarization d3 high', '', 'xhigh', 'best line'],
    ['auto/best', 'summarization d5 high', '', 'xhigh', 'band evidence'],
    ['auto/best', 'summarization d4 high', '', 'xhigh', 'high stakes'],
    ['auto', 'summarization d5', 'minimal', 'minimal', 'explicit level'],
    ['auto', 'other d2', '', 'low', 'band evidence'],
  ])('%s, %s, requested %j -> %s (%s)', async (model, user, requested, effort, reason) => {
    const result = await route(requestFor({ model, user, reasoning_effort: requested }));
    expect(result.effort).toBe(effort);
    expect(result.routing).toMatchObject({ effort, effort_reason: reason });
  });
});

describe('svc.routing', () => {
  it('is complete under auto', async () => {
    const result = await route(requestFor({ model: 'auto/balanced', user: 'summarization d2 high c0.4' }));
    expect(result.routing).toEqual({
      line: 'balanced',
      floor: 'top',
      task: 'summarization',
      task_type: 'summarization',
      difficulty: 3,
      band: 'medium',
      stakes: 'high',
      biased: true,
      cell: 'summarization/medium',
      confidence: 0.4,
      reason: 'Looks like summarization.',
      trigger: 'no_prior_decision',
      classifier: 'svc-router-classifier/1@feedface',
      effort: 'high',
      effort_reason: 'high stakes',
      sticky: null,
    });
    expect(result.candidates![0]).toEqual({ model: M.E, vendor: 'vendor-4' });
  });

  it('is explicit with no classifier for a named model, and the classifier does not run', async () => {
    classifier.classify.mockClear();
    const result = await route(requestFor({ model: M.C, user: 'summarization d1' }));
    expect(result.routing).toMatchObject({ trigger: 'explicit' });
    expect(result.routing?.classifier ?? '').toBe('');
    expect(result.routing?.line ?? '').toBe('');
    expect(result.auto).toBe(false);
    expect(classifier.classify).not.toHaveBeenCalled();
  });

  it('passes the system prompt and every message to the classifier', async () => {
    classifier.classify.mockClear();
    await route(requestFor({ system_prompt: 'Be brief.', messages: [{ role: 'user', text: 'summarization d1' }, { role: 'assistant', text: 'ok' }, { role: 'tool', text: '{}' }] }));
    expect(classifier.classify).toHaveBeenCalledWith({
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'summarization d1' },
        { role: 'assistant', content: 'ok' },
        { role: 'tool', content: '{}' },
      ],
    });
  });

  it('routes by the earlier rule when the classifier throws', async () => {
    const broken = createRouter({ catalog, classifier: { classify: () => { throw new Error('boom'); } }, logger: { warn: jest.fn() } });
    const result = await broken.route(requestFor({ user: 'summarization d1' }));
    expect(result.candidates!.map((candidate) => candidate.model)).toEqual([M.A, M.B, M.G]);
    expect(result.routing).toMatchObject({ task: 'other', classifier: '', confidence: 0 });
  });
});
