import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '@svc/logger';
import type { Catalog } from '@svc/catalog';
import type { KeyRecord__Output } from '@svc/protos';
import { requestId } from './middleware/request-id';
import { httpMetrics } from './middleware/metrics';
import { errorHandler, hostRequired, notFound } from './middleware/errors';
import { requireKey } from './middleware/auth';
import type { KeyCache } from './auth/key-cache';
import { chatCompletionsHandler, type ChatDeps } from './chat/chat.handler';
import { getModelHandler, listModelsHandler } from './models/models.handler';
import { embeddingsHandler } from './embeddings/embeddings.handler';
import { autoModelsHandler } from './public/auto-models';
import { freeTierHandler } from './public/free-tier';
import { planHandler } from './public/plan';
import { createResponseHandler, deleteResponseHandler, getResponseHandler } from './responses/responses.handler';
import { conversationHandlers, type ConversationDeps } from './responses/conversations.handler';
import type { Compactor } from './responses/compactor';

export interface AppDeps {
  logger: Logger;
  catalog: Catalog;
  keyCache: KeyCache;
  lookupKey: (hash: string) => Promise<KeyRecord__Output>;
  chat: ChatDeps;
  /** The Responses API and conversations (the conversations service); absent: those routes answer 404. */
  conversations?: ConversationDeps & { compactor: Compactor; compactionModel: string };
  /** Per-address limit, mounted before authentication on every /v1 route. */
  ipLimit: express.RequestHandler;
  bodyLimitBytes: number;
  isReady: () => boolean;
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
  // JSON bodies whatever the content type says (curl -d sends form encoding); 32 MB limit.
  const json = express.json({ limit: deps.bodyLimitBytes, type: () => true, strict: false });

  const v1 = express.Router();
  v1.use(deps.ipLimit);
  v1.get('/public/catalog-export', (_req, res) => void res.setHeader('cache-control', 'public, max-age=600').json(deps.catalog.exportDocument()));
  v1.get('/public/auto-models', autoModelsHandler(deps.catalog));
  v1.get('/public/free-tier', freeTierHandler(deps.catalog));
  v1.get('/public/plan', planHandler(deps.catalog));
  v1.use(requireKey(deps.keyCache, deps.lookupKey));
  v1.get('/models', handle(listModelsHandler(deps.catalog)));
  v1.get('/models/*id', handle(getModelHandler(deps.catalog)));
  v1.post('/chat/completions', json, handle(chatCompletionsHandler(deps.chat)));
  v1.post('/embeddings', json, handle(embeddingsHandler(deps.chat)));
  if (deps.conversations) {
    const responses = { ...deps.chat, ...deps.conversations };
    v1.post('/responses', json, handle(createResponseHandler(responses)));
    v1.get('/responses/:id', handle(getResponseHandler(responses)));
    v1.delete('/responses/:id', handle(deleteResponseHandler(responses)));
    const conversations = conversationHandlers(deps.conversations);
    v1.post('/conversations', json, handle(conversations.create));
    v1.get('/conversations/:id', handle(conversations.get));
    v1.post('/conversations/:id', json, handle(conversations.update));
    v1.delete('/conversations/:id', handle(conversations.delete));
    v1.get('/conversations/:id/items', handle(conversations.listItems));
    v1.post('/conversations/:id/items', json, handle(conversations.addItems));
  }
  app.use('/v1', v1);

  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
