import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool } from 'pg';
import { poolOf as sharedPoolOf, withSharedPool } from '@svc/db';
import { PrismaClient } from './generated/prisma/client';

export type Prisma = PrismaClient;

/**
 * Prisma 7 with the pg driver adapter; tables live in schema "conversations". Prisma and the
 * store's hot path (src/store/sql.ts: BuildHistory, CompleteTurn, GetResponse, ListItems on plain
 * `pg`, without Prisma's per-statement and per-transaction overhead) share one pool of 10
 * connections: `poolOf(prisma)`. `$disconnect()` ends the pool too.
 */
export function createPrisma(databaseUrl: string): PrismaClient {
  return withSharedPool(databaseUrl, (pool) => new PrismaClient({ adapter: new PrismaPg(pool as unknown as ConstructorParameters<typeof PrismaPg>[0]) }), {
    // JIT off on every connection (queued before its first query): these are short statements, and
    // where the planner's estimates run high (tables without statistics) JIT compilation would cost
    // more than the statement. A SET, not a startup parameter, so poolers in between accept it.
    onConnect: (client) => void client.query('SET jit = off').catch(() => undefined),
  });
}

/** The pg pool under a client made by createPrisma. */
export function poolOf(prisma: PrismaClient): Pool {
  return sharedPoolOf(prisma);
}
