import { BASELINE_CALLS_NEEDED, type Catalog, type ChatModel, type Price, type PriceTier } from '@svc/catalog';
import { pricingAt } from './tier';
import { listPricePico, priceCall, roundPicoToMicros, type CostBreakdown, type TokenUsage } from '@svc/pricing';
import type { AdmitAnswer, CallerKey, UsageRecord } from './ports';

export { BASELINE_CALLS_NEEDED };

/**
 * One call's admission as the edge uses it: the Free or paid mode billing decided, the headers it
 * returned, the reservation to settle or give back, and the key's baseline.
 */
export interface CallAdmission {
  callId: string;
  free: boolean;
  /** free_plan or zero_balance (with free). */
  reason: string;
  headers: Record<string, string>;
  reservedMicros: number;
  baselineModel: string;
  baselineCalls: number;
}

export interface CallEstimate {
  /** What the call may cost (reserved against balance and spend limits). */
  micros: number;
  /** Its list price (what the Free plan's fair-use limit counts). */
  listMicros: number;
}

/**
 * The reservation: the list price of the input estimate plus max_tokens clamped to the model's
 * output (as the token bucket charges), the plan's fee, and the auto fee. A named model served
 * on own keys reserves nothing.
 */
export function estimateCall(catalog: Catalog, model: ChatModel, options: { inputTokens: number; outputTokens: number; auto: boolean; byok: boolean; feePercent: number; tier?: PriceTier }): CallEstimate {
  const usage: TokenUsage = { inputTokens: options.inputTokens, outputTokens: Math.min(options.outputTokens, model.capabilities.max_output), cachedTokens: 0, cacheWriteTokens: 0 };
  // `tier`: a call known to be served at another price (a batch-bound background turn at batch price).
  const cost = priceCall({ price: options.tier ? pricingAt(model, options.tier) : model.pricing, usage, serviceFeePercent: options.feePercent, callFeeMicros: options.auto ? catalog.data.auto_call_fee_micros : 0, byok: options.byok });
  return { micros: cost.cost_micros, listMicros: cost.list_micros };
}

/** What admission reads of the key record: the edge sends only these (a smaller Admit message). */
export function admissionKey(key: CallerKey): Partial<CallerKey> {
  return {
    key_id: key.key_id,
    organization_id: key.organization_id,
    plan: key.plan,
    stop_at_zero: key.stop_at_zero,
    free_allowance: key.free_allowance,
    member_id: key.member_id,
    member_quota_micros: key.member_quota_micros,
    spend_limit_micros: key.spend_limit_micros,
    spend_period: key.spend_period,
  };
}

export function admissionOf(callId: string, response: AdmitAnswer, reservedMicros: number): CallAdmission {
  const free = response.plan_tier === 'free';
  return {
    callId,
    free,
    reason: response.plan_reason ?? '',
    headers: response.headers ?? {},
    // A Free call holds its request and list price, not money.
    reservedMicros: free ? 0 : reservedMicros,
    baselineModel: response.baseline_model ?? '',
    baselineCalls: Number(response.baseline_calls ?? 0),
  };
}

/** The usage record's billing fields that come from the key and the admission. */
export function usageBillingFields(key: CallerKey, admission: CallAdmission, baselinePending: boolean): Pick<UsageRecord, 'plan' | 'spend_period' | 'member_id' | 'reserved_micros' | 'baseline_pending'> {
  const period = Number(key.spend_limit_micros ?? 0) > 0 ? key.spend_period : '';
  return {
    plan: admission.free ? 'free' : '',
    spend_period: period === 'day' || period === 'week' || period === 'month' || period === 'life' ? period : '',
    member_id: key.member_id ?? '',
    reserved_micros: admission.reservedMicros,
    baseline_pending: baselinePending,
  };
}

/** svc.plan on a call served under the Free limits (spec: svc object, plan). */
export function planObject(admission: CallAdmission, topupUrl: string, paidWouldUse: string | undefined, modelServed: string): Record<string, unknown> | undefined {
  if (!admission.free) return undefined;
  return {
    tier: 'free',
    reason: admission.reason,
    ...(paidWouldUse && paidWouldUse !== modelServed ? { paid_would_use: paidWouldUse } : {}),
    topup_url: topupUrl,
  };
}

