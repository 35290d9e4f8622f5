import { DECISION_MODEL_ID, type Catalog, type ChatModel } from '@svc/catalog';
import { listPricePico, roundPicoToMicros } from '@svc/pricing';
import { forbiddenAt, type ModelAccessLists, type RoutingExplanation } from '@svc/routing';
import type { VendorMessage } from '@svc/vendors';
import type { ChatRequestInput } from '../request/chat-request';
import { estimateInputTokens, tokensForCharacters } from '../tokens';
import { CHECK_QUESTIONS, EXTRACT_INSTRUCTIONS, CHECK_INSTRUCTIONS, QUESTIONS_INSTRUCTIONS, QUESTIONS_QUESTIONS, extractPrompt, checkPrompt, questionsPrompt } from './prompts';

/**
 * Split-and-route (`distill`, spec: svc.split and Split rules): the local gate and the price
 * check, one function for the call pipeline (run-split.ts) and the analyzer's `split` lever.
 *
 * The gate, in order (the first failure is svc.split.reason):
 * 1. `named_model`: the request names a catalog model (never split).
 * 2. `opt_out`: svc.split / x-svc-split `off`.
 * 3. `not_eligible` (request shape): SPLIT_ENABLED off, tools, tool calls or results, images,
 *    a stream, a json response format, the Responses API, a flex or batch tier, the Free limits
 *    (the check runs on the decision model, which is not a free model).
 * 4. `below_threshold`: the source (the largest plain-text block: the last user message's biggest
 *    paragraph run, or the system prompt) has fewer than SPLIT_MIN_SOURCE_TOKENS tokens.
 * 5. `not_eligible` (the work): no question apart from the source (at most
 *    SPLIT_MAX_QUESTION_TOKENS), or whole-document work: a kind of work in SPLIT_WHOLE_DOCUMENT_TASKS
 *    (summarization, translation, rewriting, ...), or no extractor model allowed for the key that
 *    holds the source, or the decision model not allowed.
 * 6. `price_check`: the split's estimated list price (all four steps) must be at most
 *    SPLIT_MAX_PRICE_RATIO of the whole request on the pick. `estimate` is reported from here on.
 * The questions step (a decision-model call: does the question need only part of the source?)
 * then gives `jev_no` or `jev_failed` (run-split.ts).
 */

export interface SplitSettings {
  enabled: boolean;
  /** Smallest source worth splitting, tokens. */
  minSourceTokens: number;
  /** Largest question (the request's text apart from the source), tokens. */
  maxQuestionTokens: number;
  /** Kinds of work (svc.routing.task_type) that need the whole document. */
  wholeDocumentTasks: readonly string[];
  /** The answer's output in the estimate (capped by max_tokens), tokens. */
  answerOutputTokens: number;
  /** Share of the source the estimate expects the excerpt to keep. */
  excerptShareEstimate: number;
  /** Largest excerpt as a share of the source (bigger: fallback `extract_too_big`). */
  maxExcerptShare: number;
  /** Lowest share of the extract's lines found verbatim in the source (lower: `low_verbatim`). */
  minVerbatimRate: number;
  /** Lowest check_p (lower: `check_rejected`). */
  minCheckP: number;
  /** Highest probability that the answer needs lines outside the excerpt (higher: `need_more_source`). */
  maxNeedMoreP: number;
  /** Highest probability that the question needs the whole source (at or above: `jev_no`). */
  maxWholeP: number;
  /** The split's estimate may be at most this share of the unsplit price. */
  maxPriceRatio: number;
  /** Tokens of the source's beginning the questions step reads. */
  questionsSourceTokens: number;
  /** Extractor: a catalog id, or empty for the cheapest allowed model whose context holds the source. */
  extractor: string;
}

export const DEFAULT_SPLIT_SETTINGS: Readonly<SplitSettings> = Object.freeze({
  enabled: true,
  minSourceTokens: 4000,
  maxQuestionTokens: 1000,
  wholeDocumentTasks: Object.freeze(['summarization', 'translation', 'content_writing', 'data:transformation', 'code:repo_scan']),
  answerOutputTokens: 600,
  excerptShareEstimate: 0.1,
  maxExcerptShare: 0.4,
  minVerbatimRate: 0.9,
  minCheckP: 0.6,
  maxNeedMoreP: 0.5,
  maxWholeP: 0.5,
  maxPriceRatio: 0.8,
  questionsSourceTokens: 800,
  extractor: '',
});

