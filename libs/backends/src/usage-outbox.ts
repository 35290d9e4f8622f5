import { Pool } from 'pg';
import { usageOutboxInsert } from '@svc/messages';
import type { UsageOutbox } from './usage-sink';

/**
 * A call-running service's side of the usage outbox (the edge's and the workers'): one INSERT into billing.usage_outbox per record the
 * broker did not take (the statement is libs/messages' usageOutboxInsert; billing's sweep reads
 * and settles the rows). A small pool that connects only when first used, so an edge that never
 * needs the outbox holds no Postgres connection; every connect and query is time-limited.
 * The role needs only INSERT on billing.usage_outbox (and USAGE on schema billing).
 */
export function createUsageOutbox(options: { databaseUrl: string; timeoutMs?: number; maxConnections?: number; applicationName?: string }): UsageOutbox {
  const timeoutMs = options.timeoutMs ?? 2000;
  const pool = new Pool({
    connectionString: options.databaseUrl,
    max: options.maxConnections ?? 4,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    allowExitOnIdle: true,
    application_name: options.applicationName ?? 'svc-usage-outbox',
  });
  // An idle connection that breaks is dropped by the pool; the next write opens another.
  pool.on('error', () => undefined);
  return {
    async write(record) {
      await pool.query(usageOutboxInsert(record));
    },
    close: () => pool.end(),
  };
}
