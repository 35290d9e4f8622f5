import { backoffDelay, recordDeadLetter, type BackoffOptions } from '@svc/amqp';
import { usageRecordSchema } from '@svc/messages';
import { throttledWarning, type Logger } from '@svc/logger';
import type { UsageRecord } from '@svc/protos';
import { svcMetrics } from '@svc/telemetry';
import type { Prisma } from '../db';
import { isDependencyOutage } from '@svc/db';
import { settle, type SettleDeps } from './settle';

/**
 * The sweep of billing.usage_outbox (migration 0004; ARCHITECTURE.md "Usage that cannot reach
 * the broker"): usage records an edge could not hand to RabbitMQ. Each sweep takes up to
 * `batchSize` rows with FOR UPDATE SKIP LOCKED (replicas share the work), settles them through
 * settle.ts — idempotent on call_id, so a record that also reached the queue is billed once — and
 * deletes them in the same transaction as their ledger rows.
 *
 * Like the queue consumer: an outage of Postgres or Redis is waited out with backoff; a batch
 * that fails otherwise is tried row by row; a row that keeps failing is marked dead after
 * `maxAttempts` (error log, svc.queue.dead_lettered{queue="usage.outbox"}) and left for
 * `npm run admin -- usage replay`. svc.queue.depth reports the pending and dead rows.
 */
export const OUTBOX_METRIC_QUEUE = 'usage.outbox';

export interface OutboxSweepOptions {
  /** Pause between sweeps when the outbox is empty (default 1 s). */
  intervalMs?: number;
  batchSize?: number;
  /** Failures (not outages) before a row is marked dead (default 5). */
  maxAttempts?: number;
  /** Waits between sweeps while Postgres or Redis is down (default 500 ms doubling up to 3 s). */
  outageBackoff?: BackoffOptions;
}

export interface OutboxDeps extends SettleDeps {
  logger: Logger;
}

interface OutboxRow {
  call_id: string;
  record: unknown;
}

function recordOf(row: OutboxRow): unknown {
  return typeof row.record === 'string' ? JSON.parse(row.record) : row.record;
}

/** Pending rows (waiting to be settled) and dead ones (left for the replay command). */
export async function outboxCounts(prisma: Prisma): Promise<{ pending: number; dead: number }> {
  const [row] = await prisma.$queryRaw<Array<{ pending: bigint | number; dead: bigint | number }>>`
    SELECT count(*) FILTER (WHERE dead_at IS NULL) AS pending, count(*) FILTER (WHERE dead_at IS NOT NULL) AS dead FROM billing.usage_outbox`;
  return { pending: Number(row?.pending ?? 0), dead: Number(row?.dead ?? 0) };
}

function markDead(deps: OutboxDeps, callIds: string[], reason: 'invalid_payload' | 'retries_exhausted', error: unknown): void {
  for (const callId of callIds) {
    recordDeadLetter(OUTBOX_METRIC_QUEUE, reason);
    deps.logger.error('outbox row dead: usage record not settled', { queue: OUTBOX_METRIC_QUEUE, reason, call_id: callId, err: error });
  }
}

/**
 * Settles the rows in one transaction: the ledger rows are written on it and the outbox rows
 * deleted on it, so both happen or neither. `only` limits it to those call ids. Returns the call
 * ids it took (settled or marked dead).
 */
