import type { NextFunction, Request, Response } from 'express';
import { ids } from '@svc/ids';
import { trace } from '@svc/telemetry';

/** Every response carries x-request-id = req_ + 32 hex, assigned here (a client's own is not reused). */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const id = ids.requestId();
  res.locals.requestId = id;
  res.setHeader('x-request-id', id);
  trace.getActiveSpan()?.setAttribute('svc.request_id', id);
  next();
}
