import { DECISION_MODEL_ID, type Catalog, type ChatModel } from '@svc/catalog';
import { listPricePico, roundPicoToMicros } from '@svc/pricing';
import { forbiddenAt, type ModelAccessLists, type RouteDecision, type RoutingExplanation } from '@svc/routing';
import type { DecisionQuestion } from '@svc/vendors';
import type { ChatRequestInput } from '../request/chat-request';
import { estimateInputTokens, tokensForCharacters } from '../tokens';
import { decisionProblem, typedQuestions, type DecisionQuestionType } from './questions';

/**
 * jev: under auto, a request whose json_schema maps onto the decision model's typed questions is
 * answered by the decision model when the job is one it can do and it is cheaper than the routed
 * pick (spec: the analyzer's `jev` lever, "the json_schema maps onto the decision model's
 * questions and it is cheaper"). One gate and one price rule, used by the call pipeline
 * (plan.ts) and by anything that prices the lever (the analyzer, split-and-route): `jevCheck`.
 *
 * The gate, in order (the first failure is the `reason`):
 * 1. `disabled`: JEV_ENABLED is off.
 * 2. `line`: the request's line is not one of JEV_LINES (default `auto` and `cheap`: the best and
 *    balanced lines ask for a stronger model than a classifier).
 * 3. `request`: tools, tool calls or results, images, or a stream (the decision model refuses them).
 * 4. `not_typed`: no json_schema, or a property that is not a typed question (free text, nested).
 * 5. `task_type`, `difficulty`, `stakes`, `confidence`: the job as routing read it: a kind of work in
 *    JEV_TASK_TYPES (default classification, extraction, support triage), difficulty at most
 *    JEV_MAX_DIFFICULTY (default 3), stakes not high, classifier confidence at least
 *    JEV_MIN_CONFIDENCE (default 0.5). No classification (no text, classifier failure) fails here.
 * 6. `model_access`, `vendors`, `free_plan`, `context`: the decision model must be allowed at every
 *    access level, svc.vendors must not exclude vendor-8 (it names vendor-1 to vendor-7 only, so any
 *    list does), the organization not on the Free limits (the decision model is not a free model),
 *    and the input must fit its context window.
 * 7. `price_check`: its list price must be below the pick's (exact, in pico-USD).
 *
 * Prices are list prices of one call, estimated the one way (tokens.ts: characters / 4):
 * - the pick: the request's input plus the schema's JSON text, and the widest JSON answer the
 *   schema allows (the longest option, `false`, the highest level) as output, at its rates;
 * - the decision model: the request's input plus the questions' JSON text, and one output token
 *   per question (what vendor-8 bills), at its rates.
 * The plan fee and the auto fee are the same on both sides and are left out of the comparison.
 */

export interface JevSettings {
  enabled: boolean;
  /** Lines (svc.routing.line) where auto may use the decision model. */
  lines: readonly string[];
  /** Kinds of work (svc.routing.task_type) the decision model can do. */
  taskTypes: readonly string[];
  /** Highest difficulty (after the low-confidence bias). */
  maxDifficulty: number;
  /** Lowest classifier confidence. */
  minConfidence: number;
}

export const DEFAULT_JEV_SETTINGS: Readonly<JevSettings> = Object.freeze({
  enabled: true,
  lines: Object.freeze(['auto', 'cheap']),
  taskTypes: Object.freeze(['classification_tagging', 'data:extraction', 'customer_support']),
  maxDifficulty: 3,
  minConfidence: 0.5,
});

/** The decision model's name as the analyzer reports it (param `model`). */
export const DECISION_MODEL_NAME = DECISION_MODEL_ID.split('/')[1];

export type JevReason = 'disabled' | 'line' | 'request' | 'not_typed' | 'task_type' | 'difficulty' | 'stakes' | 'confidence' | 'model_access' | 'vendors' | 'free_plan' | 'context' | 'no_pick' | 'price_check';

/** The job as routing read it (svc.routing fields). */
export type JevJob = Pick<RoutingExplanation, 'line' | 'task_type' | 'difficulty' | 'stakes' | 'confidence'>;

/** Who asks: model access, svc.vendors, the Free limits (the routing query's fields). */
export interface JevCaller {
  access?: ModelAccessLists | null;
  vendors?: readonly string[];
  free_plan?: boolean;
}

export interface JevPrices {
  /** List price of the call on the decision model, micros (rounded once). */
  jevMicros: number;
  /** List price of the call on the pick, micros. */
  pickMicros: number;
  /** Strictly cheaper, compared exactly. */
  cheaper: boolean;
  /** The estimates behind them. */
  tokens: { input: number; jevInput: number; jevOutput: number; pickInput: number; pickOutput: number };
}

export interface JevCheck {
  /** The decision model answers instead of the pick. */
  applies: boolean;
  /** Why not (absent when it applies). */
  reason?: JevReason;
  /** `decision-1.13.0` (analyzer param `model`). */
  model: string;
  /** The typed fields, in schema order (analyzer param `fields`); empty when the schema does not map. */
  fields: Array<{ name: string; type: DecisionQuestionType }>;
  questions: DecisionQuestion[];
  /** Present once both sides were priced. */
  prices?: JevPrices;
  /** The pick it was compared with (analyzer param `pick_model`). */
  pickModel?: string;
  /** USD, six decimals (analyzer params `jev_usd`, `pick_usd`). */
  jevUsd?: number;
  pickUsd?: number;
}

