import { ServiceError } from '@svc/errors';
import { LINES, type Band, type Catalog, type ChatModel, type Line } from '@svc/catalog';
import type { RouteRequest__Output as RouteRequest } from '@svc/protos';
import { trainedClassifierId, type Classification, type ClassifyInput } from '../classifier';
import { NO_JOB, autoEligible, autoResponse, paidWouldUse } from './route-auto';
import { routeNamed, type RouteResult } from '@svc/routing';
import { withTimeout } from '@svc/lifecycle';
import { throttledWarning } from '@svc/logger';
import { blendedPrice } from '@svc/catalog';
import { FLOORS, MAX_CANDIDATES, priceTierOf, escalationPick, jobFrom, pickAuto, type AutoPick, type Job } from './policy';
import {
  SESSION_TTL_MS,
  WARM_CACHE_MS,
  detectTrigger,
  readTurn,
  sessionKey,
  type SessionState,
  type SessionStore,
  type Trigger,
} from './sessions';
import { estimateCall, warmIsCheaper } from './sticky';

export interface WarnLogger {
  warn(message: string, meta?: Record<string, unknown>): unknown;
}

export interface RouterDeps {
  catalog: Catalog;
  /**
   * The classifier: the trained one in process (loadClassifier()) or one that answers later (the
   * LLM classifier, with `id`). Without one every auto job goes by the earlier rule.
   */
  classifier?: {
    classify(input: ClassifyInput): Classification | Promise<Classification>;
    /** svc.routing.classifier; without it the trained model's id from `meta`. */
    readonly id?: string;
    readonly meta?: Readonly<Record<string, unknown>>;
  };
  /** Session state; without it every auto call is a first call. */
  sessions?: SessionStore;
  /** Clock in ms since the epoch (tests move it). */
  now?: () => number;
  logger?: WarnLogger;
  /** Longest wait for the session store before routing goes on without it (fail open). */
  sessionTimeoutMs?: number;
}

export interface Router {
  route(request: RouteRequest): Promise<RouteResult>;
}

export const DEFAULT_SESSION_TIMEOUT_MS = 50;

/** routing.classifier: the trained model's id, versioned by the corpus its weights came from. */
export const classifierId = trainedClassifierId;

/** The job stored with a session decision (cache_hit reuses it without classifying). */
function jobFromState(state: SessionState): Job | undefined {
  if (!state.band) return undefined;
  return {
    taskType: state.task_type,
    difficulty: state.difficulty,
    band: state.band as Band,
    stakes: state.stakes === 'high' ? 'high' : 'normal',
    biased: state.biased,
    confidence: state.confidence,
    reason: '',
  };
}

/** The stored decision as an AutoPick whose first candidate is the kept model. */
function reusedPick(state: SessionState, kept: ChatModel, fresh: AutoPick): AutoPick {
  return {
    rule: state.rule,
    models: [kept, ...fresh.models.filter((model) => model.id !== kept.id)].slice(0, MAX_CANDIDATES),
    task: state.task,
    floor: state.rule === 'skills' && (FLOORS as readonly string[]).includes(state.floor ?? '') ? (state.floor as AutoPick['floor']) : undefined,
    cell: state.band ? `${state.task}/${state.band}` : undefined,
    meetsFloor: fresh.meetsFloor,
  };
}

/** The job and the classifier that answered, or undefined when there is nothing to classify or the classifier failed. */
type Classify = (request: RouteRequest) => Promise<{ job: Job; classifier: string } | undefined>;