export interface CostFields {
  breakdown: CostBreakdown;
  /** svc.cost */
  object: Record<string, unknown>;
  directMicros: number;
  baselinePending: boolean;
}

/**
 * svc.cost for a chat call (spec: svc.cost fields and Baseline rules).
 * - vendor_micros: list price; 0 on own vendor keys. service_fee_micros: the plan's percentage.
 *   call_fee_micros: the auto fee, once; 0 on a named model. Under the Free limits nothing is
 *   charged: the fee and call fee are 0 and cost_micros is 0 (vendor_micros still says the list price).
 * - direct_micros: on a named model the provider price itself; on auto the same usage on the key's
 *   baseline model (same cache reads and writes at its rates, uncached where its vendor has no
 *   prompt cache); while the baseline is pending the call is its own baseline (direct = cost) and
 *   saved_micros is left out.
 * - saved_micros = direct − cost (may be negative). savings_fee_micros, classifier_micros: 0.
 */
export function costFields(catalog: Catalog, input: { model: ChatModel; tier?: PriceTier; usage: TokenUsage; auto: boolean; byok: boolean; free: boolean; feePercent: number; admission: CallAdmission; noAnswer: boolean }): CostFields {
  const tier = input.tier ?? 'standard';
  const breakdown = priceCall({
    price: pricingAt(input.model, tier),
    usage: input.usage,
    serviceFeePercent: input.free ? 0 : input.feePercent,
    callFeeMicros: input.auto && !input.free ? catalog.data.auto_call_fee_micros : 0,
    byok: input.byok,
  });
  if (input.free) Object.assign(breakdown, { cost_micros: 0, service_fee_micros: 0, call_fee_micros: 0 });
  if (input.noAnswer) Object.assign(breakdown, { vendor_micros: 0, service_fee_micros: 0, call_fee_micros: 0, cost_micros: 0 });
  const object: Record<string, unknown> = {
    vendor_micros: breakdown.vendor_micros,
    service_fee_micros: breakdown.service_fee_micros,
    call_fee_micros: breakdown.call_fee_micros,
    savings_fee_micros: 0,
    classifier_micros: 0,
  };
  if (!input.auto) {
    const direct = input.noAnswer ? 0 : breakdown.list_micros;
    Object.assign(object, { direct_micros: direct, saved_micros: direct - breakdown.cost_micros });
    return { breakdown, object, directMicros: direct, baselinePending: false };
  }
  const baseline = input.admission.baselineModel ? catalog.chatModel(input.admission.baselineModel) : undefined;
  if (!baseline) {
    Object.assign(object, {
      direct_micros: breakdown.cost_micros,
      baseline: { pending: true, calls: input.admission.baselineCalls, calls_needed: BASELINE_CALLS_NEEDED },
    });
    return { breakdown, object, directMicros: breakdown.cost_micros, baselinePending: true };
  }
  const direct = input.noAnswer ? 0 : baselineMicros(catalog, baseline, input.usage, tier);
  Object.assign(object, { direct_micros: direct, saved_micros: direct - breakdown.cost_micros, baseline: { pending: false, model: baseline.id } });
  return { breakdown, object, directMicros: direct, baselinePending: false };
}

/**
 * The same usage at the baseline model's list rates; cache reads and writes priced as input where
 * its vendor has no prompt cache. A call served at flex (or batch) is compared with the baseline's
 * price at that tier, standard where the baseline has none (spec: Deadline and flex rules 5).
 */
export function baselineMicros(catalog: Catalog, baseline: ChatModel, usage: TokenUsage, tier: PriceTier = 'standard'): number {
  const cacheless = catalog.vendor(baseline.vendor)?.cache === 'none';
  const priced: TokenUsage = cacheless ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cachedTokens: 0, cacheWriteTokens: 0 } : usage;
  return roundPicoToMicros(listPricePico(pricingAt(baseline, tier) as Price, priced));
}

