import { randomBytes } from 'node:crypto';
import { ids } from '@svc/ids';
import type { UsageRecord } from '@svc/protos';
import { createRedis, waitReady } from '@svc/redis';
import { createPrisma } from '../db';
import { balanceFromLedger, balanceKey, readBalance } from '../admission/balance';
import { createOrganization } from '../cli/admin-commands';
import { counterPlan } from '../admission/counters';
import { admissionScripts } from '@svc/admission';
import { settle } from './settle';

// Real Postgres (svc_test) and Redis (keys under REDIS_KEY_PREFIX). Every organization is
// new for this run; its rows and Redis keys are removed in afterAll.

const RUN = `${process.pid}-${randomBytes(4).toString('hex')}`;
const CREDIT = 1_000_000n;

describe('settle (real Postgres and Redis)', () => {
  const prisma = createPrisma(process.env.DATABASE_URL!);
  const redis = createRedis({ url: process.env.REDIS_URL!, keyPrefix: process.env.REDIS_KEY_PREFIX });
  const deps = { prisma, redis };
  const organizations: Array<{ organizationId: string; accountId: string }> = [];
  const extraKeys: string[] = [];

  async function newOrganization(label: string, creditMicros = CREDIT): Promise<string> {
    const org = await createOrganization(deps, { name: `settle ${label}`, email: `settle-${label}-${RUN}@svctest.local`, plan: 'paid', creditMicros });
    organizations.push({ organizationId: org.organization_id, accountId: org.account_id });
    return org.organization_id;
  }

  function usage(organizationId: string, costMicros: number, overrides: Partial<UsageRecord> = {}): UsageRecord {
    return {
      call_id: ids.callId(),
      organization_id: organizationId,
      key_id: 'key_settle_int',
      kind: 'chat',
      vendor: 'openai',
      model: 'gpt-test',
      line: 'standard',
      input_tokens: 100,
      output_tokens: 20,
      cached_tokens: 10,
      cache_write_tokens: 5,
      reasoning_tokens: 3,
      vendor_micros: 1000,
      service_fee_micros: 200,
      call_fee_micros: 34,
      cost_micros: costMicros,
      direct_micros: 0,
      byok: false,
      occurred_at_ms: 1_760_000_000_123,
      ...overrides,
    };
  }

  async function ledgerRows(callId: string) {
    return prisma.ledgerEntry.findMany({ where: { callId } });
  }

  beforeAll(() => waitReady(redis));

  afterAll(async () => {
    for (const { organizationId, accountId } of organizations) {
      await prisma.ledgerEntry.deleteMany({ where: { organizationId } });
      await prisma.apiKey.deleteMany({ where: { organizationId } });
      await prisma.creditEntry.deleteMany({ where: { organizationId } });
      await prisma.project.deleteMany({ where: { organizationId } });
      await prisma.organization.deleteMany({ where: { id: organizationId } });
      await prisma.account.deleteMany({ where: { id: accountId } });
      await redis.del(balanceKey(organizationId));
    }
    if (extraKeys.length > 0) await redis.del(...extraKeys);
    await prisma.$disconnect();
    await redis.quit();
  });

  it('writes one ledger row per record with every amount, and moves the Redis balance by its cost', async () => {
    const organizationId = await newOrganization('write');
    expect(await readBalance(prisma, redis, organizationId)).toBe(1_000_000);

    const record = usage(organizationId, 1234);
    expect(await settle(deps, [record])).toBe(1);

    const rows = await ledgerRows(record.call_id!);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual({
      callId: record.call_id,
      organizationId,
      keyId: 'key_settle_int',
      kind: 'chat',
      vendor: 'openai',
      model: 'gpt-test',
      line: 'standard',
      inputTokens: 100,
      outputTokens: 20,
      cachedTokens: 10,
      cacheWriteTokens: 5,
      reasoningTokens: 3,
      vendorMicros: 1000n,
      serviceFeeMicros: 200n,
      callFeeMicros: 34n,
      costMicros: 1234n,
      directMicros: 0n,
      byok: false,
      plan: '',
      memberId: '',
      baselinePending: false,
      occurredAt: new Date(1_760_000_000_123),
      recordedAt: expect.any(Date),
    });
    expect(await readBalance(prisma, redis, organizationId)).toBe(1_000_000 - 1234);
    expect(await redis.get(balanceKey(organizationId))).toBe(String(1_000_000 - 1234));
  });

  it('is idempotent on call_id: the same record settled again adds no row and leaves the balance', async () => {
    const organizationId = await newOrganization('again');
    const record = usage(organizationId, 1234);

    expect(await settle(deps, [record])).toBe(1);
    expect(await readBalance(prisma, redis, organizationId)).toBe(998_766);

    expect(await settle(deps, [record])).toBe(0);
    expect(await settle(deps, [{ ...record, cost_micros: 99_999 }])).toBe(0);
    expect(await ledgerRows(record.call_id!)).toHaveLength(1);
    expect(await prisma.ledgerEntry.count({ where: { organizationId } })).toBe(1);
    expect(await readBalance(prisma, redis, organizationId)).toBe(998_766);
  });

  it('counts a call_id repeated inside one batch once, and skips already-settled ones in a mixed batch', async () => {
    const organizationId = await newOrganization('batch');
    const first = usage(organizationId, 1234);
    expect(await settle(deps, [first])).toBe(1);

    const repeated = usage(organizationId, 500);
    const fresh = usage(organizationId, 66);
    expect(await settle(deps, [repeated, first, repeated, fresh, repeated])).toBe(2);

    expect(await ledgerRows(repeated.call_id!)).toHaveLength(1);
    expect(await ledgerRows(fresh.call_id!)).toHaveLength(1);
    expect(await prisma.ledgerEntry.count({ where: { organizationId } })).toBe(3);
    expect(await readBalance(prisma, redis, organizationId)).toBe(1_000_000 - 1234 - 500 - 66);
    expect(await settle(deps, [])).toBe(0);
  });

  it('moves each organization in a batch by its own settled costs', async () => {
    const left = await newOrganization('left');
    const right = await newOrganization('right', 5_000n);
    expect(await readBalance(prisma, redis, left)).toBe(1_000_000);
    expect(await readBalance(prisma, redis, right)).toBe(5_000);

    expect(await settle(deps, [usage(left, 100), usage(right, 7), usage(left, 23), usage(right, 5_000)])).toBe(4);
    expect(await readBalance(prisma, redis, left)).toBe(1_000_000 - 123);
    // A balance may go below zero: the call already happened.
    expect(await readBalance(prisma, redis, right)).toBe(-7);
  });

  it('rebuilds a missing Redis balance from credits minus the ledger, without double-counting', async () => {
    const organizationId = await newOrganization('rebuild');
    expect(await settle(deps, [usage(organizationId, 1234), usage(organizationId, 4321)])).toBe(2);
    expect(await readBalance(prisma, redis, organizationId)).toBe(1_000_000 - 1234 - 4321);

    expect(await redis.del(balanceKey(organizationId))).toBe(1);
    // Settling while Redis holds no balance only writes the ledger (no key appears)...
    expect(await settle(deps, [usage(organizationId, 45)])).toBe(1);
    expect(await redis.exists(balanceKey(organizationId))).toBe(0);

    // ...and the next read derives it from Postgres, including that row.
    expect(await balanceFromLedger(prisma, organizationId)).toBe(1_000_000n - 1234n - 4321n - 45n);
    expect(await readBalance(prisma, redis, organizationId)).toBe(1_000_000 - 1234 - 4321 - 45);
    expect(await redis.get(balanceKey(organizationId))).toBe(String(1_000_000 - 1234 - 4321 - 45));
    expect(await prisma.ledgerEntry.count({ where: { organizationId } })).toBe(3);
  });

  describe('zero-cost calls (the negated 0 once broke the SETTLE script)', () => {
    function counters(organizationId: string, record: UsageRecord) {
      const plan = counterPlan({ organizationId, keyId: record.key_id!, memberId: record.member_id ?? '', spendPeriod: record.spend_period ?? '' }, Number(record.occurred_at_ms));
      extraKeys.push(plan.keys.calls, plan.keys.freeDay, plan.keys.freeCost, plan.keys.keySpend, plan.keys.memberSpend, `applied:{${organizationId}}:${record.call_id}`);
      return plan.keys;
    }

    it('settles a paid call that cost 0: ledger row written, balance unchanged, and the key call counter still counts it', async () => {
      const organizationId = await newOrganization('zero');
      const record = usage(organizationId, 0, { vendor_micros: 0, service_fee_micros: 0, call_fee_micros: 0 });
      const keys = counters(organizationId, record);
      await redis.set(keys.calls, '4');
      await redis.set(keys.memberSpend, '10');

      expect(await settle(deps, [record])).toBe(1);
      expect(await ledgerRows(record.call_id!)).toHaveLength(1);
      expect(await readBalance(prisma, redis, organizationId)).toBe(1_000_000);
      expect(await redis.get(keys.calls)).toBe('5');
      expect(await redis.get(keys.memberSpend)).toBe('10');
      // Settled again (a redelivery): nothing moves twice.
      expect(await settle(deps, [record])).toBe(0);
      expect(await redis.get(keys.calls)).toBe('5');
    });

    it('settles a zero-cost call in a batch with others, all in one pass (no fallback to one by one)', async () => {
      const organizationId = await newOrganization('zero-batch');
      const records = [usage(organizationId, 0), usage(organizationId, 25), usage(organizationId, 0, { plan: 'free', vendor_micros: 0 })];
      const keys = counters(organizationId, records[2]!);
      await redis.set(keys.freeDay, '2');
      await redis.set(keys.freeCost, '100');
      expect(await settle(deps, records)).toBe(3);
      expect(await readBalance(prisma, redis, organizationId)).toBe(1_000_000 - 25);
      expect(await redis.get(keys.freeDay)).toBe('3');
      expect(await redis.get(keys.freeCost)).toBe('100');
    });

    it('refuses an amount that is not an integer before writing anything (no marker left behind)', async () => {
      const organizationId = await newOrganization('not-integer');
      const record = usage(organizationId, 5);
      const keys = counters(organizationId, record);
      const plan = counterPlan({ organizationId, keyId: record.key_id!, memberId: '', spendPeriod: '' }, Number(record.occurred_at_ms));
      const marker = `applied:{${organizationId}}:${record.call_id}`;
      const keyList = [keys.bal, keys.held, keys.hold, keys.heldBal, keys.keySpend, keys.keyHeld, keys.memberSpend, keys.memberHeld, keys.freeDay, keys.freeCost, keys.freeHeldRequests, keys.freeHeldCost, plan.keys.freeMinute, keys.calls, keys.baseline, marker];
      await expect(admissionScripts(redis).settle(keyList, [record.call_id!, '-0.5', '0', 0, 1, 60])).rejects.toThrow(/must be integers/);
      expect(await redis.exists(marker)).toBe(0);
    });
  });
});
