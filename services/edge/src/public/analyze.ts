import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { ServiceError } from '@svc/errors';
import { tierPricing, type Catalog, type ChatModel } from '@svc/catalog';
import type { Logger } from '@svc/logger';
import type { Redis } from '@svc/redis';
import type { RouteDecision, RouteQuery } from '@svc/routing';
import { DEFAULT_SPLIT_SETTINGS, jevCheck, parseChatRequest, routeMessages, splitGate, type ChatRequestInput, type JevCheck, type RouterPort, type SplitGate, type SplitSettings } from '@svc/call';
import { percentOfPicoToMicros } from '@svc/pricing';
import { LINES, SWITCHES, SWITCH_DEFAULTS, SWITCH_STATUS, analyzerTokens, applicable, cacheablePrefix, callPrice, round6, scenarios, type AnalyzerLine } from './analyzer/price';

/**
 * POST /v1/public/analyze (no key; the per-address limit applies): reads a chat-completions
 * request and reports what it costs today, through each line and with each lever, and how to cut
 * it — without running it. The only vendor work is the router's classification (one Route per
 * line). The request is never stored: one log line with its size, the job routing named and a
 * hash of the caller's address. A configurable daily allowance (503 analyzer_daily_cap); 503
 * analyzer_unavailable when routing cannot answer.
 */
