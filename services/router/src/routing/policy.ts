import { blendedPrice, earlierRuleCandidates, tierPricing, type Band, type Catalog, type ChatModel, type Line, type PriceTier } from '@svc/catalog';

/**
 * The auto-routing policy as pure functions: band from difficulty, the low-confidence bias, the
 * line's skill floor, the pick within a cell (kind of work x band), the earlier rule and the
 * reasoning effort. ARCHITECTURE.md "Auto routing" describes the same algorithm in prose.
 */

/** Below this classifier confidence the difficulty is raised by one (routing.biased). */
export const LOW_CONFIDENCE = 0.5;

/** At most this many candidates (the pick and its fallbacks) are returned. */
export const MAX_CANDIDATES = 3;

export const FLOORS = ['none', 'middle', 'top'] as const;
export type Floor = (typeof FLOORS)[number];

/** The floor each line starts from (before the hard / high-stakes step). */
export const LINE_FLOOR: Record<Line, number> = { auto: 0, cheap: 0, balanced: 1, best: 2 };

/**
 * Floor `none`: the lowest skill score a model needs in a band to count as skilled enough.
 * The `middle` and `top` floors never go below it either.
 */
export const MIN_SKILL: Record<Band, number> = { easy: 0.8, medium: 0.6, hard: 0.4, frontier: 0.2 };

/** reasoning_effort scale, lowest first (spec: chat request reasoning_effort). */
export const EFFORT_SCALE = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type Effort = (typeof EFFORT_SCALE)[number];

/** The effort each band's evidence calls for. */
export const BAND_EFFORT: Record<Band, Effort> = { easy: 'low', medium: 'medium', hard: 'high', frontier: 'xhigh' };

export type EffortReason = 'band evidence' | 'high stakes' | 'best line' | 'no evidence' | 'explicit level';

/** The job as routing reads it, after the low-confidence bias. */
export interface Job {
  /** The classifier's kind of work; undefined when no classifier ran. */
  taskType?: string;
  /** 1 to 5 after the bias; 0 when no classifier ran. */
  difficulty: number;
  band?: Band;
  stakes?: 'normal' | 'high';
  /** True when low confidence raised the difficulty. */
  biased: boolean;
  confidence: number;
  reason: string;
}

/** 1-2 easy, 3 medium, 4 hard, 5 frontier. */
export function bandOf(difficulty: number): Band {
  if (difficulty <= 2) return 'easy';
  if (difficulty === 3) return 'medium';
  if (difficulty === 4) return 'hard';
  return 'frontier';
}

/** A classification as routing uses it: difficulty one step up below LOW_CONFIDENCE (at most 5). */
export function jobFrom(classification: { taskType: string; difficulty: number; stakes: 'normal' | 'high'; confidence: number; reason: string }): Job {
  const raw = Math.min(5, Math.max(1, Math.round(classification.difficulty)));
  const biased = classification.confidence < LOW_CONFIDENCE && raw < 5;
  const difficulty = biased ? raw + 1 : raw;
  return {
    taskType: classification.taskType,
    difficulty,
    band: bandOf(difficulty),
    stakes: classification.stakes,
    biased,
    confidence: classification.confidence,
    reason: classification.reason,
  };
}

/** A hard (or frontier) or high-stakes job moves the floor one step up. */
export function isHardOrHighStakes(job: Job): boolean {
  return job.band === 'hard' || job.band === 'frontier' || job.stakes === 'high';
}

/** Floor steps 0..2 (none, middle, top): the line's floor, one step for a hard or high-stakes job, plus `extra` (signal triggers). */
export function floorSteps(line: Line, job: Job, extra = 0): number {
  return Math.min(2, LINE_FLOOR[line] + (isHardOrHighStakes(job) ? 1 : 0) + extra);
}

export function skillOf(model: ChatModel, task: string, band: Band): number | undefined {
  return model.skills[task]?.[band];
}

/**
 * The skill a model needs under a floor among `skills` (the cell's candidates' scores):
 * `none` the band minimum; `middle` the score of the ceil(2n/3)-th most skilled candidate
 * (the model ranks in the upper two thirds, ties included); `top` the score of the
 * ceil(n/3)-th most skilled (upper third). Never below the band minimum.
 */
export function skillThreshold(floor: Floor, band: Band, skills: readonly number[]): number {
  const minimum = MIN_SKILL[band];
  if (floor === 'none' || skills.length === 0) return minimum;
  const desc = [...skills].sort((a, b) => b - a);
  const n = desc.length;
  const rank = floor === 'middle' ? Math.ceil((2 * n) / 3) : Math.ceil(n / 3);
  return Math.max(minimum, desc[rank - 1]);
}

