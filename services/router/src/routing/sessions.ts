import { createHash } from 'node:crypto';
import { tag, type Redis } from '@svc/redis';
import type { RouteRequest__Output as RouteRequest } from '@svc/protos';
import { LOW_CONFIDENCE } from './policy';

/**
 * Session routing state (spec: What the service does 4; Limits: session_id). Metadata only:
 * the decision (line, model, kind of work, difficulty, band, stakes, confidence, floor), a few
 * counters and the last 200 characters of the last user message. No prompt is stored.
 */

/** State lives this long after the last call (spec: one hour). */
export const SESSION_TTL_MS = 60 * 60 * 1000;
/** A call more than this after the previous one re-decides (trigger long_idle). */
export const LONG_IDLE_MS = 30 * 60 * 1000;
/** The previous model's prompt cache counts as warm for this long (the default 5-minute cache lifetime). */
export const WARM_CACHE_MS = 5 * 60 * 1000;
/** Consecutive failing tool results that re-decide (trigger tool_failure_streak). */
export const TOOL_FAILURE_STREAK = 3;
/** Characters of the last user message kept to recognise a new one. */
export const USER_TAIL_CHARS = 200;

export type Trigger = 'no_prior_decision' | 'new_human_message' | 'cache_hit' | 'low_confidence_prior' | 'long_idle' | 'tool_failure_streak' | 'customer_feedback' | 'escalation';

export interface SessionState {
  v: 1;
  line: string;
  /** The model picked last. */
  model: string;
  rule: 'skills' | 'earlier';
  task: string;
  task_type?: string;
  floor?: string;
  difficulty: number;
  band?: string;
  stakes?: string;
  biased: boolean;
  confidence: number;
  /** The classifier that made the decision (svc.routing.classifier), reported again on cache_hit. */
  classifier?: string;
  /** Floor steps a signal (customer_feedback, tool_failure_streak) added to the decision. */
  signal_steps?: number;
  /**
   * Escalation (spec: later turns stay on the stronger model): the model a turn of this session
   * escalated to, and the floor steps escalations added. Later turns of the same line add the
   * steps to their floor and keep this model while their own pick is cheaper than it.
   */
  escalated_model?: string;
  escalation_steps?: number;
  /** Auto calls in this session. */
  turns: number;
  /** Consecutive failing tool results at the end of the last call's messages. */
  tool_failures: number;
  /** When the current decision was made (ms since epoch, the router's clock). */
  decided_ms: number;
  /** When the last call was routed. */
  last_ms: number;
  /** Last USER_TAIL_CHARS characters of the last user message. */
  last_user: string;
}

export interface SessionStore {
  read(key: string): Promise<SessionState | undefined>;
  /** Writes the state; it expires SESSION_TTL_MS after this call. */
  write(key: string, state: SessionState): Promise<void>;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/**
 * `sess:{<org>:id:<sha256(session id)>}` with a session id; without one
 * `sess:{<org>:pm:<sha256(system prompt, last user message)>}`; undefined when there is
 * neither a session id nor any prompt text to key on.
 */
export function sessionKey(request: Pick<RouteRequest, 'organization_id' | 'session_id' | 'system_prompt' | 'messages'>): string | undefined {
  const org = request.organization_id || '-';
  if (request.session_id) return `sess:${tag(`${org}:id:${sha(request.session_id)}`)}`;
  const lastUser = lastUserText(request.messages ?? []);
  if (!request.system_prompt && !lastUser) return undefined;
  return `sess:${tag(`${org}:pm:${sha(`${request.system_prompt}\u0000${lastUser}`)}`)}`;
}

type Message = { role: string; text: string };

function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return messages[i].text;
  return '';
}

const TOOL_ROLES = new Set(['tool', 'function']);

/**
 * A tool result that reports a failure: its first or last 200 characters name an error,
 * exception, traceback, failure, fatal error, panic, timeout, a denied permission, a missing
 * command or file, a non-zero exit code, or a JSON error field. "no errors", "0 errors" and an
 * empty JSON error field (`"error": null`, `"is_error": false`) do not count.
 */
