import { DIFFICULTY_FEATURES, N_DIFFICULTY_FEATURES, difficultyFeatures } from './difficulty';
import { TASK_TYPES } from './model';

const uniform = new Float64Array(TASK_TYPES.length).fill(1 / TASK_TYPES.length);
const feature = (text: string, name: (typeof DIFFICULTY_FEATURES)[number], p: ArrayLike<number> = uniform) =>
  difficultyFeatures({ text, afterTool: false, turns: 1 }, p, new Float64Array(N_DIFFICULTY_FEATURES))[DIFFICULTY_FEATURES.indexOf(name)];

describe('difficultyFeatures', () => {
  it('fills every feature with a finite value, bias first', () => {
    const out = difficultyFeatures({ text: 'Prove that $\\sqrt{2}$ is irrational.', afterTool: false, turns: 1 }, uniform, new Float64Array(N_DIFFICULTY_FEATURES));
    expect(out[0]).toBe(1);
    expect(Array.from(out).every(Number.isFinite)).toBe(true);
  });

  it('reads notation, structure and constraints', () => {
    expect(feature('Find $\\frac{1}{2} + \\sqrt{3}$', 'log_latex_cmds')).toBeGreaterThan(feature('Find one half plus root three', 'log_latex_cmds'));
    expect(feature('1. parse the file\n2. validate it\n3. write the report', 'log_enumerations')).toBeGreaterThan(0);
    expect(feature('It must run in O(n) time, without extra memory, and at most 3 passes.', 'log_constraints')).toBeGreaterThan(feature('Sort the list.', 'log_constraints'));
    expect(feature('Prove the theorem and derive the optimal bound.', 'log_reasoning_words')).toBeGreaterThan(0);
    expect(feature('hello there hello there', 'type_token')).toBeCloseTo(0.5, 5);
  });

  it('carries the kind-of-work distribution and its interactions', () => {
    const p = new Float64Array(TASK_TYPES.length);
    p[TASK_TYPES.indexOf('math')] = 1;
    expect(feature('Compute 2 + 2.', 'p_math', p)).toBe(1);
    expect(feature('Compute 2 + 2.', 'p_code', p)).toBe(0);
    expect(feature('Compute 2 + 2.', 'math_x_chars', p)).toBeCloseTo(feature('Compute 2 + 2.', 'log_chars', p), 10);
  });

  it('reads only a bounded head and tail: the middle of a 1 MB text changes nothing', () => {
    const MB = 1 << 20;
    const a = `${'Solve for x. '.repeat(200)}${'a'.repeat(MB)}${' and explain each step.'.repeat(30)}`;
    const b = `${a.slice(0, 3000)}${'$\\frac{x}{y}$ '.repeat(Math.ceil((a.length - 4000) / 14)).slice(0, a.length - 4000)}${a.slice(-1000)}`;
    expect(b).toHaveLength(a.length);
    const fa = difficultyFeatures({ text: a, afterTool: false, turns: 1 }, uniform, new Float64Array(N_DIFFICULTY_FEATURES));
    const fb = difficultyFeatures({ text: b, afterTool: false, turns: 1 }, uniform, new Float64Array(N_DIFFICULTY_FEATURES));
    expect(Array.from(fb)).toEqual(Array.from(fa));
  });
});
