import type { Response } from 'express';
import { ServiceError } from '@svc/errors';
import type { KeyLimiter, KeyLimits } from './key-limits';

/**
 * One call's charge on its key's request and token buckets, shared by the endpoints that carry
 * the rate-limit headers (spec: Limits, "Token bucket charging"; RULINGS 6).
 */
export interface CallBucket {
  /** Tokens taken at admission and not yet given back. */
  charged: number;
  /** The check ran (its headers are already on the response). */
  checked: boolean;
}

export interface CallTokens {
  keyLimiter: KeyLimiter;
  keyId: string;
  limits: KeyLimits;
  bucket: CallBucket;
}

/** Takes one request and the estimated tokens (or throws 429 rate_limit_exceeded) and puts the six headers on the response. */
export async function chargeTokens(call: CallTokens, tokens: number, res: Response): Promise<void> {
  const result = await call.keyLimiter.check(call.keyId, call.limits, tokens);
  call.bucket.checked = true;
  call.bucket.charged = result.charged;
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
}

/** Gives back the part of the token charge the call did not use (spec: refunded to the real count). */
export async function refundTokens(call: CallTokens, actualTokens: number, res?: Response): Promise<void> {
  const charged = call.bucket.charged;
  call.bucket.charged = 0;
  if (charged === 0) return;
  const headers = await call.keyLimiter.refund(call.keyId, call.limits, charged, actualTokens);
  if (headers && res && !res.headersSent) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

/**
 * A refused call once the key is known: the refusal carries the rate-limit headers too (RULINGS
 * 6; read without taking anything when the check has not run), and the whole charge goes back.
 */
export async function onRefusal(call: CallTokens, error: unknown, res: Response): Promise<void> {
  if (error instanceof ServiceError && !res.headersSent) {
    const headers = call.bucket.checked ? {} : await call.keyLimiter.peek(call.keyId, call.limits);
    for (const [name, value] of Object.entries(headers)) if (!(name in error.headers)) error.headers[name] = value;
  }
  if (call.bucket.charged > 0) await refundTokens(call, 0);
}
