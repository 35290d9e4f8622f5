import type { TokenUsage } from '@svc/pricing';
import type { Usage } from '@svc/vendors';
import type { RouteDecision } from '@svc/routing';
import type { ChatRequestInput } from './request/chat-request';
import { costFields, planObject, usageBillingFields, type CostFields } from './billing';
import { compact, renderRouting } from './render/chat';
import type { Attempt } from './attempts';
import type { CallPlan } from './plan';
import type { Caller } from './ports';
import type { CallDeps, CallPolicy } from './types';
import { planTier } from './tier';
import { splitCost, splitObject, type SplitState } from './split/outcome';

/**
 * Step 4 of a chat call: its outcome. The svc object and cost of the answer, the usage record
 * published through the usage sink (which settles the reservation) — or, for a call that ends
 * without a billed answer, the reservation given back. Either happens exactly once (CallLedger).
 */
export interface OutcomeContext {
  deps: CallDeps;
  input: ChatRequestInput;
  caller: Caller;
  policy: CallPolicy;
  plan: CallPlan;
  route: RouteDecision;
  /**
   * The answer replaced a weaker model's (escalation): svc.escalated_from (`line/model`), the
   * vendor attempts made before the stronger model's, and their tokens (the key's token bucket
   * counts them; the replaced answer itself is not billed).
   */
  escalation?: { from: string; attempts: number; tokens: number };
  /** Split-and-route under auto (split/): the gate, and its steps once they ran; absent when the feature is off. */
  split?: SplitState;
  /** The latest vendor attempt's model; absent before any attempt. */
  attempted?: { vendor: string; model: string };
}

/**
 * svc.tier of a call (spec: svc.tier): what the deadline (or the caller) asked for, what served, and
 * why they differ. A batch line the decision model answered was served by it at its own price (it
 * has no batch tier): fallback `decision`.
 */
function tierObject(input: ChatRequestInput, policy: CallPolicy, attempt?: Attempt): Record<string, unknown> {
  if (policy.tier === 'batch' && attempt?.model.protocol === 'decision') return { requested: 'batch', applied: 'standard', fallback: 'decision' };
  const plan = planTier(input.svc.deadlineMs, policy);
  const fallback = attempt ? attempt.tierFallback : plan.fallback;
  return { requested: plan.requested, applied: attempt?.tier ?? (plan.requested === 'batch' && !policy.tier ? 'standard' : plan.requested), ...(fallback ? { fallback } : {}) };
}

/**
 * svc.routing of an answered call: a call jev sent to the decision model that the routed pick
 * answered after all (the decision model failed) reports the router's own routing.
 */
function routingOf(context: OutcomeContext, attempt: Attempt): RouteDecision['routing'] {
  const { plan, route } = context;
  if (plan.jev && route === plan.route && attempt.model.protocol !== 'decision') return plan.jev.routing;
  return route.routing;
}

/** The svc object of an answered call, and its cost; `decision` is svc.decision when the decision model answered. */
export function svcObject(context: OutcomeContext, attempt: Attempt, usage: Usage, vendorStopReason: string, noAnswer?: string, decision?: Record<string, unknown>): { svc: Record<string, unknown>; cost: CostFields } {
  const { deps, caller, plan, input, route } = context;
  const tokens: TokenUsage = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cachedTokens: usage.cachedTokens, cacheWriteTokens: usage.cacheWriteTokens, cacheTtl: attempt.prepared.cacheTtl };
  const feePercent = deps.catalog.data.plans[caller.key.plan === 'free' ? 'free' : 'paid'].service_fee_percent;
  let cost = costFields(deps.catalog, {
    model: attempt.model,
    tier: attempt.tier,
    usage: tokens,
    auto: plan.auto,
    byok: attempt.byok,
    free: plan.admission.free,
    feePercent,
    admission: plan.admission,
    noAnswer: Boolean(noAnswer),
  });
  const run = context.split?.run;
  if (run?.applied && !noAnswer) {
    const baseline = plan.admission.baselineModel ? deps.catalog.chatModel(plan.admission.baselineModel) : undefined;
    cost = splitCost(deps.catalog, cost, run, { feePercent, free: plan.admission.free, wholeInputTokens: plan.inputTokens, answerUsage: usage, ...(baseline ? { baseline } : {}) });
  }
  const split = context.split ? splitObject(context.split, { model: attempt.model, usage, wholeInputTokens: plan.inputTokens, baselinePending: cost.baselinePending }) : undefined;
  const svc = compact({
    call_id: plan.callId,
    vendor: attempt.model.vendor,
    model_served: attempt.model.id,
    routing: renderRouting(routingOf(context, attempt)),
    reasoning: attempt.prepared.reasoning,
    cost_micros: cost.breakdown.cost_micros,
    cost: cost.object,
    byok: attempt.byok || undefined,
    cache: { read_tokens: usage.cachedTokens, write_tokens: usage.cacheWriteTokens, ttl_applied: usage.cacheWriteTokens > 0 || usage.cachedTokens > 0 ? attempt.prepared.cacheTtl : '' },
    session_id: input.svc.sessionId,
    escalated_from: context.escalation?.from,
    vendor_stop_reason: vendorStopReason,
    ignored_parameters: input.ignoredParameters,
    dropped_parameters: attempt.prepared.dropped,
    attempts: attempt.attempts + (context.escalation?.attempts ?? 0),
    no_answer: noAnswer,
    decision,
    split,
    tier: tierObject(input, context.policy, attempt),
    plan: planObject(plan.admission, deps.topupUrl, route.paid_would_use, attempt.model.id),
  });
  // cache and tier are always present (RULINGS 2), even when empty-looking.
  return { svc: { ...svc, cache: svc.cache ?? { read_tokens: 0, write_tokens: 0, ttl_applied: '' } }, cost };
}

