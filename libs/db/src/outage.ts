import { errorChain, isConnectionError } from '@svc/amqp';

/**
 * Is a settlement failure an outage of Postgres or Redis (hold the records and try again for as
 * long as it lasts) rather than something wrong with a record (retry a few times, then dead-letter)?
 *
 * Outages: network failures and timeouts; the pg driver's lost or timed-out connections;
 * Prisma's "cannot reach / closed / timed out / pool exhausted" codes and the driver adapter's
 * matching kinds; Postgres SQLSTATEs of class 08 (connection), 53 (insufficient resources), 57P0x
 * (shutting down, cannot connect now), 40001/40P01 (serialization, deadlock: try again); Redis
 * that is disconnected, loading, read-only (a failover) or out of its retry budget.
 * Not outages: data errors (class 22, 23), a failing Lua script (`ERR …`), bugs.
 */
const PRISMA_OUTAGE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
const ADAPTER_OUTAGE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionAlreadyClosed', 'TransactionWriteConflict']);
const SQLSTATE_OUTAGE = /^(08|53|57P0[1-4]|40001|40P01|55P03|57014)/;
const MESSAGE_OUTAGE = [
  /Connection terminated/i,
  /connection timeout/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Can't reach database server/i,
  /Connection is closed/i,
  /Stream isn't writeable/i,
  /Reached the max retries per request limit/i,
  /^(LOADING|READONLY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|BUSY|NOREPLICAS)\b/,
];

function sqlState(item: Record<string, unknown>): string | undefined {
  const cause = (item.meta as { driverAdapterError?: { cause?: { originalCode?: string; code?: string; kind?: string } } } | undefined)?.driverAdapterError?.cause;
  return cause?.originalCode ?? cause?.code ?? (typeof item.code === 'string' && /^[0-9A-Z]{5}$/.test(item.code) ? item.code : undefined);
}

export function isDependencyOutage(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  return errorChain(error).some((item) => {
    if (typeof item !== 'object' || item === null) return false;
    const record = item as Record<string, unknown>;
    const name = typeof record.name === 'string' ? record.name : '';
    if (name === 'MaxRetriesPerRequestError' || name === 'PrismaClientInitializationError') return true;
    if (typeof record.code === 'string' && PRISMA_OUTAGE_CODES.has(record.code)) return true;
    const kind = (record.meta as { driverAdapterError?: { cause?: { kind?: string } } } | undefined)?.driverAdapterError?.cause?.kind;
    if (kind && ADAPTER_OUTAGE_KINDS.has(kind)) return true;
    const state = sqlState(record);
    if (state && SQLSTATE_OUTAGE.test(state)) return true;
    const message = typeof record.message === 'string' ? record.message : '';
    return MESSAGE_OUTAGE.some((pattern) => pattern.test(message));
  });
}
