import { ServiceError } from '@svc/errors';
import type { ChatModel } from '@svc/catalog';
import type { RouteQuery as RouteRequest } from './types';
import { forbiddenAt, type AccessLevel } from './model-access';

export interface Eligibility {
  models: ChatModel[];
  /** When nothing is left because model access removed every model: the level that did. */
  emptiedBy?: AccessLevel;
  /**
   * The first access level that removed a model which could have taken the request (in
   * svc.vendors, free when it must be, with what it needs): the level a refusal names.
   */
  blockedBy?: AccessLevel;
  /** When nothing is left though access allowed models: what the rest lacked. */
  lacking?: Lacking;
}

/** What no allowed model had: a vendor in svc.vendors (or a free model), a capability, or a context that fits. */
export type Lacking =
  | { kind: 'vendors' }
  | { kind: 'capability'; need: 'tools' | 'vision' | 'json_schema' }
  | { kind: 'context'; inputTokens: number; largestWindow: number };

/** The first thing the request needs that the model lacks (capability or context), if any. */
export function unmetNeed(model: ChatModel, needs: RouteRequest['needs']): Lacking | undefined {
  if (!needs) return undefined;
  if (needs.tools && !model.capabilities.tools) return { kind: 'capability', need: 'tools' };
  if (needs.vision && !model.capabilities.vision) return { kind: 'capability', need: 'vision' };
  if (needs.json_schema && !model.capabilities.json_schema) return { kind: 'capability', need: 'json_schema' };
  if (needs.input_tokens && Number(needs.input_tokens) > model.capabilities.context_window) return { kind: 'context', inputTokens: Number(needs.input_tokens), largestWindow: model.capabilities.context_window };
  return undefined;
}

/** Does the model have what the request needs (tools, vision, json_schema, a context that fits)? */
export function meetsNeeds(model: ChatModel, needs: RouteRequest['needs']): boolean {
  return unmetNeed(model, needs) === undefined;
}

/** Chat models a request may be routed to: access levels, svc.vendors, Free plan, needs. */
export function eligibleModels(models: readonly ChatModel[], request: RouteRequest): Eligibility {
  let emptiedBy: AccessLevel | undefined;
  let blockedBy: AccessLevel | undefined;
  let allowed = 0;
  const vendors = request.vendors ?? [];
  const unmet: Lacking[] = [];
  const out: ChatModel[] = [];
  for (const model of models) {
    if (model.named_only) continue;
    const level = forbiddenAt(model.id, request.access);
    if (level) {
      emptiedBy ??= level;
      if (!blockedBy && (vendors.length === 0 || vendors.includes(model.vendor)) && (!request.free_plan || model.free) && !unmetNeed(model, request.needs)) blockedBy = level;
      continue;
    }
    allowed += 1;
    if (vendors.length > 0 && !vendors.includes(model.vendor)) continue;
    if (request.free_plan && !model.free) continue;
    const need = unmetNeed(model, request.needs);
    if (need) {
      unmet.push(need);
      continue;
    }
    out.push(model);
  }
  if (out.length > 0) return { models: out };
  if (allowed === 0) return { models: out, emptiedBy };
  return { models: out, lacking: mostTelling(unmet), ...(blockedBy ? { blockedBy } : {}) };
}

/**
 * Why the models access allowed could not take the request: none in svc.vendors (or free), else
 * the capability none had, else the context (with the largest window among them).
 */
function mostTelling(unmet: Lacking[]): Lacking {
  if (unmet.length === 0) return { kind: 'vendors' };
  const context = unmet.filter((need): need is Extract<Lacking, { kind: 'context' }> => need.kind === 'context');
  if (context.length > 0) return { ...context[0], largestWindow: Math.max(...context.map((need) => need.largestWindow)) };
  return unmet[0];
}

const NEED_PARAM = { tools: 'tools', vision: 'messages', json_schema: 'response_format' } as const;
const NEED_WORDS = { tools: 'take tools', vision: 'read images', json_schema: 'answer in a json_schema' } as const;

/** The context refusal, with the numbers (spec: Errors, context_length_exceeded). */
export function contextRefusal(inputTokens: number, window: number, whose: string): ServiceError {
  return new ServiceError('context_length_exceeded', `The input needs about ${inputTokens} tokens; ${whose} context window is ${window} tokens.`, { param: 'messages' });
}

/**
 * A named model that cannot do what is asked, with no fallback that can (spec: Errors): tools
 * are 400 unsupported_parameter ("tools sent to a named model that cannot take them through the
 * service"; the decision model's own row says unsupported_for_model), images and json_schema 400
 * unsupported_for_model naming the field, the context window context_length_exceeded with the numbers.
 */
export function namedRefusal(model: ChatModel, need: Lacking): ServiceError {
  if (need.kind === 'context') return contextRefusal(need.inputTokens, need.largestWindow, `the model '${model.id}' has a`);
  if (need.kind === 'capability' && need.need === 'tools' && !model.named_only) {
    return new ServiceError('unsupported_parameter', `The model '${model.id}' cannot take tools through the service, and svc.fallback allows no model of its class that can.`, { param: 'tools' });
  }
  if (need.kind === 'capability') return new ServiceError('unsupported_for_model', `The model '${model.id}' cannot ${NEED_WORDS[need.need]}.`, { param: NEED_PARAM[need.need] });
  return new ServiceError('no_provider_available', `No provider can serve '${model.id}' for this request.`);
}

/** An auto request no model can take (spec: no_model_allowed names the level to check; context_length_exceeded carries the numbers). */
export function autoRefusal(eligibility: Eligibility): ServiceError {
  const lacking = eligibility.lacking;
  if (lacking?.kind === 'context') return contextRefusal(lacking.inputTokens, lacking.largestWindow, 'the largest allowed model has a');
  // The level to check: the one that removed a model able to take the request; with none, no model
  // access level is the cause and svc.vendors (or what is asked) is.
  const check = eligibility.blockedBy ? `Models that can are not allowed at the ${eligibility.blockedBy} level: check the model access settings at the ${eligibility.blockedBy} level.` : 'No model access level removed one that can: check svc.vendors and what the request asks for.';
  if (lacking?.kind === 'capability') return new ServiceError('no_model_allowed', `No model allowed for this request can ${NEED_WORDS[lacking.need]}. ${check}`, { param: NEED_PARAM[lacking.need] });
  if (lacking?.kind === 'vendors') return new ServiceError('no_model_allowed', `No model allowed for this request is in svc.vendors. ${check}`, { param: 'svc.vendors' });
  return new ServiceError('no_model_allowed', `No model is allowed for this request. Check the model access settings at the ${eligibility.emptiedBy ?? 'key'} level.`, { param: 'model' });
}
