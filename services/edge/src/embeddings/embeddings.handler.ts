import type { Request, Response } from 'express';
import { ServiceError } from '@svc/errors';
import { ids } from '@svc/ids';
import type { EmbeddingModel } from '@svc/catalog';
import { priceCall } from '@svc/pricing';
import { VendorError, type EmbeddingResult } from '@svc/vendors';
import type { KeyRecord__Output } from '@svc/protos';
import type { ChatDeps } from '../chat/chat.handler';
import { requireScopes } from '../auth/authenticate';
import { ownKeyRejected, resolveServing, simulatorHeaders } from '../chat/vendors';
import { toClientError } from '../chat/vendor-errors';
import { estimateEmbeddingTokens, keyLimitsOf } from '../limits/key-limits';
import { chargeTokens, onRefusal, refundTokens, type CallTokens } from '../limits/call-tokens';
import { viewerFor } from '../models/model-object';
import { parseEmbeddingsRequest, resolveEmbeddingModel } from './request';
import { renderEmbeddings } from './render';
import { admissionKey, admissionOf, applyAdmissionHeaders, releaseCall, usageBillingFields, type CallAdmission } from '../billing/call-billing';

/** What the embeddings endpoint uses of the chat dependencies. */
export type EmbeddingsDeps = Pick<ChatDeps, 'catalog' | 'backends' | 'usage' | 'keyLimiter' | 'logger' | 'simUrl' | 'vendorKeys' | 'forwardSimHeaders' | 'attemptTimeoutMs' | 'ownKeys'>;

/**
 * POST /v1/embeddings (scope embeddings). The named embedding model is served as named, in one
 * attempt: another model's vectors would not be comparable with the caller's, so there is no
 * fallback. Tokens are the vendor's count, or one per four characters for the vendor whose
 * catalog entry says it reports none (svc.tokens_estimated); that count is charged to the key's
 * token bucket at admission, so the refund to the real count only moves when the vendor's count
 * differs from the estimate.
 */
