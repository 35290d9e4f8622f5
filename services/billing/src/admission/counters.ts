import type { Redis } from '@svc/redis';
import { BASELINE_PENDING, counterPlan, keyList, type CounterName, type CounterPlan, type CounterScope } from '@svc/admission';
import type { Prisma } from '../db';
import { BASELINE_CALLS_NEEDED } from '../baselines/recompute';
import { balanceFromLedger } from './balance';

/** The counter keys and plan live in @svc/admission (libs/admission/src/keys.ts), shared with the in-process admission of the edge and the workers. */
export { BASELINE_PENDING, counterPlan, keyList, type CounterName, type CounterPlan, type CounterScope };

const BASELINE_CACHE_SECONDS = 3600;

/**
 * Rebuilds missing settled counters from the ledger (SET NX: a concurrent rebuild or a counter
 * that appeared meanwhile wins, so nothing is counted twice).
 */
export async function rebuildCounters(prisma: Prisma, redis: Redis, scope: CounterScope, plan: CounterPlan, names: CounterName[]): Promise<void> {
  const org = scope.organizationId;
  const set = (key: string, value: bigint | number | string, ttl: number) =>
    ttl > 0 ? redis.set(key, value.toString(), 'EX', ttl, 'NX') : redis.set(key, value.toString(), 'NX');
  await Promise.all(
    names.map(async (name) => {
      switch (name) {
        case 'bal':
          await set(plan.keys.bal, await balanceFromLedger(prisma, org), 0);
          return;
        case 'kspend': {
          const since = new Date(plan.keyWindow?.startMs ?? 0);
          const sum = await prisma.ledgerEntry.aggregate({ where: { organizationId: org, keyId: scope.keyId, occurredAt: { gte: since } }, _sum: { costMicros: true } });
          await set(plan.keys.keySpend, sum._sum.costMicros ?? 0n, plan.ttl.keySpend);
          return;
        }
        case 'mspend': {
          const sum = await prisma.ledgerEntry.aggregate({ where: { organizationId: org, memberId: scope.memberId, occurredAt: { gte: new Date(plan.memberWindow.startMs) } }, _sum: { costMicros: true } });
          await set(plan.keys.memberSpend, sum._sum.costMicros ?? 0n, plan.ttl.memberSpend);
          return;
        }
        case 'fday':
        case 'fcost': {
          const where = { organizationId: org, plan: 'free', occurredAt: { gte: new Date(plan.dayWindow.startMs), lt: new Date(plan.dayWindow.endMs) } };
          const row = await prisma.ledgerEntry.aggregate({ where, _count: { _all: true }, _sum: { vendorMicros: true } });
          if (name === 'fday') await set(plan.keys.freeDay, row._count._all, plan.ttl.freeDay);
          else await set(plan.keys.freeCost, row._sum.vendorMicros ?? 0n, plan.ttl.freeDay);
          return;
        }
        case 'calls':
          await set(plan.keys.calls, await prisma.ledgerEntry.count({ where: { keyId: scope.keyId, kind: 'chat' } }), 0);
          return;
        case 'baseline': {
          const row = await prisma.keyBaseline.findUnique({ where: { keyId: scope.keyId } });
          await set(plan.keys.baseline, row && row.calls >= BASELINE_CALLS_NEEDED ? row.model : BASELINE_PENDING, BASELINE_CACHE_SECONDS);
          return;
        }
      }
    }),
  );
}

/** Replaces the cached baseline model of a key (after a recompute). */
export async function cacheBaseline(redis: Redis, organizationId: string, keyId: string, model: string | undefined): Promise<void> {
  await redis.set(`bl:{${organizationId}}:${keyId}`, model ?? BASELINE_PENDING, 'EX', BASELINE_CACHE_SECONDS);
}

