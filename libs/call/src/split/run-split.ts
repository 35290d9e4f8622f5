import { ServiceError } from '@svc/errors';
import type { ChatModel } from '@svc/catalog';
import { listPricePico, roundPicoToMicros } from '@svc/pricing';
import { VendorError, type ContentPart, type DecisionQuestion, type Usage, type VendorMessage } from '@svc/vendors';
import type { ChatRequestInput } from '../request/chat-request';
import { attemptUnary, type AttemptContext } from '../attempts';
import { escalationCandidates } from '../candidates';
import { tokensForCharacters } from '../tokens';
import type { SplitFallback, SplitGate, SplitReason, SplitRole, SplitSettings } from './gate';
import { CHECK_INSTRUCTIONS, CHECK_QUESTIONS, EXCERPT_NOTE, EXTRACT_INSTRUCTIONS, QUESTIONS_INSTRUCTIONS, QUESTIONS_QUESTIONS, checkPrompt, excerptObject, excerptText, extractPrompt, questionsPrompt, readExtract } from './prompts';

/**
 * The split's steps before the answer, each a real call through the pipeline's vendor attempts
 * (attempts.ts) with its own list price:
 *   questions  the decision model: does the question need the whole source?   (billed: false)
 *   extract    the cheap extractor copies the needed lines verbatim            (billed: true)
 *   check      the decision model: does the excerpt suffice? (check_p)         (billed: false)
 * then the answer (run-chat-call.ts) on the request with the source replaced by the excerpt
 * (billed: true). The questions and check steps are the service's own costs, like the classifier:
 * shown at list price, never billed. A guard that fails sends the request whole (svc.split.fallback)
 * and every step that ran is `billed: false`: the client pays the unsplit price only.
 */

export interface SplitStep {
  role: SplitRole;
  vendor: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  micros: number;
  billed: boolean;
}

/** A step the client pays for (extract), for svc.cost and the usage record. */
export interface BilledStep {
  model: ChatModel;
  usage: Usage;
  byok: boolean;
}

export interface SplitRun {
  /** The answer comes from the excerpt. */
  applied: boolean;
  reason?: SplitReason;
  fallback?: SplitFallback;
  steps: SplitStep[];
  check_p?: number;
  excerpt?: { lines_kept: number; lines_total: number; tokens: number; verbatim_rate: number };
  /** Applied: the request with the source replaced by the excerpt. */
  answerInput?: ChatRequestInput;
  /** Applied: the billed steps before the answer. */
  billed: BilledStep[];
  /** Tokens of every step that ran (logged; the key's bucket counts only the billed ones, outcome.ts). */
  tokens: number;
}

const stepMicros = (model: ChatModel, usage: Usage) => roundPicoToMicros(listPricePico(model.pricing, { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cachedTokens: usage.cachedTokens, cacheWriteTokens: usage.cacheWriteTokens }));

export function stepOf(role: SplitRole, model: ChatModel, usage: Usage | undefined, billed: boolean): SplitStep {
  return { role, vendor: model.vendor, model: model.id, input_tokens: usage?.inputTokens ?? 0, output_tokens: usage?.outputTokens ?? 0, micros: usage ? stepMicros(model, usage) : 0, billed };
}

const userText = (text: string): VendorMessage => ({ role: 'user', content: [{ type: 'text', text }] });

function stepInput(base: ChatRequestInput, model: ChatModel, system: string, text: string, extra: Partial<ChatRequestInput> = {}): ChatRequestInput {
  return {
    model: model.id,
    requestedModel: base.requestedModel,
    system,
    messages: [userText(text)],
    stream: false,
    svc: { cacheTtl: 'none', cacheBreakpoints: 'none' },
    ignoredParameters: [],
    needsVision: false,
    images: [],
    ...extra,
  };
}

function questionsFormat(questions: readonly DecisionQuestion[]): ChatRequestInput['responseFormat'] {
  const properties = Object.fromEntries(questions.map((question) => [question.name, question.type === 'boolean' ? { type: 'boolean', description: question.description } : {}]));
  return { type: 'json_schema', name: 'svc_distill', schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false }, strict: true };
}

/** One step on one model through the vendor attempts; the first answer wins. */
async function callStep(context: AttemptContext, model: ChatModel, input: ChatRequestInput) {
  const candidates = await escalationCandidates(context.deps, context.caller, { candidates: [{ model: model.id, vendor: model.vendor }] });
  return attemptUnary({ ...context, input, route: { ...context.route, candidates: [{ model: model.id, vendor: model.vendor }], effort: '' }, candidates, hiddenTool: false });
}

const probabilityOf = (decision: Record<string, unknown> | undefined, name: string): number | undefined => {
  const entry = decision?.[name] as { probability?: number } | undefined;
  return typeof entry?.probability === 'number' ? entry.probability : undefined;
};

/** The request with the source replaced by the excerpt (and a note saying it is one). */
export function withExcerpt(input: ChatRequestInput, gate: SplitGate, excerpt: string): ChatRequestInput {
  const location = gate.location!;
  const text = `${EXCERPT_NOTE}\n${excerpt}`;
  if (location.where === 'system') return { ...input, system: text };
  const messages = input.messages.map((message, index) => {
    if (index !== location.messageIndex || message.role !== 'user') return message;
    const content: ContentPart[] = message.content.map((part, partIndex) => (partIndex === location.partIndex && part.type === 'text' ? { type: 'text', text: `${location.before ?? ''}${text}${location.after ?? ''}` } : part));
    return { ...message, content };
  });
  return { ...input, messages };
}

