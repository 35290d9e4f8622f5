import type { ChatModel } from '@svc/catalog';
import type { RouteQuery as RouteRequest } from './types';
import { forbiddenAt, type AccessLevel } from './model-access';

export interface Eligibility {
  models: ChatModel[];
  /** When nothing is left: the access level that removed the last candidates. */
  emptiedBy?: AccessLevel;
}

/** Does the model have what the request needs (tools, vision, json_schema, a context that fits)? */
export function meetsNeeds(model: ChatModel, needs: RouteRequest['needs']): boolean {
  if (!needs) return true;
  if (needs.tools && !model.capabilities.tools) return false;
  if (needs.vision && !model.capabilities.vision) return false;
  if (needs.json_schema && !model.capabilities.json_schema) return false;
  if (needs.input_tokens && Number(needs.input_tokens) > model.capabilities.context_window) return false;
  return true;
}

/** Chat models a request may be routed to: access levels, svc.vendors, Free plan, needs. */
export function eligibleModels(models: readonly ChatModel[], request: RouteRequest): Eligibility {
  let emptiedBy: AccessLevel | undefined;
  const vendors = request.vendors ?? [];
  const out: ChatModel[] = [];
  for (const model of models) {
    if (model.named_only) continue;
    const level = forbiddenAt(model.id, request.access);
    if (level) {
      emptiedBy ??= level;
      continue;
    }
    if (vendors.length > 0 && !vendors.includes(model.vendor)) continue;
    if (request.free_plan && !model.free) continue;
    if (!meetsNeeds(model, request.needs)) continue;
    out.push(model);
  }
  return out.length > 0 ? { models: out } : { models: out, emptiedBy };
}
