import { ServiceError } from '@svc/errors';
import type { ChatModel } from '@svc/catalog';
import { resolveServing, type ResolvedProvider } from '@svc/vendors';
import type { RouteDecision } from '@svc/routing';
import type { ChatRequestInput } from './request/chat-request';
import { route, type CallPlan } from './plan';
import type { Caller } from './ports';
import type { CallDeps } from './types';

/** At most this many candidates are tried (spec: What the service does 5). */
export const MAX_ATTEMPTS = 3;

/** One candidate as it will be tried: the model, where it is served, and on whose key. */
export interface Candidate {
  model: ChatModel;
  /** Resolves the provider when the candidate's turn comes (a listed vendor whose own key cannot be opened refuses then). */
  serve(): { provider: ResolvedProvider | undefined; byok: boolean };
}

/**
 * Step 2 of a chat call: every rule that decides which candidates are tried, and in what order.
 * - Free plan picks: a paid organization that admission put on the Free limits (zero balance) is
 *   routed again among free models.
 * - Own-key-only models: a named model whose vendor has the organization's own key is served on
 *   own keys only, fallbacks included (spec: Authentication 8).
 * - Fallback policy and svc.vendors: the routing decision already lists only what the policy
 *   and the vendor list allow (libs/routing, the router's auto rules); named models with
 *   fallback `none` that are unhealthy are refused (503 no_provider_available).
 * - Provider health: healthy candidates first, in their order, then the unhealthy ones.
 * - Own vendor keys: where the organization has its own key for a vendor, it serves, never the
 *   service's key; a vendor without a configured key is skipped.
 */
export async function chooseCandidates(deps: CallDeps, input: ChatRequestInput, caller: Caller, plan: CallPlan): Promise<{ route: RouteDecision; candidates: Candidate[] }> {
  const { key } = caller;
  let decision = plan.route;
  if (plan.admission.free && key.plan !== 'free') decision = sameJudgement(await route(deps, plan.query, true, plan.auto), plan.route);
  const byokVendors = key.byok_vendors ?? [];
  if (plan.byokNamed) decision = { ...decision, candidates: decision.candidates.filter((candidate) => byokVendors.includes(candidate.vendor)) };

  const ordered = deps.health.order(decision.candidates);
  const fallback = input.svc.fallback ?? key.fallback_policy;
  if (!plan.auto && fallback === 'none' && ordered.length > 0 && !deps.health.isHealthy(ordered[0].model)) {
    throw new ServiceError('no_provider_available', `'${ordered[0].model}' is not healthy right now and fallback is none.`);
  }
  return { route: decision, candidates: await servingCandidates(deps, caller, ordered) };
}

/**
 * A paid organization at zero is routed again among the Free models once admission says so. That
 * second pass reads the session the first one just wrote, so it would report the same message as a
 * `cache_hit`: the judgement of the job (trigger, reason, classification) is the first pass's; the
 * pick and what follows from it (floor, effort, sticky) are the second's.
 */
const JUDGEMENT = ['trigger', 'reason', 'classifier', 'confidence', 'task', 'task_type', 'difficulty', 'band', 'stakes', 'biased', 'cell'] as const;

function sameJudgement(free: RouteDecision, first: RouteDecision): RouteDecision {
  if (!free.routing || !first.routing) return free;
  const routing: Record<string, unknown> = { ...free.routing };
  for (const name of JUDGEMENT) {
    if (first.routing[name] === undefined) delete routing[name];
    else routing[name] = first.routing[name];
  }
  return { ...free, routing: routing as RouteDecision['routing'] };
}

/** The models of `ordered` with where each is served: the organization's own key for its vendor where it has one. */
async function servingCandidates(deps: CallDeps, caller: Caller, ordered: RouteDecision['candidates']): Promise<Candidate[]> {
  const { key } = caller;
  const byokVendors = key.byok_vendors ?? [];
  const ownKeys = await deps.ownKeys.forOrganization(key.organization_id, byokVendors);
  const candidates: Candidate[] = [];
  for (const candidate of ordered) {
    const model = deps.catalog.chatModel(candidate.model);
    if (!model) continue;
    candidates.push({ model, serve: () => resolveServing(deps.catalog, model, deps.vendors.simUrl, deps.vendors.keys, { keys: ownKeys, vendors: byokVendors }) });
  }
  return candidates;
}

/** The candidates of an escalation's decision (auto only): health order, then own keys, as for any auto call. */
export function escalationCandidates(deps: CallDeps, caller: Caller, decision: RouteDecision): Promise<Candidate[]> {
  return servingCandidates(deps, caller, deps.health.order(decision.candidates));
}
