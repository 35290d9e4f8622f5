import { ServiceError } from '@svc/errors';
import { svcMetrics, trace } from '@svc/telemetry';
import { VendorError, type ChatResult, type Usage } from '@svc/vendors';
import type { RouteDecision } from '@svc/routing';
import type { ChatRequestInput } from './request/chat-request';
import { planCall, type CallPlan } from './plan';
import { chooseCandidates, escalationCandidates, type Candidate } from './candidates';
import { attemptUnary, noAnswerOf, openStream, readStream, type AnswerEvent, type Attempt, type AttemptContext, type OpenedStream, type StreamSummary } from './attempts';
import { failedSvcObject, finish, svcObject, type OutcomeContext } from './outcome';
import { answerCheck, canEscalate, hideCalls, holdUntilDecided, isHiddenCall, offersHiddenTool, withoutHiddenCalls } from './escalation/escalation';
import { listPricePico, roundPicoToMicros } from '@svc/pricing';
import { toClientError } from './vendor-errors';
import { countTokens } from '@svc/tokenizer';
import type { CompletionHead } from './render/chat';
import type { Caller } from './ports';
import type { CallDeps, CallPolicy } from './types';
import { DEFAULT_SPLIT_SETTINGS, splitGate, type SplitSettings } from './split/gate';
import { runSplit } from './split/run-split';
import type { SplitState } from './split/outcome';
import { planTier } from './tier';

/**
 * One billed chat call, read top to bottom like a checkout:
 *   1. plan        (plan.ts)        route, admit, take the key's tokens, download images
 *   2. candidates  (candidates.ts)  which models are tried, in which order, on whose keys
 *   3. attempts    (attempts.ts)    up to three vendor attempts, unary or streamed
 *   4. outcome     (outcome.ts)     svc object and cost; usage published, or the reservation released
 * It knows no HTTP: the edge renders its results as JSON or SSE, the workers store them.
 * A call ends exactly once: settled (billed) or released, whatever happens on the way.
 */

/** Who served the answer: for x-svc-vendor, x-svc-byok and x-svc-dropped-params. */
export interface ServedBy {
  vendor: string;
  model: string;
  byok: boolean;
  dropped: string[];
  /** max_tokens as sent to the vendor: the request's (or the default), lowered to the model's maximum output. */
  maxTokens: number;
}

/** Work that runs beside an answered call's usage publish (ChatCall.unary), and how to take it back. */
export interface Alongside<T> {
  run(answer: UnaryCallResult): Promise<T>;
  /** The answer's usage could not be published (`error`): what `run` did must not stay. */
  undo(done: T, error: unknown): Promise<void>;
}

export interface UnaryCallResult {
  kind: 'unary';
  head: CompletionHead;
  result: ChatResult;
  svc: Record<string, unknown>;
  served: ServedBy;
  /** Response headers: the key's rate limits, quota and Free plan headers. */
  headers: Record<string, string>;
}

/** The end of a stream: after the usage is published. */
export interface StreamDone {
  type: 'done';
  finishReason: string;
  usage: Usage;
  svc: Record<string, unknown>;
}

export type CallStreamEvent = AnswerEvent | StreamDone;

export interface StreamCallResult {
  kind: 'stream';
  head: CompletionHead;
  served: ServedBy;
  headers: Record<string, string>;
  /**
   * The answer's events, the first one already received from the vendor, ending with `done`.
   * A failure part-way is thrown as a ServiceError (the vendor error mapped for the client).
   * Stopping early (return) cancels the vendor stream and releases the reservation.
   */
  events: AsyncIterable<CallStreamEvent>;
}

/** A planned call: admitted and with its candidates chosen, ready to run once. */
export class ChatCall {
  /** Split-and-route: the gate as planned, the steps once they ran (svc.split). */
  private split?: SplitState;

