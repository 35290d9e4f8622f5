import { ServiceError } from '@svc/errors';
import type { ChatModel } from '@svc/catalog';
import { trace, SpanStatusCode } from '@svc/telemetry';
import { VendorError, ownKeyRejected, type ChatResult, type ResolvedProvider, type StreamEvent, type Usage } from '@svc/vendors';
import type { RouteDecision } from '@svc/routing';
import type { ChatRequestInput } from './request/chat-request';
import { prepareForModel, cutAtStop, type Prepared } from './prepare';
import { planCache } from './cache/cache-policy';
import { toClientError } from './vendor-errors';
import { measureAttempt, recordCapacityFallback, recordFallback } from './attempt-metrics';
import { MAX_ATTEMPTS, type Candidate } from './candidates';
import { withHiddenTool } from './escalation/escalation';
import { readDecision } from './decision/answer';
import type { Caller } from './ports';
import type { CallDeps, CallPolicy } from './types';
import { FLEX_ATTEMPT_MS, attemptTier, planTier, tierFallbackFor, type TierFallback } from './tier';
import type { PriceTier } from '@svc/catalog';

/**
 * Step 3 of a chat call: the vendor attempts. The candidates are tried in order, at most three.
 * A retryable vendor failure moves on to the next candidate (and counts against the model's
 * health); a non-retryable one (the vendor rejected the request) stops at once; the client
 * leaving stops everything. Each attempt runs under its own deadline, a timer the call owns
 * (spec: Limits, vendor attempt time). Unary answers have the stop sequences the vendor lacks
 * cut here; streams are cut as they pass (StopCutter). A reasoning model that spent the whole
 * budget thinking is a no_answer.
 */
export interface Attempt {
  model: ChatModel;
  provider: ResolvedProvider;
  prepared: Prepared;
  /** 1-based number of this attempt. */
  attempts: number;
  /** The organization's own vendor key served this attempt. */
  byok: boolean;
  /** The attempt carried the hidden escalation tool (escalation/escalation.ts). */
  hiddenTool: boolean;
  /** The tier asked of the vendor, then the tier that served (the vendor's word where it gives one). */
  tier: PriceTier;
  /** Flex refused for capacity and served at standard (`capacity`), or known up front (tier.ts). */
  tierFallback?: TierFallback;
}

export interface AttemptContext {
  deps: CallDeps;
  input: ChatRequestInput;
  caller: Caller;
  policy: CallPolicy;
  route: RouteDecision;
  candidates: Candidate[];
  /** Aborts when the caller gives up (the client disconnected). */
  signal: AbortSignal;
  /** Offer the hidden escalation tool to candidates that take tools. */
  hiddenTool?: boolean;
  /** Told of every vendor attempt as it starts (a failure's svc names the last one). */
  onAttempt?: (model: { vendor: string; id: string }) => void;
}

/**
 * One attempt's time limit as a timer the call owns, linked to the caller's signal. (Node 20's
 * AbortSignal.any with AbortSignal.timeout can lose the timeout to garbage collection under load.)
 * The abort reason is a TimeoutError, which the vendor adapters report as `timeout`.
 */