/**
 * The svc object of a call that failed after its 200 was committed (no vendor answered). Its
 * headers went out before a vendor was chosen, so the body names the vendor and model of the last
 * attempt (the first candidate when none started) with the routing (spec: Long calls 2).
 */
export function failedSvcObject(context: OutcomeContext): Record<string, unknown> {
  const first = context.route.candidates[0];
  const attempted = context.attempted ?? (first ? { vendor: first.vendor, model: first.model } : undefined);
  return compact({
    call_id: context.plan.callId,
    vendor: attempted?.vendor,
    model_served: attempted?.model,
    routing: renderRouting(context.route.routing),
    cost_micros: 0,
    cache: { read_tokens: 0, write_tokens: 0, ttl_applied: '' },
    session_id: context.input.svc.sessionId,
    split: context.split ? splitObject(context.split) : undefined,
    tier: tierObject(context.input, context.policy),
  });
}

/** Tokens of an applied split's billed steps before the answer (the service's own steps do not count against the key). */
function splitBilledTokens(context: OutcomeContext): number {
  const run = context.split?.run;
  return run?.applied ? run.billed.reduce((sum, step) => sum + step.usage.inputTokens + step.usage.outputTokens, 0) : 0;
}

/** Publishes the answered call's usage record: the call is billed (its reservation settles with it). */
export async function settle(context: OutcomeContext, attempt: Attempt, usage: Usage, cost: CostFields): Promise<void> {
  const { caller, plan, route } = context;
  // An applied split's billed steps before the answer (the extract) are part of the one usage record.
  const billed = context.split?.run?.applied ? context.split.run.billed : [];
  await plan.ledger.settle({
    kind: 'chat',
    vendor: attempt.model.vendor,
    model: attempt.model.id,
    line: route.routing?.line ?? '',
    input_tokens: usage.inputTokens + billed.reduce((sum, step) => sum + step.usage.inputTokens, 0),
    output_tokens: usage.outputTokens + billed.reduce((sum, step) => sum + step.usage.outputTokens, 0),
    cached_tokens: usage.cachedTokens,
    cache_write_tokens: usage.cacheWriteTokens,
    reasoning_tokens: usage.reasoningTokens ?? 0,
    vendor_micros: cost.breakdown.vendor_micros,
    service_fee_micros: cost.breakdown.service_fee_micros,
    call_fee_micros: cost.breakdown.call_fee_micros,
    cost_micros: cost.breakdown.cost_micros,
    direct_micros: cost.directMicros,
    byok: attempt.byok,
    occurred_at_ms: Date.now(),
    ...usageBillingFields(caller.key, plan.admission, cost.baselinePending),
  });
}

/**
 * The end of an answered call: the token charge moves to the real count and, unless the answer
 * is a no_answer (not billed), the usage is published — both at once (independent round trips).
 * A no_answer gives its reservation back.
 */
export async function finish(context: OutcomeContext, attempt: Attempt, usage: Usage, cost: CostFields, noAnswer: string | undefined): Promise<void> {
  const { ledger } = context.plan;
  await Promise.all([ledger.refundTokens(usage.inputTokens + usage.outputTokens + (context.escalation?.tokens ?? 0) + splitBilledTokens(context)), noAnswer ? undefined : settle(context, attempt, usage, cost)]);
  if (noAnswer) ledger.release();
}