/** The request fields the gate and the prices read. */
export type JevRequest = Pick<ChatRequestInput, 'system' | 'messages' | 'images' | 'tools' | 'stream' | 'responseFormat' | 'needsVision'>;

/** The widest JSON answer the questions allow, for the pick's output estimate. */
function widestAnswer(questions: readonly DecisionQuestion[]): Record<string, unknown> {
  return Object.fromEntries(
    questions.map((question) => {
      if (question.type === 'choice') return [question.name, question.options.reduce((longest, option) => (option.length > longest.length ? option : longest), '')];
      if (question.type === 'boolean') return [question.name, false];
      return [question.name, question.max];
    }),
  );
}

/** Both sides' list prices for one call (see the header comment). */
export function jevPrices(decision: ChatModel, pick: ChatModel, request: JevRequest, questions: readonly DecisionQuestion[]): JevPrices {
  const input = estimateInputTokens(request);
  const schema = request.responseFormat?.type === 'json_schema' ? request.responseFormat.schema : {};
  const tokens = {
    input,
    jevInput: input + tokensForCharacters(JSON.stringify(questions).length),
    jevOutput: questions.length,
    pickInput: input + tokensForCharacters(JSON.stringify(schema).length),
    pickOutput: tokensForCharacters(JSON.stringify(widestAnswer(questions)).length),
  };
  const jevPico = listPricePico(decision.pricing, { inputTokens: tokens.jevInput, outputTokens: tokens.jevOutput, cachedTokens: 0, cacheWriteTokens: 0 });
  const pickPico = listPricePico(pick.pricing, { inputTokens: tokens.pickInput, outputTokens: tokens.pickOutput, cachedTokens: 0, cacheWriteTokens: 0 });
  return { jevMicros: roundPicoToMicros(jevPico), pickMicros: roundPicoToMicros(pickPico), cheaper: jevPico < pickPico, tokens };
}

/** The gate and the price check for one request, its job and the routed pick (see the header comment). */
export function jevCheck(catalog: Catalog, request: JevRequest, job: JevJob | null | undefined, pick: ChatModel | undefined, caller: JevCaller = {}, settings: JevSettings = DEFAULT_JEV_SETTINGS): JevCheck {
  const typed = typedQuestions(request.responseFormat);
  const questions = 'questions' in typed ? typed.questions : [];
  const base: JevCheck = { applies: false, model: DECISION_MODEL_NAME, fields: questions.map((question) => ({ name: question.name, type: question.type })), questions };
  const no = (reason: JevReason, extra: Partial<JevCheck> = {}): JevCheck => ({ ...base, ...extra, reason });
  const decision = catalog.chatModel(DECISION_MODEL_ID);
  if (!settings.enabled || !decision) return no('disabled');
  if (!job?.line || !settings.lines.includes(job.line)) return no('line');
  const problem = decisionProblem(request);
  if (problem && problem.kind !== 'no_json_schema' && problem.kind !== 'no_questions' && problem.kind !== 'property') return no('request');
  if (problem) return no('not_typed');
  if (!job.task_type || !settings.taskTypes.includes(job.task_type)) return no('task_type');
  if (!job.difficulty || job.difficulty > settings.maxDifficulty) return no('difficulty');
  if (job.stakes === 'high') return no('stakes');
  if ((job.confidence ?? 0) < settings.minConfidence) return no('confidence');
  if (forbiddenAt(decision.id, caller.access ?? undefined)) return no('model_access');
  if ((caller.vendors?.length ?? 0) > 0 && !caller.vendors?.includes(decision.vendor)) return no('vendors');
  if (caller.free_plan && !decision.free) return no('free_plan');
  if (estimateInputTokens(request) > decision.capabilities.context_window) return no('context');
  if (!pick) return no('no_pick');
  const prices = jevPrices(decision, pick, request, questions);
  const priced = { prices, pickModel: pick.id, jevUsd: prices.jevMicros / 1_000_000, pickUsd: prices.pickMicros / 1_000_000 };
  if (!prices.cheaper) return no('price_check', priced);
  return { ...base, ...priced, applies: true };
}

/** svc.routing.reason of a call jev moved to the decision model, in the lever's words, before the classifier's sentence. */
export function jevReason(check: JevCheck, classifierReason: string | undefined): string {
  const usd = (value: number | undefined) => (value ?? 0).toFixed(6);
  const said = `jev: the json_schema maps onto the decision model's questions and it is cheaper (${check.model} ${usd(check.jevUsd)} USD, pick ${check.pickModel} ${usd(check.pickUsd)} USD).`;
  return classifierReason ? `${said} ${classifierReason}` : said;
}

/**
 * The routing decision with the decision model first and the routed candidates after it (a
 * retryable failure of the decision model falls back to the pick), and routing.reason saying so.
 */
export function jevRoute(catalog: Catalog, route: RouteDecision, check: JevCheck): RouteDecision {
  const vendor = catalog.chatModel(DECISION_MODEL_ID)?.vendor ?? 'vendor-8';
  const candidates = [{ model: DECISION_MODEL_ID, vendor }, ...route.candidates.filter((candidate) => candidate.model !== DECISION_MODEL_ID)];
  return { ...route, candidates, routing: route.routing ? { ...route.routing, reason: jevReason(check, route.routing.reason) } : route.routing };
}
