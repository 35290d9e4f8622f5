/**
 * One classification: features → logits → calibrated kind of work, difficulty, stakes and a
 * one-sentence reason quoting the words that pushed hardest toward the chosen kind of work.
 */
import { FeatureInput, SparseVector, Terms, extractFeatures, newSparseVector, newTerms, termText } from './features';
import {
  DIFFICULTY_OFFSET, Model, N_TASK, OUTPUTS, STAKES_OFFSET, TASK_OFFSET, TASK_TYPES, TaskType,
  levelOf, logits, sigmoid, softmax,
} from './model';
import { N_DIFFICULTY_FEATURES, difficultyFeatures } from './difficulty';

export interface Classification {
  taskType: string;
  difficulty: 1 | 2 | 3 | 4 | 5;
  stakes: 'normal' | 'high';
  /** Calibrated probability of taskType (temperature-scaled softmax maximum). */
  confidence: number;
  reason: string;
  /**
   * Which classifier answered (svc.routing.classifier), set by a classifier that can answer in
   * more than one way (the LLM classifier and its trained fallback); absent from the trained one.
   */
  classifier?: string;
  /** Probability of every kind of work, when asked for. */
  probabilities?: Record<string, number>;
  /** The difficulty model's raw score (1-5 scale, before the cut points), when probabilities are asked for. */
  difficultyScore?: number;
}

export interface PredictOptions {
  /** Include the full kind-of-work distribution. */
  probabilities?: boolean;
  /** Skip building the reason sentence (evaluation runs). */
  noReason?: boolean;
}

/** Below this confidence the reason names the runner-up too. */
const UNSURE_BELOW = 0.6;
/** Stakes probability at which a job counts as high stakes. */
const HIGH_STAKES_AT = 0.5;

/** Each kind of work in a few words (reason sentences, the LLM classifier's instructions). */
export const LABEL_TEXT: Record<TaskType, string> = {
  classification_tagging: 'classification or tagging',
  'data:extraction': 'data extraction',
  'agent:workflow_execution': 'an agent running a workflow',
  roleplay_fiction: 'roleplay or fiction',
  content_writing: 'content writing',
  'data:transformation': 'data transformation',
  'code:general_impl': 'writing new code',
  'agent:multi_step_planning': 'multi-step agent planning',
  qa_knowledge: 'a knowledge question',
  translation: 'translation',
  conversational_reply: 'casual conversation',
  'code:debugging': 'code debugging',
  summarization: 'summarization',
  'code:file_read_write': 'reading or editing files',
  customer_support: 'customer support',
  'code:review_security': 'a security code review',
  'agent:tool_dispatch': 'a tool call',
  'code:shell_execution': 'shell commands',
  'agent:memory_extraction': 'memory extraction',
  'code:frontend_ui': 'frontend UI work',
  finance_trading: 'finance or trading',
  research_report: 'a research report',
  'agent:web_search': 'a web search',
  security_audit: 'a security audit',
  'code:repo_scan': 'a repository scan',
  math: 'math',
  'code:devops_config': 'infrastructure configuration',
  'code:sql_database': 'SQL and databases',
  devops: 'operations work',
  other: 'a general request',
};

const DIFFICULTY_TEXT = ['', 'trivial', 'easy', 'medium', 'hard', 'very hard'];

/** Words too common to explain anything. */
const STOPWORDS = new Set([
  'the', 'and', 'for', 'this', 'that', 'with', 'you', 'your', 'can', 'what', 'how', 'please', 'are', 'from', 'have', 'has',
  'not', 'but', 'all', 'any', 'its', 'our', 'was', 'will', 'would', 'should', 'could', 'into', 'about', 'just', 'need',
  'want', 'give', 'make', 'thanks', 'hey', 'there', 'then', 'them', 'they', 'their', 'when', 'where', 'which', 'who',
  'why', 'does', 'did', 'get', 'got', 'use', 'using', 'also', 'some', 'more', 'than', 'very', 'here', 'help', 'one',
  'que', 'para', 'por', 'con', 'una', 'los', 'las', 'del', 'les', 'des', 'est', 'pour', 'une', 'dans', 'und', 'die',
  'der', 'das', 'ich', 'mit', 'ein', 'eine', 'com', 'uma', 'não', 'meu', 'minha',
]);

