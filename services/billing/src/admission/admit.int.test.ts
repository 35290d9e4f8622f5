import { randomBytes } from 'node:crypto';
import { ServiceError } from '@svc/errors';
import { ids } from '@svc/ids';
import type { KeyRecord, UsageRecord } from '@svc/protos';
import { createRedis, waitReady } from '@svc/redis';
import { createPrisma } from '../db';
import { createOrganization } from '../cli/admin-commands';
import { settle } from '../settlement/settle';
import { admit, type AdmitDeps } from './admit';
import { holdCost, release } from '@svc/admission';

// Real Postgres (svc_test) and Redis (keys under REDIS_KEY_PREFIX). Organizations are new for
// this run and removed in afterAll; the clock is injected, so periods and the Free day are
// crossed without waiting.

const RUN = `${process.pid}-${randomBytes(4).toString('hex')}`;
const at = (iso: string) => Date.parse(iso);

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
  let clock = at('2026-11-18T10:00:00.000Z'); // a Wednesday
  const deps: AdmitDeps = { prisma, redis, now: () => clock, freeDailyCostMicros: 5_000, reservationTtlSeconds: 600 };
  const organizations: Array<{ organizationId: string; accountId: string }> = [];
  let counter = 0;

  async function newOrganization(label: string, creditMicros: bigint, options: { plan?: 'paid' | 'free'; stopAtZero?: boolean; email?: string } = {}) {
    counter += 1;
    const org = await createOrganization({ prisma, redis }, { name: `admit ${label}`, email: options.email ?? `admit-${label}-${counter}-${RUN}@svctest.local`, plan: options.plan ?? 'paid', creditMicros, stopAtZero: options.stopAtZero });
    organizations.push({ organizationId: org.organization_id, accountId: org.account_id });
    return org;
  }

  function keyRecord(org: { organization_id: string; account_id: string; plan?: string }, overrides: Partial<KeyRecord> = {}): KeyRecord {
    return {
      key_id: `key_admit_${counter}_${RUN}`,
      organization_id: org.organization_id,
      account_id: org.account_id,
      plan: org.plan ?? 'paid',
      free_allowance: true,
      stop_at_zero: false,
      member_id: org.account_id,
      member_quota_micros: 0,
      spend_limit_micros: 0,
      spend_period: '',
      ...overrides,
    };
  }

  function usage(key: KeyRecord, callId: string, costMicros: number, extra: Partial<UsageRecord> = {}): UsageRecord {
    return {
      call_id: callId,
      organization_id: key.organization_id,
      key_id: key.key_id,
      kind: 'chat',
      vendor: 'vendor-1',
      model: 'gpt-test',
      vendor_micros: costMicros,
      cost_micros: costMicros,
      occurred_at_ms: clock,
      spend_period: key.spend_limit_micros ? key.spend_period : '',
      member_id: key.member_id,
      ...extra,
    };
  }

  beforeAll(async () => {
    await waitReady(redis);
  });

  afterAll(async () => {
    for (const { organizationId, accountId } of organizations) {
      await prisma.ledgerEntry.deleteMany({ where: { organizationId } });
      await prisma.creditEntry.deleteMany({ where: { organizationId } });
      await prisma.project.deleteMany({ where: { organizationId } });
      await prisma.organization.deleteMany({ where: { id: organizationId } });
      await prisma.account.deleteMany({ where: { id: accountId, organizations: { none: {} } } });
      const keys = await redis.keys(`${process.env.REDIS_KEY_PREFIX ?? ''}*{${organizationId}}*`);
      if (keys.length > 0) await redis.del(...keys.map((key) => key.slice((process.env.REDIS_KEY_PREFIX ?? '').length)));
    }
    await prisma.$disconnect();
    await redis.quit();
  });

  describe('deadline', () => {
    it('reserves nothing once the caller has given up (a command queued while Redis was away runs late)', async () => {
      const org = await newOrganization('late', 750_000n);
      const error = await rejection(admit(deps, { call_id: ids.callId(), key: keyRecord(org), estimated_micros: 5_000 }, { deadlineMs: Date.now() - 1 }));
      expect([error.status, error.code]).toEqual([503, 'billing_unavailable']);
      expect(await redis.get(`heldbal:{${org.organization_id}}`)).toBeNull();
      expect((await admit(deps, { call_id: ids.callId(), key: keyRecord(org), estimated_micros: 5_000 }, { deadlineMs: Date.now() + 5_000 })).balance_micros).toBe(750_000);
      expect(await redis.get(`heldbal:{${org.organization_id}}`)).toBe('5000');
    });
  });

  describe('credit', () => {
    it('admits an organization with credit: balance header, paid, baseline pending with 0 calls', async () => {
      const org = await newOrganization('funded', 750_000n);
      expect(await admit(deps, { call_id: ids.callId(), key: keyRecord(org), estimated_micros: 1000 })).toEqual({
        balance_micros: 750_000,
        headers: { 'x-svc-balance-micros': '750000' },
        plan_tier: '',
        plan_reason: '',
        baseline_model: '',
        baseline_calls: 0,
      });
    });

    it('rebuilds a missing balance from Postgres (credits minus ledger)', async () => {
      const org = await newOrganization('cold', 40_000n);
      const key = keyRecord(org);
      await settle({ prisma, redis }, [usage(key, ids.callId(), 1_500)]);
      expect(await redis.del(`bal:{${org.organization_id}}`)).toBe(1);
      expect((await admit(deps, { call_id: ids.callId(), key })).balance_micros).toBe(38_500);
      expect(await redis.get(`bal:{${org.organization_id}}`)).toBe('38500');
    });

    it('refuses an organization set to stop at zero: 402 insufficient_credits, billing_error, balance header', async () => {
      const org = await newOrganization('stop', 0n, { stopAtZero: true });
      const error = await rejection(admit(deps, { call_id: ids.callId(), key: keyRecord(org, { stop_at_zero: true }) }));
      expect([error.status, error.code, error.type]).toEqual([402, 'insufficient_credits', 'billing_error']);
      expect(error.headers).toEqual({ 'x-svc-balance-micros': '0' });
      expect(error.toBody()).toEqual({ error: { message: 'Your organization has no credit left. Top up to continue.', type: 'billing_error', param: null, code: 'insufficient_credits' } });
    });

    it('refuses a person’s second organization at zero (no Free allowance), with a negative balance when overdrawn', async () => {
      const email = `admit-person-${RUN}@svctest.local`;
      await newOrganization('first', 0n, { email });
      const second = await newOrganization('second', 1_000n, { email });
      const key = keyRecord(second, { free_allowance: false });
      await settle({ prisma, redis }, [usage(key, ids.callId(), 1_500)]);
      const error = await rejection(admit(deps, { call_id: ids.callId(), key }));
      expect(error.code).toBe('insufficient_credits');
      expect(error.headers['x-svc-balance-micros']).toBe('-500');
    });

    it('continues a paid organization at zero on the Free limits (zero_balance) when it is its person’s first', async () => {
      const org = await newOrganization('zero', 0n);
      const admitted = await admit(deps, { call_id: ids.callId(), key: keyRecord(org) });
      expect([admitted.plan_tier, admitted.plan_reason]).toEqual(['free', 'zero_balance']);
      expect(admitted.headers['x-svc-plan']).toBe('free');
    });

    it('lets a named model on own vendor keys skip the credit check; auto never does', async () => {
      const org = await newOrganization('byok', 0n, { stopAtZero: true });
      const key = keyRecord(org, { stop_at_zero: true });
      expect(await admit(deps, { call_id: ids.callId(), key, byok: true, auto: false })).toMatchObject({ balance_micros: 0, plan_tier: '', headers: { 'x-svc-balance-micros': '0' } });
      expect((await rejection(admit(deps, { call_id: ids.callId(), key, byok: true, auto: true }))).code).toBe('insufficient_credits');
      expect((await rejection(admit(deps, { call_id: ids.callId(), key, byok: false, auto: false }))).code).toBe('insufficient_credits');
    });

    it('reserves each estimate against the balance until settled or released', async () => {
      const org = await newOrganization('reserve', 1_000n, { stopAtZero: true });
      const key = keyRecord(org, { stop_at_zero: true });
      const first = ids.callId();
      const second = ids.callId();
      await admit(deps, { call_id: first, key, estimated_micros: 800 });
      await admit(deps, { call_id: second, key, estimated_micros: 800 }); // 200 still available
      expect((await rejection(admit(deps, { call_id: ids.callId(), key, estimated_micros: 1 }))).code).toBe('insufficient_credits');
      // The second call failed: its reservation comes back.
      expect(await release(redis, { call_id: second, organization_id: org.organization_id })).toEqual({ released: true });
      expect(await release(redis, { call_id: second, organization_id: org.organization_id })).toEqual({ released: false });
      // The first settles at its actual cost (300), not the 800 it held.
      await settle({ prisma, redis }, [usage(key, first, 300)]);
      expect(await redis.get(`heldbal:{${org.organization_id}}`)).toBe('0');
      const third = await admit(deps, { call_id: ids.callId(), key, estimated_micros: 600 });
      expect(third.balance_micros).toBe(700);
    });

    it('gives back a reservation whose call never settled once it expires (the edge holding it died)', async () => {
      const org = await newOrganization('expire', 1_000n, { stopAtZero: true });
      const key = keyRecord(org, { stop_at_zero: true });
      await admit(deps, { call_id: ids.callId(), key, estimated_micros: 1_000 });
      expect((await rejection(admit(deps, { call_id: ids.callId(), key }))).code).toBe('insufficient_credits');
      clock += 601_000;
      expect((await admit(deps, { call_id: ids.callId(), key })).balance_micros).toBe(1_000);
    });
  });

  describe('spend limits', () => {
    it('refuses a key at its daily limit with quota_exceeded, the reset in the message, Retry-After and the quota headers; the next UTC day starts fresh', async () => {
      clock = at('2026-11-18T22:00:00.000Z');
      const org = await newOrganization('day-limit', 10_000_000n);
      const key = keyRecord(org, { spend_limit_micros: 1_000, spend_period: 'day' });
      const admitted = await admit(deps, { call_id: ids.callId(), key, estimated_micros: 10 });
      expect(admitted.headers).toEqual({ 'x-svc-balance-micros': '10000000', 'x-svc-quota-scope': 'key', 'x-svc-quota-limit': '1000', 'x-svc-quota-remaining': '1000' });
      await settle({ prisma, redis }, [usage(key, ids.callId(), 1_000)]);
      const error = await rejection(admit(deps, { call_id: ids.callId(), key, estimated_micros: 10 }));
      expect([error.status, error.code, error.type]).toEqual([429, 'quota_exceeded', 'rate_limit_error']);
      expect(error.message).toBe('This key’s spend limit for the day (1000 micros) is reached. It resets at 2026-11-19T00:00:00Z.');
      expect(error.headers).toMatchObject({ 'retry-after': '7200', 'x-svc-quota-scope': 'key', 'x-svc-quota-limit': '1000', 'x-svc-quota-remaining': '0' });
      clock = at('2026-11-19T00:00:01.000Z');
      expect((await admit(deps, { call_id: ids.callId(), key })).headers['x-svc-quota-remaining']).toBe('1000');
    });

    it('counts a week from Monday and a month from the 1st (00:00 UTC), and a life limit never resets', async () => {
      clock = at('2026-11-22T12:00:00.000Z'); // Sunday
      const org = await newOrganization('periods', 10_000_000n);
      const week = keyRecord(org, { key_id: `key_week_${RUN}`, spend_limit_micros: 500, spend_period: 'week' });
      const month = keyRecord(org, { key_id: `key_month_${RUN}`, spend_limit_micros: 500, spend_period: 'month' });
      const life = keyRecord(org, { key_id: `key_life_${RUN}`, spend_limit_micros: 500, spend_period: 'life' });
      await settle({ prisma, redis }, [usage(week, ids.callId(), 500), usage(month, ids.callId(), 500), usage(life, ids.callId(), 500)]);
      const weekError = await rejection(admit(deps, { call_id: ids.callId(), key: week }));
      expect(weekError.message).toBe('This key’s spend limit for the week (500 micros) is reached. It resets at 2026-11-23T00:00:00Z.');
      expect(weekError.headers['retry-after']).toBe('43200');
      expect((await rejection(admit(deps, { call_id: ids.callId(), key: month }))).message).toBe('This key’s spend limit for the month (500 micros) is reached. It resets at 2026-12-01T00:00:00Z.');
      const lifeError = await rejection(admit(deps, { call_id: ids.callId(), key: life }));
      expect(lifeError.message).toBe('This key’s spend limit (500 micros) is reached. It is a limit over the key’s whole life and does not reset.');
      clock = at('2026-11-23T00:00:00.000Z'); // Monday: the week resets, the month and life do not
      expect((await admit(deps, { call_id: ids.callId(), key: week })).headers['x-svc-quota-remaining']).toBe('500');
      expect((await rejection(admit(deps, { call_id: ids.callId(), key: month }))).code).toBe('quota_exceeded');
      clock = at('2026-12-01T00:00:00.000Z');
      expect((await admit(deps, { call_id: ids.callId(), key: month })).headers['x-svc-quota-remaining']).toBe('500');
      expect((await rejection(admit(deps, { call_id: ids.callId(), key: life }))).code).toBe('quota_exceeded');
    });

    it('rebuilds a key’s period spend from the ledger when Redis lost it', async () => {
      clock = at('2026-11-18T10:00:00.000Z');
      const org = await newOrganization('rebuild-spend', 10_000_000n);
      const key = keyRecord(org, { spend_limit_micros: 1_000, spend_period: 'month' });
      await admit(deps, { call_id: ids.callId(), key });
      await settle({ prisma, redis }, [usage(key, ids.callId(), 400)]);
      const keys = await redis.keys(`${process.env.REDIS_KEY_PREFIX ?? ''}kspend:{${org.organization_id}}*`);
      await redis.del(...keys.map((name) => name.slice((process.env.REDIS_KEY_PREFIX ?? '').length)));
      expect((await admit(deps, { call_id: ids.callId(), key })).headers['x-svc-quota-remaining']).toBe('600');
    });

    it('refuses a member over their monthly quota with scope member', async () => {
      const org = await newOrganization('member', 10_000_000n);
      const key = keyRecord(org, { member_quota_micros: 300 });
      expect((await admit(deps, { call_id: ids.callId(), key })).headers).toMatchObject({ 'x-svc-quota-scope': 'member', 'x-svc-quota-limit': '300', 'x-svc-quota-remaining': '300' });
      await settle({ prisma, redis }, [usage(key, ids.callId(), 300)]);
      const error = await rejection(admit(deps, { call_id: ids.callId(), key }));
      expect(error.code).toBe('quota_exceeded');
      expect(error.message).toBe('Your monthly spend quota in this organization (300 micros) is reached. It resets at 2026-12-01T00:00:00Z.');
      expect(error.headers).toMatchObject({ 'x-svc-quota-scope': 'member', 'x-svc-quota-remaining': '0' });
    });

    it('an answered call holds its cost, not its estimate, until it settles: the next call of a client calling one after another is admitted', async () => {
      clock = at('2026-11-18T10:00:00.000Z');
      const org = await newOrganization('hold-cost', 10_000_000n);
      const key = keyRecord(org, { spend_limit_micros: 10, spend_period: 'day' });
      const first = ids.callId();
      await admit(deps, { call_id: first, key, estimated_micros: 21 });
      // Held at its estimate (21 ≥ 10), the next call would be refused — by calls in flight, not by spend.
      const inFlight = await rejection(admit(deps, { call_id: ids.callId(), key, estimated_micros: 21 }));
      expect(inFlight.code).toBe('quota_exceeded');
      expect(inFlight.message).toBe('This key’s spend limit for the day (10 micros) is taken up by calls in flight: 0 micros are spent and the rest is held by calls not yet settled. Retry when they finish.');
      expect(inFlight.headers).toMatchObject({ 'retry-after': '1', 'x-svc-quota-remaining': '0' });
      // Answered for 4 micros: it holds 4 until billing settles it.
      expect(await holdCost(redis, { organization_id: org.organization_id, call_id: first, cost_micros: 4 })).toBe(true);
      expect(await redis.get(`heldbal:{${org.organization_id}}`)).toBe('4');
      const second = ids.callId();
      expect((await admit(deps, { call_id: second, key, estimated_micros: 21 })).headers['x-svc-quota-remaining']).toBe('6');
      // Settling releases exactly what is held: the counters end at the settled spend.
      await settle({ prisma, redis }, [usage(key, first, 4)]);
      await release(redis, { organization_id: org.organization_id, call_id: second });
      expect(await redis.get(`heldbal:{${org.organization_id}}`)).toBe('0');
      expect((await admit(deps, { call_id: ids.callId(), key, estimated_micros: 21 })).headers['x-svc-quota-remaining']).toBe('6');
      // A call already settled holds nothing to move.
      expect(await holdCost(redis, { organization_id: org.organization_id, call_id: first, cost_micros: 4 })).toBe(false);
    });

    it('100 parallel calls against a small limit overshoot it by no more than one reservation', async () => {
      const org = await newOrganization('parallel', 100_000_000n);
      const key = keyRecord(org, { spend_limit_micros: 5_000, spend_period: 'day' });
      const estimate = 400;
      const actual = 390;
      const calls = Array.from({ length: 100 }, () => ids.callId());
      const results = await Promise.allSettled(calls.map((call_id) => admit(deps, { call_id, key, estimated_micros: estimate })));
      const admitted = calls.filter((_, index) => results[index]!.status === 'fulfilled');
      for (const result of results) if (result.status === 'rejected') expect((result.reason as ServiceError).code).toBe('quota_exceeded');
      // Admitted while settled + in flight was under the limit: ceil(5000 / 400) = 13.
      expect(admitted).toHaveLength(13);
      await Promise.all(admitted.map((call_id) => settle({ prisma, redis }, [usage(key, call_id, actual)])));
      const spent = await prisma.ledgerEntry.aggregate({ where: { keyId: key.key_id }, _sum: { costMicros: true } });
      expect(Number(spent._sum.costMicros)).toBe(13 * actual);
      expect(Number(spent._sum.costMicros) - 5_000).toBeLessThanOrEqual(estimate);
      // 13 × 390 = 5070: the next call is refused on settled spend alone.
      expect((await rejection(admit(deps, { call_id: ids.callId(), key, estimated_micros: estimate }))).code).toBe('quota_exceeded');
    });
  });

  describe('the Free plan', () => {
    it('admits a Free organization with x-svc-plan free, the day and minute headers', async () => {
      clock = at('2026-11-18T23:59:30.000Z');
      const org = await newOrganization('free', 0n, { plan: 'free' });
      const admitted = await admit(deps, { call_id: ids.callId(), key: keyRecord(org, { plan: 'free' }), input_tokens: 10 });
      expect(admitted).toMatchObject({ plan_tier: 'free', plan_reason: 'free_plan' });
      expect(admitted.headers).toEqual({
        'x-svc-balance-micros': '0',
        'x-svc-plan': 'free',
        'x-ratelimit-limit-requests-day': '100',
        'x-ratelimit-remaining-requests-day': '99',
        'x-ratelimit-reset-requests-day': '30s',
        'x-ratelimit-limit-requests': '20',
        'x-ratelimit-remaining-requests': '19',
        'x-ratelimit-reset-requests': '30s',
      });
    });

    it('refuses input over 16000 tokens and max_tokens over 2000 with free_tier_limit, param and x-svc-free-limit, without Retry-After', async () => {
      const org = await newOrganization('free-size', 0n, { plan: 'free' });
      const key = keyRecord(org, { plan: 'free' });
      const input = await rejection(admit(deps, { call_id: ids.callId(), key, input_tokens: 16_001 }));
      expect([input.status, input.code, input.type, input.param]).toEqual([429, 'free_tier_limit', 'rate_limit_error', 'input_tokens']);
      expect(input.headers['x-svc-free-limit']).toBe('input_tokens');
      expect(input.headers['retry-after']).toBeUndefined();
      expect(input.headers['x-svc-plan']).toBe('free');
      const output = await rejection(admit(deps, { call_id: ids.callId(), key, input_tokens: 16_000, max_tokens: 2_001 }));
      expect([output.param, output.headers['x-svc-free-limit'], output.headers['retry-after']]).toEqual(['max_tokens', 'max_tokens', undefined]);
      expect(await admit(deps, { call_id: ids.callId(), key, input_tokens: 16_000, max_tokens: 2_000 })).toMatchObject({ plan_tier: 'free' });
    });

    it('allows 20 requests a minute, then requests_per_minute with Retry-After to the next minute', async () => {
      clock = at('2026-11-18T12:00:15.000Z');
      const org = await newOrganization('free-minute', 0n, { plan: 'free' });
      const key = keyRecord(org, { plan: 'free' });
      for (let i = 0; i < 20; i += 1) await admit(deps, { call_id: ids.callId(), key });
      const error = await rejection(admit(deps, { call_id: ids.callId(), key }));
      expect([error.status, error.param]).toEqual([429, 'requests_per_minute']);
      expect(error.headers).toMatchObject({ 'x-svc-free-limit': 'requests_per_minute', 'retry-after': '45', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-limit-requests': '20' });
      clock = at('2026-11-18T12:01:00.000Z');
      expect((await admit(deps, { call_id: ids.callId(), key })).headers['x-ratelimit-remaining-requests']).toBe('19');
    });

    it('counts 100 answered requests per UTC day and resets at 00:00 UTC (injectable clock across midnight)', async () => {
      clock = at('2026-11-18T23:50:00.000Z');
      const org = await newOrganization('free-day', 0n, { plan: 'free' });
      const key = keyRecord(org, { plan: 'free' });
      // 100 answered Free calls earlier today (in the ledger), over several minutes.
      const earlier = Array.from({ length: 100 }, (_, index) => usage(key, ids.callId(), 0, { plan: 'free', vendor_micros: 1, occurred_at_ms: at('2026-11-18T10:00:00.000Z') + index * 60_000 }));
      await settle({ prisma, redis }, earlier);
      const error = await rejection(admit(deps, { call_id: ids.callId(), key }));
      expect([error.status, error.param, error.headers['x-svc-free-limit']]).toEqual([429, 'requests_per_day', 'requests_per_day']);
      expect(error.headers).toMatchObject({ 'retry-after': '600', 'x-ratelimit-remaining-requests-day': '0', 'x-ratelimit-reset-requests-day': '600s', 'x-svc-plan': 'free' });
      clock = at('2026-11-19T00:00:00.000Z');
      expect((await admit(deps, { call_id: ids.callId(), key })).headers['x-ratelimit-remaining-requests-day']).toBe('99');
    });

    it('counts requests in flight toward the day and gives them back when they fail', async () => {
      clock = at('2026-11-20T08:00:00.000Z');
      const org = await newOrganization('free-held', 0n, { plan: 'free' });
      const key = keyRecord(org, { plan: 'free' });
      const call = ids.callId();
      expect((await admit(deps, { call_id: call, key })).headers['x-ratelimit-remaining-requests-day']).toBe('99');
      expect((await admit(deps, { call_id: ids.callId(), key })).headers['x-ratelimit-remaining-requests-day']).toBe('98');
      await release(redis, { call_id: call, organization_id: org.organization_id });
      expect((await admit(deps, { call_id: ids.callId(), key })).headers['x-ratelimit-remaining-requests-day']).toBe('98');
    });

    it('stops at the hidden daily fair-use cost (list price of answered and in-flight calls)', async () => {
      clock = at('2026-11-20T09:00:00.000Z');
      const org = await newOrganization('free-cost', 0n, { plan: 'free' });
      const key = keyRecord(org, { plan: 'free' });
      await settle({ prisma, redis }, [usage(key, ids.callId(), 0, { plan: 'free', vendor_micros: 4_000 })]);
      await admit(deps, { call_id: ids.callId(), key, estimated_list_micros: 1_000 });
      const error = await rejection(admit(deps, { call_id: ids.callId(), key }));
      expect([error.param, error.headers['x-svc-free-limit']]).toEqual(['daily_cost', 'daily_cost']);
      expect(error.message).not.toMatch(/\d{3}/);
    });

    it('fails closed: billing_unavailable for a paid key and free_tier_unavailable for a Free key when Redis cannot be read', async () => {
      const org = await newOrganization('down', 1_000n);
      const unreachable = createRedis({ url: 'redis://127.0.0.1:1', keyPrefix: process.env.REDIS_KEY_PREFIX, failFast: true, name: 'admit-int-unreachable' });
      unreachable.on('error', () => undefined);
      try {
        const started = Date.now();
        const paid = await rejection(admit({ prisma, redis: unreachable }, { call_id: ids.callId(), key: keyRecord(org) }));
        expect(Date.now() - started).toBeLessThan(2_000);
        expect([paid.status, paid.code, paid.type, paid.message]).toEqual([503, 'billing_unavailable', 'server_error', 'Billing is temporarily unavailable. Please retry.']);
        expect(paid.headers).toEqual({});
        const free = await rejection(admit({ prisma, redis: unreachable }, { call_id: ids.callId(), key: keyRecord(org, { plan: 'free' }) }));
        expect([free.status, free.code]).toEqual([503, 'free_tier_unavailable']);
      } finally {
        unreachable.disconnect();
      }
    });
  });

  describe('baseline', () => {
    it('reports the key’s answered calls while pending and the baseline model once it has 20', async () => {
      const org = await newOrganization('baseline', 10_000_000n);
      const key = keyRecord(org);
      await settle({ prisma, redis }, Array.from({ length: 3 }, () => usage(key, ids.callId(), 10)));
      expect(await admit(deps, { call_id: ids.callId(), key })).toMatchObject({ baseline_model: '', baseline_calls: 3 });
      await prisma.keyBaseline.create({ data: { keyId: key.key_id!, model: 'gpt-base', calls: 25, pricePerTokenPico: 1n, computedAt: new Date() } });
      await redis.del(`bl:{${org.organization_id}}:${key.key_id}`);
      expect(await admit(deps, { call_id: ids.callId(), key })).toMatchObject({ baseline_model: 'gpt-base', baseline_calls: 3 });
      await prisma.keyBaseline.delete({ where: { keyId: key.key_id! } });
    });
  });
});