/** Runs questions, extract and check (see the header comment). Never throws a vendor error: a failed step is a reason or a fallback. */
export async function runSplit(context: AttemptContext, gate: SplitGate, settings: SplitSettings): Promise<SplitRun> {
  const { input, deps } = context;
  const location = gate.location!;
  const decision = gate.decision!;
  const extractor = gate.extractor!;
  const steps: SplitStep[] = [];
  let tokens = 0;
  const used = (usage: Usage) => (tokens += usage.inputTokens + usage.outputTokens);
  const unbilled = () => steps.map((step) => ({ ...step, billed: false }));
  const fallback = (guard: SplitFallback, extra: Partial<SplitRun> = {}): SplitRun => {
    deps.logger.info('split fell back to the whole request', { fallback: guard, extractor: extractor.id });
    return { applied: false, fallback: guard, steps: unbilled(), billed: [], tokens, ...extra };
  };
  const failedStep = (error: unknown) => {
    if (error instanceof VendorError && error.kind === 'aborted') throw error;
    if (context.signal.aborted) throw error;
    if (!(error instanceof ServiceError) && !(error instanceof VendorError)) throw error;
  };

  // questions: does the question need the whole source? (jev_no / jev_failed)
  const questionsInput = stepInput(input, decision, QUESTIONS_INSTRUCTIONS, questionsPrompt(location.question, location.source.slice(0, settings.questionsSourceTokens * 4)), { responseFormat: questionsFormat(QUESTIONS_QUESTIONS) });
  try {
    const asked = await callStep(context, decision, questionsInput);
    used(asked.result.usage);
    steps.push(stepOf('questions', decision, asked.result.usage, false));
    const whole = probabilityOf(asked.decision, 'needs_whole_source');
    if (whole === undefined) return { applied: false, reason: 'jev_failed', steps, billed: [], tokens };
    if (whole >= settings.maxWholeP) return { applied: false, reason: 'jev_no', steps, billed: [], tokens };
  } catch (error) {
    failedStep(error);
    steps.push(stepOf('questions', decision, undefined, false));
    return { applied: false, reason: 'jev_failed', steps, billed: [], tokens };
  }

  // extract: the cheap model copies the needed lines verbatim.
  const sourceTokens = tokensForCharacters(location.source.length);
  const maxExcerptTokens = Math.ceil(sourceTokens * settings.maxExcerptShare);
  let extracted;
  try {
    extracted = await callStep(context, extractor, stepInput(input, extractor, EXTRACT_INSTRUCTIONS, extractPrompt(location.question, location.source), { maxTokens: Math.min(extractor.capabilities.max_output, maxExcerptTokens + 64), temperature: 0, reasoningEffort: 'none' }));
  } catch (error) {
    failedStep(error);
    steps.push(stepOf('extract', extractor, undefined, false));
    return fallback('extract_failed');
  }
  used(extracted.result.usage);
  steps.push(stepOf('extract', extractor, extracted.result.usage, true));
  const reading = readExtract(location.source, extracted.result.content);
  if (reading.kind === 'declined') return fallback('extractor_declined');
  if (reading.kind === 'empty') return fallback('empty_extract');
  if (extracted.result.finishReason === 'length') return fallback('extract_too_big');
  const excerpt = excerptObject(location.source, reading.kept, reading.verbatimRate);
  if (reading.verbatimRate < settings.minVerbatimRate) return fallback('low_verbatim', { excerpt });
  if (reading.kept.length === 0) return fallback('empty_extract', { excerpt });
  if (excerpt.tokens > maxExcerptTokens) return fallback('extract_too_big', { excerpt });

  // check: the decision model confirms the excerpt suffices (check_p).
  const text = excerptText(location.source, reading.kept);
  let checkP: number | undefined;
  try {
    const checked = await callStep(context, decision, stepInput(input, decision, CHECK_INSTRUCTIONS, checkPrompt(location.question, text), { responseFormat: questionsFormat(CHECK_QUESTIONS) }));
    used(checked.result.usage);
    steps.push(stepOf('check', decision, checked.result.usage, false));
    checkP = probabilityOf(checked.decision, 'sufficient');
    const more = probabilityOf(checked.decision, 'needs_more_source');
    if (checkP === undefined || more === undefined) return fallback('check_failed', { excerpt });
    if (checkP < settings.minCheckP) return fallback('check_rejected', { excerpt, check_p: checkP });
    if (more > settings.maxNeedMoreP) return fallback('need_more_source', { excerpt, check_p: checkP });
  } catch (error) {
    failedStep(error);
    steps.push(stepOf('check', decision, undefined, false));
    return fallback('check_failed', { excerpt });
  }
  return {
    applied: true,
    steps,
    check_p: checkP,
    excerpt,
    answerInput: withExcerpt(input, gate, text),
    billed: [{ model: extractor, usage: extracted.result.usage, byok: extracted.attempt.byok }],
    tokens,
  };
}
