import { tierPricing, type Catalog, type ChatModel, type Price } from '@svc/catalog';
import { priceCall } from '@svc/pricing';

/**
 * The analyzer's arithmetic (spec: Analyzer response), pure: given the job routing read, the
 * token estimates and each line's pick, what the request costs today, through each line, with
 * each of the 64 lever combinations, and which tips apply. Every amount is USD per call at list
 * prices, six decimals. The vendor calls are elsewhere (the router's classification).
 */

export const LINES = ['auto/cheap', 'auto/balanced', 'auto/best', 'auto'] as const;
export type AnalyzerLine = (typeof LINES)[number];
export const SWITCHES = ['split', 'cache', 'effort', 'jev', 'flex', 'batch'] as const;
export type SwitchId = (typeof SWITCHES)[number];

/** Levers on by default: split, cache, effort, jev; flex and batch wait for a deadline. */
export const SWITCH_DEFAULTS: Record<SwitchId, boolean> = { split: true, cache: true, effort: true, jev: true, flex: false, batch: false };
/** Every lever runs on this server: split-and-route (libs/call split/) is priced with the pipeline's own gate and prices. */
export const SWITCH_STATUS: Record<SwitchId, 'active' | 'coming_soon'> = { split: 'active', cache: 'active', effort: 'active', jev: 'active', flex: 'active', batch: 'active' };

/**
 * Typical output (tokens) per kind of work: what every price assumes unless the request's
 * max_tokens is lower. Short answers for labels and extraction, long ones for code and writing.
 */
export const TYPICAL_OUTPUT: Record<string, number> = {
  classification_tagging: 20,
  'data:extraction': 200,
  'data:transformation': 400,
  summarization: 300,
  translation: 400,
  conversational_reply: 200,
  qa_knowledge: 300,
  content_writing: 800,
  roleplay_fiction: 500,
  'code:general_impl': 800,
  'code:debugging': 600,
  'code:sql': 250,
  'code:shell': 150,
  math: 600,
  reasoning: 600,
  'agent:workflow_execution': 300,
  'agent:multi_step_planning': 500,
  'agent:tool_dispatch': 150,
};
export const DEFAULT_TYPICAL_OUTPUT = 400;

/** Tokens every price assumes (spec: tokens). */
export interface AnalyzerTokens {
  input: number;
  output: number;
  output_basis: 'typical' | 'max_tokens';
}

export function analyzerTokens(inputChars: number, task: string, maxTokens: number | undefined): AnalyzerTokens & { typical: number } {
  const typical = TYPICAL_OUTPUT[task] ?? DEFAULT_TYPICAL_OUTPUT;
  const input = Math.ceil(inputChars / 4);
  if (maxTokens !== undefined && maxTokens < typical) return { input, output: maxTokens, output_basis: 'max_tokens', typical };
  return { input, output: typical, output_basis: 'typical', typical };
}

/** USD with six decimals from micro-dollars. */
const usd = (micros: number) => Math.round(micros) / 1_000_000;

/** Provider price, the plan's fee and the auto fee of one call on `model` (at `price`, cached prefix read at cache rates). */
export function callPrice(catalog: Catalog, model: ChatModel, tokens: { input: number; output: number; cachedPrefix?: number }, options: { auto: boolean; price?: Price }): { provider_usd: number; fee_usd: number; call_fee_usd: number; classifier_usd: 0; total_usd: number } {
  const cost = priceCall({
    price: options.price ?? model.pricing,
    usage: { inputTokens: tokens.input, outputTokens: tokens.output, cachedTokens: tokens.cachedPrefix ?? 0, cacheWriteTokens: 0 },
    serviceFeePercent: catalog.data.plans.paid.service_fee_percent,
    callFeeMicros: options.auto ? catalog.data.auto_call_fee_micros : 0,
    byok: false,
  });
  return { provider_usd: usd(cost.vendor_micros), fee_usd: usd(cost.service_fee_micros), call_fee_usd: usd(cost.call_fee_micros), classifier_usd: 0, total_usd: usd(cost.cost_micros) };
}

/** Can this pick read a prompt cache for a prefix of `prefixTokens`? Its smallest cacheable prefix, or undefined. */
export function cacheablePrefix(catalog: Catalog, model: ChatModel, prefixTokens: number): number | undefined {
  const vendor = catalog.vendor(model.vendor);
  if (!vendor || vendor.cache === 'none' || model.pricing.cache_read >= model.pricing.input) return undefined;
  const minimum = model.min_cache_prefix ?? 1024;
  return prefixTokens >= minimum ? minimum : undefined;
}

