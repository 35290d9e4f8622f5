import { catalog } from '@svc/catalog';
import { bandOf, byPriceAt, effortFor, floorSteps, jobFrom, priceTierOf, skillThreshold, type Job } from './policy';

const job = (difficulty: number, stakes: 'normal' | 'high' = 'normal', confidence = 0.9): Job =>
  jobFrom({ taskType: 'summarization', difficulty, stakes, confidence, reason: '' });

describe('band from difficulty', () => {
  it.each([
    [1, 'easy'],
    [2, 'easy'],
    [3, 'medium'],
    [4, 'hard'],
    [5, 'frontier'],
  ])('difficulty %i is %s', (difficulty, band) => expect(bandOf(difficulty)).toBe(band));
});

describe('low-confidence bias', () => {
  it.each([
    [2, 0.9, 2, false],
    [2, 0.5, 2, false],
    [2, 0.49, 3, true],
    [4, 0.1, 5, true],
    [5, 0.1, 5, false],
  ])('difficulty %i at confidence %f -> %i (biased %s)', (difficulty, confidence, raised, biased) => {
    expect(job(difficulty, 'normal', confidence)).toMatchObject({ difficulty: raised, biased });
  });
});

describe('floor steps (0 none, 1 middle, 2 top)', () => {
  it.each([
    ['auto', 1, 'normal', 0, 0],
    ['cheap', 3, 'normal', 0, 0],
    ['cheap', 3, 'high', 0, 1],
    ['cheap', 4, 'normal', 0, 1],
    ['cheap', 5, 'high', 0, 1],
    ['balanced', 2, 'normal', 0, 1],
    ['balanced', 2, 'high', 0, 2],
    ['balanced', 4, 'normal', 0, 2],
    ['best', 1, 'normal', 0, 2],
    ['best', 5, 'high', 0, 2],
    ['auto', 1, 'normal', 1, 1],
    ['balanced', 1, 'normal', 1, 2],
    ['cheap', 4, 'high', 1, 2],
  ] as const)('%s, difficulty %i, %s stakes, %i signal steps -> %i', (line, difficulty, stakes, extra, steps) => {
    expect(floorSteps(line, job(difficulty, stakes), extra)).toBe(steps);
  });
});

describe('skill thresholds', () => {
  const six = [0.99, 0.98, 0.96, 0.93, 0.9, 0.85];
  it.each([
    ['none', 'easy', six, 0.8],
    ['middle', 'easy', six, 0.93],
    ['top', 'easy', six, 0.98],
    ['middle', 'frontier', [0.6, 0.4, 0.25, 0.15, 0.1, 0.05], 0.2],
    ['top', 'hard', [0.9], 0.9],
    ['middle', 'medium', [0.7, 0.65], 0.65],
    ['top', 'medium', [], 0.6],
  ] as const)('%s in band %s over %j -> %f', (floor, band, skills, threshold) => {
    expect(skillThreshold(floor, band, skills)).toBeCloseTo(threshold, 9);
  });
});

describe('effort', () => {
  it.each([
    ['auto', job(1), '', 'low', 'band evidence'],
    ['auto', job(3), '', 'medium', 'band evidence'],
    ['auto', job(4), '', 'high', 'band evidence'],
    ['auto', job(5), '', 'xhigh', 'band evidence'],
    ['cheap', job(2, 'high'), '', 'medium', 'high stakes'],
    ['best', job(2), '', 'medium', 'best line'],
    ['best', job(3, 'high'), '', 'xhigh', 'best line'],
    ['best', job(5, 'high'), '', 'xhigh', 'band evidence'],
    ['auto', undefined, '', '', 'no evidence'],
    ['best', job(5), 'none', 'none', 'explicit level'],
    ['auto', undefined, 'high', 'high', 'explicit level'],
  ] as const)('%s line, job %j, requested %j -> %s (%s)', (line, j, requested, effort, reason) => {
    expect(effortFor(line, j, requested)).toEqual({ effort, reason });
  });
});

describe('prices compared at a tier (spec: Deadline and flex rules 1)', () => {
  const models = ['vendor-1/orion-4.1-mini', 'vendor-1/orion-mini-5'].map((id) => catalog.chatModel(id)!);
  it('standard: blended list price (0.4/1.6 before 0.25/2.00)', () => {
    expect([...models].sort(byPriceAt('standard')).map((model) => model.id)).toEqual(['vendor-1/orion-4.1-mini', 'vendor-1/orion-mini-5']);
  });
  it('flex: each model at its flex price, standard where it has none (orion-mini-5 at half is cheaper)', () => {
    expect([...models].sort(byPriceAt('flex')).map((model) => model.id)).toEqual(['vendor-1/orion-mini-5', 'vendor-1/orion-4.1-mini']);
  });
  it('a route request compares at flex only when it says so', () => {
    expect([priceTierOf({ price_tier: 'flex' }), priceTierOf({ price_tier: '' }), priceTierOf({})]).toEqual(['flex', 'standard', 'standard']);
  });
});