export type SplitReason = 'named_model' | 'opt_out' | 'not_eligible' | 'below_threshold' | 'jev_no' | 'jev_failed' | 'price_check';
export type SplitFallback = 'extractor_declined' | 'empty_extract' | 'extract_too_big' | 'low_verbatim' | 'check_rejected' | 'need_more_source' | 'extract_failed' | 'check_failed';
export type SplitRole = 'questions' | 'extract' | 'check' | 'answer';

/** Where the source is: the system prompt, or a block of the last user message's text. */
export interface SourceLocation {
  where: 'system' | 'user';
  /** The source text itself. */
  source: string;
  /** The question: the request's own words apart from the source. */
  question: string;
  /** User source: index of the message and its text part, and the text before and after the source in that part. */
  messageIndex?: number;
  partIndex?: number;
  before?: string;
  after?: string;
}

/** Paragraphs (blank-line separated), with their offsets. */
function paragraphs(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  const re = /\n[ \t]*\n/g;
  let start = 0;
  let match: RegExpExecArray | null;
  while ((match = re.exec(text))) {
    if (match.index > start) out.push({ start, end: match.index });
    start = match.index + match[0].length;
  }
  if (start < text.length) out.push({ start, end: text.length });
  return out;
}

const ASKS = /^(please|can you|could you|what|which|who|whom|whose|when|where|why|how|is|are|does|do|did|list|find|give|tell|explain|describe|summari[sz]e|translate|rewrite|answer|extract|using|based on|according to|given|read|from|in the|compare|identify|quote|check)\b/i;

/** Text without vendor-sim's `[split:*]` test triggers, which are no part of what is asked. */
function withoutTriggers(text: string): string {
  return text.replace(/\[split:[a-z-]+\]/g, '');
}

/** How much a paragraph reads like the request's question or instruction (the higher, the likelier). */
function questionScore(paragraph: string): number {
  const text = withoutTriggers(paragraph).trim();
  return (/[?:]$/.test(text) ? 2 : 0) + (ASKS.test(text) ? 1 : 0) + (text.includes('\n') ? 0 : 1);
}

/**
 * Verbs that ask for work on every line of a source: an excerpt cannot answer them. Read at the
 * start of the question's sentences, so "translate the handbook" is caught and "which form does
 * the translation team use?" is not. The classifier's whole-document kinds catch the rest; this
 * keeps the plain cases right whatever the classifier says.
 */
const WHOLE_DOCUMENT_ASK = /(?:^|[.!?\n]\s*|\b(?:please|can you|could you|now)\s+)(translate|summari[sz]e|proofread|paraphrase|rewrite|reformat|convert|transcribe)\b/i;

/** The whole-document verb a question opens a sentence with, or undefined. */
export function wholeDocumentAsk(question: string): string | undefined {
  return WHOLE_DOCUMENT_ASK.exec(withoutTriggers(question.slice(0, 4000)))?.[1].toLowerCase();
}

/**
 * The source and the question of a request. In the last user message's largest text part, the
 * question is its first or last paragraph (the shorter one under the question limit, preferring the
 * last), the source the rest; when that message is itself short and the system prompt is long, the
 * system prompt is the source and the user message the question. Undefined when there is no last
 * user message with text.
 */
export function locateSource(request: Pick<ChatRequestInput, 'system' | 'messages'>, maxQuestionTokens: number): SourceLocation | undefined {
  const messageIndex = request.messages.map((message) => message.role).lastIndexOf('user');
  if (messageIndex < 0) return undefined;
  const message = request.messages[messageIndex] as Extract<VendorMessage, { role: 'user' }>;
  let partIndex = -1;
  message.content.forEach((part, index) => {
    if (part.type === 'text' && (partIndex < 0 || part.text.length > (message.content[partIndex] as { text: string }).text.length)) partIndex = index;
  });
  const text = partIndex >= 0 ? (message.content[partIndex] as { text: string }).text : '';
  const others = message.content.filter((part, index) => index !== partIndex && part.type === 'text').map((part) => (part as { text: string }).text).join('\n\n');
  const maxQuestionChars = maxQuestionTokens * 4;
  const system = request.system ?? '';
  if (system.length > text.length && text.length + others.length <= maxQuestionChars) {
    return { where: 'system', source: system, question: [text, others].filter(Boolean).join('\n\n') };
  }
  const blocks = paragraphs(text);
  if (blocks.length < 2) return { where: 'user', source: text, question: others, messageIndex, partIndex, before: '', after: '' };
  const first = blocks[0];
  const last = blocks[blocks.length - 1];
  const firstText = text.slice(first.start, first.end);
  const lastText = text.slice(last.start, last.end);
  const fits = (paragraph: string) => paragraph.length <= maxQuestionChars;
  const useLast = fits(lastText) && (!fits(firstText) || questionScore(lastText) >= questionScore(firstText));
  const sourceStart = useLast ? first.start : blocks[1].start;
  const sourceEnd = useLast ? blocks[blocks.length - 2].end : last.end;
  const question = [useLast ? lastText.trim() : firstText.trim(), others].filter(Boolean).join('\n\n');
  return { where: 'user', source: text.slice(sourceStart, sourceEnd), question, messageIndex, partIndex, before: text.slice(0, sourceStart), after: text.slice(sourceEnd) };
}