export interface ScenarioInput {
  catalog: Catalog;
  /** The plain auto line's pick: what the scenarios price. */
  pick: ChatModel;
  /**
   * The plain auto line's pick with candidates compared at flex prices (Deadline and flex rules 1:
   * what a request with a deadline is served on): what the scenarios with flex on price, at its
   * flex tier. Absent: the pick.
   */
  flexPick?: ChatModel;
  tokens: { input: number; output: number };
  /** Tokens before the last message (system and history): what a cache can hold. */
  prefixTokens: number;
  /** Saving base: today's total, or the plain auto pick's with no lever. */
  baseUsd: number;
  /** jev applies (libs/call decision/jev.ts): the call's total on the decision model. */
  jevTotalUsd?: number;
  /** split applies (libs/call split/gate.ts): the request's total answered on an excerpt (extract and answer, fees, the auto fee once). */
  splitTotalUsd?: number;
}

/** Which levers apply to the pick (a lever that does not apply never changes a price). */
export function applicable(input: Pick<ScenarioInput, 'catalog' | 'pick' | 'flexPick' | 'prefixTokens' | 'jevTotalUsd' | 'splitTotalUsd'>): Record<SwitchId, boolean> {
  const { catalog, pick, prefixTokens } = input;
  return {
    split: input.splitTotalUsd !== undefined,
    cache: cacheablePrefix(catalog, pick, prefixTokens) !== undefined,
    effort: Boolean(pick.reasoning && pick.reasoning.kind !== 'none'),
    jev: input.jevTotalUsd !== undefined,
    flex: (input.flexPick ?? pick).flex,
    batch: pick.batch,
  };
}

/** The key of a combination: one 0/1 per switch in switch order (`111100` = the defaults). */
export function scenarioKey(on: Record<SwitchId, boolean>): string {
  return SWITCHES.map((id) => (on[id] ? '1' : '0')).join('');
}

/**
 * All 64 combinations priced together on the plain auto pick: cache reads the cacheable prefix at
 * the cache rate (the steady state of repeated calls), flex and batch price the provider at their
 * tier (with both on, batch wins; with flex, the pick made comparing candidates at flex prices,
 * as the router does for a request with a deadline), effort never changes a price. jev, where it applies, answers on
 * the decision model instead of the pick (it has no cache, flex or batch tier, so those levers then
 * change nothing). split, where it applies, answers on an excerpt at the split's price, as the live
 * path does: only at the standard tier (a flex or batch call is sent whole), and jev wins over it
 * (the two never apply together: jev needs a json_schema, split plain text). The split's own answer
 * reads a short excerpt, so cache changes nothing under it.
 */
export function scenarios(input: ScenarioInput): Record<string, { total_usd: number; saving_usd: number }> {
  const can = applicable(input);
  const out: Record<string, { total_usd: number; saving_usd: number }> = {};
  for (let mask = 0; mask < 64; mask += 1) {
    const on = Object.fromEntries(SWITCHES.map((id, index) => [id, ((mask >> (SWITCHES.length - 1 - index)) & 1) === 1])) as Record<SwitchId, boolean>;
    const tier = on.batch && can.batch ? 'batch' : on.flex && can.flex ? 'flex' : 'standard';
    // At flex the candidates are compared at flex prices: the flex pick serves (its own cache).
    const model = tier === 'flex' ? (input.flexPick ?? input.pick) : input.pick;
    const price = tier === 'standard' ? model.pricing : (tierPricing(model, tier) ?? model.pricing);
    const cachedPrefix = on.cache && cacheablePrefix(input.catalog, model, input.prefixTokens) !== undefined ? Math.min(input.prefixTokens, input.tokens.input) : 0;
    const split = on.split && input.splitTotalUsd !== undefined && tier === 'standard' && !(on.jev && input.jevTotalUsd !== undefined);
    const total = on.jev && input.jevTotalUsd !== undefined ? input.jevTotalUsd : split ? (input.splitTotalUsd as number) : callPrice(input.catalog, model, { ...input.tokens, cachedPrefix }, { auto: true, price }).total_usd;
    out[scenarioKey(on)] = { total_usd: total, saving_usd: round6(input.baseUsd - total) };
  }
  return out;
}

export const round6 = (value: number) => Math.round(value * 1_000_000) / 1_000_000;
