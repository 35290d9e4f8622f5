import { balanceKey } from '@svc/admission';
import type { Redis } from '@svc/redis';
import type { Prisma } from '../db';

/**
 * The organization's balance lives in Redis (`bal:{org}`, integer micros; the key is
 * @svc/admission's balanceKey) for the hot path and is always derivable from Postgres: credits
 * minus settled ledger costs. A missing Redis value is rebuilt from the ledger (SET NX, so a
 * concurrent rebuild cannot double-count).
 */
export { balanceKey };

export async function balanceFromLedger(prisma: Prisma, organizationId: string): Promise<bigint> {
  const [credits, spent] = await Promise.all([
    prisma.creditEntry.aggregate({ where: { organizationId }, _sum: { amountMicros: true } }),
    prisma.ledgerEntry.aggregate({ where: { organizationId }, _sum: { costMicros: true } }),
  ]);
  return (credits._sum.amountMicros ?? 0n) - (spent._sum.costMicros ?? 0n);
}

export async function readBalance(prisma: Prisma, redis: Redis, organizationId: string): Promise<number> {
  const cached = await redis.get(balanceKey(organizationId));
  if (cached !== null) return Number(cached);
  const rebuilt = await balanceFromLedger(prisma, organizationId);
  await redis.set(balanceKey(organizationId), rebuilt.toString(), 'NX');
  return Number(await redis.get(balanceKey(organizationId)));
}

/** Rebuilds the Redis balance from the ledger (after a top-up, or to repair drift). */
export async function rebuildBalance(prisma: Prisma, redis: Redis, organizationId: string): Promise<number> {
  const rebuilt = await balanceFromLedger(prisma, organizationId);
  await redis.set(balanceKey(organizationId), rebuilt.toString());
  return Number(rebuilt);
}