export interface AnalyzerDeps {
  catalog: Catalog;
  router: RouterPort;
  redis: Redis;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Analyses per UTC day for the whole service (0: no limit). */
  dailyCap: number;
  /** The split-and-route settings the call pipeline runs with (SPLIT_*); the defaults when absent. */
  split?: SplitSettings;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A jev call's total: the decision model's list price, the paid plan's fee and the auto fee. */
function jevTotal(catalog: Catalog, jevMicros: number): number {
  const fee = Math.round((jevMicros * catalog.data.plans.paid.service_fee_percent) / 100);
  return (jevMicros + fee + catalog.data.auto_call_fee_micros) / 1_000_000;
}

/**
 * The split lever (libs/call split/gate.ts, the gate and prices the pipeline uses): the local gate
 * and the price check on the plain auto pick, with the analyzer's output tokens for the answer.
 * The questions step (jev_no) is a decision-model call the analyzer does not make. Undefined
 * total when the gate or the price check fails. The client's price of a split is the extract and
 * the answer at list price with the plan's fee on each, and the auto fee once (the questions and
 * check steps are the service's own costs).
 */
function splitLever(catalog: Catalog, input: ChatRequestInput, taskType: string | undefined, pick: ChatModel, output: number, settings: SplitSettings): { gate: SplitGate; totalUsd?: number } {
  const gate = splitGate(catalog, { ...input, maxTokens: undefined, stream: false }, { auto: true, job: { task_type: taskType ?? '' }, pick, caller: { vendors: input.svc.vendors ?? [] } }, { ...settings, answerOutputTokens: output });
  if (!gate.passes || !gate.steps) return { gate };
  const fee = catalog.data.plans.paid.service_fee_percent;
  const billed = gate.steps.extract + gate.steps.answer;
  const feeMicros = percentOfPicoToMicros(BigInt(gate.steps.extract) * 1_000_000n, fee) + percentOfPicoToMicros(BigInt(gate.steps.answer) * 1_000_000n, fee);
  return { gate, totalUsd: (billed + feeMicros + catalog.data.auto_call_fee_micros) / 1_000_000 };
}

/** Characters of what the model would read: the system prompt and every message's text. */
function textChars(input: ChatRequestInput, messages = input.messages): number {
  let chars = input.system?.length ?? 0;
  for (const message of messages) {
    if (message.role === 'user') for (const part of message.content) chars += part.type === 'text' ? part.text.length : 0;
    else if (message.role === 'assistant') chars += (message.content ?? '').length + (message.toolCalls ?? []).reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
    else chars += message.content.length;
  }
  return chars;
}

/** The allowance for today (UTC), counted in Redis across replicas; a store that cannot count lets the analysis through. */
async function takeDailyAllowance(deps: AnalyzerDeps): Promise<void> {
  if (deps.dailyCap <= 0) return;
  const key = `analyzer:day:${new Date().toISOString().slice(0, 10)}`;
  let used: number;
  try {
    used = await deps.redis.incr(key);
    if (used === 1) await deps.redis.expire(key, 2 * 86_400);
  } catch (error) {
    deps.logger.warn('analyzer allowance not counted: Redis unreachable', { err: error });
    return;
  }
  if (used > deps.dailyCap) throw new ServiceError('analyzer_daily_cap', 'The analyzer has reached its allowance for today. Please try again tomorrow (UTC).');
}

function routed(deps: AnalyzerDeps, query: RouteQuery): Promise<RouteDecision> {
  return deps.router.route(query).catch((error: unknown) => {
    if (error instanceof ServiceError && error.status < 500) throw error;
    throw new ServiceError('analyzer_unavailable', 'The analyzer cannot classify requests right now. Please retry.', { cause: error });
  });
}

export function analyzeHandler(deps: AnalyzerDeps) {
  const { catalog } = deps;
  const pickOf = (decision: RouteDecision): ChatModel => {
    const model = catalog.chatModel(decision.candidates[0]?.model ?? '');
    if (!model) throw new ServiceError('analyzer_unavailable', 'The analyzer could not price the routed model. Please retry.');
    return model;
  };
  return async (req: Request, res: Response): Promise<void> => {
    const body: unknown = req.body;
    // As on every POST endpoint: a body that is not a JSON object (or none) is invalid_json.
    if (!isObject(body)) throw new ServiceError('invalid_json', 'The request body must be a JSON object.');
    if (body.request === undefined || body.request === null) throw new ServiceError('missing_parameter', "Missing required parameter: 'request'.", { param: 'request' });
    if (!isObject(body.request)) throw new ServiceError('invalid_value', "'request' must be a chat completions request body (an object).", { param: 'request' });
    const callsPerMonth = body.calls_per_month;
    if (callsPerMonth !== undefined && callsPerMonth !== null && (typeof callsPerMonth !== 'number' || !Number.isInteger(callsPerMonth) || callsPerMonth < 0)) {
      throw new ServiceError('invalid_value', "'calls_per_month' must be an integer of at least 0.", { param: 'calls_per_month' });
    }
    const input = parseChatRequest(body.request, {}, { remoteImages: 'defer' });
    await takeDailyAllowance(deps);

    const named = catalog.isVirtual(input.model) ? undefined : catalog.chatModel(input.model);
    const query: RouteQuery = {
      organization_id: '',
      key_id: '',
      model: 'auto',
      vendors: input.svc.vendors ?? [],
      needs: { tools: Boolean(input.tools?.length) && input.toolChoice !== 'none', vision: input.needsVision, json_schema: input.responseFormat?.type === 'json_schema', input_tokens: Math.ceil(textChars(input) / 4) },
      fallback: 'cross_vendor',
      session_id: '',
      system_prompt: input.system ?? '',
      messages: routeMessages(input),
      free_plan: false,
      reasoning_effort: input.reasoningEffort ?? '',
    };
    // The four lines, and the plain line with candidates compared at flex prices (what a request
    // with a deadline of 15 minutes or more is served on: the flex lever prices that pick).
    const [flexDecision, ...decisions] = await Promise.all([routed(deps, { ...query, model: 'auto', price_tier: 'flex' }), ...LINES.map((line) => routed(deps, { ...query, model: line }))]);
    const byLine = new Map<AnalyzerLine, RouteDecision>(LINES.map((line, index) => [line, decisions[index]!]));
    const plain = byLine.get('auto')!;
    const routing = plain.routing ?? {};
    const task = routing.task_type || 'other';
    const job = { task, difficulty: routing.difficulty ?? 1, stakes: routing.stakes === 'high' ? 'high' : 'normal' };
    const tokens = analyzerTokens(textChars(input), task, input.maxTokens);
    const priced = { input: tokens.input, output: tokens.output };

    const today = named ? { model: named.id, vendor: named.vendor, usd: callPrice(catalog, named, priced, { auto: false }).provider_usd } : null;
    const plainPick = pickOf(plain);
    const flexPick = pickOf(flexDecision!);
    const plainTotal = callPrice(catalog, plainPick, priced, { auto: true }).total_usd;
    const base = today ? today.usd : plainTotal;
    const lines = LINES.map((line) => {
      const pick = pickOf(byLine.get(line)!);
      const price = callPrice(catalog, pick, priced, { auto: true });
      return { line, model: pick.id, vendor: pick.vendor, ...price, saving_usd: round6(base - price.total_usd) };
    });

    let normalStakes: { model: string; vendor: string; total_usd: number } | undefined;
    if (job.stakes === 'high') {
      const cheap = pickOf(await routed(deps, { ...query, model: 'auto/cheap', assume_normal_stakes: true }));
      if (cheap.id !== pickOf(byLine.get('auto/cheap')!).id) normalStakes = { model: cheap.id, vendor: cheap.vendor, total_usd: callPrice(catalog, cheap, priced, { auto: true }).total_usd };
    }

    const prefixTokens = Math.ceil(textChars(input, input.messages.slice(0, -1)) / 4);
    // jev: the gate and prices the pipeline itself uses under auto (libs/call decision/jev.ts).
    const jev = jevCheck(catalog, input, { ...routing, line: 'auto' }, plainPick, { vendors: input.svc.vendors ?? [] });
    const jevTotalUsd = jev.applies && jev.prices ? jevTotal(catalog, jev.prices.jevMicros) : undefined;
    // split: the gate and prices the pipeline itself uses under auto (libs/call split/gate.ts).
    const split = splitLever(catalog, input, routing.task_type, plainPick, priced.output, deps.split ?? DEFAULT_SPLIT_SETTINGS);
    const splitTotalUsd = split.totalUsd;
    const can = applicable({ catalog, pick: plainPick, flexPick, prefixTokens, jevTotalUsd, splitTotalUsd });
    const switches = SWITCHES.map((id) => ({ id, applicable: can[id], default: SWITCH_DEFAULTS[id], status: SWITCH_STATUS[id] }));
    const grid = scenarios({ catalog, pick: plainPick, flexPick, tokens: priced, prefixTokens, baseUsd: base, ...(jevTotalUsd !== undefined ? { jevTotalUsd } : {}), ...(splitTotalUsd !== undefined ? { splitTotalUsd } : {}) });

    const tips = tipsFor({ catalog, input, job, band: routing.band, tokens, priced, named, lines, byLine, pickOf, plainPick, flexPick, prefixTokens, callsPerMonth: callsPerMonth ?? 0, jev, jevTotalUsd, split: split.gate, splitTotalUsd });
    const monthly =
      typeof callsPerMonth === 'number'
        ? { calls: callsPerMonth, today_usd: today ? round6(today.usd * callsPerMonth) : null, zabio_usd: round6(plainTotal * callsPerMonth) }
        : null;

    deps.logger.info('request analyzed', { bytes: Number(req.headers['content-length'] ?? 0), task, address_hash: createHash('sha256').update(req.socket.remoteAddress ?? '').digest('hex').slice(0, 16) });
    res.setHeader('cache-control', 'no-store');
    res.status(200).json({
      job,
      tokens: { input: tokens.input, output: tokens.output, output_basis: tokens.output_basis },
      today,
      lines,
      ...(normalStakes ? { normal_stakes: normalStakes } : {}),
      switches,
      scenarios: grid,
      tips,
      monthly,
    });
  };
}

interface TipContext {
  catalog: Catalog;
  input: ChatRequestInput;
  job: { task: string; difficulty: number; stakes: string };
  band: string | undefined;
  tokens: { typical: number };
  priced: { input: number; output: number };
  named: ChatModel | undefined;
  lines: Array<{ line: AnalyzerLine; model: string; vendor: string; total_usd: number }>;
  byLine: Map<AnalyzerLine, RouteDecision>;
  pickOf: (decision: RouteDecision) => ChatModel;
  plainPick: ChatModel;
  /** The plain line's pick comparing candidates at flex prices. */
  flexPick: ChatModel;
  prefixTokens: number;
  callsPerMonth: number;
  jev: JevCheck;
  jevTotalUsd: number | undefined;
  split: SplitGate;
  splitTotalUsd: number | undefined;
}

type Tip = { id: string; status: 'active'; saving_usd: number | null; params: Record<string, unknown> };

/** The tips that apply, in the spec's order of ids (each only when it applies). */
function tipsFor(context: TipContext): Tip[] {
  const { catalog, input, job, priced, plainPick } = context;
  const tips: Tip[] = [];
  // line: a cheaper line whose pick is rated about as well as the best line's (its skill for this job within 0.02).
  const best = context.lines.find((line) => line.line === 'auto/best')!;
  const skill = (model: ChatModel) => (context.band ? model.skills?.[job.task]?.[context.band as 'easy'] : undefined);
  const bestSkill = skill(context.pickOf(context.byLine.get('auto/best')!));
  const cheaper = context.lines
    .filter((line) => line.line === 'auto/cheap' || line.line === 'auto/balanced')
    .filter((line) => line.total_usd < best.total_usd)
    .filter((line) => {
      const own = skill(catalog.chatModel(line.model)!);
      return line.model === best.model || (own !== undefined && bestSkill !== undefined && own >= bestSkill - 0.02);
    })
    .sort((a, b) => a.total_usd - b.total_usd)[0];
  if (cheaper) tips.push({ id: 'line', status: 'active', saving_usd: round6(best.total_usd - cheaper.total_usd), params: { line: cheaper.line, model: cheaper.model, vendor: cheaper.vendor, total_usd: cheaper.total_usd } });
  // max_tokens: a cap far above what the job typically writes.
  if (input.maxTokens !== undefined && input.maxTokens >= 4 * context.tokens.typical && input.maxTokens >= 1000) {
    tips.push({ id: 'max_tokens', status: 'active', saving_usd: null, params: { max_tokens: input.maxTokens, typical_output: context.tokens.typical } });
  }
  // cache: the prefix before the last message reaches the pick's smallest cacheable prefix.
  const minimum = cacheablePrefix(catalog, plainPick, context.prefixTokens);
  if (minimum !== undefined) {
    const uncached = callPrice(catalog, plainPick, priced, { auto: true }).total_usd;
    const cached = callPrice(catalog, plainPick, { ...priced, cachedPrefix: Math.min(context.prefixTokens, priced.input) }, { auto: true }).total_usd;
    const premium = Math.max(0, plainPick.pricing.cache_write - plainPick.pricing.input);
    tips.push({
      id: 'cache',
      status: 'active',
      saving_usd: round6(uncached - cached),
      params: { model: plainPick.id, vendor: plainPick.vendor, prefix_tokens: context.prefixTokens, min_prefix_tokens: minimum, ttl: '5m', first_call_extra_usd: round6((Math.min(context.prefixTokens, priced.input) * premium) / 1_000_000) },
    });
  }
  // jev: the schema maps onto the decision model's questions and it is cheaper than the pick.
  if (context.jev.applies && context.jevTotalUsd !== undefined) {
    const pickTotal = callPrice(catalog, plainPick, priced, { auto: true }).total_usd;
    tips.push({ id: 'jev', status: 'active', saving_usd: round6(pickTotal - context.jevTotalUsd), params: { model: context.jev.model, fields: context.jev.fields, jev_usd: context.jev.jevUsd, pick_model: context.jev.pickModel, pick_usd: context.jev.pickUsd } });
  }
  // split: a big plain-text source with a question, not whole-document work, gate and price check pass.
  if (context.split.passes && context.splitTotalUsd !== undefined) {
    const unsplit = callPrice(catalog, plainPick, priced, { auto: true }).total_usd;
    tips.push({
      id: 'split',
      status: 'active',
      saving_usd: round6(unsplit - context.splitTotalUsd),
      params: { model: plainPick.id, extractor: context.split.extractor?.id, source_tokens: context.split.sourceTokens, unsplit_usd: unsplit, split_usd: context.splitTotalUsd },
    });
  }
  const tierPrice = (tier: 'flex' | 'batch') => {
    const standard = callPrice(catalog, plainPick, priced, { auto: true }).total_usd;
    const price = tierPricing(plainPick, tier);
    return { standard, tiered: price ? callPrice(catalog, plainPick, priced, { auto: true, price }).total_usd : standard };
  };
  // flex: a deadline of 15 minutes makes the router compare candidates at flex prices; the pick
  // it then makes (perhaps another model) at its flex tier, against the plain pick at standard.
  const { flexPick } = context;
  const flexPrice = tierPricing(flexPick, 'flex');
  if (flexPick.flex && flexPrice) {
    const standard = callPrice(catalog, plainPick, priced, { auto: true }).total_usd;
    const flexUsd = callPrice(catalog, flexPick, priced, { auto: true, price: flexPrice }).total_usd;
    tips.push({ id: 'flex', status: 'active', saving_usd: round6(standard - flexUsd), params: { model: flexPick.id, vendor: flexPick.vendor, deadline: '15m', standard_usd: standard, flex_usd: flexUsd } });
  }
  if (plainPick.batch) {
    const { standard, tiered } = tierPrice('batch');
    tips.push({ id: 'batch', status: 'active', saving_usd: round6(standard - tiered), params: { model: plainPick.id, vendor: plainPick.vendor, discount: 0.5, window: '24h', standard_usd: standard, batch_usd: tiered, calls_per_month: context.callsPerMonth } });
  }
  // effort: a named reasoning model asked (or defaulting) above its lowest level on an easy or medium, normal-stakes job.
  const named = context.named;
  const band = context.band;
  if (named && named.reasoning?.kind === 'levels' && (band === 'easy' || band === 'medium') && job.stakes === 'normal') {
    const levels = named.reasoning.levels;
    const current = input.reasoningEffort ?? named.reasoning.default;
    const lowest = levels[0]!;
    if (current !== lowest && levels.indexOf(current) > 0) {
      tips.push({ id: 'effort', status: 'active', saving_usd: null, params: { model: named.id, current, suggested: lowest, suggested_level: ['minimal', 'low', 'medium', 'high', 'xhigh'].includes(lowest) ? lowest : '', requested: input.reasoningEffort ?? '' } });
    }
  }
  return tips;
}