const FAILURE_CUES = [
  /\b(?:errors?|exceptions?|traceback|failed|failure|fatal|panic(?:ked)?|timed out|segmentation fault|permission denied|access denied|command not found|no such file or directory|stack trace)\b/i,
  /\bexit(?:ed)? (?:code|status)\s*[:=]?\s*[1-9]/i,
  /"is_error"\s*:\s*true/i,
  /"error"\s*:\s*["{]/i,
];
const NOT_FAILURE = /\b(?:no|0|zero|without) (?:errors?|failures?|exceptions?)\b|"(?:is_)?errors?"\s*:\s*(?:null|false|0|""|\[\])/gi;

export function looksLikeToolFailure(text: string): boolean {
  const window = (text.length <= 400 ? text : `${text.slice(0, 200)}\n${text.slice(-200)}`).replace(NOT_FAILURE, '');
  return FAILURE_CUES.some((cue) => cue.test(window));
}

/**
 * Explicit feedback that the last answer missed, in the first 160 characters of a new user
 * message: English, Spanish, French, German, Portuguese and Italian phrases, and a thumbs-down.
 */
const FEEDBACK_CUES = [
  /\b(?:that'?s|that is|this is|it'?s|it is|your answer is|the answer is) (?:wrong|incorrect|not right|not correct|not what i (?:asked|wanted|meant))\b/i,
  /\bnot what i (?:asked|asked for|wanted|meant)\b/i,
  /\b(?:wrong answer|you misunderstood|you got it wrong|that didn'?t work|this didn'?t work|it didn'?t work|still (?:broken|wrong|not working|doesn'?t work|fails)|doesn'?t work|does not work)\b/i,
  /\bthumbs? down\b/i,
  /👎/u,
  /\b(?:eso|esto) (?:está|esta) mal\b|\bno es lo que (?:pedí|pedi|quería|queria)\b|\bno funciona\b|\brespuesta incorrecta\b/i,
  /\bc'est faux\b|\bce n'est pas ce que (?:j'ai demandé|je voulais)\b|\bça ne marche pas\b|\bne fonctionne pas\b/i,
  /\bdas ist falsch\b|\bfunktioniert nicht\b|\bnicht das,? was ich\b/i,
  /\b(?:isso|isto) (?:está|esta) errado\b|\bnão (?:é|e) (?:isso|o que eu pedi)\b|\bnão funciona\b/i,
  /\bè sbagliato\b|\bnon funziona\b|\bnon è quello che ho chiesto\b/i,
];

export function looksLikeFeedback(text: string): boolean {
  const head = text.slice(0, 160);
  return FEEDBACK_CUES.some((cue) => cue.test(head));
}

/** What the trigger rules read of a request's messages. */
export interface Turn {
  /** Role of the last message ('' when there is none). */
  lastRole: string;
  /** Last USER_TAIL_CHARS characters of the last user message. */
  lastUserTail: string;
  /** Consecutive failing tool results at the end (assistant messages skipped; a user message or a good result ends the run). */
  toolFailures: number;
  /** The last message is a user message with explicit feedback. */
  feedback: boolean;
}

export function readTurn(messages: readonly Message[]): Turn {
  const last = messages[messages.length - 1];
  const lastUser = lastUserText(messages);
  let toolFailures = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'assistant') continue;
    if (!TOOL_ROLES.has(message.role) || !looksLikeToolFailure(message.text)) break;
    toolFailures += 1;
  }
  return {
    lastRole: last?.role ?? '',
    lastUserTail: lastUser.slice(-USER_TAIL_CHARS),
    toolFailures,
    feedback: last?.role === 'user' && looksLikeFeedback(last.text),
  };
}

export interface TriggerDecision {
  trigger: Trigger;
  /** Classify the job again (false only on cache_hit). */
  classify: boolean;
  /** Extra floor steps: a signal that the last model fell short moves the floor one step up. */
  extraSteps: number;
}

/**
 * The trigger of an auto call, first rule that applies:
 * 1. no_prior_decision: no state (never seen, expired, unreadable) or state for another line;
 * 2. long_idle: the last call was more than LONG_IDLE_MS ago;
 * 3. customer_feedback: the last message is a new user message with explicit feedback (floor +1);
 * 4. new_human_message: the last user message differs from the one stored;
 * 5. tool_failure_streak: TOOL_FAILURE_STREAK or more failing tool results in a row at the end,
 *    and the stored streak was below it (fires once per streak; floor +1);
 * 6. low_confidence_prior: the stored decision's confidence is below LOW_CONFIDENCE;
 * 7. cache_hit: otherwise (a tool-result turn of the same human message): the decision is
 *    reused and nothing is classified.
 */
export function detectTrigger(prior: SessionState | undefined, turn: Turn, line: string, now: number): TriggerDecision {
  if (!prior || prior.line !== line) return { trigger: 'no_prior_decision', classify: true, extraSteps: 0 };
  if (now - prior.last_ms > LONG_IDLE_MS) return { trigger: 'long_idle', classify: true, extraSteps: 0 };
  const newUser = turn.lastUserTail !== prior.last_user;
  if (newUser && turn.feedback) return { trigger: 'customer_feedback', classify: true, extraSteps: 1 };
  if (newUser) return { trigger: 'new_human_message', classify: true, extraSteps: 0 };
  if (turn.toolFailures >= TOOL_FAILURE_STREAK && prior.tool_failures < TOOL_FAILURE_STREAK) return { trigger: 'tool_failure_streak', classify: true, extraSteps: 1 };
  if (prior.confidence < LOW_CONFIDENCE) return { trigger: 'low_confidence_prior', classify: true, extraSteps: 0 };
  return { trigger: 'cache_hit', classify: false, extraSteps: 0 };
}

function parseState(raw: string | null): SessionState | undefined {
  if (!raw) return undefined;
  try {
    const state = JSON.parse(raw) as SessionState;
    if (state?.v !== 1 || typeof state.model !== 'string' || typeof state.line !== 'string' || typeof state.last_ms !== 'number') return undefined;
    return state;
  } catch {
    return undefined;
  }
}

/**
 * Session state in Redis: one JSON string per session, read with GET and written with
 * SET ... PX (the TTL restarts on every call). Every router replica reads the same keys.
 */
export function redisSessionStore(redis: Redis): SessionStore {
  return {
    async read(key) {
      return parseState(await redis.get(key));
    },
    async write(key, state) {
      await redis.set(key, JSON.stringify(state), 'PX', SESSION_TTL_MS);
    },
  };
}
