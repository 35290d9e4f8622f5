import { hasPriceTier, tierPricing, type ChatModel, type Price, type PriceTier } from '@svc/catalog';
import type { CallPolicy } from './types';

/**
 * The price tier of a call (spec: Deadline and flex rules, svc.tier).
 *
 * - `svc.deadline` (or `x-svc-deadline`) under 15 minutes, or absent, changes nothing: standard.
 * - From 15 minutes the call may be served on the model's flex tier (the same model at half the
 *   price, slower, best-effort capacity); auto compares its candidates at flex prices.
 * - From 24 hours the call asks for batch. Only a batch or a background response can wait for a
 *   vendor batch, so a synchronous call is served at flex (or standard where the model has no
 *   flex tier) with tier.fallback `synchronous`.
 * - A flex attempt refused for capacity is retried at once on the same model at standard, billed
 *   at standard: tier.fallback `capacity` (attempts.ts).
 * - A flex attempt may take up to 900 seconds.
 *
 * A caller that runs the call at a tier it chose itself (a batch line served synchronously, a
 * background response from its own job) sets CallPolicy.tier; that wins over the deadline.
 */
export const FLEX_DEADLINE_MS = 15 * 60_000;
export const BATCH_DEADLINE_MS = 24 * 3_600_000;
/** Spec (Deadline and flex rules 3): how long a flex attempt may take. */
export const FLEX_ATTEMPT_MS = 900_000;

export type TierFallback = 'capacity' | 'synchronous' | 'no_batch_tier' | 'decision';

/** What the deadline maps to (svc.tier.requested). */
export function requestedTier(deadlineMs: number | undefined): PriceTier {
  if (deadlineMs === undefined || deadlineMs < FLEX_DEADLINE_MS) return 'standard';
  return deadlineMs >= BATCH_DEADLINE_MS ? 'batch' : 'flex';
}

/** A call's tier plan: what was requested, what attempts ask for, and the fallback known up front. */
export interface TierPlan {
  requested: PriceTier;
  /** The tier each attempt asks for where its model has it (standard otherwise). */
  wanted: PriceTier;
  /** Known before any attempt (`synchronous`: batch asked on a synchronous call). */
  fallback?: TierFallback;
}

export function planTier(deadlineMs: number | undefined, policy: Pick<CallPolicy, 'tier' | 'tierFallback' | 'background'>): TierPlan {
  if (policy.tier) return { requested: policy.tier, wanted: policy.tier, fallback: policy.tierFallback };
  const requested = requestedTier(deadlineMs);
  // A background turn may wait for batch; it runs as its own job at flex (see tierFallbackFor).
  if (requested === 'batch') return { requested, wanted: 'flex', ...(policy.background ? {} : { fallback: 'synchronous' as const }) };
  return { requested, wanted: requested };
}

/**
 * svc.tier.fallback of an attempt on `model`: the plan's; for a batch line (asked at batch) served
 * by a model without a batch tier, `no_batch_tier` (allowed by svc.allow_standard_price); for a
 * background turn that asked for batch, `no_batch_tier` when the model has no batch tier. A named
 * model with a batch tier goes to the organization's vendor-batch pool instead
 * (responses/pool-line.ts, never an attempt here); what still reaches this with a batch-tier
 * model is auto, whose pick is made when its own job runs, served at flex with `synchronous`.
 */
export function tierFallbackFor(plan: TierPlan, model: ChatModel, policy: Pick<CallPolicy, 'background'>): TierFallback | undefined {
  if (plan.fallback || plan.requested !== 'batch') return plan.fallback;
  if (!policy.background) return model.batch ? undefined : 'no_batch_tier';
  return model.batch ? 'synchronous' : 'no_batch_tier';
}

/** The tier one attempt on `model` asks the vendor for. */
export function attemptTier(plan: TierPlan, model: ChatModel): PriceTier {
  return hasPriceTier(model, plan.wanted) ? plan.wanted : 'standard';
}

/** The list price a call served at `tier` is billed at (standard where the model has no such tier). */
export function pricingAt(model: ChatModel, tier: PriceTier): Price {
  return tierPricing(model, tier) ?? model.pricing;
}

/** The price tier auto compares its candidates at: flex from a 15-minute deadline. */
export function routingPriceTier(plan: TierPlan): PriceTier {
  return plan.wanted === 'flex' ? 'flex' : 'standard';
}