async function settleRows(deps: OutboxDeps, limit: number, only?: string[]): Promise<string[]> {
  const taken: string[] = [];
  const invalid: string[] = [];
  await deps.prisma.$transaction(
    async (tx) => {
      const rows = only
        ? await tx.$queryRaw<OutboxRow[]>`SELECT call_id, record FROM billing.usage_outbox WHERE call_id = ANY(${only}::text[]) AND dead_at IS NULL FOR UPDATE SKIP LOCKED`
        : await tx.$queryRaw<OutboxRow[]>`SELECT call_id, record FROM billing.usage_outbox WHERE dead_at IS NULL ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
      const records: UsageRecord[] = [];
      for (const row of rows) {
        taken.push(row.call_id);
        const parsed = (() => {
          try {
            return usageRecordSchema.safeParse(recordOf(row));
          } catch {
            return undefined;
          }
        })();
        if (parsed?.success) records.push(parsed.data as UsageRecord);
        else invalid.push(row.call_id);
      }
      if (invalid.length > 0) await tx.$executeRaw`UPDATE billing.usage_outbox SET dead_at = now(), last_error = 'invalid payload' WHERE call_id = ANY(${invalid}::text[])`;
      if (records.length > 0) {
        await settle({ ...deps, ledger: tx }, records);
        await tx.$executeRaw`DELETE FROM billing.usage_outbox WHERE call_id = ANY(${records.map((record) => record.call_id)}::text[])`;
      }
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
  markDead(deps, invalid, 'invalid_payload', new Error('invalid payload'));
  return taken;
}

/** A row that failed for a reason other than an outage: one more attempt counted; dead after the last. */
async function countFailure(deps: OutboxDeps, callId: string, error: unknown, maxAttempts: number): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).trim().slice(0, 500);
  const [row] = await deps.prisma.$queryRaw<Array<{ dead: boolean }>>`
    UPDATE billing.usage_outbox
       SET attempts = attempts + 1, last_error = ${message}, dead_at = CASE WHEN attempts + 1 >= ${maxAttempts} THEN now() END
     WHERE call_id = ${callId} AND dead_at IS NULL
     RETURNING dead_at IS NOT NULL AS dead`;
  if (row?.dead) markDead(deps, [callId], 'retries_exhausted', error);
  else deps.logger.warn('outbox row failed to settle; it is tried again', { call_id: callId, err: error });
}

/**
 * One sweep of up to `batchSize` rows. Throws only on an outage (the caller waits and sweeps
 * again). Returns how many rows it took.
 */
export async function sweepOutbox(deps: OutboxDeps, options: OutboxSweepOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? 200;
  const maxAttempts = options.maxAttempts ?? 5;
  const ids = await deps.prisma.$queryRaw<Array<{ call_id: string }>>`SELECT call_id FROM billing.usage_outbox WHERE dead_at IS NULL ORDER BY created_at LIMIT ${batchSize}`;
  if (ids.length === 0) return 0;
  try {
    return (await settleRows(deps, batchSize)).length;
  } catch (error) {
    if (isDependencyOutage(error)) throw error;
    deps.logger.warn('outbox batch failed to settle; trying its rows one by one', { rows: ids.length, err: error });
  }
  let taken = 0;
  for (const { call_id: callId } of ids) {
    try {
      taken += (await settleRows(deps, 1, [callId])).length;
    } catch (error) {
      if (isDependencyOutage(error)) throw error;
      await countFailure(deps, callId, error, maxAttempts);
      taken += 1;
    }
  }
  return taken;
}

export interface OutboxSweeper {
  stop(): Promise<void>;
}

/** Sweeps until stopped: at once again after a full batch, after `intervalMs` when drained, with backoff during an outage. */
export function startOutboxSweeper(deps: OutboxDeps, options: OutboxSweepOptions = {}): OutboxSweeper {
  const intervalMs = options.intervalMs ?? 1000;
  const batchSize = options.batchSize ?? 200;
  const outageWarning = throttledWarning(deps.logger, 'usage outbox sweep paused: dependency unavailable; trying again', { intervalMs: 30_000 });
  let stopped = false;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const depths = { pending: 0, dead: 0 };
  const gauge = svcMetrics().queueDepth;
  const observe = (result: { observe(value: number, attributes: { queue: string }): void }) => {
    result.observe(depths.pending, { queue: OUTBOX_METRIC_QUEUE });
    result.observe(depths.dead, { queue: `${OUTBOX_METRIC_QUEUE}.dead` });
  };
  gauge.addCallback(observe);

  const loop = async () => {
    let outageTries = 0;
    while (!stopped) {
      try {
        Object.assign(depths, await outboxCounts(deps.prisma));
        const taken = depths.pending > 0 ? await sweepOutbox(deps, options) : 0;
        if (outageTries > 0) deps.logger.info('usage outbox sweep resumed', { tries: outageTries });
        outageTries = 0;
        if (taken >= batchSize) continue;
        await sleep(intervalMs);
      } catch (error) {
        if (isDependencyOutage(error)) outageWarning(error);
        else deps.logger.warn('usage outbox sweep failed', { err: error });
        await sleep(backoffDelay(outageTries, options.outageBackoff ?? { initialMs: 500, maxMs: 3_000 }));
        outageTries += 1;
      }
    }
  };
  const running = loop();
  return {
    stop: async () => {
      stopped = true;
      wake?.();
      gauge.removeCallback(observe);
      await running;
    },
  };
}
