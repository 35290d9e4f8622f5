import { randomBytes } from 'node:crypto';
import { ServiceError } from '@svc/errors';
import { ids } from '@svc/ids';
import { createRedis, waitReady } from '@svc/redis';
import { createPrisma } from '../db';
import { createOrganization } from '../cli/admin-commands';
import { settle } from '../settlement/settle';
import { admit } from './admit';
import { balanceKey } from './balance';

// Real Postgres (svc_test) and Redis (keys under REDIS_KEY_PREFIX). Organizations are new for
// this run and removed in afterAll.

const RUN = `${process.pid}-${randomBytes(4).toString('hex')}`;

async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected a rejection');
}

describe('admit (real Postgres and Redis)', () => {
  const prisma = createPrisma(process.env.DATABASE_URL!);
  const redis = createRedis({ url: process.env.REDIS_URL!, keyPrefix: process.env.REDIS_KEY_PREFIX });
  const deps = { prisma, redis };
  const organizations: Array<{ organizationId: string; accountId: string }> = [];
  let funded: string;
  let empty: string;

  async function newOrganization(label: string, creditMicros: bigint): Promise<string> {
    const org = await createOrganization(deps, { name: `admit ${label}`, email: `admit-${label}-${RUN}@svctest.local`, plan: 'paid', creditMicros });
    organizations.push({ organizationId: org.organization_id, accountId: org.account_id });
    return org.organization_id;
  }

  beforeAll(async () => {
    await waitReady(redis);
    funded = await newOrganization('funded', 750_000n);
    empty = await newOrganization('empty', 0n);
  });

  afterAll(async () => {
    for (const { organizationId, accountId } of organizations) {
      await prisma.ledgerEntry.deleteMany({ where: { organizationId } });
      await prisma.creditEntry.deleteMany({ where: { organizationId } });
      await prisma.project.deleteMany({ where: { organizationId } });
      await prisma.organization.deleteMany({ where: { id: organizationId } });
      await prisma.account.deleteMany({ where: { id: accountId } });
      await redis.del(balanceKey(organizationId));
    }
    await prisma.$disconnect();
    await redis.quit();
  });

  it('admits an organization with credit and reports its balance in micros', async () => {
    expect(await admit(deps, { call_id: ids.callId(), organization_id: funded, estimated_micros: 1000 })).toEqual({
      balance_micros: 750_000,
      headers: { 'x-svc-balance-micros': '750000' },
    });
  });

  it('reads the balance from Postgres when Redis has none', async () => {
    const organizationId = await newOrganization('cold', 40_000n);
    expect(await redis.del(balanceKey(organizationId))).toBe(1);
    expect(await admit(deps, { organization_id: organizationId })).toEqual({ balance_micros: 40_000, headers: { 'x-svc-balance-micros': '40000' } });
    expect(await redis.get(balanceKey(organizationId))).toBe('40000');
  });

  it('refuses an organization with no credit: insufficient_credits, 402 billing_error, balance header 0', async () => {
    const error = await rejection(admit(deps, { call_id: ids.callId(), organization_id: empty }));
    expect(error.code).toBe('insufficient_credits');
    expect(error.status).toBe(402);
    expect(error.type).toBe('billing_error');
    expect(error.headers).toEqual({ 'x-svc-balance-micros': '0' });
    expect(error.toBody()).toEqual({ error: { message: 'Your organization has no credit left. Top up to continue.', type: 'billing_error', param: null, code: 'insufficient_credits' } });
  });

  it('refuses an organization whose settled spend took it below zero, with the negative balance in the header', async () => {
    const organizationId = await newOrganization('overdrawn', 1_000n);
    expect(await settle(deps, [{ call_id: ids.callId(), organization_id: organizationId, key_id: 'key_admit_int', vendor: 'openai', model: 'gpt-test', cost_micros: 1_500 }])).toBe(1);
    const error = await rejection(admit(deps, { organization_id: organizationId }));
    expect(error.code).toBe('insufficient_credits');
    expect(error.status).toBe(402);
    expect(error.headers['x-svc-balance-micros']).toBe('-500');
  });

  it('lets a named model on the organization’s own vendor key (byok, not auto) skip the credit check', async () => {
    expect(await admit(deps, { organization_id: empty, byok: true, auto: false })).toEqual({ balance_micros: 0, headers: { 'x-svc-balance-micros': '0' } });
  });

  it('never lets auto skip the credit check, even on an own vendor key', async () => {
    const error = await rejection(admit(deps, { organization_id: empty, byok: true, auto: true }));
    expect(error.code).toBe('insufficient_credits');
    expect(error.status).toBe(402);
    expect(error.headers).toEqual({ 'x-svc-balance-micros': '0' });

    const notByok = await rejection(admit(deps, { organization_id: empty, byok: false, auto: false }));
    expect(notByok.code).toBe('insufficient_credits');
  });

  it('fails closed with billing_unavailable (503) when Redis cannot be reached', async () => {
    const unreachable = createRedis({ url: 'redis://127.0.0.1:1', keyPrefix: process.env.REDIS_KEY_PREFIX, failFast: true, name: 'admit-int-unreachable' });
    unreachable.on('error', () => undefined);
    try {
      const started = Date.now();
      const error = await rejection(admit({ prisma, redis: unreachable }, { organization_id: funded }));
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(error.code).toBe('billing_unavailable');
      expect(error.status).toBe(503);
      expect(error.type).toBe('server_error');
      expect(error.message).toBe('Billing is temporarily unavailable. Please retry.');
      expect(error.cause).toBeInstanceOf(Error);
      expect(error.headers).toEqual({});
    } finally {
      unreachable.disconnect();
    }
  });
});
