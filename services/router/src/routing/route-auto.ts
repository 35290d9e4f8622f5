import { ServiceError } from '@svc/errors';
import { LINES, earlierRuleCandidates, type Catalog } from '@svc/catalog';
import type { RouteRequest__Output as RouteRequest, RouteResponse } from '@svc/protos';
import { eligibleModels } from './eligibility';
import { MAX_ATTEMPTS } from './route-named';

/**
 * Auto routing by the earlier rule: the cheapest eligible model on the catalog's
 * price/capability curve, with the next ones up the curve as fallbacks. This is the rule the
 * spec keeps for kinds of work without skill data; the classifier-driven floors build on it.
 */
export function routeAuto(catalog: Catalog, request: RouteRequest): RouteResponse {
  const requested = request.model || 'auto';
  const line = LINES[requested as keyof typeof LINES];
  const eligible = eligibleModels(catalog.chatModels, request);
  if (eligible.models.length === 0) {
    const level = eligible.emptiedBy ?? 'key';
    throw new ServiceError('no_model_allowed', `No model is allowed for this request. Check the model access settings at the ${level} level.`, { param: 'model' });
  }
  const curve = earlierRuleCandidates(eligible.models);
  const ordered = curve.length > 0 ? curve : [...eligible.models];
  const candidates = ordered.slice(0, MAX_ATTEMPTS);
  return {
    candidates: candidates.map((model) => ({ model: model.id, vendor: model.vendor })),
    routing: { line, task: 'other', difficulty: 0, confidence: 0, trigger: 'no_prior_decision', effort: '', effort_reason: 'no evidence' },
    effort: '',
    auto: true,
  };
}
