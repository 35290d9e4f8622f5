import type { Request, Response } from 'express';
import { ServiceError } from '@svc/errors';
import { ids } from '@svc/ids';
import { FREE_PLAN_LIMITS, type Catalog, type ChatModel } from '@svc/catalog';
import type { TokenUsage } from '@svc/pricing';
import { VendorError, type ChatResult, type StreamEvent, type Usage } from '@svc/vendors';
import type { Logger } from '@svc/logger';
import { trace, SpanStatusCode } from '@svc/telemetry';
import type { KeyRecord__Output, RouteResponse__Output, Routing__Output } from '@svc/protos';
import { routeNamed, type RouteResult } from '@svc/routing';
import type { Backends } from '../clients/clients';
import type { UsageSink } from '../settlement/usage';
import { requireScopes } from '../auth/authenticate';
import { parseChatRequest, estimateInputTokens, type ChatRequestInput } from './request';
import { prepareForModel, cutAtStop, type Prepared } from './prepare';
import { planCache, type CacheState } from './cache-policy';
import { ownKeyRejected, resolveServing, simulatorHeaders, type ResolvedProvider } from './vendors';
import { toClientError } from './vendor-errors';
import { measureAttempt, recordFallback } from './attempt-metrics';
import { estimateChatTokens, keyLimitsOf, type KeyLimiter } from '../limits/key-limits';
import { chargeTokens, onRefusal, refundTokens } from '../limits/call-tokens';
import type { ProviderHealth } from './provider-health';
import type { ImageFetcher } from './images';
import { admissionKey, admissionOf, applyAdmissionHeaders, costFields, estimateCall, planObject, releaseCall, usageBillingFields, type CallAdmission, type CostFields } from '../billing/call-billing';
import type { OwnKeys } from './own-keys';
import { compact, renderChunk, renderCompletion, renderRouting, renderUsageChunk, type CompletionHead } from './render';

export interface ChatDeps {
  catalog: Catalog;
  backends: Backends;
  usage: UsageSink;
  keyLimiter: KeyLimiter;
  /** Prompt appearances and session turn times for the cache rules (cache-policy.ts). */
  cacheState: CacheState;
  health: ProviderHealth;
  /** Downloads http(s) image parts as bytes, refusing private and internal addresses. */
  images: ImageFetcher;
  logger: Logger;
  simUrl: string;
  vendorKeys: Record<string, string | undefined>;
  forwardSimHeaders: boolean;
  attemptTimeoutMs: number;
  attemptTimeoutLongMs: number;
  /** Spec (Long calls 2): a non-streamed call with no answer after this commits its 200. */
  longCallCommitMs: number;
  /** Spec (Long calls 2, 4): one space (unary) or `: keepalive` (stream) this often. */
  keepaliveIntervalMs: number;
  /** The organization's own vendor keys (BYOK), cached per organization. */
  ownKeys: OwnKeys;
  /** svc.plan.topup_url on Free calls. */
  topupUrl: string;
}

interface Attempt {
  model: ChatModel;
  provider: ResolvedProvider;
  prepared: Prepared;
  attempts: number;
  /** The organization's own vendor key served this attempt. */
  byok: boolean;
}

const DEFAULT_MAX_TOKENS = 16_000;