/** A pick: candidates in order (pick first), and how it was reached. */
export interface AutoPick {
  rule: 'skills' | 'earlier';
  /** Candidates, the pick first, at most MAX_CANDIDATES. */
  models: ChatModel[];
  /** The kind of work routing read the job as: the task type under skills, `other` under the earlier rule. */
  task: string;
  /** Skills rule only. */
  floor?: Floor;
  /** `task/band`, when the job has a band. */
  cell?: string;
  /** Would `model` satisfy this decision's floor (used to keep a warm model)? */
  meetsFloor(model: ChatModel): boolean;
}

const EPSILON = 1e-9;

function byPrice(a: ChatModel, b: ChatModel): number {
  return blendedPrice(a.pricing) - blendedPrice(b.pricing) || a.id.localeCompare(b.id);
}

/** The tier a route request compares prices at: `flex` when the call may be served at flex. */
export function priceTierOf(request: { price_tier?: string }): PriceTier {
  return request.price_tier === 'flex' ? 'flex' : 'standard';
}

/**
 * Cheapest first at a price tier (spec: Deadline and flex rules 1, "under auto the candidates are
 * compared at flex prices"): each model at its flex price, standard where it has no flex tier.
 */
export function byPriceAt(tier: PriceTier): (a: ChatModel, b: ChatModel) => number {
  if (tier === 'standard') return byPrice;
  const price = (model: ChatModel) => blendedPrice(tierPricing(model, tier) ?? model.pricing);
  return (a, b) => price(a) - price(b) || a.id.localeCompare(b.id);
}

/**
 * Skills rule for one cell: the eligible models with a score for (task, band), cheapest first
 * by blended price; the pick is the cheapest whose score reaches the floor's threshold, the
 * fallbacks the next cheapest that reach it, then (if fewer than MAX_CANDIDATES do) the rest by
 * score, best first. When no candidate reaches the threshold the most skilled one is the pick.
 * Undefined when no eligible model has a score for the cell.
 */
export function pickBySkill(eligible: readonly ChatModel[], task: string, band: Band, floor: Floor, tier: PriceTier = 'standard'): AutoPick | undefined {
  const order = byPriceAt(tier);
  const scored = eligible.filter((model) => skillOf(model, task, band) !== undefined).sort(order);
  if (scored.length === 0) return undefined;
  const score = (model: ChatModel) => skillOf(model, task, band) ?? 0;
  const threshold = skillThreshold(floor, band, scored.map(score));
  const qualified = scored.filter((model) => score(model) >= threshold - EPSILON);
  const rest = scored.filter((model) => score(model) < threshold - EPSILON).sort((a, b) => score(b) - score(a) || order(a, b));
  return {
    rule: 'skills',
    models: [...qualified, ...rest].slice(0, MAX_CANDIDATES),
    task,
    floor,
    cell: `${task}/${band}`,
    meetsFloor: (model) => {
      const s = skillOf(model, task, band);
      return s !== undefined && s >= threshold - EPSILON;
    },
  };
}

const curves = new WeakMap<Catalog, readonly ChatModel[]>();

/** The catalog's earlier-rule curve, computed once per catalog. */
function catalogCurve(catalog: Catalog): readonly ChatModel[] {
  let curve = curves.get(catalog);
  if (!curve) {
    curve = catalog.earlierRuleCurve();
    curves.set(catalog, curve);
  }
  return curve;
}

/** The earlier rule's curve over the eligible models, cheapest first (see pickByEarlierRule). */
export function eligibleCurve(catalog: Catalog, eligible: readonly ChatModel[]): ChatModel[] {
  const ids = new Set(eligible.map((model) => model.id));
  let curve = catalogCurve(catalog).filter((model) => ids.has(model.id));
  if (curve.length === 0) curve = earlierRuleCandidates(eligible);
  if (curve.length === 0) curve = [...eligible].sort(byPrice);
  return curve;
}

/**
 * The earlier rule: the catalog's price/capability curve restricted to the eligible models
 * (recomputed over the eligible models when access leaves none of the curve), cheapest first.
 * Floor step 0 starts at the cheapest, step 1 at the middle third of the curve (index
 * floor(n/3)), step 2 at the top third (floor(2n/3)); the fallbacks are the next models up the
 * curve, then the ones just below the start.
 */
