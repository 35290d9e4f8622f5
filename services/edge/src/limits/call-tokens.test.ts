import type { Response } from 'express';
import { ServiceError } from '@svc/errors';
import type { KeyLimiter } from './key-limits';
import { chargeTokens, onRefusal, refundTokens, type CallTokens } from './call-tokens';

const LIMITS = { requestsPerMinute: 600, tokensPerMinute: 1000 };

function setup(options: { headersSent?: boolean } = {}) {
  const set: Record<string, string> = {};
  const res = { headersSent: options.headersSent ?? false, setHeader: (name: string, value: string) => void (set[name] = value) } as unknown as Response;
  const keyLimiter = {
    check: jest.fn(async (_key: string, _limits: unknown, tokens: number) => ({ headers: { 'x-ratelimit-remaining-tokens': String(1000 - tokens) }, charged: tokens })),
    refund: jest.fn(async (_key: string, _limits: unknown, _charged: number, actual: number) => ({ 'x-ratelimit-remaining-tokens': String(1000 - actual) })),
    peek: jest.fn(async () => ({ 'x-ratelimit-remaining-tokens': '1000', 'x-ratelimit-limit-tokens': '1000' })),
  } satisfies KeyLimiter;
  const call: CallTokens = { keyLimiter, keyId: 'key_1', limits: LIMITS, bucket: { charged: 0, checked: false } };
  return { res, set, keyLimiter, call };
}

describe('call tokens', () => {
  it('charges the estimate, then refunds to the real count once, with the headers after each', async () => {
    const { res, set, keyLimiter, call } = setup();
    await chargeTokens(call, 40, res);
    expect(call.bucket).toEqual({ charged: 40, checked: true });
    expect(set['x-ratelimit-remaining-tokens']).toBe('960');
    await refundTokens(call, 25, res);
    expect(keyLimiter.refund).toHaveBeenCalledWith('key_1', LIMITS, 40, 25);
    expect(set['x-ratelimit-remaining-tokens']).toBe('975');
    await refundTokens(call, 25, res);
    expect(keyLimiter.refund).toHaveBeenCalledTimes(1);
  });

  it('leaves the headers alone once they are sent', async () => {
    const { res, set, call } = setup({ headersSent: true });
    call.bucket.charged = 10;
    await refundTokens(call, 5, res);
    expect(set).toEqual({});
  });

  it('on a refusal before the check: peeks the headers onto the error without overriding its own', async () => {
    const { res, keyLimiter, call } = setup();
    const error = new ServiceError('invalid_value', 'bad', { headers: { 'x-ratelimit-limit-tokens': 'own' } });
    await onRefusal(call, error, res);
    expect(keyLimiter.peek).toHaveBeenCalledTimes(1);
    expect(error.headers).toEqual({ 'x-ratelimit-limit-tokens': 'own', 'x-ratelimit-remaining-tokens': '1000' });
    expect(keyLimiter.refund).not.toHaveBeenCalled();
  });

  it('on a refusal after the check: no peek, and the whole charge goes back', async () => {
    const { res, keyLimiter, call } = setup();
    await chargeTokens(call, 30, res);
    const error = new ServiceError('insufficient_credits', 'no credit');
    await onRefusal(call, error, res);
    expect(keyLimiter.peek).not.toHaveBeenCalled();
    expect(keyLimiter.refund).toHaveBeenCalledWith('key_1', LIMITS, 30, 0);
    expect(call.bucket.charged).toBe(0);
  });

  it('does not touch an unexpected error, but still gives the charge back', async () => {
    const { res, keyLimiter, call } = setup();
    call.bucket = { charged: 7, checked: true };
    await onRefusal(call, new Error('boom'), res);
    expect(keyLimiter.peek).not.toHaveBeenCalled();
    expect(keyLimiter.refund).toHaveBeenCalledWith('key_1', LIMITS, 7, 0);
  });
});
