import type { NextFunction, Request, Response } from 'express';
import type { StatusRecorder, StatusService } from '@svc/backends';

/**
 * GET /v1/status (public, the per-address limit applies): the live status document, served from
 * memory (libs/backends status/status-service.ts recomputes it every 30 s, shared by every
 * replica). Nothing about any organization or call is in it.
 */
export function statusHandler(status: Pick<StatusService, 'document'>) {
  return async (_req: Request, res: Response): Promise<void> => {
    res.setHeader('cache-control', 'no-cache');
    res.status(200).json(await status.document());
  };
}

/**
 * The `api` component's measurements: every /v1 request, once, when it ends — failed when it was
 * answered 5xx; a request whose client left before an answer is not counted.
 */
export function apiMeasurements(recorder: Pick<StatusRecorder, 'record'>) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const startedAt = performance.now();
    res.once('finish', () => recorder.record('api', res.statusCode < 500, performance.now() - startedAt));
    next();
  };
}
