import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool } from 'pg';
import { poolOf as sharedPoolOf, withSharedPool } from '@svc/db';
import { PrismaClient } from './generated/prisma/client';

export type Prisma = PrismaClient;

/**
 * Prisma 7 with the pg driver adapter; tables live in schema "batch". Prisma and the files store
 * (src/files, plain `pg`: chunks are bytea sent and read in binary, one statement each) share one
 * pool of 10 connections: `poolOf(prisma)`. `$disconnect()` ends the pool too.
 */
export function createPrisma(databaseUrl: string): PrismaClient {
  return withSharedPool(databaseUrl, (pool) => new PrismaClient({ adapter: new PrismaPg(pool as unknown as ConstructorParameters<typeof PrismaPg>[0]) }));
}

/** The pg pool under a client made by createPrisma. */
export function poolOf(prisma: PrismaClient): Pool {
  return sharedPoolOf(prisma);
}
