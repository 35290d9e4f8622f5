import { catalog } from '@svc/catalog';
import { SWITCH_DEFAULTS, analyzerTokens, callPrice, scenarioKey, scenarios } from './price';

describe('analyzer arithmetic', () => {
  it('tokens: characters / 4 in, the typical output unless max_tokens is lower', () => {
    expect(analyzerTokens(401, 'code:general_impl', undefined)).toEqual({ input: 101, output: 800, output_basis: 'typical', typical: 800 });
    expect(analyzerTokens(400, 'code:general_impl', 100)).toEqual({ input: 100, output: 100, output_basis: 'max_tokens', typical: 800 });
    expect(analyzerTokens(4, 'not-a-kind', undefined).output).toBe(400);
  });

  it('the default scenario key is 111100 (split, cache, effort, jev on; flex, batch off)', () => {
    expect(scenarioKey(SWITCH_DEFAULTS)).toBe('111100');
  });

  it('a line is provider + the plan fee + the auto fee, in USD to six decimals', () => {
    const model = catalog.chatModel('vendor-1/orion-mini-5')!;
    const price = callPrice(catalog, model, { input: 1_000_000, output: 1_000_000 }, { auto: true });
    expect(price).toEqual({ provider_usd: 2.25, fee_usd: 0.1125, call_fee_usd: catalog.data.auto_call_fee_micros / 1e6, classifier_usd: 0, total_usd: (2_362_500 + catalog.data.auto_call_fee_micros) / 1e6 });
  });

  it('flex and batch at half the provider price; batch wins when both are on', () => {
    const pick = catalog.chatModel('vendor-1/orion-mini-5')!;
    const grid = scenarios({ catalog, pick, tokens: { input: 1_000_000, output: 1_000_000 }, prefixTokens: 0, baseUsd: 3 });
    const fee = catalog.data.auto_call_fee_micros / 1e6;
    expect(grid['000000']!.total_usd).toBeCloseTo(2.3625 + fee, 6);
    expect(grid['000010']!.total_usd).toBeCloseTo(1.18125 + fee, 6);
    expect(grid['000001']!.total_usd).toBe(grid['000011']!.total_usd);
    expect(grid['000000']!.saving_usd).toBeCloseTo(3 - grid['000000']!.total_usd, 6);
  });

  it('flex on prices the pick made at flex prices (another model may win there), at its flex tier', () => {
    const pick = catalog.chatModels.find((model) => !model.flex && !model.named_only)!;
    const flexPick = catalog.chatModel('vendor-1/orion-mini-5')!;
    const tokens = { input: 1_000_000, output: 1_000_000 };
    const grid = scenarios({ catalog, pick, flexPick, tokens, prefixTokens: 0, baseUsd: 3 });
    expect(grid['000000']!.total_usd).toBe(callPrice(catalog, pick, tokens, { auto: true }).total_usd);
    expect(grid['000010']!.total_usd).toBeCloseTo(1.18125 + catalog.data.auto_call_fee_micros / 1e6, 6);
  });
});

describe('the split lever in the scenarios', () => {
  const { catalog } = require('@svc/catalog') as typeof import('@svc/catalog');
  const pick = catalog.chatModel('vendor-2/lyric-sonnet-4.5')!;
  const { scenarios: grid, applicable: can } = require('./price') as typeof import('./price');
  it('split on prices the split total at the standard tier only; jev wins; applicable follows the total', () => {
    const out = grid({ catalog, pick, tokens: { input: 20_000, output: 300 }, prefixTokens: 0, baseUsd: 1, splitTotalUsd: 0.01 });
    expect(out['100000']!.total_usd).toBe(0.01);
    expect(out['000000']!.total_usd).toBeGreaterThan(0.01);
    expect(out['100001']!.total_usd).toBe(out['000001']!.total_usd);
    expect(grid({ catalog, pick, tokens: { input: 20_000, output: 300 }, prefixTokens: 0, baseUsd: 1, splitTotalUsd: 0.01, jevTotalUsd: 0.001 })['100100']!.total_usd).toBe(0.001);
    expect(can({ catalog, pick, prefixTokens: 0, splitTotalUsd: 0.01 }).split).toBe(true);
    expect(can({ catalog, pick, prefixTokens: 0 }).split).toBe(false);
  });
});