  private constructor(
    private readonly deps: CallDeps,
    readonly input: ChatRequestInput,
    readonly caller: Caller,
    readonly policy: CallPolicy,
    readonly plan: CallPlan,
    readonly route: RouteDecision,
    private readonly candidates: Candidate[],
  ) {
    this.split = planSplit(deps, input, policy, plan, route);
  }

  /** Steps 1 and 2. A refusal carries the key's rate-limit, quota and Free headers, and leaves nothing reserved. */
  static async start(deps: CallDeps, input: ChatRequestInput, caller: Caller, policy: CallPolicy, signal: AbortSignal): Promise<ChatCall> {
    const plan = await planCall(deps, input, caller, policy, signal);
    try {
      const { route, candidates } = await chooseCandidates(deps, input, caller, plan);
      trace.getActiveSpan()?.setAttributes({ 'svc.model_requested': input.model, ...(plan.auto ? { 'svc.line': route.routing?.line ?? '' } : {}), ...(plan.admission.free ? { 'svc.plan': 'free' } : {}) });
      return new ChatCall(deps, input, caller, policy, plan, route, candidates);
    } catch (error) {
      await plan.ledger.refuse(error);
      plan.ledger.release();
      throw error;
    }
  }

  get callId(): string {
    return this.plan.callId;
  }

  /** Response headers known so far (the key's limits, quota and Free plan). */
  get headers(): Record<string, string> {
    return this.plan.ledger.headers;
  }

  /** The model the call would be served by first (for bodies written before a vendor answered). */
  get firstModel(): string {
    return this.route.candidates[0]?.model ?? this.input.model;
  }

  /** The svc object of a call that failed after its 200 was committed. */
  failedSvc(): Record<string, unknown> {
    return failedSvcObject(this.outcomeContext());
  }

  /** Gives the reservation back without running (the caller could not use the call). */
  abandon(): void {
    this.plan.ledger.release();
  }

