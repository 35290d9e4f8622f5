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
}

/** svc.tier of a call (spec: svc.tier); the synchronous API serves at standard. */
function tierObject(policy: CallPolicy): Record<string, unknown> {
  const tier = policy.tier ?? 'standard';
  return { requested: tier, applied: tier };
}

/** The svc object of an answered call, and its cost. */
export function svcObject(context: OutcomeContext, attempt: Attempt, usage: Usage, vendorStopReason: string, noAnswer?: string): { svc: Record<string, unknown>; cost: CostFields } {
  const { deps, caller, plan, input, route } = context;
  const tokens: TokenUsage = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cachedTokens: usage.cachedTokens, cacheWriteTokens: usage.cacheWriteTokens, cacheTtl: attempt.prepared.cacheTtl };
  const cost = costFields(deps.catalog, {
    model: attempt.model,
    usage: tokens,
    auto: plan.auto,
    byok: attempt.byok,
    free: plan.admission.free,
    feePercent: deps.catalog.data.plans[caller.key.plan === 'free' ? 'free' : 'paid'].service_fee_percent,
    admission: plan.admission,
    noAnswer: Boolean(noAnswer),
  });
  const svc = compact({
    call_id: plan.callId,
    vendor: attempt.model.vendor,
    model_served: attempt.model.id,
    routing: renderRouting(route.routing),
    reasoning: attempt.prepared.reasoning,
    cost_micros: cost.breakdown.cost_micros,
    cost: cost.object,
    byok: attempt.byok || undefined,
    cache: { read_tokens: usage.cachedTokens, write_tokens: usage.cacheWriteTokens, ttl_applied: usage.cacheWriteTokens > 0 || usage.cachedTokens > 0 ? attempt.prepared.cacheTtl : '' },
    session_id: input.svc.sessionId,
    vendor_stop_reason: vendorStopReason,
    ignored_parameters: input.ignoredParameters,
    dropped_parameters: attempt.prepared.dropped,
    attempts: attempt.attempts,
    no_answer: noAnswer,
    tier: tierObject(context.policy),
    plan: planObject(plan.admission, deps.topupUrl, route.paid_would_use, attempt.model.id),
  });
  // cache and tier are always present (RULINGS 2), even when empty-looking.
  return { svc: { ...svc, cache: svc.cache ?? { read_tokens: 0, write_tokens: 0, ttl_applied: '' } }, cost };
}

/** The svc object of a call that failed after its 200 was committed (no vendor answered). */
export function failedSvcObject(context: OutcomeContext): Record<string, unknown> {
  return compact({
    call_id: context.plan.callId,
    routing: renderRouting(context.route.routing),
    cost_micros: 0,
    cache: { read_tokens: 0, write_tokens: 0, ttl_applied: '' },
    session_id: context.input.svc.sessionId,
    tier: tierObject(context.policy),
  });
}

/** Publishes the answered call's usage record: the call is billed (its reservation settles with it). */
export async function settle(context: OutcomeContext, attempt: Attempt, usage: Usage, cost: CostFields): Promise<void> {
  const { caller, plan, route } = context;
  await plan.ledger.settle({
    kind: 'chat',
    vendor: attempt.model.vendor,
    model: attempt.model.id,
    line: route.routing?.line ?? '',
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
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
  await Promise.all([ledger.refundTokens(usage.inputTokens + usage.outputTokens), noAnswer ? undefined : settle(context, attempt, usage, cost)]);
  if (noAnswer) ledger.release();
}