/** Who asks: model access, svc.vendors (the routing query's fields). */
export interface SplitCaller {
  access?: ModelAccessLists | null;
  vendors?: readonly string[];
  free_plan?: boolean;
}

/** The request fields the gate and the estimate read. */
export type SplitRequest = Pick<ChatRequestInput, 'system' | 'messages' | 'images' | 'tools' | 'stream' | 'responseFormat' | 'needsVision' | 'maxTokens' | 'svc'>;

export interface SplitEstimate {
  unsplit_micros: number;
  split_micros: number;
}

export interface SplitGate {
  /** The split runs (the questions step next). */
  passes: boolean;
  reason?: SplitReason;
  /** Why, in words (logs and the analyzer). */
  detail?: string;
  location?: SourceLocation;
  sourceTokens?: number;
  extractor?: ChatModel;
  decision?: ChatModel;
  pick?: ChatModel;
  /** Present once the local gate passed (spec: "present once the gate passed"). */
  estimate?: SplitEstimate;
  /** Per-step estimate, micros. */
  steps?: Record<SplitRole, number>;
}

/** What the call knows beyond the request: named or auto, the Responses API or a tier, the job. */
export interface SplitContext {
  auto: boolean;
  /** Not a plain synchronous chat completion (Responses API, flex, batch, escalation). */
  shapeProblem?: string;
  job?: Pick<RoutingExplanation, 'task_type'> | null;
  pick?: ChatModel;
  caller?: SplitCaller;
}

const micros = (model: ChatModel, inputTokens: number, outputTokens: number) => roundPicoToMicros(listPricePico(model.pricing, { inputTokens, outputTokens, cachedTokens: 0, cacheWriteTokens: 0 }));

/** The cheapest model allowed for the caller whose context holds the extract request (or SPLIT_EXTRACTOR). */
export function chooseExtractor(catalog: Catalog, sourceTokens: number, caller: SplitCaller, settings: SplitSettings): ChatModel | undefined {
  const needed = sourceTokens + tokensForCharacters(EXTRACT_INSTRUCTIONS.length) + 1200 + Math.ceil(sourceTokens * settings.maxExcerptShare);
  const allowed = (model: ChatModel) =>
    model.protocol !== 'decision' &&
    model.capabilities.context_window >= needed &&
    !forbiddenAt(model.id, caller.access ?? undefined) &&
    (!(caller.vendors?.length) || caller.vendors.includes(model.vendor));
  if (settings.extractor) {
    const named = catalog.chatModel(settings.extractor);
    return named && allowed(named) ? named : undefined;
  }
  const models = catalog.data.models.filter((model) => catalog.isAutoEligible(model.id)).map((model) => catalog.chatModel(model.id)).filter((model): model is ChatModel => Boolean(model) && allowed(model as ChatModel));
  const price = (model: ChatModel) => model.pricing.input * sourceTokens + model.pricing.output * sourceTokens * settings.excerptShareEstimate;
  return models.sort((a, b) => price(a) - price(b) || a.id.localeCompare(b.id))[0];
}

