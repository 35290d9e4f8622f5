import type { Catalog, ChatModel, Line } from '@svc/catalog';
import type { RouteRequest__Output as RouteRequest } from '@svc/protos';
import { autoRefusal, eligibleModels } from '@svc/routing';
import { effortFor, pickAuto, priceTierOf, type AutoPick, type Job } from './policy';
import type { RouteResult } from '@svc/routing';
import type { Trigger } from './sessions';

/** The job when no classifier ran (no text to read): no band, routed by the earlier rule. */
export const NO_JOB: Job = Object.freeze({ difficulty: 0, biased: false, confidence: 0, reason: '' });

const pools = new WeakMap<Catalog, readonly ChatModel[]>();

/** The catalog's auto-eligible chat models (computed once per catalog). */
function autoPool(catalog: Catalog): readonly ChatModel[] {
  let pool = pools.get(catalog);
  if (!pool) {
    pool = catalog.chatModels.filter((model) => catalog.isAutoEligible(model.id));
    pools.set(catalog, pool);
  }
  return pool;
}

/**
 * Models auto may pick for this request: enabled for the key at every access level, within
 * svc.vendors, free models only on the Free plan, able to take what the request needs, and
 * auto-eligible in the catalog (a skill score, or a place on the earlier rule's curve).
 * Throws when none is left: 400 no_model_allowed naming the level (or svc.vendors, or the
 * capability none had), or 400 context_length_exceeded when no allowed model's window fits.
 */
export function autoEligible(catalog: Catalog, request: RouteRequest): ChatModel[] {
  const eligible = eligibleModels(autoPool(catalog), request);
  if (eligible.models.length === 0) throw autoRefusal(eligible);
  return eligible.models;
}

/** On the Free plan: the pick a paid account would get for the same job, when it differs from `picked`. */
export function paidWouldUse(catalog: Catalog, request: RouteRequest, line: Line, job: Job, extraSteps: number, picked: string): string {
  if (!request.free_plan) return '';
  let paid: ChatModel[];
  try {
    paid = autoEligible(catalog, { ...request, free_plan: false });
  } catch {
    return '';
  }
  const model = pickAuto(catalog, paid, line, job, extraSteps, priceTierOf(request)).models[0]?.id ?? '';
  return model && model !== picked ? model : '';
}

export interface AutoOutcome {
  line: Line;
  job: Job | undefined;
  pick: AutoPick;
  candidates: ChatModel[];
  trigger: Trigger;
  classifier: string;
  reason: string;
  sticky?: { model: string; cold_pick: string };
  paidWouldUse: string;
}

/** The RouteResponse of an auto decision: candidates, the complete svc.routing, effort, auto true. */
export function autoResponse(outcome: AutoOutcome, requestedEffort: string): RouteResult {
  const { job, pick, line } = outcome;
  const effort = effortFor(line, job, requestedEffort);
  return {
    candidates: outcome.candidates.map((model) => ({ model: model.id, vendor: model.vendor })),
    routing: {
      line,
      floor: pick.floor ?? '',
      task: pick.task,
      task_type: job?.taskType ?? '',
      difficulty: job?.difficulty ?? 0,
      band: job?.band ?? '',
      stakes: job?.stakes ?? '',
      biased: job?.biased ?? false,
      cell: pick.cell ?? '',
      confidence: job?.confidence ?? 0,
      reason: outcome.reason,
      trigger: outcome.trigger,
      classifier: outcome.classifier,
      effort: effort.effort,
      effort_reason: effort.reason,
      sticky: outcome.sticky ?? null,
    },
    effort: effort.effort,
    // Every auto request pays the fixed auto fee once, whatever the trigger.
    auto: true,
    paid_would_use: outcome.paidWouldUse,
  };
}
