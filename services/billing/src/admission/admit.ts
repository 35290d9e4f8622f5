import { ServiceError } from '@svc/errors';
import type { AdmitRequest, AdmitResponse } from '@svc/protos';
import type { Redis } from '@svc/redis';
import type { Prisma } from '../db';
import { readBalance } from './balance';

export interface AdmitDeps {
  prisma: Prisma;
  redis: Redis;
}

/**
 * Admission before any vendor work (spec: 402 insufficient_credits, "checked before vendor
 * work; a named model on own vendor key skips it, auto never does"). A store that cannot be
 * read fails closed with billing_unavailable.
 */
export async function admit(deps: AdmitDeps, request: AdmitRequest): Promise<AdmitResponse> {
  const organizationId = request.organization_id ?? '';
  let balance: number;
  try {
    balance = await readBalance(deps.prisma, deps.redis, organizationId);
  } catch (error) {
    throw new ServiceError('billing_unavailable', 'Billing is temporarily unavailable. Please retry.', { cause: error });
  }
  const skipsCredit = Boolean(request.byok) && !request.auto;
  if (!skipsCredit && balance <= 0) {
    throw new ServiceError('insufficient_credits', 'Your organization has no credit left. Top up to continue.', {
      headers: { 'x-svc-balance-micros': String(balance) },
    });
  }
  return { balance_micros: balance, headers: { 'x-svc-balance-micros': String(balance) } };
}
