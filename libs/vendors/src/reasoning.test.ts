import type { Reasoning } from '@svc/catalog';
import { mapReasoning } from './reasoning';

const model = (reasoning: Reasoning) => ({ reasoning });

const fourLevels = model({ kind: 'levels', levels: ['minimal', 'low', 'medium', 'high'], default: 'medium' });
const twoLevels = model({ kind: 'levels', levels: ['low', 'high'], default: 'high' });
const budgets = model({ kind: 'budget', budgets: { none: 0, minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 32768 } });
const budgetsWithoutOff = model({ kind: 'budget', budgets: { minimal: 128, low: 1024, medium: 8192, high: 16384, xhigh: 32768 } });

describe('mapReasoning', () => {
  it('leaves every model on its default when nothing is requested', () => {
    for (const reasoning of [fourLevels, budgets, model({ kind: 'toggle' }), model({ kind: 'none' }), model({ kind: 'always' })]) {
      expect(mapReasoning(reasoning, undefined)).toEqual({ applied: 'default' });
    }
  });

  it('reports a model without reasoning as not supported', () => {
    expect(mapReasoning(model({ kind: 'none' }), 'high')).toEqual({ applied: 'not supported' });
  });

  it('reports an always-reasoning model as always on', () => {
    expect(mapReasoning(model({ kind: 'always' }), 'none')).toEqual({ applied: 'always on' });
  });

  describe('levels', () => {
    it('sends a level the model has, by name', () => {
      expect(mapReasoning(fourLevels, 'low')).toEqual({ vendor: { kind: 'effort', level: 'low' }, applied: 'low' });
    });

    it('sends the lowest level for none when the model cannot turn reasoning off', () => {
      expect(mapReasoning(fourLevels, 'none')).toEqual({ vendor: { kind: 'effort', level: 'minimal' }, applied: 'minimal' });
      expect(mapReasoning(twoLevels, 'none')).toEqual({ vendor: { kind: 'effort', level: 'low' }, applied: 'low' });
    });

    it('sends the nearest level above the scale', () => {
      expect(mapReasoning(fourLevels, 'xhigh')).toEqual({ vendor: { kind: 'effort', level: 'high' }, applied: 'high' });
    });

    it('takes the higher of two equally near levels', () => {
      expect(mapReasoning(twoLevels, 'medium')).toEqual({ vendor: { kind: 'effort', level: 'high' }, applied: 'high' });
    });

    it('takes the nearest level below', () => {
      expect(mapReasoning(twoLevels, 'minimal')).toEqual({ vendor: { kind: 'effort', level: 'low' }, applied: 'low' });
    });

    it('reports a level named none as off', () => {
      const withNone = model({ kind: 'levels', levels: ['none', 'low', 'medium', 'high'], default: 'medium' });
      expect(mapReasoning(withNone, 'none')).toEqual({ vendor: { kind: 'effort', level: 'none' }, applied: 'off' });
    });

    it('leaves the default for a value off the scale', () => {
      expect(mapReasoning(fourLevels, 'extreme')).toEqual({ applied: 'default' });
    });
  });

  describe('budget', () => {
    it('sends the budget of the requested level', () => {
      expect(mapReasoning(budgets, 'medium')).toEqual({ vendor: { kind: 'budget', tokens: 8192 }, applied: 'budget 8192' });
    });

    it('reports a zero budget as off', () => {
      expect(mapReasoning(budgets, 'none')).toEqual({ vendor: { kind: 'budget', tokens: 0 }, applied: 'off' });
    });

    it('sends the nearest level budget when the model lacks the level', () => {
      expect(mapReasoning(budgetsWithoutOff, 'none')).toEqual({ vendor: { kind: 'budget', tokens: 128 }, applied: 'budget 128' });
    });

    it('leaves the default for a value off the scale', () => {
      expect(mapReasoning(budgets, 'extreme')).toEqual({ applied: 'default' });
    });
  });

  describe('toggle', () => {
    it.each(['none', 'minimal'])('turns reasoning off for %s', (level) => {
      expect(mapReasoning(model({ kind: 'toggle' }), level)).toEqual({ vendor: { kind: 'toggle', on: false }, applied: 'off' });
    });

    it.each(['low', 'medium', 'high', 'xhigh'])('turns reasoning on for %s', (level) => {
      expect(mapReasoning(model({ kind: 'toggle' }), level)).toEqual({ vendor: { kind: 'toggle', on: true }, applied: 'on' });
    });

    it('leaves the default for a value off the scale', () => {
      expect(mapReasoning(model({ kind: 'toggle' }), 'extreme')).toEqual({ applied: 'default' });
    });
  });
});
