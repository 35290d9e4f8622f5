import { catalog } from '@svc/catalog';
import { BASELINE_PERCENTILE, blendedPicoPerToken, nearestRank, pickBaseline, type PriceLookup } from './recompute';

// A fixed catalog subset: blended (input + output) / 2 USD per million tokens.
const PRICES: Record<string, { input: number; output: number }> = {
  'vendor-1/cheap': { input: 0.05, output: 0.4 }, // 0.225 -> 225_000 pico
  'vendor-2/mid': { input: 1, output: 3 }, // 2 -> 2_000_000 pico
  'vendor-3/mid-twin': { input: 2, output: 2 }, // 2 as well: ties go by model id
  'vendor-4/dear': { input: 15, output: 75 }, // 45 -> 45_000_000 pico
  'vendor-5/free': { input: 0, output: 0 },
};
const fixed: PriceLookup = {
  chatModel: (id) => (PRICES[id] ? { pricing: { ...PRICES[id]!, cache_read: 0, cache_write: 0 } } : undefined),
};

describe('blendedPicoPerToken', () => {
  it('is the mean of the input and output list prices in integer pico-USD per token', () => {
    expect(blendedPicoPerToken({ input: 0.05, output: 0.4 })).toBe(225_000n);
    expect(blendedPicoPerToken({ input: 15, output: 75 })).toBe(45_000_000n);
    expect(blendedPicoPerToken({ input: 0, output: 0 })).toBe(0n);
  });

  it('rounds an odd pico sum half up and stays exact where floats are not', () => {
    expect(blendedPicoPerToken({ input: 0.000001, output: 0 })).toBe(1n); // 0.5 pico -> 1
    expect(blendedPicoPerToken({ input: 0.1, output: 0.2 })).toBe(150_000n);
  });

  it('prices every chat model of the real catalog', () => {
    for (const model of catalog.chatModels) expect(blendedPicoPerToken(model.pricing)).toBeGreaterThanOrEqual(0n);
  });
});

describe('nearestRank', () => {
  it('is ceil(p * n / 100), at least 1', () => {
    expect(nearestRank(95, 1)).toBe(1);
    expect(nearestRank(95, 19)).toBe(19);
    expect(nearestRank(95, 20)).toBe(19);
    expect(nearestRank(95, 21)).toBe(20);
    expect(nearestRank(95, 100)).toBe(95);
    expect(nearestRank(95, 101)).toBe(96);
    expect(nearestRank(0, 10)).toBe(1);
    expect(nearestRank(100, 10)).toBe(10);
  });
});

describe('pickBaseline', () => {
  it('takes the model of the call at the 95th percentile of price per token, not the dearest one', () => {
    // 20 calls: 18 cheap, 1 mid, 1 dear; rank 19 is the mid call.
    const baseline = pickBaseline(
      [
        { model: 'vendor-4/dear', calls: 1 },
        { model: 'vendor-1/cheap', calls: 18 },
        { model: 'vendor-2/mid', calls: 1 },
      ],
      fixed,
    );
    expect(baseline).toEqual({ model: 'vendor-2/mid', calls: 20, pricePerTokenPico: 2_000_000n });
  });

  it('reaches the dearest model once it holds more than 5% of the calls', () => {
    const counts = [
      { model: 'vendor-1/cheap', calls: 18 },
      { model: 'vendor-4/dear', calls: 2 },
    ];
    expect(pickBaseline(counts, fixed)?.model).toBe('vendor-4/dear');
    expect(pickBaseline([{ model: 'vendor-1/cheap', calls: 96 }, { model: 'vendor-4/dear', calls: 4 }], fixed)?.model).toBe('vendor-1/cheap');
    expect(pickBaseline([{ model: 'vendor-1/cheap', calls: 95 }, { model: 'vendor-4/dear', calls: 5 }], fixed)?.model).toBe('vendor-1/cheap');
    expect(pickBaseline([{ model: 'vendor-1/cheap', calls: 94 }, { model: 'vendor-4/dear', calls: 6 }], fixed)?.model).toBe('vendor-4/dear');
  });

  it('breaks a price tie by model id, whatever the input order', () => {
    const counts = [
      { model: 'vendor-3/mid-twin', calls: 5 },
      { model: 'vendor-2/mid', calls: 5 },
    ];
    // rank 10 of 10: the last in (price, id) order
    expect(pickBaseline(counts, fixed)).toEqual({ model: 'vendor-3/mid-twin', calls: 10, pricePerTokenPico: 2_000_000n });
    expect(pickBaseline([...counts].reverse(), fixed)?.model).toBe('vendor-3/mid-twin');
    expect(pickBaseline(counts, fixed, 50)?.model).toBe('vendor-2/mid');
  });

  it('gives a key under 20 calls a baseline too, with its call count', () => {
    expect(pickBaseline([{ model: 'vendor-5/free', calls: 3 }], fixed)).toEqual({ model: 'vendor-5/free', calls: 3, pricePerTokenPico: 0n });
  });

  it('leaves out calls on models the catalog does not list, and has no baseline without a priced call', () => {
    const counts = [
      { model: 'vendor-9/retired', calls: 50 },
      { model: 'vendor-1/cheap', calls: 4 },
    ];
    expect(pickBaseline(counts, fixed)).toEqual({ model: 'vendor-1/cheap', calls: 4, pricePerTokenPico: 225_000n });
    expect(pickBaseline([{ model: 'vendor-9/retired', calls: 50 }], fixed)).toBeUndefined();
    expect(pickBaseline([], fixed)).toBeUndefined();
  });

  it('uses the 95th percentile by default and works with the real catalog', () => {
    expect(BASELINE_PERCENTILE).toBe(95);
    const sorted = [...catalog.chatModels].sort((x, y) => Number(blendedPicoPerToken(x.pricing) - blendedPicoPerToken(y.pricing)));
    const [cheapest, dearest] = [sorted[0]!, sorted[sorted.length - 1]!];
    expect(blendedPicoPerToken(cheapest.pricing)).toBeLessThan(blendedPicoPerToken(dearest.pricing));
    expect(pickBaseline([{ model: dearest.id, calls: 1 }, { model: cheapest.id, calls: 30 }], catalog)?.model).toBe(cheapest.id);
    expect(pickBaseline([{ model: dearest.id, calls: 2 }, { model: cheapest.id, calls: 30 }], catalog)?.model).toBe(dearest.id);
  });
});
