import { ServiceError } from '@svc/errors';
import { ids } from '@svc/ids';
import type { EmbeddingModel } from '@svc/catalog';
import { priceCall } from '@svc/pricing';
import { VendorError, ownKeyRejected, resolveServing, type EmbeddingResult } from '@svc/vendors';
import { CallLedger } from './ledger';
import { AttemptDeadline } from './attempts';
import { usageBillingFields } from './billing';
import { estimateEmbeddingTokens } from './tokens';
import { toClientError } from './vendor-errors';
import { passedGate, type Caller } from './ports';
import type { CallDeps, CallPolicy } from './types';

/** A validated embeddings request: the model already resolved against the caller's access. */
export interface EmbeddingsCallInput {
  model: EmbeddingModel;
  inputs: string[];
  dimensions?: number;
}

export interface EmbeddingsCallResult {
  vectors: number[][];
  /** The vendor's count, or the estimate where the vendor reports none (tokensEstimated). */
  promptTokens: number;
  tokensEstimated: boolean;
  callId: string;
  costMicros: number;
  served: { vendor: string; model: string; byok: boolean };
  headers: Record<string, string>;
}

export type EmbeddingsCallDeps = Pick<CallDeps, 'catalog' | 'billing' | 'usage' | 'tokens' | 'ownKeys' | 'vendors' | 'logger' | 'attemptTimeoutMs'>;

/**
 * One billed embeddings call, on the same skeleton as chat (CallLedger: admission and the key's
 * token charge together, release on failure, settle once). The named embedding model is served as
 * named, in one attempt: another model's vectors would not be comparable with the caller's, so
 * there is no fallback. Tokens are the vendor's count, or one per four characters for the vendor
 * whose catalog entry says it reports none; that estimate is what admission and the key's token
 * bucket were charged, so the refund only moves when the vendor's count differs.
 * Undefined when the caller gave up before the answer could be delivered (costs nothing).
 */
export async function runEmbeddingsCall(deps: EmbeddingsCallDeps, input: EmbeddingsCallInput, caller: Caller, policy: Pick<CallPolicy, 'simulatorHeaders' | 'ids'>, signal: AbortSignal): Promise<EmbeddingsCallResult | undefined> {
  const { key } = caller;
  const { model } = input;
  const callId = policy.ids?.callId ?? ids.callId();
  const ledger = new CallLedger(callId, key, deps);
  const feePercent = deps.catalog.data.plans[key.plan === 'free' ? 'free' : 'paid'].service_fee_percent;
  try {
    // Spec (Authentication 8): the organization's own key for the vendor serves when there is one.
    const ownKeys = await deps.ownKeys.forOrganization(key.organization_id, key.byok_vendors ?? []);
    const { provider, byok } = resolveServing(deps.catalog, model, deps.vendors.simUrl, deps.vendors.keys, { keys: ownKeys, vendors: key.byok_vendors ?? [] });
    const embed = provider?.adapter.embed;
    if (!provider || !embed) throw new ServiceError('no_provider_available', `No provider is configured to serve embeddings for '${model.id}'.`);

    const estimate = estimateEmbeddingTokens(input.inputs);
    // Both run to the end, so a failure of one never leaves the other's charge behind.
    const reserve = priceEmbeddings(model, estimate, byok, false, feePercent);
    const [passed, admitted, charge] = await Promise.allSettled([
      passedGate(caller),
      ledger.admit({ micros: reserve.cost_micros, listMicros: reserve.list_micros }, { byok, auto: false, inputTokens: estimate }),
      ledger.chargeTokens(estimate),
    ]);
    if (passed.status === 'rejected') throw passed.reason;
    if (admitted.status === 'rejected') throw admitted.reason;
    if (charge.status === 'rejected') throw charge.reason;
    const admission = admitted.value;
    if (admission.free && !model.free) {
      throw new ServiceError('free_tier_model', `The model '${model.id}' is not on the free model list. On the Free plan, use a free model or top up to use it.`, { param: 'model' });
    }

    let result: EmbeddingResult;
    const deadline = new AttemptDeadline(signal, deps.attemptTimeoutMs);
    try {
      result = await embed.call(
        provider.adapter,
        { model: model.upstream_id, input: input.inputs, ...(input.dimensions !== undefined ? { dimensions: input.dimensions } : {}) },
        { ...provider.context, signal: deadline.signal, headers: provider.simulated && policy.simulatorHeaders && Object.keys(policy.simulatorHeaders).length > 0 ? policy.simulatorHeaders : undefined },
      );
      if (result.vectors.length !== input.inputs.length || !result.vectors.every(Array.isArray)) {
        throw new VendorError('bad_response', `vendor answered ${result.vectors.length} vectors for ${input.inputs.length} inputs`);
      }
    } catch (error) {
      if (!(error instanceof VendorError)) throw error;
      if (byok && error.kind === 'auth') throw ownKeyRejected(model.vendor);
      if (error.kind === 'aborted') {
        // The client left: nothing to answer and nothing billed (spec: Long calls 6).
        await ledger.refundTokens(0);
        ledger.release();
        return undefined;
      }
      deps.logger.warn('vendor attempt failed', { vendor: model.vendor, model: model.id, attempt: 1, kind: error.kind, status: error.options.status });
      throw toClientError(error, model.vendor);
    } finally {
      deadline.clear();
    }

    const estimated = !provider.vendor.reports_embedding_tokens || result.promptTokens === undefined;
    const promptTokens = estimated ? estimate : (result.promptTokens ?? 0);
    const cost = priceEmbeddings(model, promptTokens, byok, admission.free, feePercent);
    await ledger.refundTokens(promptTokens);
    // A disconnected call costs nothing.
    if (signal.aborted) {
      ledger.release();
      return undefined;
    }
    await ledger.settle({
      kind: 'embeddings',
      vendor: model.vendor,
      model: model.id,
      line: '',
      input_tokens: promptTokens,
      output_tokens: 0,
      cached_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      vendor_micros: cost.vendor_micros,
      service_fee_micros: cost.service_fee_micros,
      call_fee_micros: cost.call_fee_micros,
      cost_micros: cost.cost_micros,
      direct_micros: cost.list_micros,
      byok,
      occurred_at_ms: Date.now(),
      ...usageBillingFields(key, admission, false),
    });
    return { vectors: result.vectors, promptTokens, tokensEstimated: estimated, callId, costMicros: cost.cost_micros, served: { vendor: model.vendor, model: model.id, byok }, headers: ledger.headers };
  } catch (error) {
    await ledger.refuse(error);
    ledger.release();
    throw error;
  }
}

/**
 * Input tokens at the model's list price, the plan's service fee on top, no call fee (a named
 * model); vendor_micros 0 on own keys; nothing charged under the Free limits.
 */
function priceEmbeddings(model: EmbeddingModel, promptTokens: number, byok: boolean, free: boolean, feePercent: number) {
  const cost = priceCall({
    price: model.pricing,
    usage: { inputTokens: promptTokens, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0 },
    serviceFeePercent: free ? 0 : feePercent,
    callFeeMicros: 0,
    byok,
  });
  return free ? { ...cost, cost_micros: 0, service_fee_micros: 0 } : cost;
}