/** POST /v1/chat/completions (scope chat). */
export function chatCompletionsHandler(deps: ChatDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const key = res.locals.key as KeyRecord__Output;
    const limits = keyLimitsOf(key);
    const bucket = { charged: 0, checked: false };
    let admission: CallAdmission | undefined;
    let billed = false;
    try {
      requireScopes(key, ['chat']);
      const input = parseChatRequest(req.body, req.headers, { remoteImages: 'defer' });
      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort(new Error('client disconnected'));
      });
      const auto = deps.catalog.isVirtual(input.model);
      const { completionId, callId } = ids.completion();
      const inputTokens = estimateInputTokens(input);
      // Spec (Limits): the token charge is the input estimate plus max_tokens clamped to the
      // served model's max output. A named model is known now, so the bucket check runs beside
      // routing and admission; under auto it waits for the router's pick.
      const named = auto ? undefined : deps.catalog.chatModel(input.model);
      const byokVendors = key.byok_vendors ?? [];
      // Spec (Authentication 8): a named model whose vendor has the organization's own key is
      // served on own keys only (fallbacks too), so it is not refused for missing credit.
      const byokNamed = Boolean(named && byokVendors.includes(named.vendor));
      const takeTokens = (maxOutput: number) => chargeTokens({ keyLimiter: deps.keyLimiter, keyId: key.key_id, limits, bucket }, estimateChatTokens(inputTokens, input.maxTokens, maxOutput), res);
      const routeRequest = {
        organization_id: key.organization_id,
        key_id: key.key_id,
        model: input.model,
        access: { account_disabled: key.account_disabled_models, organization_disabled: key.organization_disabled_models, project_disabled: key.project_disabled_models, key_allowed: key.allowed_models },
        vendors: input.svc.vendors ?? [],
        needs: { tools: Boolean(input.tools?.length) && input.toolChoice !== 'none', vision: input.needsVision, json_schema: input.responseFormat?.type === 'json_schema', input_tokens: inputTokens },
        fallback: input.svc.fallback ?? key.fallback_policy,
        session_id: input.svc.sessionId ?? '',
        system_prompt: input.system ?? '',
        messages: named ? [] : routeMessages(input),
        free_plan: key.plan === 'free',
        reasoning_effort: input.reasoningEffort ?? '',
      };
      // A named model's candidates are a pure function of the catalog and the key's access
      // (libs/routing): computed here, saving the router round trip; auto goes to the router.
      const routeFor = (freePlan: boolean) => (named ? Promise.resolve().then(() => asRouteOutput(routeNamed(deps.catalog, { ...routeRequest, free_plan: freePlan }))) : deps.backends.route({ ...routeRequest, free_plan: freePlan }));
      const admitFor = async (model: ChatModel | undefined) => {
        const estimate = model
          ? estimateCall(deps.catalog, model, { inputTokens, outputTokens: input.maxTokens ?? DEFAULT_MAX_TOKENS, auto, byok: byokNamed, feePercent: deps.catalog.data.plans.paid.service_fee_percent })
          : { micros: 0, listMicros: 0 };
        const response = await deps.backends.admit({
          call_id: callId,
          organization_id: key.organization_id,
          key_id: key.key_id,
          key: admissionKey(key),
          estimated_micros: estimate.micros,
          estimated_list_micros: estimate.listMicros,
          byok: byokNamed,
          auto,
          input_tokens: inputTokens,
          max_tokens: input.maxTokens ?? 0,
        });
        admission = admissionOf(callId, response, estimate.micros);
        return admission;
      };
      // Named: routing, admission (its estimate is known), the token charge and image downloads
      // run together. Auto: admission waits for the router's pick, whose price it reserves.
      // Every step runs to its end (allSettled), so a refusal from one still carries what the
      // others learned (the Free headers of admission) and leaves no charge behind unaccounted.
      const images = input.images.some((image) => !image.decoded) ? deps.images.resolveImages(input, controller.signal) : Promise.resolve();
      let route: RouteResponse__Output;
      const routed = routeFor(key.plan === 'free');
      if (named) {
        throwFirstFailure(await Promise.allSettled([routed, admitFor(named), takeTokens(named.capabilities.max_output), images]));
        route = await routed;
      } else {
        throwFirstFailure(await Promise.allSettled([routed, images]));
        route = await routed;
        const pick = deps.catalog.chatModel(route.candidates[0]?.model ?? '');
        throwFirstFailure(await Promise.allSettled([admitFor(pick), takeTokens(pick?.capabilities.max_output ?? DEFAULT_MAX_TOKENS)]));
      }
      const admitted = admission as CallAdmission | undefined;
      if (!admitted) throw new ServiceError('billing_unavailable', 'Billing is temporarily unavailable. Please retry.');
      // A paid organization at zero continues on the Free limits (admission decides): route again among free models.
      if (admitted.free && key.plan !== 'free') route = await routeFor(true);
      if (admitted.free && input.maxTokens === undefined) input.maxTokens = FREE_PLAN_LIMITS.max_output_tokens;
      if (byokNamed) route = { ...route, candidates: route.candidates.filter((candidate) => byokVendors.includes(candidate.vendor)) };
      applyAdmissionHeaders(res, admitted);
      trace.getActiveSpan()?.setAttributes({ 'svc.model_requested': input.model, ...(auto ? { 'svc.line': route.routing?.line ?? '' } : {}), ...(admitted.free ? { 'svc.plan': 'free' } : {}) });

      const context: CallScope = { deps, req, res, key, input, route, auto, completionId, callId, signal: controller.signal, limits, bucket, admission: admitted, onBilled: () => (billed = true) };
      if (input.stream) await streamChat(context);
      else await unaryChat(context);
    } catch (error) {
      // RULINGS 6: once the key is known, refusals carry the rate-limit headers too; on the Free
      // limits those are the Free minute and day.
      if (error instanceof ServiceError && admission) for (const [name, value] of Object.entries(admission.headers)) if (!(name in error.headers)) error.headers[name] = value;
      await onRefusal({ keyLimiter: deps.keyLimiter, keyId: key.key_id, limits, bucket }, error, res);
      throw error;
    } finally {
      // Whatever did not end in a billed answer gives its reservation back.
      if (!billed) releaseCall(deps.backends, deps.logger, key, admission);
    }
  };
}

