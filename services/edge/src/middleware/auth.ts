import type { NextFunction, Request, Response } from 'express';
import { trace } from '@svc/telemetry';
import type { KeyRecord__Output } from '@svc/protos';
import { authenticate, extractKey } from '../auth/authenticate';
import type { KeyCache } from '../auth/key-cache';

/** Resolves the key for every /v1 route except the public ones; the record goes to res.locals.key. */
export function requireKey(cache: KeyCache, lookup: (hash: string) => Promise<KeyRecord__Output>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = extractKey(req.headers.authorization, req.headers['x-api-key'] as string | undefined);
    authenticate(key, cache, lookup).then(
      (record) => {
        res.locals.key = record;
        trace.getActiveSpan()?.setAttributes({ 'svc.organization_id': record.organization_id, 'svc.key_id': record.key_id });
        next();
      },
      (error) => next(error),
    );
  };
}