const HAN = /^[\u3400-\u4dbf\u4e00-\u9fff]+$/;
const KATAKANA = /^[\u30a0-\u30ff]+$/;

function informative(word: string): boolean {
  if (STOPWORDS.has(word) || /^[\d_]+$/.test(word)) return false;
  return word.length >= 3;
}

/** Worth quoting: a content word, or a pair of them, short enough to read. */
function quotable(term: string): boolean {
  if (term.length > 32) return false;
  // Japanese and Chinese text is split per character: quote only Han or katakana pairs,
  // which are usually whole words; kana fragments say nothing.
  if (term.charCodeAt(0) >= 0x3040 && term.charCodeAt(0) <= 0x9fff) return term.length === 2 && (HAN.test(term) || KATAKANA.test(term));
  const space = term.indexOf(' ');
  if (space < 0) return informative(term);
  return informative(term.slice(0, space)) && informative(term.slice(space + 1));
}

/** Only this many of the strongest terms are looked at as quotes. */
const CUE_CANDIDATES = 12;
const cueScore = new Float32Array(4096);

/** The (at most two) request terms that added most to class k's logit. */
function topCues(model: Model, terms: Terms, k: number): string[] {
  const n = Math.min(terms.n, cueScore.length);
  for (let i = 0; i < n; i++) {
    const r = model.rowOf[terms.index[i]];
    // Unscaled: the column scale is positive and the same for every term, so the order holds.
    cueScore[i] = r < 0 ? 0 : terms.value[i] * model.weights[r * OUTPUTS + TASK_OFFSET + k];
  }
  const picked: string[] = [];
  // Repeated max-selection: cheaper than sorting, since at most a dozen candidates are read.
  for (let round = 0; round < CUE_CANDIDATES && picked.length < 2; round++) {
    let best = -1;
    for (let i = 0; i < n; i++) if (cueScore[i] > 0 && (best < 0 || cueScore[i] > cueScore[best])) best = i;
    if (best < 0) break;
    cueScore[best] = 0;
    const term = termText(terms, best);
    if (!quotable(term) || picked.some((p) => p === term || p.includes(term) || term.includes(p))) continue;
    picked.push(term);
  }
  return picked;
}

function buildReason(
  task: TaskType, runnerUp: TaskType, confidence: number, difficulty: number, stakes: 'normal' | 'high',
  cues: string[], afterTool: boolean, aboutPaste = false,
): string {
  let s = `Looks like ${LABEL_TEXT[task]}`;
  if (cues.length > 0) s += `: ${aboutPaste ? 'the request around the pasted text mentions' : 'mentions'} ${cues.map((c) => `"${c}"`).join(' and ')}`;
  else if (aboutPaste) s += ', from the request around the pasted text';
  if (afterTool) s += ', continuing after a tool result';
  s += `; ${DIFFICULTY_TEXT[difficulty]} (difficulty ${difficulty}), ${stakes} stakes`;
  if (confidence < UNSURE_BELOW) s += `, though it could also be ${LABEL_TEXT[runnerUp]}`;
  return `${s}.`;
}

/** Reusable buffers; classification is synchronous, so one set per process is enough. */
const vec: SparseVector = newSparseVector();
const z = new Float64Array(OUTPUTS);
const dFeatures = new Float64Array(N_DIFFICULTY_FEATURES);

/** The difficulty model's score: its word part (a column of the hashed weights) plus its dense part. */
export function difficultyScore(model: Model, input: FeatureInput, z: ArrayLike<number>, p: ArrayLike<number>): number {
  difficultyFeatures(input, p, dFeatures);
  let score = z[DIFFICULTY_OFFSET];
  const w = model.difficulty.dense;
  for (let k = 0; k < N_DIFFICULTY_FEATURES; k++) score += w[k] * dFeatures[k];
  return score;
}

