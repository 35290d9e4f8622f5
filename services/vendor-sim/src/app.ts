import type { Logger } from '@svc/logger';
import express, { type ErrorRequestHandler, type Express, type Request } from 'express';
import { PromptCache } from './cache';
import { handler, type SimContext, type Vendor } from './engine';
import { sendError } from './http';
import { anthropicEndpoint, anthropicVendor } from './protocols/anthropic';
import { geminiEndpoint, geminiVendor } from './protocols/gemini';
import { openaiChatEndpoint, openaiEmbeddingsEndpoint, openaiVendor } from './protocols/openai';
import { decisionEndpoint } from './protocols/decision';
import type { Latency } from './timing';
import { BatchStore } from './batch/run';
import { mountOpenAIBatch } from './batch/openai-batch';
import { mountAnthropicBatch } from './batch/anthropic-batch';
import { GEMINI_BATCH_ROUTE, mountGeminiBatch } from './batch/gemini-batch';

export interface AppOptions {
  logger: Logger;
  /** Default latency (SIM_TTFT_MS, SIM_TOKENS_PER_SECOND); headers override per request. */
  latency?: Partial<Latency>;
  /** SIM_FAULT: fault spec applied to requests that send no x-sim-fault. */
  fault?: string;
  /** Shared prompt cache; tests inject one with a fake clock. */
  cache?: PromptCache;
  /** Largest accepted body (express size string). */
  bodyLimit?: string;
  /** Batches and files of this process (in memory); tests inject one with a fake clock. */
  batches?: BatchStore;
}

const GEMINI_ROUTE = /^\/(?:v1beta|v1)\/models\/[^/]+:(?:generateContent|streamGenerateContent)$/;

/** The vendor whose error shape a path gets (unknown routes and body errors included). */
function vendorFor(req: Request): Vendor {
  if (req.path.startsWith('/v1beta/') || GEMINI_ROUTE.test(req.path) || GEMINI_BATCH_ROUTE.test(req.path)) return geminiVendor;
  if (req.path.startsWith('/v1/messages')) return anthropicVendor;
  return openaiVendor;
}

export function createApp(options: AppOptions): Express {
  const ctx: SimContext = {
    logger: options.logger,
    cache: options.cache ?? new PromptCache(),
    latency: { ttftMs: options.latency?.ttftMs ?? 0, tokensPerSecond: options.latency?.tokensPerSecond ?? 0 },
    fault: options.fault ?? '',
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Bodies are read as text and parsed by each handler, so a malformed body gets the vendor's own 400.
  const body = express.text({ type: () => true, limit: options.bodyLimit ?? '32mb' });

  app.get('/healthz', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });
  app.post('/v1/chat/completions', body, handler(ctx, openaiChatEndpoint));
  app.post('/v1/embeddings', body, handler(ctx, openaiEmbeddingsEndpoint));
  app.post('/v1/decisions', body, handler(ctx, decisionEndpoint));
  app.post('/v1/messages', body, handler(ctx, anthropicEndpoint));
  app.post(GEMINI_ROUTE, body, handler(ctx, geminiEndpoint));

  const batches = options.batches ?? new BatchStore();
  mountOpenAIBatch(app, ctx, batches, body);
  mountAnthropicBatch(app, ctx, batches);
  mountGeminiBatch(app, ctx, batches);

  app.use((req, res) => {
    sendError(res, vendorFor(req).error({ kind: 'not_found', message: `Invalid URL (${req.method} ${req.path})` }));
  });

  const onError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    const status = (error as { status?: unknown }).status;
    const type = (error as { type?: unknown }).type;
    if (res.headersSent) {
      ctx.logger.warn('request failed mid-response', { path: req.path, error });
      res.destroy();
      return;
    }
    const vendor = vendorFor(req);
    if (type === 'entity.too.large') return sendError(res, vendor.error({ kind: 'too_large' }));
    if (typeof status === 'number' && status >= 400 && status < 500) return sendError(res, vendor.error({ kind: 'invalid_json' }));
    ctx.logger.warn('request failed', { path: req.path, error });
    sendError(res, vendor.error({ kind: 'internal' }));
  };
  app.use(onError);
  return app;
}
