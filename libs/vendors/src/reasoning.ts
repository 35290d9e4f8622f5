import type { Reasoning } from '@svc/catalog';
import type { VendorReasoning } from './types';

/**
 * The request's one reasoning scale (spec, POST /v1/chat/completions: reasoning_effort is one of
 * `none`, `minimal`, `low`, `medium`, `high`, `xhigh`, "mapped to the served model's own control").
 */
export const REASONING_SCALE = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

export interface MappedReasoning {
  /** What the adapter sends; undefined leaves the model on its own default. */
  vendor?: VendorReasoning;
  /** svc.reasoning.applied: `default`, `off`, the vendor's level name, `budget N`, `on`, `always on`, `not supported`. */
  applied: string;
}

const rank = (level: string): number => (REASONING_SCALE as readonly string[]).indexOf(level);

/**
 * The candidate nearest to `requested` on the scale. Candidates off the scale are never chosen.
 * On a tie the higher one wins: when the scale cannot decide, the answer gets at least the
 * reasoning that was asked for.
 */
function nearest(requested: string, candidates: readonly string[]): string | undefined {
  const target = rank(requested);
  if (target < 0) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const position = rank(candidate);
    if (position < 0) continue;
    const distance = Math.abs(position - target);
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && position > rank(best))) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Maps the requested reasoning_effort to the model's own control and names what was applied
 * (spec, The `svc` response object: reasoning.applied).
 *
 * - No request: the model's default, nothing sent (`default`).
 * - `none` kind (not a reasoning model): `not supported`; `always` kind: `always on`.
 * - `levels`: the requested level when the model has it, else the nearest of its levels on the
 *   scale (so `none` on a model without a `none` level gets its lowest level, reported by name;
 *   a level literally named `none` is reported as `off`).
 * - `budget`: the token budget of the requested level (nearest level when the model lacks it, as
 *   above): `budget N`, or `off` for a budget of 0.
 * - `toggle`: `none` and `minimal` turn reasoning off (`off`), any other level on (`on`).
 *
 * A requested value off the scale (the edge validates it, so only a caller's bug) leaves the
 * model on its default.
 */
export function mapReasoning(model: { reasoning: Reasoning }, requested: string | undefined): MappedReasoning {
  if (requested === undefined) return { applied: 'default' };
  const reasoning = model.reasoning;
  switch (reasoning.kind) {
    case 'none':
      return { applied: 'not supported' };
    case 'always':
      return { applied: 'always on' };
    case 'levels': {
      const level = reasoning.levels.includes(requested) ? requested : nearest(requested, reasoning.levels);
      if (level === undefined) return { applied: 'default' };
      return { vendor: { kind: 'effort', level }, applied: level === 'none' ? 'off' : level };
    }
    case 'budget': {
      const level = Object.hasOwn(reasoning.budgets, requested) ? requested : nearest(requested, Object.keys(reasoning.budgets));
      if (level === undefined) return { applied: 'default' };
      const tokens = reasoning.budgets[level]!;
      return { vendor: { kind: 'budget', tokens }, applied: tokens === 0 ? 'off' : `budget ${tokens}` };
    }
    case 'toggle': {
      if (rank(requested) < 0) return { applied: 'default' };
      const on = requested !== 'none' && requested !== 'minimal';
      return { vendor: { kind: 'toggle', on }, applied: on ? 'on' : 'off' };
    }
  }
}
