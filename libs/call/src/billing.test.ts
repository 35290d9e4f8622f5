import { catalog } from '@svc/catalog';
import type { CallerKey as KeyRecord__Output } from './ports';
import { admissionOf, baselineMicros, costFields, estimateCall, planObject, usageBillingFields, type CallAdmission } from './billing';

// Prices (USD per million tokens = micros per token) from libs/catalog:
//   vendor-1/orion-4.1       input 2, output 8, cache_read 0.5, cache_write 2 (vendor cache automatic)
//   vendor-2/lyric-sonnet-4.5 input 3, output 15, cache_read 0.3, cache_write 3.75 (explicit)
//   vendor-7/vega-4          input 3, output 15, no prompt cache
// auto_call_fee_micros 50; paid plan fee 5 %.
const model = (id: string) => catalog.chatModel(id)!;
const paid: CallAdmission = { callId: 'call_x', free: false, reason: '', headers: {}, reservedMicros: 0, baselineModel: '', baselineCalls: 7 };
const withBaseline = (id: string): CallAdmission => ({ ...paid, baselineModel: id });
const usage = { inputTokens: 10_000, outputTokens: 1_000, cachedTokens: 4_000, cacheWriteTokens: 0 };
const base = { usage, auto: false, byok: false, free: false, feePercent: 5, admission: paid, noAnswer: false };

describe('estimateCall (the reservation)', () => {
  it('prices input plus max_tokens clamped to the model’s output, with the fee and the auto fee', () => {
    // orion-4.1: 1000 × 2 + min(50_000, 32_768) × 8 = 264_144 micros list; 5 % = 13_207.2 → 13_207; + 50
    expect(estimateCall(catalog, model('vendor-1/orion-4.1'), { inputTokens: 1_000, outputTokens: 50_000, auto: true, byok: false, feePercent: 5 })).toEqual({ micros: 264_144 + 13_207 + 50, listMicros: 264_144 });
    expect(estimateCall(catalog, model('vendor-1/orion-4.1'), { inputTokens: 1_000, outputTokens: 100, auto: false, byok: false, feePercent: 5 })).toEqual({ micros: 2_800 + 140, listMicros: 2_800 });
  });

  it('reserves nothing for a named model on own keys', () => {
    expect(estimateCall(catalog, model('vendor-1/orion-4.1'), { inputTokens: 1_000, outputTokens: 100, auto: false, byok: true, feePercent: 5 })).toEqual({ micros: 0, listMicros: 2_800 });
  });
});

