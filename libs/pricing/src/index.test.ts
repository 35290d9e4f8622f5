import { picoPerToken, roundPicoToMicros, listPriceMicros, priceCall, withPlanFee } from './index';

const price = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
const usage = (partial: Partial<Parameters<typeof listPriceMicros>[1]>) => ({ inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, ...partial });

describe('pricing in micros', () => {
  it('holds prices exactly as pico-USD per token', () => {
    expect(picoPerToken(0.15)).toBe(150_000n);
    expect(picoPerToken(0.000001)).toBe(1n);
  });

  it('rounds half up once, at the end', () => {
    expect(roundPicoToMicros(499_999n)).toBe(0);
    expect(roundPicoToMicros(500_000n)).toBe(1);
    expect(roundPicoToMicros(1_499_999n)).toBe(1);
  });

  it('prices input and output at list price', () => {
    // 1000 * 3 + 500 * 15 micros
    expect(listPriceMicros(price, usage({ inputTokens: 1000, outputTokens: 500 }))).toBe(10_500);
  });

  it('prices cache reads at the read rate and counts them inside input', () => {
    expect(listPriceMicros(price, usage({ inputTokens: 1000, cachedTokens: 800 }))).toBe(200 * 3 + Math.round(800 * 0.3));
  });

  it('prices 5m writes at cache_write and 1h writes at twice input', () => {
    expect(listPriceMicros(price, usage({ inputTokens: 2000, cacheWriteTokens: 2000, cacheTtl: '5m' }))).toBe(7_500);
    expect(listPriceMicros(price, usage({ inputTokens: 2000, cacheWriteTokens: 2000, cacheTtl: '1h' }))).toBe(12_000);
  });

  it('sums fractional micros exactly before rounding (no float drift)', () => {
    const cheap = { input: 0.1, output: 0.4, cache_read: 0.025, cache_write: 0.1 };
    // 7 tokens * 0.1 = 0.7 micros -> 1; float would give 0.7000000000000001
    expect(listPriceMicros(cheap, usage({ inputTokens: 7 }))).toBe(1);
    expect(listPriceMicros(cheap, usage({ inputTokens: 3, outputTokens: 1 }))).toBe(1); // 0.3 + 0.4 = 0.7
  });

  it('adds the plan fee and the auto call fee', () => {
    const cost = priceCall({ price, usage: usage({ inputTokens: 1000, outputTokens: 500 }), serviceFeePercent: 5, callFeeMicros: 50, byok: false });
    expect(cost).toEqual({ vendor_micros: 10_500, service_fee_micros: 525, call_fee_micros: 50, cost_micros: 11_075, list_micros: 10_500 });
  });

  it('charges nothing for the vendor on the organization own key, and keeps the list price', () => {
    const cost = priceCall({ price, usage: usage({ inputTokens: 1000, outputTokens: 500 }), serviceFeePercent: 5, callFeeMicros: 0, byok: true });
    expect(cost).toEqual({ vendor_micros: 0, service_fee_micros: 0, call_fee_micros: 0, cost_micros: 0, list_micros: 10_500 });
  });

  it('shows prices with the plan fee included', () => {
    expect(withPlanFee(3, 5)).toBe(3.15);
    expect(withPlanFee(0.15, 5)).toBe(0.1575);
  });
});
