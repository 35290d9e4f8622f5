import { ServiceError } from '@svc/errors';
import { hex32 } from '@svc/ids';
import { type Catalog, type ChatModel } from '@svc/catalog';
import { batchAdapterFor, resolveServing, type BatchProtocol, type ChatResult, type ResolvedProvider } from '@svc/vendors';
import { routeNamed } from '@svc/routing';
import type { ChatRequestInput } from '../request/chat-request';
import { prepareForModel, cutAtStop, type Prepared } from '../prepare';
import { planCache } from '../cache/cache-policy';
import { estimateCall, type CallAdmission } from '../billing';
import { CallLedger } from '../ledger';
import { pendingImages, routeQuery, type CallPlan } from '../plan';
import { estimateInputTokens } from '../tokens';
import { noAnswerOf, type Attempt } from '../attempts';
import { finish, svcObject, type OutcomeContext } from '../outcome';
import type { UnaryCallResult } from '../run-chat-call';
import type { Caller } from '../ports';
import type { CallDeps, CallPolicy } from '../types';
import { BATCH_DEADLINE_MS } from '../tier';


/** A row of the vendor-batch pool (conversations.response_pool). */
export interface PoolRow {
  response_id: string;
  organization_id: string;
  vendor: string;
  model: string;
  job: Record<string, unknown>;
  enqueued_at_ms: number;
  /** "" until sent. */
  vendor_batch_id: string;
  vendor_batch: unknown;
}

export interface PoolGroup {
  organization_id: string;
  vendor: string;
  rows: PoolRow[];
}

/**
 * A background turn served inside the organization's vendor batch (spec: POST /v1/responses
 * `background`, "waiting for its batch" and "sent inside a vendor batch"). The pipeline's own
 * steps, split where a vendor batch splits the call: the edge decides a turn is batch-bound and
 * checks its estimate against the balance (batchBoundModel, checkQueuedCredit); the workers build
 * each line's vendor request when the pool flushes (prepareBatchLine) and, once the vendor batch
 * answered, turn the line's ChatResult into the svc object, cost and usage record a live call
 * produces (batchLineOutcome: outcome.ts svcObject and finish, at the batch price, billed once
 * under the response's call id).
 */

/** The policy every pool line runs under: batch tier, background, cache ttl `none` unless the request set one (Caching rules 6). */
export function poolLinePolicy(responseId: string, simulatorHeaders?: Record<string, string>): CallPolicy {
  return {
    stream: false,
    tier: 'batch',
    background: true,
    cacheTtl: 'none',
    api: 'responses',
    ...(simulatorHeaders && Object.keys(simulatorHeaders).length > 0 ? { simulatorHeaders } : {}),
    ids: { callId: `call_${responseId.slice(5)}`, completionId: responseId },
  };
}

/**
 * The model a background turn's vendor batch runs on, or undefined when the turn runs as its own
 * job: batch-bound is `background` + svc.deadline of 24 h or more + a named model whose catalog
 * entry has a batch tier and whose protocol has a vendor batch adapter. Auto is never batch-bound
 * (its pick is made when the job runs).
 */
export function batchBoundModel(catalog: Catalog, input: Pick<ChatRequestInput, 'model' | 'svc'>, background: boolean): ChatModel | undefined {
  if (!background || input.svc.deadlineMs === undefined || input.svc.deadlineMs < BATCH_DEADLINE_MS) return undefined;
  if (catalog.isVirtual(input.model)) return undefined;
  const model = catalog.chatModel(input.model);
  if (!model || !model.batch) return undefined;
  const protocol = batchProtocolOf(catalog, model);
  return protocol && batchAdapterFor(protocol) ? model : undefined;
}

/** The wire protocol a model's vendor batch speaks: the model's own, else its vendor's. */
export function batchProtocolOf(catalog: Catalog, model: ChatModel): BatchProtocol | undefined {
  return model.protocol ?? catalog.vendor(model.vendor)?.protocol;
}

/**
 * Spec (Errors, 402 insufficient_credits: "zero balance means no service ... also a batch or
 * background response whose estimate exceeds the balance"; POST /v1/responses: "A background
 * response headed for a batch whose estimated cost exceeds the available balance gets 402 and
 * nothing is stored"). Admission runs under a throwaway call id and is released at once (nothing
 * stays reserved): its own refusal stands (zero balance without the Free allowance). The turn is
 * then estimated (input estimate + max output tokens) at the price it is headed for and compared
 * with the balance admission reports (x-svc-balance-micros): a batch-bound turn at the batch
 * price against a paid balance (none on the Free limits); a turn that runs as its own job on a
 * named model at the standard price, unless on the Free limits (it runs under them). An auto
 * turn's model is chosen when it runs: only the zero-balance question applies. A named model on
 * the organization's own vendor key skips it all.
 */
