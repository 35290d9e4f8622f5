import type { NextFunction, Request, Response } from 'express';
import { trace } from '@svc/telemetry';
import type { KeyRecord__Output } from '@svc/protos';
import { identify, extractKey, keyHash, refuseSuspended } from '../auth/authenticate';
import type { KeyCache } from '../auth/key-cache';
import type { KeyLimiter } from '../limits/key-limits';
import { setRateLimitHeaders } from '../calls/ports';
import { ipGateOf } from '../limits/ip-limit';

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
    // The per-address limit guards the key lookup: where it runs beside the request (IpGate), a
    // key the cache does not hold is looked up only once the address has passed.
    // (Not inside the cache's lookup: concurrent misses of one key share it, across addresses.)
    const gate = ipGateOf(res);
    const identified = gate && key && !cache.holds(keyHash(key)) ? gate.refusal.then((refusal) => (refusal ? Promise.reject(refusal) : identify(key, cache, lookup))) : identify(key, cache, lookup);
    identified.then(
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