export function createRouter(deps: RouterDeps): Router {
  const { catalog } = deps;
  const now = deps.now ?? Date.now;
  const timeoutMs = deps.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  const classifierName = deps.classifier ? (deps.classifier.id ?? classifierId(deps.classifier.meta)) : '';
  // At most one warning per 10 s and message: a Redis outage must not flood the log.
  const throttled = new Map<string, (error: unknown) => void>();
  const warn = (message: string, error: unknown) => {
    if (!throttled.has(message)) throttled.set(message, throttledWarning(deps.logger, message));
    throttled.get(message)!(error);
  };

  const classify: Classify = async (request) => {
    const messages = request.messages ?? [];
    if (!deps.classifier || (!request.system_prompt && !messages.some((message) => message.text))) return undefined;
    try {
      const result = await deps.classifier.classify({ system: request.system_prompt || undefined, messages: messages.map((m) => ({ role: m.role, content: m.text })) });
      return { job: jobFrom(result), classifier: result.classifier || classifierName };
    } catch (error) {
      warn('classifier failed; routing by the earlier rule', error);
      return undefined;
    }
  };

  async function readState(key: string | undefined, at: number): Promise<SessionState | undefined> {
    if (!key || !deps.sessions) return undefined;
    try {
      const state = await withTimeout(deps.sessions.read(key), timeoutMs, `session store: no answer in ${timeoutMs} ms`);
      // Expired by the router's clock even if Redis still holds it (tests move the clock).
      return state && at - state.last_ms < SESSION_TTL_MS ? state : undefined;
    } catch (error) {
      warn('session state unreadable; routing as a first call', error);
      return undefined;
    }
  }

  async function writeState(key: string | undefined, state: SessionState): Promise<void> {
    if (!key || !deps.sessions) return;
    try {
      await withTimeout(deps.sessions.write(key, state), timeoutMs, `session store: no answer in ${timeoutMs} ms`);
    } catch (error) {
      warn('session state not written', error);
    }
  }

  /**
   * Spec (Escalation): the model that served asked for a stronger one (or its answer failed the
   * service's check). The session's decision (or, without one, a fresh classification) is taken
   * one floor step up, or to the next model up the curve; the session keeps the stronger model.
   */
  async function routeEscalation(request: RouteRequest, line: Line, eligible: ChatModel[], from: ChatModel): Promise<RouteResult> {
    const at = now();
    const key = deps.sessions ? sessionKey(request) : undefined;
    const stored = await readState(key, at);
    const prior = stored && stored.line === line ? stored : undefined;
    const turn = readTurn(request.messages ?? []);
    let job: Job | undefined;
    let classifier = '';
    if (prior) {
      job = jobFromState(prior);
      classifier = job ? (typeof prior.classifier === 'string' && prior.classifier ? prior.classifier : classifierName) : '';
    } else {
      const classified = await classify(request);
      job = classified?.job;
      classifier = classified?.classifier ?? '';
    }
    const signalSteps = prior?.signal_steps ?? 0;
    const escalationSteps = prior?.escalation_steps ?? 0;
    const pick = pickAuto(catalog, eligible, line, job ?? NO_JOB, signalSteps + escalationSteps, priceTierOf(request));
    const stronger = escalationPick(catalog, eligible, pick, job ?? NO_JOB, from);
    const chosen = stronger.models[0];
    if (chosen) {
      await writeState(key, {
        ...decidedState(line, chosen.id, pick, stronger.floor ?? pick.floor, job, classifier),
        signal_steps: signalSteps,
        escalated_model: chosen.id,
        escalation_steps: escalationSteps + (stronger.floor ? 1 : 0),
        turns: prior?.turns ?? 1,
        tool_failures: turn.toolFailures,
        decided_ms: at,
        last_ms: at,
        last_user: turn.lastUserTail,
      });
    }
    const escalated: AutoPick = { ...pick, models: stronger.models, floor: stronger.floor ?? pick.floor };
    return {
      ...autoResponse(
        {
          line,
          job,
          pick: escalated,
          candidates: stronger.models,
          trigger: 'escalation',
          classifier: job ? classifier : '',
          reason: `${from.id} could not serve this turn well enough; it ran again on a stronger model${stronger.floor ? ` (floor ${stronger.floor})` : ' (next up the curve)'}.`,
          paidWouldUse: '',
        },
        request.reasoning_effort ?? '',
      ),
      escalation: [],
    };
  }

  async function routeAuto(request: RouteRequest, line: Line): Promise<RouteResult> {
    const eligible = autoEligible(catalog, request);
    if (request.escalated_from) {
      const from = catalog.chatModel(request.escalated_from);
      if (!from) throw new ServiceError('invalid_value', `Unknown model '${request.escalated_from}' to escalate from.`, { param: 'escalated_from' });
      return routeEscalation(request, line, eligible, from);
    }
    const messages = request.messages ?? [];
    const at = now();
    const key = deps.sessions ? sessionKey(request) : undefined;
    const prior = await readState(key, at);
    const turn = readTurn(messages);
    const decision = detectTrigger(prior, turn, line, at);
    const trigger: Trigger = decision.trigger;
    // An earlier escalation in this session (same line) keeps the floor and the stronger model.
    const escalated = prior && trigger !== 'no_prior_decision' ? prior : undefined;
    const escalationSteps = escalated?.escalation_steps ?? 0;

    let job: Job | undefined;
    let classifier = '';
    let extraSteps = decision.extraSteps;
    let reason: string;
    let pick: AutoPick;
    let sticky: { model: string; cold_pick: string } | undefined;

    if (!decision.classify && prior) {
      // cache_hit: the session's decision is reused, nothing is classified.
      job = jobFromState(prior);
      classifier = job ? (typeof prior.classifier === 'string' && prior.classifier ? prior.classifier : classifierName) : '';
      extraSteps = prior.signal_steps ?? 0;
      const fresh = pickAuto(catalog, eligible, line, job ?? NO_JOB, extraSteps + escalationSteps, priceTierOf(request));
      const kept = eligible.find((model) => model.id === prior.model);
      pick = kept ? reusedPick(prior, kept, fresh) : fresh;
      reason = `Same human message as the previous call: the session's decision is reused${prior.task_type ? ` (${prior.task_type}, difficulty ${prior.difficulty})` : ''}.`;
    } else {
      const classified = await classify(request);
      job = classified?.job && request.assume_normal_stakes ? { ...classified.job, stakes: 'normal' } : classified?.job;
      classifier = classified?.classifier ?? '';
      reason = job?.reason ?? '';
      pick = pickAuto(catalog, eligible, line, job ?? NO_JOB, extraSteps + escalationSteps, priceTierOf(request));
      const cold = pick.models[0];
      const mayStay = trigger === 'new_human_message' || trigger === 'low_confidence_prior';
      if (prior && mayStay && prior.model !== cold.id && at - prior.last_ms <= WARM_CACHE_MS) {
        const warm = eligible.find((model) => model.id === prior.model);
        const estimate = estimateCall(request.needs?.input_tokens ?? 0, request.system_prompt ?? '', messages);
        if (warm && pick.meetsFloor(warm) && warmIsCheaper(catalog, warm, cold, estimate)) {
          pick = { ...pick, models: [warm, ...pick.models.filter((model) => model.id !== warm.id)].slice(0, MAX_CANDIDATES) };
          sticky = { model: warm.id, cold_pick: cold.id };
        }
      }
    }

    // Later turns stay on the model an escalation moved the session to, unless their own pick is dearer.
    const stronger = escalated?.escalated_model ? eligible.find((model) => model.id === escalated.escalated_model) : undefined;
    if (stronger && pick.models[0].id !== stronger.id && blendedPrice(pick.models[0].pricing) < blendedPrice(stronger.pricing)) {
      pick = { ...pick, models: [stronger, ...pick.models.filter((model) => model.id !== stronger.id)].slice(0, MAX_CANDIDATES) };
      sticky = undefined;
    }

    const chosen = pick.models[0];
    await writeState(key, {
      ...decidedState(line, chosen.id, pick, pick.floor, job, classifier),
      signal_steps: extraSteps,
      ...(escalated?.escalated_model ? { escalated_model: escalated.escalated_model, escalation_steps: escalationSteps } : {}),
      turns: (prior?.turns ?? 0) + 1,
      tool_failures: turn.toolFailures,
      decided_ms: decision.classify || !prior ? at : prior.decided_ms,
      last_ms: at,
      last_user: turn.lastUserTail,
    });

    return {
      ...autoResponse(
        {
          line,
          job,
          pick,
          candidates: pick.models,
          trigger,
          classifier: job ? classifier : '',
          reason,
          sticky,
          paidWouldUse: paidWouldUse(catalog, request, line, job ?? NO_JOB, extraSteps + escalationSteps, chosen.id),
        },
        request.reasoning_effort ?? '',
      ),
      escalation: escalationPick(catalog, eligible, pick, job ?? NO_JOB, chosen).models.map((model) => ({ model: model.id, vendor: model.vendor })),
    };
  }

  return {
    /** A request names a catalog model or one of the four virtual ids; omitted means auto. */
    async route(request) {
      const model = request.model || 'auto';
      if (!catalog.isVirtual(model)) return routeNamed(catalog, request);
      return routeAuto({ ...request, model }, LINES[model]);
    },
  };
}

/** What a session's state records of the decision itself: the model, the rule and the job that chose it. */
function decidedState(line: Line, model: string, pick: AutoPick, floor: AutoPick['floor'], job: Job | undefined, classifier: string) {
  return {
    v: 1 as const,
    line,
    model,
    rule: pick.rule,
    task: pick.task,
    task_type: job?.taskType,
    floor,
    difficulty: job?.difficulty ?? 0,
    band: job?.band,
    stakes: job?.stakes,
    biased: job?.biased ?? false,
    confidence: job?.confidence ?? 0,
    ...(classifier ? { classifier } : {}),
  };
}