export async function checkQueuedCredit(deps: CallDeps, input: ChatRequestInput, caller: Caller, model: ChatModel | undefined, maxOutputTokens: number, batchBound: boolean): Promise<{ estimateMicros: number; balanceMicros: number | undefined }> {
  const { key } = caller;
  const byok = model !== undefined && (key.byok_vendors ?? []).includes(model.vendor);
  const inputTokens = estimateInputTokens(input);
  const estimate = model ? estimateCall(deps.catalog, model, { inputTokens, outputTokens: maxOutputTokens, auto: false, byok, feePercent: deps.catalog.data.plans.paid.service_fee_percent, tier: batchBound ? 'batch' : 'standard' }) : { micros: 0, listMicros: 0 };
  if (byok) return { estimateMicros: estimate.micros, balanceMicros: undefined };
  const ledger = new CallLedger(`call_${hex32()}`, key, { billing: deps.billing, usage: deps.usage, logger: deps.logger });
  let admission: CallAdmission;
  try {
    admission = await ledger.admit(estimate, { byok: false, auto: model === undefined, inputTokens, maxTokens: maxOutputTokens });
  } finally {
    ledger.release();
  }
  const header = admission.headers['x-svc-balance-micros'];
  const balance = header === undefined ? undefined : Number(header);
  if (admission.free && !batchBound) return { estimateMicros: estimate.micros, balanceMicros: balance };
  const available = admission.free ? 0 : balance;
  if (model && available !== undefined && estimate.micros > available) {
    const where = batchBound ? 'goes into a vendor batch at batch price' : 'runs as its own job at up to the standard price';
    const lower = batchBound ? 'Top up, lower max_output_tokens, or use a shorter deadline.' : 'Top up or lower max_output_tokens.';
    throw new ServiceError('insufficient_credits', `This background response ${where}; its estimated cost is ${estimate.micros} micros and the organization's balance is ${available} micros. ${lower}`, { headers: { 'x-svc-balance-micros': String(balance ?? 0) } });
  }
  return { estimateMicros: estimate.micros, balanceMicros: balance };
}

/** One pool line as the vendor batch takes it: the model, where it is served, and its prepared request. */
export interface BatchLinePlan {
  model: ChatModel;
  provider: ResolvedProvider;
  byok: boolean;
  prepared: Prepared;
  route: ReturnType<typeof routeNamed>;
}

/**
 * A pool line's vendor request, built the way an attempt builds it (routing of the named model
 * with the key's access, the organization's own key where it has one, prepareForModel with the
 * cache rules under the line's ttl). No candidate falls back inside a vendor batch: the named
 * model serves. Throws the refusal a live call would (model_not_found, ...).
 */
export async function prepareBatchLine(deps: CallDeps, input: ChatRequestInput, caller: Caller, policy: CallPolicy): Promise<BatchLinePlan> {
  const { key } = caller;
  const query = routeQuery(input, caller, false, policy);
  const route = routeNamed(deps.catalog, { ...query, free_plan: false });
  const model = deps.catalog.chatModel(route.candidates[0]?.model ?? input.model);
  if (!model) throw new ServiceError('model_not_found', `The model '${input.model}' does not exist or you do not have access to it.`, { param: 'model' });
  const byokVendors = key.byok_vendors ?? [];
  const ownKeys = byokVendors.includes(model.vendor) ? await deps.ownKeys.forOrganization(key.organization_id, byokVendors) : {};
  const { provider, byok } = resolveServing(deps.catalog, model, deps.vendors.simUrl, deps.vendors.keys, { keys: ownKeys, vendors: byokVendors });
  if (!provider) throw new ServiceError('no_provider_available', 'No provider is available for this request right now.');
  // Its http(s) images go into the vendor batch as bytes, as a live call sends them.
  await pendingImages(deps, input);
  const cacheInput = policy.cacheTtl && input.svc.cacheTtl === undefined ? { ...input, svc: { ...input.svc, cacheTtl: policy.cacheTtl } } : input;
  const cache = planCache(cacheInput, { organizationId: key.organization_id, state: deps.cacheState, now: Date.now() });
  const prepared = prepareForModel(cacheInput, model, await cache.forModel(model, provider.vendor));
  return { model, provider, byok, prepared, route };
}

/**
 * A pool line's answer from the vendor batch as the same svc object, cost and usage record a live
 * call produces (outcome.ts), at the batch price with svc.tier {requested batch, applied batch}.
 * The usage record carries the response's call id, so billing takes it once however often a
 * result is read. Stop sequences the vendor lacks are cut as for a live answer.
 */
export async function batchLineOutcome(deps: CallDeps, input: ChatRequestInput, caller: Caller, policy: CallPolicy, line: BatchLinePlan, result: ChatResult): Promise<UnaryCallResult> {
  const { callId, completionId } = policy.ids ?? { callId: `call_${hex32()}`, completionId: `resp_${hex32()}` };
  if (line.prepared.cutStops && result.content) {
    const cut = cutAtStop(result.content, line.prepared.cutStops);
    if (cut.cut) Object.assign(result, { content: cut.text, finishReason: 'stop' });
  }
  const ledger = new CallLedger(callId, caller.key, { billing: deps.billing, usage: deps.usage, logger: deps.logger });
  // Admission ran when the turn was accepted (checkQueuedCredit); nothing is held now, and the
  // answer is billed whatever the balance became meanwhile (the vendor already did the work).
  const admission: CallAdmission = { callId, free: false, reason: '', headers: {}, reservedMicros: 0, baselineModel: '', baselineCalls: 0 };
  const inputTokens = estimateInputTokens(input);
  const plan: CallPlan = { callId, completionId, auto: false, inputTokens, route: line.route, admission, byokNamed: line.byok, ledger, query: routeQuery(input, caller, false, policy) };
  const attempt: Attempt = { model: line.model, provider: line.provider, prepared: line.prepared, attempts: 1, byok: line.byok, hiddenTool: false, tier: 'batch' };
  const context: OutcomeContext = { deps, input, caller, policy, plan, route: line.route };
  const noAnswer = noAnswerOf(result.finishReason, result.content, result.toolCalls.length, result.usage, line.prepared.request.maxTokens);
  const { svc, cost } = svcObject(context, attempt, result.usage, result.vendorStopReason, noAnswer);
  await finish(context, attempt, result.usage, cost, noAnswer);
  return {
    kind: 'unary',
    head: { id: completionId, created: Math.floor(Date.now() / 1000), model: line.model.id },
    result,
    svc,
    served: { vendor: line.model.vendor, model: line.model.id, byok: line.byok, dropped: line.prepared.dropped, maxTokens: line.prepared.request.maxTokens },
    headers: {},
  };
}


