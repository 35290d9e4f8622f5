import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import { CallLedger } from './ledger';
import type { TokenGate } from './ports';

const KEY = { key_id: 'key_1', organization_id: 'org_1', plan: 'paid', fallback_policy: 'cross_vendor' };

function setup() {
  const tokens = {
    check: jest.fn(async (_key: unknown, tokens: number) => ({ headers: { 'x-ratelimit-remaining-tokens': String(1000 - tokens) }, charged: tokens })),
    refund: jest.fn(async (_key: unknown, _charged: number, actual: number) => ({ 'x-ratelimit-remaining-tokens': String(1000 - actual) })),
    peek: jest.fn(async () => ({ 'x-ratelimit-remaining-tokens': '1000', 'x-ratelimit-limit-tokens': '1000' })),
  } satisfies TokenGate;
  const billing = { admit: jest.fn(async (): Promise<Record<string, unknown>> => ({ headers: { 'x-svc-plan': 'free', 'x-ratelimit-remaining-requests': 'free-minute' }, plan_tier: 'free' })), release: jest.fn(async (_callId: string, _organizationId: string) => undefined) };
  const usage = { record: jest.fn(async () => undefined) };
  const logger = { warn: jest.fn() } as unknown as Logger;
  const ledger = new CallLedger('call_1', KEY, { billing, usage, tokens, logger });
  return { ledger, tokens, billing, usage };
}

describe('CallLedger', () => {
  it('charges the estimate, then refunds to the real count once, with the headers after each', async () => {
    const { ledger, tokens } = setup();
    await ledger.chargeTokens(40);
    expect(ledger.headers['x-ratelimit-remaining-tokens']).toBe('960');
    await ledger.refundTokens(25);
    expect(tokens.refund).toHaveBeenCalledWith(KEY, 40, 25);
    expect(ledger.headers['x-ratelimit-remaining-tokens']).toBe('975');
    await ledger.refundTokens(25);
    expect(tokens.refund).toHaveBeenCalledTimes(1);
  });

  it("keeps admission's headers over the key bucket's (the Free minute stands)", async () => {
    const { ledger } = setup();
    await ledger.admit({ micros: 10, listMicros: 10 }, { byok: false, auto: false, inputTokens: 1 });
    await ledger.chargeTokens(5);
    expect(ledger.headers['x-ratelimit-remaining-requests']).toBe('free-minute');
    expect(ledger.headers['x-svc-plan']).toBe('free');
  });

  it('on a refusal before the check: peeks the headers onto the error without overriding its own', async () => {
    const { ledger, tokens } = setup();
    const error = new ServiceError('invalid_value', 'bad', { headers: { 'x-ratelimit-limit-tokens': 'own' } });
    await ledger.refuse(error);
    expect(tokens.peek).toHaveBeenCalledTimes(1);
    expect(error.headers).toEqual({ 'x-ratelimit-limit-tokens': 'own', 'x-ratelimit-remaining-tokens': '1000' });
    expect(tokens.refund).not.toHaveBeenCalled();
  });

  it('on a refusal after the check: no peek, the bucket headers on the error, and the whole charge goes back', async () => {
    const { ledger, tokens } = setup();
    await ledger.chargeTokens(30);
    const error = new ServiceError('insufficient_credits', 'no credit');
    await ledger.refuse(error);
    expect(tokens.peek).not.toHaveBeenCalled();
    expect(tokens.refund).toHaveBeenCalledWith(KEY, 30, 0);
    expect(error.headers['x-ratelimit-remaining-tokens']).toBe('970');
  });

  it('does not touch an unexpected error, but still gives the charge back', async () => {
    const { ledger, tokens } = setup();
    await ledger.chargeTokens(7);
    await ledger.refuse(new Error('boom'));
    expect(tokens.peek).not.toHaveBeenCalled();
    expect(tokens.refund).toHaveBeenCalledWith(KEY, 7, 0);
  });

  it('ends exactly once: a settled call is never released, a released one never settles', async () => {
    const { ledger, billing, usage } = setup();
    await ledger.admit({ micros: 10, listMicros: 10 }, { byok: false, auto: false, inputTokens: 1 });
    await ledger.settle({} as never);
    ledger.release();
    expect(usage.record).toHaveBeenCalledTimes(1);
    expect(billing.release).not.toHaveBeenCalled();
    const other = setup();
    await other.ledger.admit({ micros: 10, listMicros: 10 }, { byok: false, auto: false, inputTokens: 1 });
    other.ledger.release();
    other.ledger.release();
    expect(other.billing.release).toHaveBeenCalledTimes(1);
    await expect(other.ledger.settle({} as never)).rejects.toThrow(/already ended/);
  });

  it('releases nothing when admission never reserved', () => {
    const { ledger, billing } = setup();
    ledger.release();
    expect(billing.release).not.toHaveBeenCalled();
  });
});

describe('CallLedger: admission without an answer', () => {
  it('releases a call whose admission got no answer (billing may have reserved it before the deadline)', async () => {
    const { ledger, billing } = setup();
    billing.admit.mockRejectedValueOnce(new ServiceError('billing_unavailable', 'Billing is temporarily unavailable. Please retry.'));
    await expect(ledger.admit({ micros: 10, listMicros: 10 }, { byok: false, auto: false, inputTokens: 1 })).rejects.toMatchObject({ code: 'billing_unavailable' });
    ledger.release();
    expect(billing.release).toHaveBeenCalledWith('call_1', 'org_1');
  });

  it('sends no release after a refusal (nothing was reserved)', async () => {
    const { ledger, billing } = setup();
    billing.admit.mockRejectedValueOnce(new ServiceError('insufficient_credits', 'no credit'));
    await expect(ledger.admit({ micros: 10, listMicros: 10 }, { byok: false, auto: false, inputTokens: 1 })).rejects.toMatchObject({ code: 'insufficient_credits' });
    ledger.release();
    expect(billing.release).not.toHaveBeenCalled();
  });
});