/** Throws the first failure of steps that all ran to their end (in step order). */
function throwFirstFailure(results: readonly PromiseSettledResult<unknown>[]): void {
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}

/**
 * What routing reads of the conversation: role and plain text of the last turns, trimmed.
 * Images and tool payload structure are reduced to text; nothing here is stored by the router.
 */
const ROUTE_MESSAGES = 12;
const ROUTE_TEXT_CHARS = 4000;
export function routeMessages(input: ChatRequestInput): Array<{ role: string; text: string }> {
  return input.messages.slice(-ROUTE_MESSAGES).map((message) => {
    let text: string;
    if (message.role === 'user') text = message.content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('');
    else if (message.role === 'assistant') text = message.content ?? (message.toolCalls ?? []).map((call) => `[tool call ${call.name}]`).join(' ');
    else text = message.content;
    return { role: message.role, text: text.length > ROUTE_TEXT_CHARS ? text.slice(0, ROUTE_TEXT_CHARS / 2) + text.slice(-ROUTE_TEXT_CHARS / 2) : text };
  });
}

const EMPTY_ROUTING: Routing__Output = {
  line: '', floor: '', task: '', task_type: '', difficulty: 0, band: '', stakes: '', biased: false, cell: '',
  confidence: 0, reason: '', trigger: '', classifier: '', effort: '', effort_reason: '', sticky: null,
};

/** The in-process named-model result in the shape the router's answer has on the wire. */
function asRouteOutput(result: RouteResult): RouteResponse__Output {
  return {
    candidates: result.candidates,
    routing: result.routing ? ({ ...EMPTY_ROUTING, ...result.routing } as Routing__Output) : null,
    effort: result.effort ?? '',
    auto: Boolean(result.auto),
    paid_would_use: result.paid_would_use ?? '',
  };
}

/** Gives back the part of the token charge the call did not use (spec: refunded to the real count). */
async function refund(scope: Pick<CallScope, 'deps' | 'key' | 'limits' | 'bucket'>, actualTokens: number, res?: Response): Promise<void> {
  await refundTokens({ keyLimiter: scope.deps.keyLimiter, keyId: scope.key.key_id, limits: scope.limits, bucket: scope.bucket }, actualTokens, res);
}

interface CallScope {
  deps: ChatDeps;
  req: Request;
  res: Response;
  key: KeyRecord__Output;
  input: ChatRequestInput;
  route: RouteResponse__Output;
  auto: boolean;
  completionId: string;
  callId: string;
  signal: AbortSignal;
  limits: ReturnType<typeof keyLimitsOf>;
  bucket: { charged: number; checked: boolean };
  admission: CallAdmission;
  /** Called once the usage record is on its way to the ledger (the reservation settles with it). */
  onBilled: () => void;
}

function attemptSignal(scope: CallScope, model: ChatModel): AbortSignal {
  const limit = model.tier === 'powerful' || model.tier === 'frontier' ? scope.deps.attemptTimeoutLongMs : scope.deps.attemptTimeoutMs;
  return AbortSignal.any([scope.signal, AbortSignal.timeout(limit)]);
}

