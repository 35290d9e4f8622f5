import type { NextFunction, Request, Response } from 'express';
import { trace } from '@svc/telemetry';
import type { KeyRecord__Output } from '@svc/protos';
import { identify, extractKey, refuseSuspended } from '../auth/authenticate';
import type { KeyCache } from '../auth/key-cache';
import type { KeyLimiter } from '../limits/key-limits';
import { setRateLimitHeaders } from '../calls/ports';

/** The routes whose responses carry the key's rate-limit headers (spec: Limits; RULINGS 6). */
const RATE_LIMITED = /^\/(chat\/completions|embeddings|responses)(\/|$)/;

/**
 * Resolves the key for every /v1 route except the public ones; the record goes to res.locals.key.
 * A suspended organization's key is known: on the rate-limited routes its 403 carries the key's
 * rate-limit headers like every refusal after the key is known (RULINGS 6).
 */
export function requireKey(cache: KeyCache, lookup: (hash: string) => Promise<KeyRecord__Output>, keyLimiter?: Pick<KeyLimiter, 'peek'>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = extractKey(req.headers.authorization, req.headers['x-api-key'] as string | undefined);
    identify(key, cache, lookup).then(
      (record) => {
        try {
          refuseSuspended(record);
        } catch (refusal) {
          if (!keyLimiter || !RATE_LIMITED.test(req.path)) return next(refusal);
          setRateLimitHeaders(keyLimiter, record, res).then(
            () => next(refusal),
            () => next(refusal),
          );
          return;
        }
        res.locals.key = record;
        trace.getActiveSpan()?.setAttributes({ 'svc.organization_id': record.organization_id, 'svc.key_id': record.key_id });
        next();
      },
      (error) => next(error),
    );
  };
}