describe('costFields (svc.cost)', () => {
  it('named model: vendor list price, the plan fee, no call fee, direct = list, saved = direct − cost (negative by the fee)', () => {
    // 6000 × 2 + 4000 × 0.5 + 1000 × 8 = 22_000; fee 1_100
    const cost = costFields(catalog, { ...base, model: model('vendor-1/orion-4.1') });
    expect(cost.object).toEqual({ vendor_micros: 22_000, service_fee_micros: 1_100, call_fee_micros: 0, savings_fee_micros: 0, classifier_micros: 0, direct_micros: 22_000, saved_micros: -1_100 });
    expect(cost.breakdown.cost_micros).toBe(23_100);
    expect([cost.directMicros, cost.baselinePending]).toEqual([22_000, false]);
  });

  it('prices cache writes at 1.25× (5m) or 2× (1h) input', () => {
    const writes = { inputTokens: 10_000, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 10_000 };
    expect(costFields(catalog, { ...base, model: model('vendor-2/lyric-sonnet-4.5'), usage: { ...writes, cacheTtl: '5m' } }).object.vendor_micros).toBe(37_500);
    expect(costFields(catalog, { ...base, model: model('vendor-2/lyric-sonnet-4.5'), usage: { ...writes, cacheTtl: '1h' } }).object.vendor_micros).toBe(60_000);
  });

  it('named model on own keys: vendor_micros 0, cost 0, direct still the list price', () => {
    const cost = costFields(catalog, { ...base, model: model('vendor-1/orion-4.1'), byok: true });
    expect(cost.object).toEqual({ vendor_micros: 0, service_fee_micros: 0, call_fee_micros: 0, savings_fee_micros: 0, classifier_micros: 0, direct_micros: 22_000, saved_micros: 22_000 });
    expect(cost.breakdown.cost_micros).toBe(0);
  });

  it('auto on own keys pays the auto fee only', () => {
    const cost = costFields(catalog, { ...base, model: model('vendor-1/orion-4.1'), auto: true, byok: true, admission: withBaseline('vendor-1/orion-4.1') });
    expect(cost.breakdown.cost_micros).toBe(50);
    expect(cost.object).toMatchObject({ vendor_micros: 0, service_fee_micros: 0, call_fee_micros: 50 });
  });

  it('auto while the baseline is pending: the call is its own baseline, no saved_micros, baseline {pending, calls, calls_needed}', () => {
    const cost = costFields(catalog, { ...base, model: model('vendor-1/orion-4.1'), auto: true });
    expect(cost.object).toEqual({
      vendor_micros: 22_000,
      service_fee_micros: 1_100,
      call_fee_micros: 50,
      savings_fee_micros: 0,
      classifier_micros: 0,
      direct_micros: 23_150,
      baseline: { pending: true, calls: 7, calls_needed: 20 },
    });
    expect(cost.baselinePending).toBe(true);
  });

  it('auto with a baseline: direct is the same cache reads at the baseline’s rates; saved = direct − cost', () => {
    // lyric-sonnet-4.5: 6000 × 3 + 4000 × 0.3 + 1000 × 15 = 34_200
    const cost = costFields(catalog, { ...base, model: model('vendor-1/orion-4.1'), auto: true, admission: withBaseline('vendor-2/lyric-sonnet-4.5') });
    expect(cost.object).toEqual({
      vendor_micros: 22_000,
      service_fee_micros: 1_100,
      call_fee_micros: 50,
      savings_fee_micros: 0,
      classifier_micros: 0,
      direct_micros: 34_200,
      saved_micros: 34_200 - 23_150,
      baseline: { pending: false, model: 'vendor-2/lyric-sonnet-4.5' },
    });
  });

  it('a baseline whose vendor has no prompt cache is priced uncached', () => {
    // vega-4: 10_000 × 3 + 1000 × 15 = 45_000 (the 4000 cached tokens at the full input rate)
    expect(baselineMicros(catalog, model('vendor-7/vega-4'), usage)).toBe(45_000);
    const cost = costFields(catalog, { ...base, model: model('vendor-1/orion-4.1'), auto: true, admission: withBaseline('vendor-7/vega-4') });
    expect(cost.object).toMatchObject({ direct_micros: 45_000, saved_micros: 45_000 - 23_150 });
  });

  it('under the Free limits nothing is charged: no fee, no call fee, cost 0; vendor_micros says the list price', () => {
    const free = { ...paid, free: true, reason: 'free_plan' };
    const cost = costFields(catalog, { ...base, model: model('vendor-1/orion-nano-5'), auto: true, free: true, admission: free });
    expect(cost.breakdown.cost_micros).toBe(0);
    expect(cost.object).toMatchObject({ service_fee_micros: 0, call_fee_micros: 0, vendor_micros: 720 });
  });

  it('a call with no answer bills nothing', () => {
    const cost = costFields(catalog, { ...base, model: model('vendor-1/orion-4.1'), noAnswer: true });
    expect(cost.breakdown.cost_micros).toBe(0);
    expect(cost.object).toEqual({ vendor_micros: 0, service_fee_micros: 0, call_fee_micros: 0, savings_fee_micros: 0, classifier_micros: 0, direct_micros: 0, saved_micros: 0 });
  });
});

describe('admission, plan and usage fields', () => {
  it('keeps the reservation of a paid call and none of a Free call', () => {
    expect(admissionOf('call_1', { balance_micros: 5, headers: { a: 'b' }, plan_tier: '', plan_reason: '', baseline_model: 'm', baseline_calls: 21 }, 900)).toEqual({ callId: 'call_1', free: false, reason: '', headers: { a: 'b' }, reservedMicros: 900, baselineModel: 'm', baselineCalls: 21 });
    expect(admissionOf('call_2', { balance_micros: 0, headers: {}, plan_tier: 'free', plan_reason: 'zero_balance', baseline_model: '', baseline_calls: 0 }, 900)).toMatchObject({ free: true, reason: 'zero_balance', reservedMicros: 0 });
  });

  it('svc.plan on Free calls only, with paid_would_use when it differs', () => {
    const free = { ...paid, free: true, reason: 'free_plan' };
    expect(planObject(paid, 'https://t', 'x', 'y')).toBeUndefined();
    expect(planObject(free, 'https://t/up', 'vendor-1/orion-5', 'vendor-1/orion-nano-5')).toEqual({ tier: 'free', reason: 'free_plan', paid_would_use: 'vendor-1/orion-5', topup_url: 'https://t/up' });
    expect(planObject(free, 'https://t/up', 'vendor-1/orion-nano-5', 'vendor-1/orion-nano-5')).toEqual({ tier: 'free', reason: 'free_plan', topup_url: 'https://t/up' });
  });

  it('carries the spend period only when the key has a limit', () => {
    const key = { spend_limit_micros: 100, spend_period: 'week', member_id: 'acct_1' } as KeyRecord__Output;
    expect(usageBillingFields(key, { ...paid, reservedMicros: 40 }, true)).toEqual({ plan: '', spend_period: 'week', member_id: 'acct_1', reserved_micros: 40, baseline_pending: true });
    expect(usageBillingFields({ ...key, spend_limit_micros: 0 }, { ...paid, free: true }, false)).toEqual({ plan: 'free', spend_period: '', member_id: 'acct_1', reserved_micros: 0, baseline_pending: false });
  });
});