export function pickByEarlierRule(catalog: Catalog, eligible: readonly ChatModel[], steps: number, band: Band | undefined): AutoPick {
  const curve = eligibleCurve(catalog, eligible);
  const start = Math.min(curve.length - 1, Math.floor((steps * curve.length) / 3));
  const above = curve.slice(start);
  const ordered = [...above, ...curve.slice(0, start).reverse()];
  const aboveIds = new Set(above.map((model) => model.id));
  return {
    rule: 'earlier',
    models: ordered.slice(0, MAX_CANDIDATES),
    task: 'other',
    cell: band ? `other/${band}` : undefined,
    meetsFloor: (model) => aboveIds.has(model.id),
  };
}

/**
 * The pick for a job on a line: the skills rule for the job's cell, or the earlier rule for
 * kind `other`, for a job without a band (no classifier ran) and for a cell no eligible model
 * has a score for. `extraSteps` moves the floor further up (signal triggers). `tier`: the prices
 * the skills rule compares at (the earlier rule's curve is a skill ladder, the same at every tier).
 */
export function pickAuto(catalog: Catalog, eligible: readonly ChatModel[], line: Line, job: Job, extraSteps = 0, tier: PriceTier = 'standard'): AutoPick {
  if (job.band) {
    const steps = floorSteps(line, job, extraSteps);
    if (job.taskType && job.taskType !== 'other') {
      const pick = pickBySkill(eligible, job.taskType, job.band, FLOORS[steps], tier);
      if (pick) return pick;
    }
    return pickByEarlierRule(catalog, eligible, steps, job.band);
  }
  return pickByEarlierRule(catalog, eligible, Math.min(2, LINE_FLOOR[line] + extraSteps), undefined);
}

/** Where an escalation goes: the stronger models in order, and the floor they were chosen at (skills rule). */
export interface EscalationPick {
  models: ChatModel[];
  floor?: Floor;
}

/**
 * Spec (Escalation): the turn re-runs on the cheapest model one floor step up or, under the
 * earlier rule, on the next model up the curve.
 * - Skills rule: the floor of `pick` plus one step (none when it is already `top`); the models of
 *   the cell whose score reaches that floor's threshold and is above the score of `from` (a
 *   stronger model, never `from` itself), cheapest first.
 * - Earlier rule: the models after `from` on the eligible curve (when `from` is not on it, the
 *   curve's models dearer than it), in curve order.
 * At most MAX_CANDIDATES; empty when no stronger model exists.
 */
export function escalationPick(catalog: Catalog, eligible: readonly ChatModel[], pick: AutoPick, job: Job, from: ChatModel): EscalationPick {
  if (pick.rule === 'skills' && job.band && pick.floor) {
    const steps = FLOORS.indexOf(pick.floor) + 1;
    if (steps >= FLOORS.length) return { models: [] };
    const floor = FLOORS[steps];
    const task = pick.task;
    const band = job.band;
    const scored = eligible.filter((model) => skillOf(model, task, band) !== undefined);
    const threshold = skillThreshold(floor, band, scored.map((model) => skillOf(model, task, band) ?? 0));
    const fromScore = skillOf(from, task, band) ?? -Infinity;
    const stronger = scored
      .filter((model) => model.id !== from.id)
      .filter((model) => {
        const score = skillOf(model, task, band) ?? 0;
        return score >= threshold - EPSILON && score > fromScore + EPSILON;
      })
      .sort(byPrice);
    return { models: stronger.slice(0, MAX_CANDIDATES), floor };
  }
  const curve = eligibleCurve(catalog, eligible);
  const at = curve.findIndex((model) => model.id === from.id);
  const above = at >= 0 ? curve.slice(at + 1) : curve.filter((model) => blendedPrice(model.pricing) > blendedPrice(from.pricing));
  return { models: above.slice(0, MAX_CANDIDATES) };
}

/**
 * The reasoning setting chosen with the pick: an explicit reasoning_effort wins; without a
 * classification there is no evidence (the model's default); otherwise the band's level, one
 * step up for high stakes and one more on the best line (at most xhigh). The reason names the
 * last thing that raised it. The level is on the request scale; the vendor layer maps it to
 * the served model's own control.
 */
export function effortFor(line: Line, job: Job | undefined, requested: string | undefined): { effort: string; reason: EffortReason } {
  if (requested) return { effort: requested, reason: 'explicit level' };
  if (!job?.band) return { effort: '', reason: 'no evidence' };
  let level = EFFORT_SCALE.indexOf(BAND_EFFORT[job.band]);
  let reason: EffortReason = 'band evidence';
  const top = EFFORT_SCALE.length - 1;
  if (job.stakes === 'high' && level < top) {
    level += 1;
    reason = 'high stakes';
  }
  if (line === 'best' && level < top) {
    level += 1;
    reason = 'best line';
  }
  return { effort: EFFORT_SCALE[level], reason };
}