export class AttemptDeadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onParentAbort: () => void;

  constructor(private readonly parent: AbortSignal, readonly limitMs: number) {
    this.onParentAbort = () => this.controller.abort(parent.reason);
    if (parent.aborted) this.controller.abort(parent.reason);
    else parent.addEventListener('abort', this.onParentAbort, { once: true });
    this.timer = setTimeout(() => this.controller.abort(new DOMException(`vendor attempt exceeded ${limitMs} ms`, 'TimeoutError')), limitMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  clear(): void {
    clearTimeout(this.timer);
    this.parent.removeEventListener('abort', this.onParentAbort);
  }
}

/** Powerful and frontier models get the long attempt limit; a flex attempt up to 900 s. */
export function attemptLimitMs(deps: Pick<CallDeps, 'attemptTimeoutMs' | 'attemptTimeoutLongMs' | 'attemptTimeoutFlexMs'>, model: Pick<ChatModel, 'tier'>, tier: PriceTier = 'standard'): number {
  if (tier === 'flex') return deps.attemptTimeoutFlexMs ?? FLEX_ATTEMPT_MS;
  return model.tier === 'powerful' || model.tier === 'frontier' ? deps.attemptTimeoutLongMs : deps.attemptTimeoutMs;
}

/** The prepared request asking the vendor for `tier` (standard is the default, left unsaid). */
function atTier(prepared: Prepared, tier: PriceTier): Prepared {
  if (tier === 'standard') {
    if (prepared.request.tier === undefined) return prepared;
    const { tier: _omitted, ...request } = prepared.request;
    return { ...prepared, request };
  }
  return { ...prepared, request: { ...prepared.request, tier: tier === 'flex' ? 'flex' : 'standard' } };
}

/** The request as the cache rules read it: a caller's ttl (batch and background lines) applies where the request set none. */
function cacheInput(input: ChatRequestInput, policy: CallPolicy): ChatRequestInput {
  if (!policy.cacheTtl || input.svc.cacheTtl !== undefined) return input;
  return { ...input, svc: { ...input.svc, cacheTtl: policy.cacheTtl } };
}

/** Tries the candidates in order until one answers; the winning attempt's deadline is still running (the caller clears it). */
export async function tryCandidates<T>(context: AttemptContext, run: (attempt: Attempt, signal: AbortSignal) => Promise<T>): Promise<{ value: T; attempt: Attempt; deadline: AttemptDeadline }> {
  const { deps, input, caller, policy } = context;
  let lastError: VendorError | undefined;
  let lastVendor = '';
  let attempts = 0;
  let firstModel = '';
  const cache = planCache(cacheInput(input, policy), { organizationId: caller.key.organization_id, state: deps.cacheState, now: Date.now() });
  const tiers = planTier(input.svc.deadlineMs, policy);
  for (const candidate of context.candidates) {
    if (attempts >= MAX_ATTEMPTS) break;
    const { model } = candidate;
    // A batch line the batch did not allow at standard price: only models with a batch tier.
    if (policy.batchTierOnly && !model.batch && model.protocol !== 'decision') continue;
    const { provider, byok } = candidate.serve();
    if (!provider) continue;
    attempts += 1;
    firstModel ||= model.id;
    context.onAttempt?.(model);
    const hiddenTool = Boolean(context.hiddenTool) && model.capabilities.tools;
    const attemptInput = hiddenTool ? withHiddenTool(input) : input;
    const tier = attemptTier(tiers, model);
    const prepared = prepareForModel(attemptInput, model, await cache.forModel(model, provider.vendor), context.route.effort);
    const attempt: Attempt = { model, provider, prepared: atTier(prepared, tier), attempts, byok, hiddenTool, tier, tierFallback: tierFallbackFor(tiers, model, policy) };
    let deadline = new AttemptDeadline(context.signal, attemptLimitMs(deps, model, tier));
    try {
      let value: T;
      try {
        value = await inAttemptSpan(attempt, () => measureAttempt(model, () => run(attempt, deadline.signal), deps.attemptObserver));
      } catch (error) {
        // Spec (Deadline and flex rules 2): flex refused for capacity is retried at once on the
        // same model at standard, billed at standard (tier.fallback `capacity`).
        if (!(error instanceof VendorError) || error.kind !== 'capacity' || attempt.tier !== 'flex') throw error;
        deadline.clear();
        deps.logger.info('flex refused for capacity: retrying at standard', { vendor: model.vendor, model: model.id });
        recordCapacityFallback(model);
        Object.assign(attempt, { prepared: atTier(attempt.prepared, 'standard'), tier: 'standard', tierFallback: 'capacity' });
        deadline = new AttemptDeadline(context.signal, attemptLimitMs(deps, model, 'standard'));
        value = await inAttemptSpan(attempt, () => measureAttempt(model, () => run(attempt, deadline.signal), deps.attemptObserver));
      }
      if (attempts > 1) recordFallback(firstModel, model.id);
      return { value, attempt, deadline };
    } catch (error) {
      deadline.clear();
      if (!(error instanceof VendorError)) throw error;
      if (error.kind === 'aborted') throw error;
      // The organization's own key was rejected: say so, and never fall back to the service's key.
      if (attempt.byok && error.kind === 'auth') throw ownKeyRejected(model.vendor);
      deps.logger.warn('vendor attempt failed', { vendor: model.vendor, model: model.id, attempt: attempts, kind: error.kind, status: error.options.status });
      lastError = error;
      lastVendor = model.vendor;
      if (!error.retryable) break;
      deps.health.recordFailure(model.id);
    }
  }
  if (lastError) throw toClientError(lastError, lastVendor, { attempts });
  throw new ServiceError('no_provider_available', 'No provider is available for this request right now.');
}

/** One vendor attempt as a child span: vendor, model and attempt number; the error kind when it fails. */
function inAttemptSpan<T>(attempt: Attempt, work: () => Promise<T>): Promise<T> {
  const attributes = { 'svc.vendor': attempt.model.vendor, 'svc.model': attempt.model.id, 'svc.attempt': attempt.attempts };
  return trace.getTracer('svc-call').startActiveSpan('vendor.attempt', { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setAttribute('svc.error_kind', error instanceof VendorError ? error.kind : 'internal');
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Headers for the vendor call: the caller's x-sim-* headers, to the simulator only. */
function vendorHeaders(policy: CallPolicy, provider: ResolvedProvider): Record<string, string> | undefined {
  return provider.simulated && policy.simulatorHeaders && Object.keys(policy.simulatorHeaders).length > 0 ? policy.simulatorHeaders : undefined;
}

/**
 * A unary answer from the first candidate that gives one, with stop sequences the vendor lacks cut.
 * The decision model's distributions become its JSON answer and svc.decision (decision/answer.ts).
 */
export async function attemptUnary(context: AttemptContext): Promise<{ result: ChatResult; attempt: Attempt; decision?: Record<string, unknown> }> {
  const { value: result, attempt, deadline } = await tryCandidates<ChatResult>(context, (current, signal) =>
    current.provider.adapter.generate(current.prepared.request, { ...current.provider.context, signal, headers: vendorHeaders(context.policy, current.provider) }),
  );
  deadline.clear();
  servedAt(attempt, result.tier);
  result.usage = pricedUsage(attempt, result.usage);
  const questions = attempt.prepared.request.decision;
  if (questions && result.decision) {
    const reading = readDecision(questions, result.decision);
    result.content = reading.content;
    return { result, attempt, decision: reading.svc };
  }
  if (attempt.prepared.cutStops && result.content) {
    const cut = cutAtStop(result.content, attempt.prepared.cutStops);
    if (cut.cut) {
      result.content = cut.text;
      result.finishReason = 'stop';
    }
  }
  return { result, attempt };
}

export interface OpenedStream {
  attempt: Attempt;
  deadline: AttemptDeadline;
  iterator: AsyncIterator<StreamEvent>;
  first: IteratorResult<StreamEvent>;
}

/** Opens each candidate's stream in turn and waits for its first event (a failure before it falls back). */
export async function openStream(context: AttemptContext): Promise<OpenedStream> {
  const { value, attempt, deadline } = await tryCandidates(context, async (current, signal) => {
    const iterator = current.provider.adapter.stream(current.prepared.request, { ...current.provider.context, signal, headers: vendorHeaders(context.policy, current.provider) })[Symbol.asyncIterator]();
    const first = await iterator.next();
    return { iterator, first };
  });
  return { attempt, deadline, ...value };
}

/**
 * Usage as the service prices it: a vendor the catalog lists without a prompt cache has no cache
 * price, so cache reads or writes it reports anyway are plain input (svc.cache, the usage block,
 * the bill and the baseline's direct price then agree on what was read).
 */
function pricedUsage(attempt: Attempt, usage: Usage): Usage {
  if (attempt.provider.vendor.cache !== 'none' || (usage.cachedTokens === 0 && usage.cacheWriteTokens === 0)) return usage;
  return { ...usage, cachedTokens: 0, cacheWriteTokens: 0 };
}

/** The vendor said which tier served (a flex ask it served at standard, or the reverse). */
function servedAt(attempt: Attempt, tier: 'standard' | 'flex' | undefined): void {
  if (tier && attempt.tier !== 'batch') attempt.tier = tier;
}

/** A streamed answer's events as the client sees them (stop sequences cut). */
export type AnswerEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; arguments: string };

/** What a finished stream said about itself. */
export interface StreamSummary {
  finishReason: string;
  vendorStopReason: string;
  usage: Usage;
  sawContent: boolean;
  toolCalls: number;
}

/** Reads the opened stream to its end, yielding the client's events; returns the summary. Vendor errors are thrown as they come. */
export async function* readStream(opened: OpenedStream): AsyncGenerator<AnswerEvent, StreamSummary> {
  const cutter = opened.attempt.prepared.cutStops ? new StopCutter(opened.attempt.prepared.cutStops) : undefined;
  let finishReason = 'stop';
  let vendorStopReason = '';
  let usage: Usage | undefined;
  let sawContent = false;
  let toolCalls = 0;
  let step = opened.first;
  while (!step.done) {
    const event = step.value;
    switch (event.type) {
      case 'text': {
        sawContent ||= event.delta.length > 0;
        const text = cutter ? cutter.push(event.delta) : event.delta;
        if (text) yield { type: 'text', delta: text };
        break;
      }
      case 'tool_call_start':
        toolCalls += 1;
        yield { type: 'tool_call_start', index: event.index, id: event.id, name: event.name };
        break;
      case 'tool_call_delta':
        yield { type: 'tool_call_delta', index: event.index, arguments: event.arguments };
        break;
      case 'finish':
        finishReason = event.finishReason;
        vendorStopReason = event.vendorStopReason;
        break;
      case 'usage':
        usage = pricedUsage(opened.attempt, event.usage);
        servedAt(opened.attempt, event.tier);
        break;
    }
    step = await opened.iterator.next();
  }
  if (cutter) {
    const rest = cutter.flush();
    if (rest) yield { type: 'text', delta: rest };
    if (cutter.done) finishReason = 'stop';
  }
  return { finishReason, vendorStopReason, usage: usage ?? { inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0 }, sawContent, toolCalls };
}

/** Holds back text that could be the start of a stop sequence the service must cut itself. */
export class StopCutter {
  private pending = '';
  done = false;
  constructor(private readonly stops: string[]) {}
  push(delta: string): string {
    if (this.done) return '';
    this.pending += delta;
    const cut = cutAtStop(this.pending, this.stops);
    if (cut.cut) {
      this.done = true;
      this.pending = '';
      return cut.text;
    }
    const hold = Math.max(0, ...this.stops.map((stop) => stop.length - 1));
    const out = this.pending.slice(0, Math.max(0, this.pending.length - hold));
    this.pending = this.pending.slice(out.length);
    return out;
  }
  flush(): string {
    const out = this.done ? '' : this.pending;
    this.pending = '';
    return out;
  }
}

/**
 * Spec: a reasoning model that spends its whole output budget thinking returns an empty answer
 * with `length`; svc.no_answer says what happened and what to change, and the call is not billed.
 */
export function noAnswerOf(finishReason: string, content: string | null, toolCalls: number, usage: Usage, maxTokens: number): string | undefined {
  if (finishReason !== 'length' || (content ?? '') !== '' || toolCalls > 0 || !(usage.reasoningTokens && usage.reasoningTokens > 0)) return undefined;
  return `The output budget (max_tokens ${maxTokens}) was spent on reasoning before any answer was written. Raise max_tokens or lower reasoning_effort.`;
}