/**
 * Tries the router's candidates in order (at most 3). A retryable vendor failure moves on
 * to the next candidate; a non-retryable one (the vendor rejected the request) stops at once.
 * `run` returns undefined to mean "failed before anything reached the client".
 */
async function withCandidates<T>(scope: CallScope, run: (attempt: Attempt, signal: AbortSignal) => Promise<T>): Promise<{ value: T; attempt: Attempt }> {
  let lastError: VendorError | undefined;
  let lastVendor = '';
  let attempts = 0;
  let firstModel = '';
  const candidates = scope.deps.health.order(scope.route.candidates);
  const fallback = scope.input.svc.fallback ?? scope.key.fallback_policy;
  const cache = planCache(scope.input, { organizationId: scope.key.organization_id, state: scope.deps.cacheState, now: Date.now() });
  const ownKeys = await scope.deps.ownKeys.forOrganization(scope.key.organization_id, scope.key.byok_vendors ?? []);
  if (!scope.auto && fallback === 'none' && candidates.length > 0 && !scope.deps.health.isHealthy(candidates[0].model)) {
    throw new ServiceError('no_provider_available', `'${candidates[0].model}' is not healthy right now and fallback is none.`);
  }
  for (const candidate of candidates) {
    const model = scope.deps.catalog.chatModel(candidate.model);
    if (!model) continue;
    const { provider, byok } = resolveServing(scope.deps.catalog, model, scope.deps.simUrl, scope.deps.vendorKeys, { keys: ownKeys, vendors: scope.key.byok_vendors ?? [] });
    if (!provider) continue;
    attempts += 1;
    firstModel ||= model.id;
    const attempt: Attempt = { model, provider, prepared: prepareForModel(scope.input, model, await cache.forModel(model, provider.vendor), scope.route.effort), attempts, byok };
    try {
      const value = await inAttemptSpan(attempt, () => measureAttempt(model, () => run(attempt, attemptSignal(scope, model))));
      if (attempts > 1) recordFallback(firstModel, model.id);
      return { value, attempt };
    } catch (error) {
      if (!(error instanceof VendorError)) throw error;
      if (error.kind === 'aborted') throw error;
      if (attempt.byok && error.kind === 'auth') {
        // The organization's own key was rejected: say so, and never fall back to the service's key.
        throw ownKeyRejected(model.vendor);
      }
      scope.deps.logger.warn('vendor attempt failed', { vendor: model.vendor, model: model.id, attempt: attempts, kind: error.kind, status: error.options.status });
      lastError = error;
      lastVendor = model.vendor;
      if (!error.retryable) break;
      scope.deps.health.recordFailure(model.id);
    }
  }
  if (lastError) throw toClientError(lastError, lastVendor);
  throw new ServiceError('no_provider_available', 'No provider is available for this request right now.');
}