/**
 * A long message is often a pasted document with the request written above or below it ("Translate
 * the following into German.", "Which rack is the RabbitMQ host in?"): the ask decides the kind of
 * work, not what was pasted (a policy full of amounts is not math). Read on its own, the ask is a
 * short request the model knows well. A message of at least PASTE_MIN_CHARS whose first or last
 * paragraph (or a first line ending in ':') is at most ASK_MAX_CHARS and a third of the message at
 * most has that paragraph classified alone; when that is confident (ASK_CONFIDENCE) it names the
 * kind of work — a question about the pasted text is data extraction. Pasted code is the work
 * unless the ask does something to it as text (translate, summarize, convert, rewrite, classify):
 * otherwise the whole message's kind stands. Difficulty and stakes stay those of the whole message.
 * Bounded like the features: only the first 1500 and the last 500 characters are searched.
 */
export const PASTE_MIN_CHARS = 300;
const ASK_MAX_CHARS = 400;
/** The same bounds as the features: the first 1500 and the last 500 characters. */
const HEAD_WINDOW = 1500;
const TAIL_WINDOW = 500;
const ASK_CONFIDENCE = 0.5;
const PARAGRAPH_BREAK = /\n[ \t]*\n/g;

/** The candidate asks around a pasted body: its first and last short paragraphs (at most two). */
export function pastedAsks(text: string): string[] {
  if (text.length < PASTE_MIN_CHARS) return [];
  const asks: string[] = [];
  const head = text.slice(0, HEAD_WINDOW);
  PARAGRAPH_BREAK.lastIndex = 0;
  const firstBreak = PARAGRAPH_BREAK.exec(head);
  const firstLineEnd = head.indexOf('\n');
  const firstFence = head.indexOf('```');
  if (firstBreak && firstBreak.index <= ASK_MAX_CHARS && (firstFence < 0 || firstBreak.index <= firstFence)) asks.push(head.slice(0, firstBreak.index));
  else if (firstLineEnd > 0 && firstLineEnd <= ASK_MAX_CHARS && /[:：]\s*$/.test(head.slice(0, firstLineEnd)) && (firstFence < 0 || firstLineEnd <= firstFence)) asks.push(head.slice(0, firstLineEnd));
  // Code pasted in a fence straight after the request, on the same paragraph ("convert this to Go: ```…```").
  else if (firstFence > 0 && firstFence <= ASK_MAX_CHARS) asks.push(head.slice(0, firstFence));
  const tail = text.slice(-TAIL_WINDOW).replace(/\s+$/, '');
  let lastStart = -1;
  PARAGRAPH_BREAK.lastIndex = 0;
  for (let match = PARAGRAPH_BREAK.exec(tail); match; match = PARAGRAPH_BREAK.exec(tail)) lastStart = match.index + match[0].length;
  if (lastStart > 0 && tail.length - lastStart <= ASK_MAX_CHARS) asks.push(tail.slice(lastStart));
  // A closing fence or a line of symbols alone asks nothing.
  return asks.map((ask) => ask.trim()).filter((ask) => /\p{L}/u.test(ask) && ask.length * 3 <= text.length);
}

/** Kinds of work an ask does to a pasted text whatever the text is, code included. */
export const WORK_ON_TEXT: ReadonlySet<TaskType> = new Set<TaskType>(['translation', 'summarization', 'data:transformation', 'classification_tagging', 'content_writing']);

/** What a confident ask names: a question about the pasted text is extraction from it. */
const ASK_KIND: Partial<Record<TaskType, TaskType>> = { qa_knowledge: 'data:extraction' };

/**
 * An ask that asks for a fact: opens with a question word and ends with a question mark ("Which
 * rack is it in?", "Is alcohol refunded?"), not a call for opinions ("Thoughts?", "Any comments?").
 * A clause naming the pasted text may come first ("Based on the handbook above, which form …?").
 */
export const QUESTION = /^(?:(?:based on|according to|using|from|given|per|in) [^,\n?]{1,80},\s*)?(what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|can|could|should|will|would|has|have|according to)\b[^\n]*[?？]\s*$/i;

