import type { AmqpClient, BackoffOptions, ManagedConsumer } from '@svc/amqp';
import { usageSettle } from '@svc/messages';
import type { Logger } from '@svc/logger';
import { recordJobAges } from '../queue-metrics';
import { isDependencyOutage } from '@svc/db';
import { settle, type SettleDeps } from './settle';

export interface SettlementConsumerOptions {
  batchSize: number;
  batchWaitMs: number;
  /** A batch still settling after this long counts as an outage (a hung connection) and is tried again. */
  handlerTimeoutMs?: number;
  /** Waits between tries while Postgres or Redis is down (default 250 ms doubling up to 3 s: settlement resumes within 5 s of their return). */
  outageBackoff?: BackoffOptions;
  /** Tries through the retry queue before a record that keeps failing (not an outage) is dead-lettered. */
  maxRetries?: number;
  /** The queue's message (tests use one of their own with the same schema). */
  message?: typeof usageSettle;
}

/**
 * The usage.settle consumer: batches of records into the ledger (settle.ts).
 *
 * A Postgres or Redis outage pauses settlement: the batch is held unacked and tried again with
 * backoff for as long as the outage lasts (new records wait in the queue behind it), so an
 * outage of any length costs only lag, never a dead letter. Only poison is dead-lettered: a
 * payload that fails the schema at once, and a record that keeps failing for another reason
 * after its retries — each with an error-level log line naming its call_id and the
 * svc.queue.dead_lettered metric. `npm run admin -- usage replay` moves them back.
 */
export function startSettlementConsumer(amqp: AmqpClient, deps: SettleDeps & { logger: Logger }, options: SettlementConsumerOptions): ManagedConsumer {
  const message = options.message ?? usageSettle;
  // A held batch is tried many times: its job ages are recorded once.
  const aged = new WeakSet<object>();
  return amqp.consumeBatch(
    message,
    async (records) => {
      const fresh = records.filter((record) => !aged.has(record));
      for (const record of fresh) aged.add(record);
      recordJobAges(message.name, fresh);
      await settle(deps, records);
    },
    {
      logger: deps.logger,
      maxBatch: options.batchSize,
      maxWaitMs: options.batchWaitMs,
      maxRetries: options.maxRetries ?? 5,
      isOutage: isDependencyOutage,
      outageBackoff: options.outageBackoff ?? { initialMs: 250, maxMs: 3_000 },
      handlerTimeoutMs: options.handlerTimeoutMs ?? 30_000,
      describe: (record) => ({ call_id: record.call_id, organization_id: record.organization_id, cost_micros: record.cost_micros }),
    },
  );
}
