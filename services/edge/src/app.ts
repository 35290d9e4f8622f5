import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '@svc/logger';
import type { Catalog } from '@svc/catalog';
import type { KeyRecord__Output } from '@svc/protos';
import { requestId } from './middleware/request-id';
import { httpMetrics } from './middleware/metrics';
import { bodyReadIdle, errorHandler, hostRequired, notFound, optionsNotFound, refuseDeclaredOverLimit, requireBody, verifyUtf8 } from './middleware/errors';
import { requireKey } from './middleware/auth';
import type { KeyLimiter } from './limits/key-limits';
import { setRateLimitHeaders } from './calls/ports';
import type { KeyCache } from './auth/key-cache';
import { chatCompletionsHandler, type ChatDeps } from './chat/chat.handler';
import { getModelHandler, listModelsHandler, type StandingOf } from './models/models.handler';
import { embeddingsHandler } from './embeddings/embeddings.handler';
import { autoModelsHandler } from './public/auto-models';
import { freeTierHandler } from './public/free-tier';
import { planHandler } from './public/plan';
import { apiMeasurements, statusHandler } from './public/status';
import { analyzerPageHandler, statusPageHandler, webMeasurements } from './public/pages';
import { analyzeHandler, type AnalyzerDeps } from './public/analyze';

/** Spec (POST /v1/public/analyze): 1 MB. */
const ANALYZER_BODY_LIMIT_BYTES = 1_000_000;
import type { StatusRecorder, StatusService } from '@svc/backends';
import { cancelResponseHandler, createResponseHandler, deleteResponseHandler, getResponseHandler } from './responses/responses.handler';
import type { BackgroundQueue } from './responses/background';
import { conversationHandlers, type ConversationDeps } from './responses/conversations.handler';
import type { Compactor } from './responses/compactor';
import type { HistoryCache } from './responses/history-cache';
import { fileHandlers, type FilesDeps } from './files/files.handler';
import { batchHandlers, type BatchesDeps } from './files/batches.handler';

export interface AppDeps {
  logger: Logger;
  catalog: Catalog;
  keyCache: KeyCache;
  lookupKey: (hash: string) => Promise<KeyRecord__Output>;
  chat: ChatDeps;
  /** The Responses API and conversations (the conversations service); absent: those routes answer 404. */
  conversations?: ConversationDeps & { compactor: Compactor; compactionModel: string; background?: BackgroundQueue; historyCache?: HistoryCache };
  /** POST /v1/public/analyze. */
  analyzer: AnalyzerDeps;
  /** The status document (GET /v1/status) and the api component's measurements. */
  status: { service: StatusService; recorder: StatusRecorder };
  /** Files (the batch service); absent: those routes answer 404. */
  files?: FilesDeps;
  /** Batches (the batch service and the workers); absent: those routes answer 404. */
  batches?: BatchesDeps;
  /** Where an organization stands for admission (svc.availability on GET /v1/models); absent: not shown from the balance. */
  standing?: StandingOf;
  /** Per-address limit, mounted before authentication on every /v1 route. */
  ipLimit: express.RequestHandler;
  bodyLimitBytes: number;
  isReady: () => boolean;
}

/**
 * RULINGS 6: once the key is known, refusals carry the rate-limit headers — also a body refused
 * before its handler runs (400 invalid_json, 413 payload_too_large). Read without taking; the
 * error goes on to the error handler unchanged.
 */
function bodyRefusalRateLimitHeaders(keyLimiter: KeyLimiter) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction): void => {
    const key = res.locals.key as KeyRecord__Output | undefined;
    if (!key || res.headersSent) {
      next(error);
      return;
    }
    setRateLimitHeaders(keyLimiter, key, res).then(
      () => next(error),
      () => next(error),
    );
  };
}

type AsyncHandler = (req: Request, res: Response) => Promise<void>;
const handle = (fn: AsyncHandler) => (req: Request, res: Response, next: NextFunction) => void fn(req, res).catch(next);

