import { ServiceError } from '@svc/errors';
import { trace } from '@svc/telemetry';
import { VendorError, type ChatResult, type Usage } from '@svc/vendors';
import type { RouteDecision } from '@svc/routing';
import type { ChatRequestInput } from './request/chat-request';
import { planCall, type CallPlan } from './plan';
import { chooseCandidates, type Candidate } from './candidates';
import { attemptUnary, noAnswerOf, openStream, readStream, type AnswerEvent, type Attempt, type AttemptContext, type OpenedStream } from './attempts';
import { failedSvcObject, finish, svcObject, type OutcomeContext } from './outcome';
import { toClientError } from './vendor-errors';
import type { CompletionHead } from './render/chat';
import type { Caller } from './ports';
import type { CallDeps, CallPolicy } from './types';

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
  private constructor(
    private readonly deps: CallDeps,
    readonly input: ChatRequestInput,
    readonly caller: Caller,
    readonly policy: CallPolicy,
    readonly plan: CallPlan,
    readonly route: RouteDecision,
    private readonly candidates: Candidate[],
  ) {}

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
   */
  async unary(signal: AbortSignal): Promise<UnaryCallResult | undefined> {
    const { ledger } = this.plan;
    try {
      const { result, attempt } = await attemptUnary(this.attemptContext(signal));
      const head = this.head(attempt);
      const noAnswer = noAnswerOf(result.finishReason, result.content, result.toolCalls.length, result.usage, attempt.prepared.request.maxTokens);
      const { svc, cost } = svcObject(this.outcomeContext(), attempt, result.usage, result.vendorStopReason, noAnswer);
      if (signal.aborted) {
        await ledger.refundTokens(result.usage.inputTokens + result.usage.outputTokens);
        ledger.release();
        return undefined;
      }
      await finish(this.outcomeContext(), attempt, result.usage, cost, noAnswer);
      return { kind: 'unary', head, result, svc, served: servedBy(attempt), headers: ledger.headers };
    } catch (error) {
      await ledger.refuse(error);
      ledger.release();
      throw error;
    }
  }

  /** Steps 3 and 4 as a stream: resolves once a vendor sent its first event (earlier failures fall back). */
  async stream(signal: AbortSignal): Promise<StreamCallResult> {
    const { ledger } = this.plan;
    let opened: OpenedStream;
    try {
      opened = await openStream(this.attemptContext(signal));
    } catch (error) {
      await ledger.refuse(error);
      ledger.release();
      throw error;
    }
    const head = this.head(opened.attempt);
    return { kind: 'stream', head, served: servedBy(opened.attempt), headers: ledger.headers, events: this.events(opened, signal) };
  }

  private async *events(opened: OpenedStream, signal: AbortSignal): AsyncGenerator<CallStreamEvent> {
    const { ledger } = this.plan;
    const { attempt } = opened;
    let ended = false;
    try {
      const reader = readStream(opened);
      let step = await reader.next();
      while (!step.done) {
        yield step.value;
        step = await reader.next();
      }
      const summary = step.value;
      const noAnswer = noAnswerOf(summary.finishReason, summary.sawContent ? 'x' : '', summary.toolCalls, summary.usage, attempt.prepared.request.maxTokens);
      const { svc, cost } = svcObject(this.outcomeContext(), attempt, summary.usage, summary.vendorStopReason, noAnswer);
      await finish(this.outcomeContext(), attempt, summary.usage, cost, noAnswer);
      ended = true;
      yield { type: 'done', finishReason: summary.finishReason, usage: summary.usage, svc };
    } catch (error) {
      ended = true;
      const aborted = error instanceof VendorError && error.kind === 'aborted';
      if (!aborted && !signal.aborted) this.deps.logger.warn('stream failed after start', { vendor: attempt.model.vendor, model: attempt.model.id, err: error });
      await ledger.refundTokens(0);
      ledger.release();
      if (aborted) throw error;
      throw error instanceof VendorError ? toClientError(error, attempt.model.vendor, { afterStart: true }) : error instanceof ServiceError ? error : new ServiceError('internal_error', 'The server had an error while processing your request.', { cause: error });
    } finally {
      opened.deadline.clear();
      if (!ended) {
        // The reader stopped early: cancel the vendor stream; nothing was delivered in full.
        void opened.iterator.return?.().catch(() => undefined);
        await ledger.refundTokens(0);
        ledger.release();
      }
    }
  }

  private head(attempt: Attempt): CompletionHead {
    return { id: this.plan.completionId, created: Math.floor(Date.now() / 1000), model: attempt.model.id };
  }

  private attemptContext(signal: AbortSignal): AttemptContext {
    return { deps: this.deps, input: this.input, caller: this.caller, policy: this.policy, route: this.route, candidates: this.candidates, signal };
  }

  private outcomeContext(): OutcomeContext {
    return { deps: this.deps, input: this.input, caller: this.caller, policy: this.policy, plan: this.plan, route: this.route };
  }
}

function servedBy(attempt: Attempt): ServedBy {
  return { vendor: attempt.model.vendor, model: attempt.model.id, byok: attempt.byok, dropped: attempt.prepared.dropped };
}

/** Plans and runs one call as its policy says (stream or unary): what the workers use. */
export async function runChatCall(deps: CallDeps, input: ChatRequestInput, caller: Caller, policy: CallPolicy, signal: AbortSignal): Promise<UnaryCallResult | StreamCallResult | undefined> {
  const call = await ChatCall.start(deps, input, caller, policy, signal);
  return policy.stream ? call.stream(signal) : call.unary(signal);
}