export function embeddingsHandler(deps: EmbeddingsDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const key = res.locals.key as KeyRecord__Output;
    const tokens: CallTokens = { keyLimiter: deps.keyLimiter, keyId: key.key_id, limits: keyLimitsOf(key), bucket: { charged: 0, checked: false } };
    let admission: CallAdmission | undefined;
    let billed = false;
    try {
      requireScopes(key, ['embeddings']);
      const input = parseEmbeddingsRequest(req.body);
      const model = resolveEmbeddingModel(deps.catalog, key, input.model);
      // Spec (Authentication 8): the organization's own key for the vendor serves when there is one.
      const ownKeys = await deps.ownKeys.forOrganization(key.organization_id, key.byok_vendors ?? []);
      const { provider, byok } = resolveServing(deps.catalog, model, deps.simUrl, deps.vendorKeys, { keys: ownKeys, vendors: key.byok_vendors ?? [] });
      const embed = provider?.adapter.embed;
      if (!provider || !embed) throw new ServiceError('no_provider_available', `No provider is configured to serve embeddings for '${model.id}'.`);

      const callId = ids.callId();
      const estimate = estimateEmbeddingTokens(input.inputs);
      // Both run to the end, so a failure of one never leaves the other's charge behind.
      const reserve = priceEmbeddings(deps, key, model, estimate, byok, false);
      const [admitted, charge] = await Promise.allSettled([
        deps.backends.admit({
          call_id: callId,
          organization_id: key.organization_id,
          key_id: key.key_id,
          key: admissionKey(key),
          estimated_micros: reserve.cost_micros,
          estimated_list_micros: reserve.list_micros,
          byok: byok,
          auto: false,
          input_tokens: estimate,
        }),
        chargeTokens(tokens, estimate, res),
      ]);
      if (admitted.status === 'fulfilled') admission = admissionOf(callId, admitted.value, reserve.cost_micros);
      if (admitted.status === 'rejected') throw admitted.reason;
      if (charge.status === 'rejected') throw charge.reason;
      const call = admission as CallAdmission;
      if (call.free && !model.free) {
        throw new ServiceError('free_tier_model', `The model '${model.id}' is not on the free model list. On the Free plan, use a free model or top up to use it.`, { param: 'model' });
      }
      applyAdmissionHeaders(res, call);

      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort(new Error('client disconnected'));
      });
      let result: EmbeddingResult;
      try {
        result = await embed.call(
          provider.adapter,
          { model: model.upstream_id, input: input.inputs, ...(input.dimensions !== undefined ? { dimensions: input.dimensions } : {}) },
          {
            ...provider.context,
            signal: AbortSignal.any([controller.signal, AbortSignal.timeout(deps.attemptTimeoutMs)]),
            headers: deps.forwardSimHeaders && provider.simulated ? simulatorHeaders(req.headers) : undefined,
          },
        );
        if (result.vectors.length !== input.inputs.length || !result.vectors.every(Array.isArray)) {
          throw new VendorError('bad_response', `vendor answered ${result.vectors.length} vectors for ${input.inputs.length} inputs`);
        }
      } catch (error) {
        if (!(error instanceof VendorError)) throw error;
        if (byok && error.kind === 'auth') throw ownKeyRejected(model.vendor);
        if (error.kind === 'aborted') {
          // The client left: nothing to answer and nothing billed (spec: Long calls 6).
          await refundTokens(tokens, 0);
          return;
        }
        deps.logger.warn('vendor attempt failed', { vendor: model.vendor, model: model.id, attempt: 1, kind: error.kind, status: error.options.status });
        throw toClientError(error, model.vendor);
      }

      const estimated = !provider.vendor.reports_embedding_tokens || result.promptTokens === undefined;
      const promptTokens = estimated ? estimate : (result.promptTokens ?? 0);
      const cost = priceEmbeddings(deps, key, model, promptTokens, byok, call.free);
      await refundTokens(tokens, promptTokens, res);
      applyAdmissionHeaders(res, call);
      // A disconnected call costs nothing.
      if (controller.signal.aborted) return;
      billed = true;
      await deps.usage.record({
        call_id: callId,
        organization_id: key.organization_id,
        key_id: key.key_id,
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
        byok: byok,
        occurred_at_ms: Date.now(),
        ...usageBillingFields(key, call, false),
      });
      res.setHeader('x-svc-vendor', model.vendor);
      if (byok) res.setHeader('x-svc-byok', 'true');
      res.status(200).json(
        renderEmbeddings(result.vectors, input.encodingFormat, promptTokens, {
          call_id: callId,
          vendor: model.vendor,
          model_served: model.id,
          cost_micros: cost.cost_micros,
          ...(byok ? { byok: true } : {}),
          tokens_estimated: estimated,
        }),
      );
    } catch (error) {
      if (error instanceof ServiceError && admission) for (const [name, value] of Object.entries(admission.headers)) if (!(name in error.headers)) error.headers[name] = value;
      await onRefusal(tokens, error, res);
      throw error;
    } finally {
      if (!billed) releaseCall(deps.backends, deps.logger, key, admission);
    }
  };
}

/**
 * Input tokens at the model's list price, the plan's service fee on top, no call fee (a named
 * model); vendor_micros 0 on own keys; nothing charged under the Free limits.
 */
function priceEmbeddings(deps: EmbeddingsDeps, key: KeyRecord__Output, model: EmbeddingModel, promptTokens: number, byok: boolean, free: boolean) {
  const cost = priceCall({
    price: model.pricing,
    usage: { inputTokens: promptTokens, outputTokens: 0, cachedTokens: 0, cacheWriteTokens: 0 },
    serviceFeePercent: free ? 0 : viewerFor(deps.catalog, key).feePercent,
    callFeeMicros: 0,
    byok,
  });
  return free ? { ...cost, cost_micros: 0, service_fee_micros: 0 } : cost;
}