/** The public HTTP edge, built from injected dependencies (nothing happens at import time). */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', false);

  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', (_req, res) => void res.status(deps.isReady() ? 200 : 503).json({ status: deps.isReady() ? 'ready' : 'draining' }));

  app.use(requestId);
  app.use(hostRequired);
  app.use(httpMetrics);
  app.use(optionsNotFound);
  app.use(bodyReadIdle());
  // JSON bodies whatever the content type says (curl -d sends form encoding); 32 MB limit.
  // A body declared over the limit is refused before a byte of it is read (body-parser would read it all first).
  const json = [refuseDeclaredOverLimit(deps.bodyLimitBytes), express.json({ limit: deps.bodyLimitBytes, type: () => true, strict: false, verify: verifyUtf8 })];

  // Pages people look at (the status document's `web` component).
  app.get('/status', webMeasurements(deps.status.recorder), deps.ipLimit, handle(statusPageHandler(deps.status.service)));
  app.get('/analyze', webMeasurements(deps.status.recorder), deps.ipLimit, analyzerPageHandler());

  const v1 = express.Router();
  v1.use(apiMeasurements(deps.status.recorder));
  v1.use(deps.ipLimit);
  v1.get('/status', handle(statusHandler(deps.status.service)));
  v1.get('/public/catalog-export', (_req, res) => void res.setHeader('cache-control', 'public, max-age=600').json(deps.catalog.exportDocument()));
  v1.get('/public/auto-models', autoModelsHandler(deps.catalog));
  v1.get('/public/free-tier', freeTierHandler(deps.catalog));
  v1.get('/public/plan', planHandler(deps.catalog));
  // Spec (POST /v1/public/analyze): bodies over 1 MB are 413.
  const analyzerJson = [refuseDeclaredOverLimit(ANALYZER_BODY_LIMIT_BYTES), express.json({ limit: ANALYZER_BODY_LIMIT_BYTES, type: () => true, strict: false, verify: verifyUtf8 })];
  v1.post('/public/analyze', analyzerJson, handle(analyzeHandler(deps.analyzer)));
  v1.use(requireKey(deps.keyCache, deps.lookupKey, deps.chat.keyLimiter));
  v1.get('/models', handle(listModelsHandler(deps.catalog, deps.standing)));
  v1.get('/models/*id', handle(getModelHandler(deps.catalog, deps.standing)));
  // Chat, embeddings and responses: a refused body still carries the key's rate-limit headers.
  const limitedJson = [requireBody, ...json, bodyRefusalRateLimitHeaders(deps.chat.keyLimiter)];
  v1.post('/chat/completions', limitedJson, handle(chatCompletionsHandler(deps.chat)));
  v1.post('/embeddings', limitedJson, handle(embeddingsHandler(deps.chat)));
  if (deps.conversations) {
    const responses = { ...deps.chat, ...deps.conversations };
    v1.post('/responses', limitedJson, handle(createResponseHandler(responses)));
    v1.get('/responses/:id', handle(getResponseHandler(responses)));
    v1.post('/responses/:id/cancel', handle(cancelResponseHandler(responses)));
    v1.delete('/responses/:id', handle(deleteResponseHandler(responses)));
    const conversations = conversationHandlers(deps.conversations);
    v1.post('/conversations', json, handle(conversations.create));
    v1.get('/conversations/:id', handle(conversations.get));
    v1.post('/conversations/:id', json, handle(conversations.update));
    v1.delete('/conversations/:id', handle(conversations.delete));
    v1.get('/conversations/:id/items', handle(conversations.listItems));
    v1.post('/conversations/:id/items', json, handle(conversations.addItems));
  }
  if (deps.files) {
    // Multipart, read as a stream (no JSON body parser: RULINGS 3, the 100 MiB file limit applies instead).
    const files = fileHandlers(deps.files);
    v1.post('/files', handle(files.upload));
    v1.get('/files', handle(files.list));
    v1.get('/files/:id', handle(files.get));
    v1.delete('/files/:id', handle(files.delete));
    v1.get('/files/:id/content', handle(files.content));
  }
  if (deps.batches) {
    const batches = batchHandlers(deps.batches);
    v1.post('/batches', requireBody, json, handle(batches.create));
    v1.get('/batches', handle(batches.list));
    v1.get('/batches/:id', handle(batches.get));
    v1.post('/batches/:id/cancel', handle(batches.cancel));
  }
  app.use('/v1', v1);

  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
