import { ServiceError } from '@svc/errors';
import { TIERS, type Catalog, type ChatModel } from '@svc/catalog';
import type { RouteQuery as RouteRequest, RouteDecision } from './types';
import { forbiddenAt } from './model-access';
import { meetsNeeds, namedRefusal, unmetNeed } from './eligibility';

export const MAX_ATTEMPTS = 3;

/** A routing decision (the pick first). */
export type RouteResult = RouteDecision;

/**
 * A named model is served as named (spec: What the service does 5), with fallback by
 * svc.fallback — when it is unhealthy, unavailable or cannot do what is asked: `same_vendor`
 * tries other models of the same vendor and class (tier), `cross_vendor` any model of the same
 * class, `none` nothing. svc.vendors restricts the
 * fallback set only (spec: svc request fields, vendors): the named model itself is served
 * whatever its vendor. Candidates are ordered by closeness in price to the named model.
 */
export function routeNamed(catalog: Catalog, request: RouteRequest): RouteResult {
  const named = catalog.chatModel(request.model);
  if (!named || forbiddenAt(named.id, request.access)) {
    throw new ServiceError('model_not_found', `The model '${request.model}' does not exist or you do not have access to it.`, { param: 'model' });
  }
  if (request.free_plan && !named.free) {
    throw new ServiceError('free_tier_model', `The model '${named.id}' is not on the free model list. On the Free plan, use a free model or auto, or top up to use it.`, { param: 'model' });
  }
  const unmet = unmetNeed(named, request.needs);
  // An input over the named model's window is refused with the numbers, not moved to a larger model.
  if (unmet?.kind === 'context') throw namedRefusal(named, unmet);
  const vendors = request.vendors ?? [];
  const policy = request.fallback || 'cross_vendor';
  const usable = (model: ChatModel) => (vendors.length === 0 || vendors.includes(model.vendor)) && meetsNeeds(model, request.needs) && !forbiddenAt(model.id, request.access);
  const fallbacks =
    policy === 'none' || named.named_only
      ? []
      : catalog.chatModels
          .filter((model) => model.id !== named.id && !model.named_only && model.tier === named.tier && (policy === 'cross_vendor' || model.vendor === named.vendor) && usable(model))
          .filter((model) => !request.free_plan || model.free)
          .sort((a, b) => Math.abs(a.pricing.input - named.pricing.input) - Math.abs(b.pricing.input - named.pricing.input));
  // Spec (svc.fallback): a named model that fails a capability check (tools, images, json_schema)
  // falls back like one that is unavailable — to the models of its class the
  // policy allows that can do what is asked. With none (fallback none, or no such model) the
  // request is refused for what the named model lacks (spec: Errors).
  if (unmet && fallbacks.length === 0) throw namedRefusal(named, unmet);
  const candidates = (unmet ? fallbacks : [named, ...fallbacks]).slice(0, MAX_ATTEMPTS);
  return {
    candidates: candidates.map((model) => ({ model: model.id, vendor: model.vendor })),
    routing: { trigger: 'explicit', effort: request.reasoning_effort ?? '', effort_reason: request.reasoning_effort ? 'explicit level' : '' },
    effort: request.reasoning_effort ?? '',
    auto: false,
  };
}

export function tierIndex(tier: string): number {
  return (TIERS as readonly string[]).indexOf(tier);
}