  /**
   * Steps 3 and 4 for one answer. Undefined when the caller gave up (`signal` aborted) before it
   * could be delivered: such a call costs nothing (spec: Long calls 6).
   *
   * `alongside` (a Responses turn's store) runs with the answer while its usage is published — two
   * independent round trips at once; both end before this returns. When the usage cannot be
   * published, what `alongside` did is undone (`undo`) and the call fails as it would have; when
   * `alongside` fails, the answer stays billed and its error is thrown.
   */
  async unary<T = undefined>(signal: AbortSignal, alongside?: Alongside<T>): Promise<(UnaryCallResult & { alongside?: T }) | undefined> {
    const { ledger } = this.plan;
    let answered: { answer: UnaryCallResult; settle: () => Promise<void> } | undefined;
    try {
      answered = await this.answer(signal);
    } catch (error) {
      await ledger.refuse(error);
      ledger.release();
      throw error;
    }
    if (!answered) return undefined;
    const { answer, settle } = answered;
    // Started on the next microtask, so even a synchronous throw in `run` cannot skip the settlement.
    const along = alongside
      ? Promise.resolve()
          .then(() => alongside.run(answer))
          .then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }))
      : undefined;
    try {
      await settle();
    } catch (error) {
      const done = await along;
      if (done?.ok) {
        await alongside!.undo(done.value, error).catch((cause: unknown) => this.deps.logger.error('work done beside an answer whose usage could not be published was not undone', { call_id: this.plan.callId, err: cause }));
      }
      await ledger.refuse(error);
      ledger.release();
      throw error;
    }
    if (!along) return answer;
    const done = await along;
    if (!done.ok) throw done.error;
    return { ...answer, alongside: done.value };
  }

  /** The answer (escalated or split when it was) and its settlement, not yet run; undefined when the caller gave up. */
  private async answer(signal: AbortSignal): Promise<{ answer: UnaryCallResult; settle: () => Promise<void> } | undefined> {
    const { ledger } = this.plan;
    // Split-and-route (split/): questions, extract and check first; the answer on the excerpt, or the request whole.
    if (this.split?.gate.passes) this.split.run = await runSplit(this.attemptContext(signal), this.split.gate, this.splitSettings);
    const excerpt = this.split?.run?.applied ? this.split.run.answerInput : undefined;
    let { result, attempt, decision } = await attemptUnary(excerpt ? { ...this.attemptContext(signal), input: excerpt } : this.attemptContext(signal, this.offersHiddenTool));
    let context = this.outcomeContext();
    const asked = attempt.hiddenTool && result.toolCalls.some(isHiddenCall);
    // An answer on an excerpt is not re-run whole by the answer check (its guards are the split's own).
    const failedCheck = asked || !this.checksAnswer || excerpt ? undefined : answerCheck(this.input, result, attempt.hiddenTool);
    if ((asked || failedCheck) && !signal.aborted) {
      const escalated = await this.escalateUnary(attempt, result, asked ? 'asked' : (failedCheck as string), signal);
      if (escalated) ({ result, attempt, context, decision } = escalated);
    }
    // Only a call of the tool the service added is kept out: a client's own tool of that name (the
    // hidden tool then not offered) is the client's answer.
    if (attempt.hiddenTool) result = withoutHiddenCalls(result);
    const head = this.head(attempt);
    const noAnswer = noAnswerOf(result.finishReason, result.content, result.toolCalls.length, result.usage, attempt.prepared.request.maxTokens);
    const { svc, cost } = svcObject(context, attempt, result.usage, result.vendorStopReason, noAnswer, decision);
    if (signal.aborted) {
      await ledger.refundTokens(result.usage.inputTokens + result.usage.outputTokens + (context.escalation?.tokens ?? 0));
      ledger.release();
      return undefined;
    }
    const usage = result.usage;
    return { answer: { kind: 'unary', head, result, svc, served: servedBy(attempt), headers: ledger.headers }, settle: () => finish(context, attempt, usage, cost, noAnswer) };
  }

  /** Steps 3 and 4 as a stream: resolves once a vendor sent its first event (earlier failures fall back). */
  async stream(signal: AbortSignal): Promise<StreamCallResult> {
    const { ledger } = this.plan;
    let opened: OpenedStream;
    let reader: AsyncGenerator<AnswerEvent, StreamSummary>;
    let buffered: AnswerEvent[] = [];
    let context = this.outcomeContext();
    try {
      opened = await openStream(this.attemptContext(signal, this.offersHiddenTool));
      reader = readStream(opened);
      if (opened.attempt.hiddenTool) {
        const held = await this.hold(opened, reader);
        if (held.hidden) {
          const escalated = await this.escalateStream(opened.attempt, held.summary, signal);
          ({ opened, context } = escalated);
          reader = readStream(opened);
        } else {
          reader = hideCalls(held.reader);
          buffered = held.buffered;
        }
      }
    } catch (error) {
      await ledger.refuse(error);
      ledger.release();
      throw error;
    }
    const head = this.head(opened.attempt);
    return { kind: 'stream', head, served: servedBy(opened.attempt), headers: ledger.headers, events: this.events(opened, reader, buffered, context, signal) };
  }

  /** Reads a stream that carries the hidden tool until its first output decides (escalation.ts); a failure meanwhile is the client's error before any byte. */
  private async hold(opened: OpenedStream, reader: AsyncGenerator<AnswerEvent, StreamSummary>) {
    try {
      const held = await holdUntilDecided(reader);
      if (held.hidden) opened.deadline.clear();
      return held;
    } catch (error) {
      opened.deadline.clear();
      void opened.iterator.return?.().catch(() => undefined);
      throw error instanceof VendorError && error.kind !== 'aborted' ? toClientError(error, opened.attempt.model.vendor) : error;
    }
  }

  /** Non-streamed calls under auto with a stronger model to go to get the answer check. */
  private get checksAnswer(): boolean {
    return this.plan.auto && this.policy.answerCheck !== false && canEscalate(this.route);
  }

  /** Spec (Escalation): the hidden tool goes with the attempts of a Responses turn under auto, tool_choice auto or absent, when a stronger model exists. */
  private get offersHiddenTool(): boolean {
    return offersHiddenTool(this.input, this.policy, this.plan.auto, this.route);
  }

  /**
   * Where an escalation from `fromModel` goes: the router's decision (Route with escalated_from,
   * which also keeps the session on the stronger model), or, when the router cannot answer, the
   * stronger models this call's own decision named. Undefined when there are none.
   */
  private async escalationRoute(fromModel: string): Promise<RouteDecision | undefined> {
    const query = { ...this.plan.query, free_plan: this.plan.admission.free || this.caller.key.plan === 'free', escalated_from: fromModel };
    try {
      const decision = await this.deps.router.route(query);
      const candidates = decision.candidates.filter((candidate) => candidate.model !== fromModel);
      if (candidates.length > 0) return { ...decision, candidates };
    } catch (error) {
      this.deps.logger.warn('escalation routing failed; the stronger models of the call decision are used', { call_id: this.plan.callId, err: error });
    }
    const planned = (this.route.escalation ?? []).filter((candidate) => candidate.model !== fromModel);
    if (planned.length === 0) return undefined;
    return { ...this.route, candidates: planned, routing: this.route.routing ? { ...this.route.routing, trigger: 'escalation', sticky: null } : this.route.routing, escalation: [] };
  }

  /** The outcome context of an answer that replaced `from`'s (svc.escalated_from `line/model`). */
  private escalatedContext(route: RouteDecision, from: Attempt, usage: Usage): OutcomeContext {
    const line = route.routing?.line || this.route.routing?.line || 'auto';
    return { ...this.outcomeContext(), route, escalation: { from: `${line}/${from.model.id}`, attempts: from.attempts, tokens: usage.inputTokens + usage.outputTokens } };
  }

  /**
   * The replaced answer is not billed: the client is charged for the answer it receives (as for a
   * fallback's failed attempts). What it cost at list price is logged and counted.
   */
  private recordEscalation(from: Attempt, usage: Usage, toModel: string, reason: string): void {
    const unbilled = roundPicoToMicros(listPricePico(from.model.pricing, { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cachedTokens: usage.cachedTokens, cacheWriteTokens: usage.cacheWriteTokens }));
    this.deps.logger.info('answer escalated', { call_id: this.plan.callId, from_model: from.model.id, to_model: toModel, reason, unbilled_vendor_micros: unbilled });
    svcMetrics().escalations.add(1, { from_model: from.model.id, to_model: toModel, reason });
  }

  /**
   * A non-streamed answer replaced by a stronger model's: the model asked (`asked`), or the answer
   * failed the check (the reason). When no stronger model answers, a checked answer stands as it
   * was; a model that asked has nothing to show, so the vendor error is the client's.
   */
  private async escalateUnary(from: Attempt, fromResult: ChatResult, reason: string, signal: AbortSignal): Promise<{ result: ChatResult; attempt: Attempt; context: OutcomeContext; decision?: Record<string, unknown> } | undefined> {
    const route = await this.escalationRoute(from.model.id);
    if (!route) return undefined;
    try {
      const candidates = await escalationCandidates(this.deps, this.caller, route);
      const next = await attemptUnary({ ...this.attemptContext(signal), route, candidates });
      this.recordEscalation(from, fromResult.usage, next.attempt.model.id, reason);
      return { ...next, context: this.escalatedContext(route, from, fromResult.usage) };
    } catch (error) {
      if (reason === 'asked' || !(error instanceof ServiceError)) throw error;
      this.deps.logger.warn('no stronger model answered; the checked answer stands', { call_id: this.plan.callId, from_model: from.model.id, reason, code: error.code });
      return undefined;
    }
  }

  /** A stream whose model asked for a stronger one: the stronger model's stream, opened the same way. */
  private async escalateStream(from: Attempt, summary: StreamSummary, signal: AbortSignal): Promise<{ opened: OpenedStream; context: OutcomeContext }> {
    const route = await this.escalationRoute(from.model.id);
    if (!route) throw new ServiceError('no_provider_available', 'No provider is available for this request right now.');
    const candidates = await escalationCandidates(this.deps, this.caller, route);
    const opened = await openStream({ ...this.attemptContext(signal), route, candidates });
    this.recordEscalation(from, summary.usage, opened.attempt.model.id, 'asked');
    return { opened, context: this.escalatedContext(route, from, summary.usage) };
  }

  private async *events(opened: OpenedStream, reader: AsyncGenerator<AnswerEvent, StreamSummary>, buffered: AnswerEvent[], context: OutcomeContext, signal: AbortSignal): AsyncGenerator<CallStreamEvent> {
    const { ledger } = this.plan;
    const { attempt } = opened;
    let ended = false;
    // What the client was sent, for the bill of a stream it leaves (billLeftStream).
    const sent: string[] = [];
    const note = (event: AnswerEvent) => {
      if (event.type === 'text') sent.push(event.delta);
      else if (event.type === 'tool_call_start') sent.push(event.name);
      else if (event.type === 'tool_call_delta') sent.push(event.arguments);
    };
    try {
      for (const event of buffered) {
        note(event);
        yield event;
      }
      let step = await reader.next();
      while (!step.done) {
        note(step.value);
        yield step.value;
        step = await reader.next();
      }
      const summary = step.value;
      const noAnswer = noAnswerOf(summary.finishReason, summary.sawContent ? 'x' : '', summary.toolCalls, summary.usage, attempt.prepared.request.maxTokens);
      const { svc, cost } = svcObject(context, attempt, summary.usage, summary.vendorStopReason, noAnswer);
      await finish(context, attempt, summary.usage, cost, noAnswer);
      ended = true;
      yield { type: 'done', finishReason: summary.finishReason, usage: summary.usage, svc };
    } catch (error) {
      ended = true;
      const aborted = error instanceof VendorError && error.kind === 'aborted';
      if (aborted || signal.aborted) {
        await this.billLeftStream(context, attempt, sent);
        throw error;
      }
      const failure = error instanceof VendorError ? toClientError(error, attempt.model.vendor, { afterStart: true }) : error instanceof ServiceError ? error : new ServiceError('internal_error', 'The server had an error while processing your request.', { cause: error });
      // The client's status is 200 by now: this line is the failure's only trace (every 5xx at error level).
      const fields = { call_id: this.plan.callId, code: failure.code, vendor: attempt.model.vendor, model: attempt.model.id, err: error };
      if (failure.status >= 500) this.deps.logger.error('stream failed after it began', fields);
      else this.deps.logger.warn('stream failed after it began', fields);
      await ledger.refundTokens(0);
      ledger.release();
      throw failure;
    } finally {
      opened.deadline.clear();
      if (!ended) {
        // The reader stopped early (the client left): cancel the vendor stream, bill what was sent.
        void opened.iterator.return?.().catch(() => undefined);
        await this.billLeftStream(context, attempt, sent);
      }
    }
  }

  /**
   * A stream the client left once it began is billed for what it was sent (spec: Long calls 6
   * frees a disconnect only for a non-streamed call): the prompt as estimated and the output it
   * received counted with the tokenizer (the vendor's own count never came). One that left before
   * any output costs nothing, as a non-streamed call would. Billing is best effort here: the client
   * is gone, so a failure is logged and the reservation given back.
   */
  private async billLeftStream(context: OutcomeContext, attempt: Attempt, sent: readonly string[]): Promise<void> {
    const { ledger } = this.plan;
    const outputTokens = sent.length === 0 ? 0 : countTokens(sent.join(''));
    try {
      if (outputTokens === 0) {
        await ledger.refundTokens(0);
        ledger.release();
        return;
      }
      const usage: Usage = { inputTokens: this.plan.inputTokens, outputTokens, cachedTokens: 0, cacheWriteTokens: 0 };
      const { cost } = svcObject(context, attempt, usage, 'client_left', undefined);
      await finish(context, attempt, usage, cost, undefined);
    } catch (error) {
      this.deps.logger.error('a stream the client left could not be billed; its reservation is given back', { call_id: this.plan.callId, vendor: attempt.model.vendor, model: attempt.model.id, output_tokens: outputTokens, err: error });
      ledger.release();
    }
  }

  private head(attempt: Attempt): CompletionHead {
    return { id: this.plan.completionId, created: Math.floor(Date.now() / 1000), model: attempt.model.id };
  }

  private attemptContext(signal: AbortSignal, hiddenTool = false): AttemptContext {
    return { deps: this.deps, input: this.input, caller: this.caller, policy: this.policy, route: this.route, candidates: this.candidates, signal, hiddenTool, onAttempt: this.noteAttempt };
  }

  /** The model of the latest vendor attempt (a failure after the commit names it: Long calls 2). */
  private attempted: { vendor: string; model: string } | undefined;
  private readonly noteAttempt = (model: { vendor: string; id: string }): void => {
    this.attempted = { vendor: model.vendor, model: model.id };
  };

  private outcomeContext(): OutcomeContext {
    return { deps: this.deps, input: this.input, caller: this.caller, policy: this.policy, plan: this.plan, route: this.route, ...(this.split ? { split: this.split } : {}), ...(this.attempted ? { attempted: this.attempted } : {}) };
  }

  private get splitSettings(): SplitSettings {
    return this.deps.split ?? DEFAULT_SPLIT_SETTINGS;
  }
}