/** The four steps' estimated list prices (see the header comment). */
export function estimateSplit(request: SplitRequest, location: SourceLocation, extractor: ChatModel, decision: ChatModel, pick: ChatModel, settings: SplitSettings): { estimate: SplitEstimate; steps: Record<SplitRole, number> } {
  const input = estimateInputTokens(request);
  const sourceTokens = tokensForCharacters(location.source.length);
  const questionTokens = tokensForCharacters(location.question.length);
  const excerptTokens = Math.ceil(sourceTokens * settings.excerptShareEstimate);
  const output = Math.min(request.maxTokens ?? settings.answerOutputTokens, settings.answerOutputTokens);
  const questionsInput = tokensForCharacters(QUESTIONS_INSTRUCTIONS.length + questionsPrompt(location.question, location.source.slice(0, settings.questionsSourceTokens * 4)).length + JSON.stringify(QUESTIONS_QUESTIONS).length);
  const extractInput = tokensForCharacters(EXTRACT_INSTRUCTIONS.length + extractPrompt(location.question, location.source).length);
  const checkInput = tokensForCharacters(CHECK_INSTRUCTIONS.length + JSON.stringify(CHECK_QUESTIONS).length) + questionTokens + excerptTokens + 16;
  const answerInput = input - sourceTokens + excerptTokens + 16;
  const steps: Record<SplitRole, number> = {
    questions: micros(decision, questionsInput, QUESTIONS_QUESTIONS.length),
    extract: micros(extractor, extractInput, excerptTokens),
    check: micros(decision, checkInput, CHECK_QUESTIONS.length),
    answer: micros(pick, answerInput, output),
  };
  void checkPrompt;
  return { estimate: { unsplit_micros: micros(pick, input, output), split_micros: steps.questions + steps.extract + steps.check + steps.answer }, steps };
}

/** The gate and the price check (see the header comment). */
export function splitGate(catalog: Catalog, request: SplitRequest, context: SplitContext, settings: SplitSettings = DEFAULT_SPLIT_SETTINGS): SplitGate {
  const no = (reason: SplitReason, detail: string, extra: Partial<SplitGate> = {}): SplitGate => ({ passes: false, reason, detail, ...extra });
  if (!context.auto) return no('named_model', 'a named model is never split');
  if (request.svc.split === 'off') return no('opt_out', 'svc.split off');
  if (!settings.enabled) return no('not_eligible', 'split-and-route is switched off (SPLIT_ENABLED)');
  if (context.shapeProblem) return no('not_eligible', context.shapeProblem);
  if (request.tools?.length) return no('not_eligible', 'the request offers tools');
  if (request.messages.some((message) => message.role === 'tool' || (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0))) return no('not_eligible', 'the conversation has tool calls');
  if (request.needsVision || request.images.length > 0) return no('not_eligible', 'the request has images');
  if (request.stream) return no('not_eligible', 'a streamed request is sent whole');
  if (request.responseFormat && request.responseFormat.type !== 'text') return no('not_eligible', 'a json response format is answered on the whole request');
  if (context.caller?.free_plan) return no('not_eligible', 'the Free limits: the check model is not a free model');
  const location = locateSource(request, settings.maxQuestionTokens);
  const sourceTokens = location ? tokensForCharacters(location.source.length) : 0;
  if (!location || sourceTokens < settings.minSourceTokens) return no('below_threshold', `the source has ${sourceTokens} tokens, under ${settings.minSourceTokens}`, { ...(location ? { location } : {}), sourceTokens });
  if (!location.question.trim()) return no('not_eligible', 'no question apart from the source', { location, sourceTokens });
  if (tokensForCharacters(location.question.length) > settings.maxQuestionTokens) return no('not_eligible', 'the question is too long to be a question', { location, sourceTokens });
  const task = context.job?.task_type ?? '';
  if (task && settings.wholeDocumentTasks.includes(task)) return no('not_eligible', `whole-document work (${task})`, { location, sourceTokens });
  const wholeAsk = wholeDocumentAsk(location.question);
  if (wholeAsk) return no('not_eligible', `whole-document work (the question asks to ${wholeAsk} the source)`, { location, sourceTokens });
  const decision = catalog.chatModel(DECISION_MODEL_ID);
  const caller = context.caller ?? {};
  if (!decision || forbiddenAt(decision.id, caller.access ?? undefined)) return no('not_eligible', 'the check model is not allowed for this key', { location, sourceTokens });
  const extractor = chooseExtractor(catalog, sourceTokens, caller, settings);
  if (!extractor) return no('not_eligible', 'no extractor model holds the source for this key', { location, sourceTokens });
  const pick = context.pick;
  if (!pick) return no('not_eligible', 'no routed pick', { location, sourceTokens });
  const { estimate, steps } = estimateSplit(request, location, extractor, decision, pick, settings);
  const base = { location, sourceTokens, extractor, decision, pick, estimate, steps };
  if (estimate.split_micros > estimate.unsplit_micros * settings.maxPriceRatio) return no('price_check', `the split (${estimate.split_micros} micros) is not under ${settings.maxPriceRatio} of the whole request (${estimate.unsplit_micros} micros)`, base);
  return { passes: true, ...base };
}
