import { randomBytes } from 'node:crypto';
import { counterPlan } from '@svc/admission';
import type { AdmitQuery } from '@svc/call';
import { ServiceError } from '@svc/errors';
import { createRedis, waitReady } from '@svc/redis';
import { billingPort } from './ports';

// Real Redis (keys under REDIS_KEY_PREFIX): the billing port with admission in process runs
// billing's ADMIT script on the organization's counters, and asks the Admit RPC (a fake here)
// only when counters are missing.

const RUN = `${process.pid}-${randomBytes(4).toString('hex')}`;

describe('billing port with admission in process (real Redis)', () => {
  const redis = createRedis({ url: process.env.REDIS_URL!, keyPrefix: process.env.REDIS_KEY_PREFIX });
  const rpc: AdmitQuery[] = [];
  const released: string[] = [];
  const backends = {
    admit: async (query: AdmitQuery) => {
      rpc.push(query);
      return { balance_micros: 1, headers: { 'x-svc-balance-micros': '1' }, plan_tier: '', plan_reason: '', baseline_model: '', baseline_calls: 0 };
    },
    release: async (query: { call_id: string }) => {
      released.push(query.call_id);
      return { released: true };
    },
  };
  const port = billingPort(backends as never, { redis, settings: { reservationTtlSeconds: 600 }, deadlineMs: 2000 });
  let calls = 0;

  const query = (organizationId: string, estimate: number, key: Record<string, unknown> = {}): AdmitQuery => {
    calls += 1;
    return {
      call_id: `call_port_${calls}_${RUN}`,
      organization_id: organizationId,
      key_id: `key_port_${RUN}`,
      key: { key_id: `key_port_${RUN}`, organization_id: organizationId, plan: 'paid', free_allowance: true, stop_at_zero: false, member_id: '', spend_limit_micros: 0, spend_period: '', ...key },
      estimated_micros: estimate,
      estimated_list_micros: estimate,
      byok: false,
      auto: false,
      input_tokens: 10,
      max_tokens: 16,
    };
  };

  /** The settled counters billing would rebuild from the ledger, set as if it had. */
  async function warm(organizationId: string, balance: number): Promise<void> {
    const { keys } = counterPlan({ organizationId, keyId: `key_port_${RUN}`, memberId: '', spendPeriod: '' }, Date.now());
    await redis.set(keys.bal, String(balance));
    for (const key of [keys.keySpend, keys.memberSpend, keys.freeDay, keys.freeCost, keys.calls]) await redis.set(key, '0');
    await redis.set(keys.baseline, '-');
  }

  beforeAll(async () => {
    await waitReady(redis);
  });

  afterAll(async () => {
    const keys = await redis.keys(`*port_${RUN}*`);
    if (keys.length > 0) await redis.del(...keys.map((key) => key.slice((process.env.REDIS_KEY_PREFIX ?? '').length)));
    await redis.quit();
  });

  it('cold counters go to the Admit RPC (billing rebuilds them); warm ones are admitted here and reserved on the same counters', async () => {
    const organizationId = `org_port_a_${RUN}`;
    const cold = await port.admit(query(organizationId, 100));
    expect(rpc).toHaveLength(1);
    expect(cold.headers?.['x-svc-balance-micros']).toBe('1');

    await warm(organizationId, 1_000);
    const admitted = query(organizationId, 300);
    const answer = await port.admit(admitted);
    expect(rpc).toHaveLength(1);
    expect(answer.headers?.['x-svc-balance-micros']).toBe('1000');
    // The reservation is billing's: held against the balance, listed under the call id.
    const { keys } = counterPlan({ organizationId, keyId: `key_port_${RUN}`, memberId: '', spendPeriod: '' }, Date.now());
    expect(await redis.get(keys.heldBal)).toBe('300');
    expect(await redis.hget(keys.hold, admitted.call_id)).toContain('300');
    // A call that ends unbilled gives its reservation back here too (no Release RPC).
    await port.release(admitted.call_id, organizationId);
    expect(await redis.get(keys.heldBal)).toBe('0');
    expect(await redis.hget(keys.hold, admitted.call_id)).toBeNull();
    expect(released).toEqual([]);
  });

  it('refusals are billing’s: stop at zero is 402 insufficient_credits with the balance header, nothing reserved', async () => {
    const organizationId = `org_port_b_${RUN}`;
    await warm(organizationId, 0);
    const refused = await port.admit(query(organizationId, 50, { stop_at_zero: true })).catch((error: unknown) => error as ServiceError);
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).code).toBe('insufficient_credits');
    expect((refused as ServiceError).headers?.['x-svc-balance-micros']).toBe('0');
    const { keys } = counterPlan({ organizationId, keyId: `key_port_${RUN}`, memberId: '', spendPeriod: '' }, Date.now());
    expect(await redis.get(keys.heldBal)).toBeNull();
    expect(rpc).toHaveLength(1);
  });

  it('an unreachable Redis fails closed within the deadline: billing_unavailable, free_tier_unavailable for a Free key', async () => {
    const down = createRedis({ url: 'redis://127.0.0.1:1/0', keyPrefix: process.env.REDIS_KEY_PREFIX });
    down.on('error', () => undefined);
    const closed = billingPort(backends as never, { redis: down, settings: {}, deadlineMs: 300 });
    const started = Date.now();
    const paid = (await closed.admit(query(`org_port_c_${RUN}`, 10)).catch((error: unknown) => error)) as ServiceError;
    const free = (await closed.admit(query(`org_port_c_${RUN}`, 10, { plan: 'free' })).catch((error: unknown) => error)) as ServiceError;
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(paid.code).toBe('billing_unavailable');
    expect(free.code).toBe('free_tier_unavailable');
    expect(rpc).toHaveLength(1);
    down.disconnect();
  });
});
