import type { Request, Response } from 'express';
import type { KeyRecord__Output } from '@svc/protos';
import { renderEmbeddings, runEmbeddingsCall } from '@svc/call';
import { eachOnItsOwn, type ChatDeps } from '../chat/chat.handler';
import { requireScopes } from '../auth/authenticate';
import { applyHeaders, applyServedHeaders, billingPort, clientSignal, forwardedSimulatorHeaders, tokenGate, withRateLimitHeaders } from '../calls/ports';
import { parseEmbeddingsRequest, resolveEmbeddingModel } from './request';
import { callGate } from '../limits/ip-limit';

/** What the embeddings endpoint uses of the chat dependencies. */
export type EmbeddingsDeps = Pick<ChatDeps, 'catalog' | 'backends' | 'billing' | 'usage' | 'keyLimiter' | 'logger' | 'simUrl' | 'vendorKeys' | 'forwardSimHeaders' | 'attemptTimeoutMs' | 'ownKeys' | 'oneWrite'>;

/**
 * POST /v1/embeddings (scope embeddings): parse → run the billed call (@svc/call
 * runEmbeddingsCall: one attempt on the named model, no fallback) → render.
 */
export function embeddingsHandler(deps: EmbeddingsDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const key = res.locals.key as KeyRecord__Output;
    try {
      requireScopes(key, ['embeddings']);
      const input = parseEmbeddingsRequest(req.body);
      const model = resolveEmbeddingModel(deps.catalog, key, input.model);
      const signal = clientSignal(res);
      const outcome = await (deps.oneWrite ?? eachOnItsOwn)(() =>
        runEmbeddingsCall(
          {
            catalog: deps.catalog,
            billing: deps.billing ?? billingPort(deps.backends),
            usage: deps.usage,
            tokens: tokenGate(deps.keyLimiter),
            ownKeys: deps.ownKeys,
            vendors: { simUrl: deps.simUrl, keys: deps.vendorKeys },
            logger: deps.logger,
            attemptTimeoutMs: deps.attemptTimeoutMs,
          },
          { model, inputs: input.inputs, ...(input.dimensions !== undefined ? { dimensions: input.dimensions } : {}) },
          { key, gate: callGate(res) },
          { simulatorHeaders: forwardedSimulatorHeaders(deps.forwardSimHeaders, req.headers) },
          signal,
        ),
      );
      // The client left: nothing to answer and nothing billed (spec: Long calls 6).
      if (!outcome) return;
      applyHeaders(res, outcome.headers);
      applyServedHeaders(res, outcome.served);
      res.status(200).json(
        renderEmbeddings(outcome.vectors, input.encodingFormat, outcome.promptTokens, {
          call_id: outcome.callId,
          vendor: outcome.served.vendor,
          model_served: outcome.served.model,
          cost_micros: outcome.costMicros,
          ...(outcome.served.byok ? { byok: true } : {}),
          tokens_estimated: outcome.tokensEstimated,
        }),
      );
    } catch (error) {
      await withRateLimitHeaders(deps.keyLimiter, key, error, res);
      throw error;
    }
  };
}