/** One vendor attempt as a child span: vendor, model and attempt number; the error kind when it fails. */
function inAttemptSpan<T>(attempt: Attempt, work: () => Promise<T>): Promise<T> {
  const attributes = { 'svc.vendor': attempt.model.vendor, 'svc.model': attempt.model.id, 'svc.attempt': attempt.attempts };
  return trace.getTracer('svc-edge').startActiveSpan('vendor.attempt', { attributes }, async (span) => {
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

function callHeaders(scope: CallScope, provider: ResolvedProvider): Record<string, string> | undefined {
  return scope.deps.forwardSimHeaders && provider.simulated ? simulatorHeaders(scope.req.headers) : undefined;
}

/**
 * Spec: a reasoning model that spends its whole output budget thinking returns an empty answer
 * with `length`; svc.no_answer says what happened and what to change, and the call is not billed.
 */
export function noAnswerOf(finishReason: string, content: string | null, toolCalls: number, usage: Usage, maxTokens: number): string | undefined {
  if (finishReason !== 'length' || (content ?? '') !== '' || toolCalls > 0 || !(usage.reasoningTokens && usage.reasoningTokens > 0)) return undefined;
  return `The output budget (max_tokens ${maxTokens}) was spent on reasoning before any answer was written. Raise max_tokens or lower reasoning_effort.`;
}

function svcObject(scope: CallScope, attempt: Attempt, usage: Usage, vendorStopReason: string, noAnswer?: string): { svc: Record<string, unknown>; cost: CostFields } {
  const { deps, key, auto, input, admission } = scope;
  const tokens: TokenUsage = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cachedTokens: usage.cachedTokens, cacheWriteTokens: usage.cacheWriteTokens, cacheTtl: attempt.prepared.cacheTtl };
  const cost = costFields(deps.catalog, {
    model: attempt.model,
    usage: tokens,
    auto,
    byok: attempt.byok,
    free: admission.free,
    feePercent: deps.catalog.data.plans[key.plan === 'free' ? 'free' : 'paid'].service_fee_percent,
    admission,
    noAnswer: Boolean(noAnswer),
  });
  const svc = compact({
    call_id: scope.callId,
    vendor: attempt.model.vendor,
    model_served: attempt.model.id,
    routing: renderRouting(scope.route.routing),
    reasoning: attempt.prepared.reasoning,
    cost_micros: cost.breakdown.cost_micros,
    cost: cost.object,
    byok: attempt.byok || undefined,
    cache: { read_tokens: usage.cachedTokens, write_tokens: usage.cacheWriteTokens, ttl_applied: usage.cacheWriteTokens > 0 || usage.cachedTokens > 0 ? attempt.prepared.cacheTtl : '' },
    session_id: input.svc.sessionId,
    vendor_stop_reason: vendorStopReason,
    ignored_parameters: input.ignoredParameters,
    dropped_parameters: attempt.prepared.dropped,
    attempts: attempt.attempts,
    no_answer: noAnswer,
    tier: { requested: 'standard', applied: 'standard' },
    plan: planObject(admission, deps.topupUrl, scope.route.paid_would_use, attempt.model.id),
  });
  // cache and tier are always present (RULINGS 2), even when empty-looking.
  return { svc: { ...svc, cache: svc.cache ?? { read_tokens: 0, write_tokens: 0, ttl_applied: '' } }, cost };
}

async function settle(scope: CallScope, attempt: Attempt, usage: Usage, cost: CostFields): Promise<void> {
  scope.onBilled();
  await scope.deps.usage.record({
    call_id: scope.callId,
    organization_id: scope.key.organization_id,
    key_id: scope.key.key_id,
    kind: 'chat',
    vendor: attempt.model.vendor,
    model: attempt.model.id,
    line: scope.route.routing?.line ?? '',
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cached_tokens: usage.cachedTokens,
    cache_write_tokens: usage.cacheWriteTokens,
    reasoning_tokens: usage.reasoningTokens ?? 0,
    vendor_micros: cost.breakdown.vendor_micros,
    service_fee_micros: cost.breakdown.service_fee_micros,
    call_fee_micros: cost.breakdown.call_fee_micros,
    cost_micros: cost.breakdown.cost_micros,
    direct_micros: cost.directMicros,
    byok: attempt.byok,
    occurred_at_ms: Date.now(),
    ...usageBillingFields(scope.key, scope.admission, cost.baselinePending),
  });
}

function setVendorHeaders(res: Response, attempt: Attempt): void {
  res.setHeader('x-svc-vendor', attempt.model.vendor);
  if (attempt.byok) res.setHeader('x-svc-byok', 'true');
  if (attempt.prepared.dropped.length > 0) res.setHeader('x-svc-dropped-params', attempt.prepared.dropped.join(','));
}

async function unaryChat(scope: CallScope): Promise<void> {
  const { res, deps } = scope;
  // Spec (Long calls 2–3): no answer after 90 s commits the 200 and writes one space every 20 s
  // until the JSON body; x-svc-vendor is then absent (headers went out before the vendor was
  // known) and a later failure is a chat.completion with choices [] and an error object.
  let committed = false;
  let keepalive: NodeJS.Timeout | undefined;
  const commit = setTimeout(() => {
    committed = true;
    res.status(200);
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.flushHeaders();
    res.write(' ');
    keepalive = setInterval(() => res.write(' '), deps.keepaliveIntervalMs);
  }, deps.longCallCommitMs);
  let outcome: { value: ChatResult; attempt: Attempt };
  try {
    outcome = await withCandidates<ChatResult>(scope, (current, signal) =>
      current.provider.adapter.generate(current.prepared.request, { ...current.provider.context, signal, headers: callHeaders(scope, current.provider) }),
    );
  } catch (error) {
    if (!committed) throw error;
    const failure = error instanceof ServiceError ? error : new ServiceError('internal_error', 'The server had an error while processing your request.');
    if (!(error instanceof ServiceError)) deps.logger.error('long call failed after commit', { err: error });
    res.end(JSON.stringify(renderFailedCompletion(scope, failure)));
    return;
  } finally {
    clearTimeout(commit);
    if (keepalive) clearInterval(keepalive);
  }
  const { value: result, attempt } = outcome;
  if (attempt.prepared.cutStops && result.content) {
    const cut = cutAtStop(result.content, attempt.prepared.cutStops);
    if (cut.cut) {
      result.content = cut.text;
      result.finishReason = 'stop';
    }
  }
  const head: CompletionHead = { id: scope.completionId, created: Math.floor(Date.now() / 1000), model: attempt.model.id };
  const noAnswer = noAnswerOf(result.finishReason, result.content, result.toolCalls.length, result.usage, attempt.prepared.request.maxTokens);
  const { svc, cost } = svcObject(scope, attempt, result.usage, result.vendorStopReason, noAnswer);
  const usedTokens = result.usage.inputTokens + result.usage.outputTokens;
  // A disconnected non-streamed call costs nothing (spec: Long calls 6), nor does one with no answer.
  if (scope.signal.aborted) {
    await refund(scope, usedTokens);
    return;
  }
  // The token refund and the usage publish are independent round trips: run them together.
  await Promise.all([refund(scope, usedTokens, res), noAnswer ? undefined : settle(scope, attempt, result.usage, cost)]);
  // The refund set the key bucket's headers; on the Free limits the Free ones stand.
  applyAdmissionHeaders(res, scope.admission);
  if (committed) {
    res.end(JSON.stringify(renderCompletion(head, result, svc)));
    return;
  }
  setVendorHeaders(res, attempt);
  res.status(200).json(renderCompletion(head, result, svc));
}

/** The body of a committed long call that failed: a chat.completion with no choices and the error. */
function renderFailedCompletion(scope: CallScope, failure: ServiceError): Record<string, unknown> {
  return {
    id: scope.completionId,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: scope.route.candidates[0]?.model ?? scope.input.model,
    choices: [],
    system_fingerprint: null,
    error: { message: failure.message, type: failure.type, code: failure.code },
    svc: compact({
      call_id: scope.callId,
      routing: renderRouting(scope.route.routing),
      cost_micros: 0,
      cache: { read_tokens: 0, write_tokens: 0, ttl_applied: '' },
      session_id: scope.input.svc.sessionId,
      tier: { requested: 'standard', applied: 'standard' },
    }),
  };
}

/** Holds back text that could be the start of a stop sequence the service must cut itself. */
class StopCutter {
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

async function streamChat(scope: CallScope): Promise<void> {
  const { res, deps } = scope;
  let committed = false;
  let lastWrite = Date.now();
  const commitStream = () => {
    if (committed) return;
    committed = true;
    res.status(200);
    res.setHeader('content-type', 'text/event-stream; charset=utf-8');
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('connection', 'keep-alive');
    res.flushHeaders();
  };
  const write = (text: string) => {
    lastWrite = Date.now();
    res.write(text);
  };
  // Spec (Long calls 4): `: keepalive` every 20 s while the vendor opens or is silent. Until then,
  // errors before the first chunk are ordinary JSON errors.
  const keepalive = setInterval(() => {
    if (Date.now() - lastWrite < deps.keepaliveIntervalMs - 5) return;
    commitStream();
    write(': keepalive\n\n');
  }, deps.keepaliveIntervalMs);
  const send = (payload: unknown) => write(`data: ${JSON.stringify(payload)}\n\n`);
  const fail = (error: unknown, vendor: string) => {
    // After the 200: one error event, then [DONE]; never a clean end to a cut stream.
    const clientError = error instanceof VendorError ? toClientError(error, vendor) : error instanceof ServiceError ? error : new ServiceError('internal_error', 'The server had an error while processing your request.');
    if (!res.writableEnded && !scope.signal.aborted) {
      send({ error: { message: clientError.message, type: 'server_error', code: clientError.code } });
      res.write('data: [DONE]\n\n');
      res.end();
    }
  };
  try {
    let opened: Awaited<ReturnType<typeof openStream>>;
    try {
      opened = await openStream(scope);
    } catch (error) {
      if (!committed) throw error;
      deps.logger.warn('stream failed before its first chunk, after keepalive', { err: error });
      await refund(scope, 0);
      fail(error, '');
      return;
    }
    await pumpStream(scope, opened, { commit: () => { if (!committed) { setVendorHeaders(res, opened.attempt); commitStream(); } }, send, fail });
  } finally {
    clearInterval(keepalive);
  }
}

/** Opens each candidate's stream in turn and waits for its first event. */
function openStream(scope: CallScope) {
  return withCandidates(scope, async (current, signal) => {
    const iterator = current.provider.adapter.stream(current.prepared.request, { ...current.provider.context, signal, headers: callHeaders(scope, current.provider) })[Symbol.asyncIterator]();
    const first = await iterator.next();
    return { iterator, first };
  });
}

interface StreamOutput {
  commit: () => void;
  send: (payload: unknown) => void;
  fail: (error: unknown, vendor: string) => void;
}

async function pumpStream(scope: CallScope, opened: Awaited<ReturnType<typeof openStream>>, out: StreamOutput): Promise<void> {
  const { res } = scope;
  const { attempt } = opened;
  const send = out.send;
  out.commit();
  const head: CompletionHead = { id: scope.completionId, created: Math.floor(Date.now() / 1000), model: attempt.model.id };
  send(renderChunk(head, { role: 'assistant', content: '' }));

  const cutter = attempt.prepared.cutStops ? new StopCutter(attempt.prepared.cutStops) : undefined;
  let finishReason: string = 'stop';
  let vendorStopReason = '';
  let usage: Usage | undefined;
  let sawContent = false;
  let toolCalls = 0;
  const handle = (event: StreamEvent) => {
    switch (event.type) {
      case 'text': {
        sawContent ||= event.delta.length > 0;
        const text = cutter ? cutter.push(event.delta) : event.delta;
        if (text) send(renderChunk(head, { content: text }));
        break;
      }
      case 'tool_call_start':
        toolCalls += 1;
        send(renderChunk(head, { tool_calls: [{ index: event.index, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }] }));
        break;
      case 'tool_call_delta':
        send(renderChunk(head, { tool_calls: [{ index: event.index, function: { arguments: event.arguments } }] }));
        break;
      case 'finish':
        finishReason = event.finishReason;
        vendorStopReason = event.vendorStopReason;
        break;
      case 'usage':
        usage = event.usage;
        break;
    }
  };
  try {
    let step = opened.value.first;
    while (!step.done) {
      handle(step.value);
      step = await opened.value.iterator.next();
    }
    if (cutter) {
      const rest = cutter.flush();
      if (rest) send(renderChunk(head, { content: rest }));
      if (cutter.done) finishReason = 'stop';
    }
    const finalUsage = usage ?? { inputTokens: 0, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0 };
    const noAnswer = noAnswerOf(finishReason, sawContent ? 'x' : '', toolCalls, finalUsage, attempt.prepared.request.maxTokens);
    const { svc, cost } = svcObject(scope, attempt, finalUsage, vendorStopReason, noAnswer);
    send(renderChunk(head, {}, finishReason));
    await Promise.all([noAnswer ? undefined : settle(scope, attempt, finalUsage, cost), refund(scope, finalUsage.inputTokens + finalUsage.outputTokens)]);
    send(renderUsageChunk(head, finalUsage, svc));
    res.write('data: [DONE]\n\n');
    res.end();
  } catch (error) {
    if (!(error instanceof VendorError) || error.kind !== 'aborted') scope.deps.logger.warn('stream failed after start', { vendor: attempt.model.vendor, model: attempt.model.id, err: error });
    await refund(scope, 0);
    out.fail(error, attempt.model.vendor);
  }
}
