import type { Response } from 'express';
import { ServiceError } from '@svc/errors';
import type { CallerKey, ServedBy, TokenGate } from '@svc/call';
import { simulatorHeaders } from '@svc/vendors';
import { keyLimitsOf, type KeyLimiter } from '../limits/key-limits';

/**
 * The edge's side of the call pipeline (@svc/call): its ports over the edge's gRPC clients and
 * Redis limiter, and the few HTTP things a handler does around a call (headers in, headers out).
 */

export { routerPort, billingPort } from '@svc/backends';

/** The key's request and token buckets (limits/key-limits.ts) as the pipeline's token gate. */
export function tokenGate(keyLimiter: KeyLimiter): TokenGate {
  return {
    check: (key, tokens) => keyLimiter.check(key.key_id, keyLimitsOf(key), tokens),
    refund: (key, charged, actual) => keyLimiter.refund(key.key_id, keyLimitsOf(key), charged, actual),
    peek: (key) => peekHeaders(keyLimiter, key),
  };
}

/**
 * The key's rate-limit headers read without taking anything; for a key on the Free plan the Free
 * minute and day (x-svc-plan free), as its answered calls and Free refusals carry them.
 */
export function peekHeaders(keyLimiter: Pick<KeyLimiter, 'peek'>, key: CallerKey & { rpm_limit?: number | null; tpm_limit?: number | null }): Promise<Record<string, string>> {
  return keyLimiter.peek(key.key_id, keyLimitsOf(key), key.plan === 'free' ? key.organization_id : undefined);
}

/** The x-sim-* headers the simulator may read, when the edge forwards them. */
export function forwardedSimulatorHeaders(forward: boolean, headers: Record<string, string | string[] | undefined>): Record<string, string> | undefined {
  return forward ? simulatorHeaders(headers) : undefined;
}

/**
 * RULINGS 6: once the key is known, refusals carry the rate-limit headers too. A refusal from
 * inside the pipeline already has them; one before it (a bad body) reads them without taking.
 */
export async function withRateLimitHeaders(keyLimiter: KeyLimiter, key: CallerKey, error: unknown, res: Response): Promise<void> {
  if (!(error instanceof ServiceError) || res.headersSent) return;
  if (Object.keys(error.headers).some((name) => name.startsWith('x-ratelimit-'))) return;
  const headers = await peekHeaders(keyLimiter, key);
  for (const [name, value] of Object.entries(headers)) if (!(name in error.headers)) error.headers[name] = value;
}

/** The key's rate-limit headers, read without taking, set on `res` (a refusal before any handler ran: RULINGS 6). */
export async function setRateLimitHeaders(keyLimiter: Pick<KeyLimiter, 'peek'>, key: CallerKey, res: Response): Promise<void> {
  applyHeaders(res, await peekHeaders(keyLimiter, key));
}

export function applyHeaders(res: Response, headers: Record<string, string>): void {
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

/** x-svc-vendor, x-svc-byok and x-svc-dropped-params of an answered call. */
export function servedHeaders(served: Pick<ServedBy, 'vendor' | 'byok'> & { dropped?: string[] }): Record<string, string> {
  return {
    'x-svc-vendor': served.vendor,
    ...(served.byok ? { 'x-svc-byok': 'true' } : {}),
    ...(served.dropped && served.dropped.length > 0 ? { 'x-svc-dropped-params': served.dropped.join(',') } : {}),
  };
}

export function applyServedHeaders(res: Response, served: Pick<ServedBy, 'vendor' | 'byok'> & { dropped?: string[] }): void {
  applyHeaders(res, servedHeaders(served));
}

/** An AbortController that aborts when the client goes away before the response is finished. */
export function clientSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}
