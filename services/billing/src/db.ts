import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

export type Prisma = PrismaClient;

/**
 * Prisma 7 with the pg driver adapter: no engine binary; tables live in schema "billing".
 * A connection that cannot be made within 5 s fails (pg waits forever by default, so a stalled
 * Postgres would hang every caller), and TCP keepalive notices a connection that went silent.
 */
export function createPrisma(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: 10, connectionTimeoutMillis: 5000, keepAlive: true }) });
}