/**
 * svc.split's gate for a chat call (split/gate.ts); undefined when split-and-route is switched off
 * (svc.split is then absent: "present while split-and-route is on"). Only a synchronous chat
 * completion at the standard tier may split: the Responses API, batch lines, background turns and
 * flex deadlines send requests whole (`not_eligible`).
 */
function planSplit(deps: CallDeps, input: ChatRequestInput, policy: CallPolicy, plan: CallPlan, route: RouteDecision): SplitState | undefined {
  const settings = deps.split ?? DEFAULT_SPLIT_SETTINGS;
  if (!settings.enabled) return undefined;
  const tier = planTier(input.svc.deadlineMs, policy);
  const shapeProblem =
    policy.api === 'responses' || policy.escalation
      ? 'the Responses API sends turns whole'
      : policy.tier || policy.background || tier.requested !== 'standard'
        ? 'a flex, batch or background call is sent whole'
        : plan.jev
          ? 'jev answers the request with the decision model'
          : undefined;
  const pick = deps.catalog.chatModel(route.candidates[0]?.model ?? '');
  const gate = splitGate(deps.catalog, input, {
    auto: plan.auto,
    ...(shapeProblem ? { shapeProblem } : {}),
    job: route.routing,
    ...(pick ? { pick } : {}),
    caller: { access: plan.query.access, vendors: plan.query.vendors, free_plan: plan.admission.free || plan.query.free_plan },
  }, settings);
  return { gate };
}

function servedBy(attempt: Attempt): ServedBy {
  return { vendor: attempt.model.vendor, model: attempt.model.id, byok: attempt.byok, dropped: attempt.prepared.dropped, maxTokens: attempt.prepared.request.maxTokens };
}

/** Plans and runs one call as its policy says (stream or unary): what the workers use. */
export async function runChatCall(deps: CallDeps, input: ChatRequestInput, caller: Caller, policy: CallPolicy, signal: AbortSignal): Promise<UnaryCallResult | StreamCallResult | undefined> {
  const call = await ChatCall.start(deps, input, caller, policy, signal);
  return policy.stream ? call.stream(signal) : call.unary(signal);
}