/** A line that reads as code: a keyword or bracket first, a bracket or semicolon last, an arrow. */
const CODE_LINE = /^\s*(?:[{}()[\];<]|(?:def|class|function|import|from|return|if|for|while|const|let|var|public|private|static|fn|func|package|#include|SELECT|INSERT|UPDATE|CREATE)\b)|[;{}]\s*$|=>|\)\s*\{|\w+\([^)]*\)\s*[:;{]?\s*$/;

/**
 * Whether the pasted text holds code (a fence, or a quarter of its lines reading as code, three at
 * least), in the same bounded head and tail the asks are searched in.
 */
export function holdsCode(text: string): boolean {
  const window = text.length > HEAD_WINDOW + TAIL_WINDOW ? `${text.slice(0, HEAD_WINDOW)}\n${text.slice(-TAIL_WINDOW)}` : text;
  if (window.includes('```')) return true;
  let lines = 0;
  let code = 0;
  for (const line of window.split('\n')) {
    if (!line.trim()) continue;
    lines++;
    if (CODE_LINE.test(line)) code++;
  }
  return code >= 3 && code * 4 >= lines;
}

/**
 * One text read once: its classification (probabilities always kept), the indices of its two
 * likeliest kinds and its raw top probability, and the terms its features were built from, kept in
 * the reading's own buffer so the reason can be written later from whichever reading wins.
 */
interface Reading {
  result: Classification;
  pTask: Float64Array;
  best: number;
  second: number;
  confidence: number;
  terms?: Terms;
}

/**
 * Term buffers: the whole message's, and one for each candidate ask (pastedAsks returns two at
 * most). A message, its asks and the reason are read once each: the reason is written from the
 * terms of the reading that names the kind of work, never by reading that text again.
 */
const wholeTerms: Terms = newTerms();
const QA_INDEX = TASK_TYPES.indexOf('qa_knowledge');
const EXTRACTION_INDEX = TASK_TYPES.indexOf('data:extraction');
const askTerms: Terms[] = [newTerms(), newTerms()];

export function predict(model: Model, input: FeatureInput, options: PredictOptions = {}): Classification {
  const wantReason = !options.noReason;
  const asks = pastedAsks(input.text);
  const whole = read(model, input, wantReason ? wholeTerms : undefined);
  if (asks.length === 0) return finish(model, whole, input.afterTool, options);
  const readings = asks.map((ask, i) => ({ ask, asked: read(model, { ...input, text: ask }, wantReason ? askTerms[i] : undefined) }));
  // The most confident ask (the first on a tie).
  let best = readings.reduce((a, b) => (b.asked.result.confidence > a.asked.result.confidence ? b : a));
  /** The whole message reads as code work and the paste holds code: the code is the work. */
  const codeWork = whole.result.taskType.startsWith('code:') && holdsCode(input.text);
  /** Set when an unsure factual question is read as one about the paste: its confidence. */
  let questionMass: number | undefined;
  /** The kind of work the ask is taken to name (a question's is a knowledge question's). */
  let askedTask = best.asked.result.taskType as TaskType;
  // A factual question read alone as some other kind of work ("What is the nightly hotel cap in
  // Oslo?" as operations work, "Is alcohol refunded?" as support) asks about the pasted text all
  // the same, however sure the model is of the question alone; one that does something to the
  // text (translate it, summarize it) names that work.
  const offTextQuestion = QUESTION.test(best.ask) && !WORK_ON_TEXT.has(askedTask) && !(askedTask in ASK_KIND) && askedTask !== 'data:extraction';
  if (best.asked.result.confidence < ASK_CONFIDENCE || offTextQuestion) {
    // A factual question written under (or over) a pasted text that names no kind of work plainly
    // is a question about that text: extraction from it (pasted code stays the code's work). Its
    // confidence is what the question alone gives a knowledge question and extraction together.
    // The question is looked for among both candidates: a document's title line above it is no ask.
    const question = offTextQuestion ? best : readings.find((reading) => QUESTION.test(reading.ask));
    if (question === undefined || codeWork) return finish(model, whole, input.afterTool, options);
    const p = question.asked.pTask;
    questionMass = p[QA_INDEX] + p[EXTRACTION_INDEX];
    best = question;
    askedTask = 'qa_knowledge';
  }
  // Pasted code is the work unless the ask is to do something to it as text (translate it,
  // summarize it, convert it, rewrite it, sort it): the whole message's kind stands, read with the code.
  // A whole message that reads as code work around a paste with no code in it (a policy, minutes)
  // is the ask's work.
  if (codeWork && !WORK_ON_TEXT.has(askedTask)) return finish(model, whole, input.afterTool, options);
  // A line of small talk next to a paste ("Thoughts?", "See below.") asks for no work of its own:
  // the whole message, read with what was pasted, says what the work is.
  if (askedTask === 'conversational_reply') return finish(model, whole, input.afterTool, options);
  const taskType = ASK_KIND[askedTask] ?? askedTask;
  const asked = best.asked;
  let probabilities = options.probabilities ? probabilityRecord(asked.pTask) : undefined;
  if (probabilities && taskType !== askedTask) {
    // The mapped kind carries the ask's probability (a question about the paste is extraction).
    probabilities = { ...probabilities, [taskType]: (probabilities[taskType] ?? 0) + (probabilities[askedTask] ?? 0), [askedTask]: 0 };
  }
  return {
    ...withoutExtras(whole.result),
    taskType,
    confidence: Math.round((questionMass ?? Math.max(asked.result.confidence, probabilities?.[taskType] ?? 0)) * 1e4) / 1e4,
    // The reason quotes the ask's own words.
    reason: wantReason
      ? buildReason(taskType, TASK_TYPES[asked.second], asked.confidence, whole.result.difficulty, whole.result.stakes, topCues(model, asked.terms!, asked.best), input.afterTool, true)
      : '',
    ...(options.probabilities ? { probabilities, difficultyScore: whole.result.difficultyScore } : {}),
  };
}

/** The whole message's own answer: its reason written from its terms, probabilities when asked for. */
function finish(model: Model, reading: Reading, afterTool: boolean, options: PredictOptions): Classification {
  const { result } = reading;
  const out = withoutExtras(result);
  out.reason = reading.terms
    ? buildReason(result.taskType as TaskType, TASK_TYPES[reading.second], reading.confidence, result.difficulty, result.stakes, topCues(model, reading.terms, reading.best), afterTool)
    : '';
  if (options.probabilities) {
    out.probabilities = probabilityRecord(reading.pTask);
    out.difficultyScore = result.difficultyScore;
  }
  return out;
}

function withoutExtras(result: Classification): Classification {
  return { taskType: result.taskType, difficulty: result.difficulty, stakes: result.stakes, confidence: result.confidence, reason: result.reason };
}

function probabilityRecord(p: Float64Array): Record<string, number> {
  const probabilities: Record<string, number> = {};
  for (let k = 0; k < N_TASK; k++) probabilities[TASK_TYPES[k]] = p[k];
  return probabilities;
}

/** Reads one text: features (and its terms, into `termsOut`), logits, kind of work, difficulty, stakes. */
function read(model: Model, input: FeatureInput, termsOut: Terms | undefined): Reading {
  extractFeatures(input, vec, termsOut);
  logits(model, vec, z);
  const p = new Float64Array(N_TASK);
  softmax(z, TASK_OFFSET, N_TASK, model.temperature, p);

  let best = 0;
  let second = 1;
  for (let k = 1; k < N_TASK; k++) {
    if (p[k] > p[best]) {
      second = best;
      best = k;
    } else if (k !== best && (second === best || p[k] > p[second])) second = k;
  }
  const confidence = p[best];
  const dScore = difficultyScore(model, input, z, p);
  return {
    result: {
      taskType: TASK_TYPES[best],
      difficulty: levelOf(dScore, model.difficulty.cuts),
      stakes: sigmoid(z[STAKES_OFFSET]) >= HIGH_STAKES_AT ? 'high' : 'normal',
      confidence: Math.round(confidence * 1e4) / 1e4,
      reason: '',
      difficultyScore: dScore,
    },
    pTask: p,
    best,
    second,
    confidence,
    terms: termsOut,
  };
}

/** Kind-of-work logits only, for fitting the temperature. */
export function taskLogits(model: Model, input: FeatureInput): Float64Array {
  extractFeatures(input, vec);
  logits(model, vec, z);
  return z.slice(TASK_OFFSET, TASK_OFFSET + N_TASK);
}
