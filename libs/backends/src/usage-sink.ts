import { recordPublishFallback } from '@svc/amqp';
import { usageSettle } from '@svc/messages';
import { withTimeout } from '@svc/lifecycle';
import { throttledWarning, type Logger } from '@svc/logger';
import type { UsageRecord, UsageSink } from '@svc/call';

/** One answered call's usage record (the pipeline's domain shape; billing.v1.UsageRecord on the wire). */
export type UsageRecordInput = UsageRecord;
export type { UsageSink };

/** Where a usage record went: the queue, the durable outbox, billing directly, or nowhere yet. */
export type UsageDelivery = 'queue' | 'outbox' | 'settle';

export interface UsageOutbox {
  /** Durably stores the record for billing to settle (billing.usage_outbox); idempotent on call_id. */
  write(record: UsageRecordInput): Promise<void>;
  close(): Promise<void>;
}

export interface DurableUsageSinkOptions {
  /** The confirmed publish to usage.settle, bounded by its confirm wait (AmqpClient.publish). */
  publish: (record: UsageRecordInput) => Promise<void>;
  /** The durable fallback (billing.usage_outbox); unset when the edge has no DATABASE_URL. */
  outbox?: Pick<UsageOutbox, 'write'>;
  /** billing.Settle, the last fallback. */
  settleDirect: (records: UsageRecordInput[]) => Promise<number>;
  logger: Logger;
  /** Time limit of each fallback step (outbox write, Settle RPC); default 2 s. */
  stepTimeoutMs?: number;
  /** How often records that no step took are tried again (default 5 s). */
  retryIntervalMs?: number;
  /** Most records held in memory for retry (default 10 000); beyond it the oldest is given up (it is in the logs). */
  maxHeld?: number;
}

export interface DurableUsageSink extends UsageSink {
  /** Records no step took yet, held in memory and retried. */
  held(): number;
  /** Tries the held records again, oldest first, until one fails (the timer does this too). */
  retryHeld(): Promise<void>;
  /** Stops retrying after one last try; what is still held is logged in full at error level. */
  close(): Promise<void>;
}

/** svc.queue.publish_fallbacks{queue="usage.settle", via}: usage records the broker did not take, by where they went. */
function countFallback(via: UsageDelivery | 'held' | 'given_up'): void {
  recordPublishFallback(usageSettle.name, via);
}

/**
 * "Answered ⇒ billed exactly once", through any outage (ARCHITECTURE.md, "Usage that cannot
 * reach the broker"). An answered call's usage record goes, in order, to
 *  1. the durable usage.settle queue — the publish waits for the broker's confirm, at most the
 *     client's confirm limit (never forever); a closed or blocked connection fails at once;
 *  2. the outbox (a row in billing.usage_outbox, Postgres) — durable while the broker and billing
 *     are both down; billing settles it when it can;
 *  3. billing.Settle, directly;
 *  4. memory: held and retried through 1–3 every few seconds, and logged in full at error level
 *     for reconciliation (it carries no prompt).
 * Every path settles through billing's settlement, which is idempotent on call_id, so a record
 * that reached two of them (a confirm that timed out but arrived) is billed once.
 * record() resolves once a step took it (or it is held): it never rejects and never hangs.
 */
export function createUsageSink(options: DurableUsageSinkOptions): DurableUsageSink {
  const { logger } = options;
  const stepTimeoutMs = options.stepTimeoutMs ?? 2000;
  const maxHeld = options.maxHeld ?? 10_000;
  const held = new Map<string, UsageRecordInput>();
  const publishWarning = throttledWarning(logger, 'usage publish failed; using the fallback (outbox, then billing.Settle)');
  const outboxWarning = throttledWarning(logger, 'usage outbox write failed; settling through billing directly');
  const settleWarning = throttledWarning(logger, 'billing.Settle failed too');

  const deliver = async (record: UsageRecordInput): Promise<UsageDelivery | undefined> => {
    try {
      await options.publish(record);
      return 'queue';
    } catch (error) {
      publishWarning(error, { call_id: record.call_id });
    }
    if (options.outbox) {
      try {
        await withTimeout(options.outbox.write(record), stepTimeoutMs, `usage outbox write did not finish within ${stepTimeoutMs} ms`);
        return 'outbox';
      } catch (error) {
        outboxWarning(error, { call_id: record.call_id });
      }
    }
    try {
      await withTimeout(options.settleDirect([record]), stepTimeoutMs, `billing.Settle did not answer within ${stepTimeoutMs} ms`);
      return 'settle';
    } catch (error) {
      settleWarning(error, { call_id: record.call_id });
    }
    return undefined;
  };

  const hold = (record: UsageRecordInput) => {
    held.set(record.call_id, record);
    countFallback('held');
    logger.error('usage record not delivered (broker, outbox and billing all failed): held in memory and retried; kept in this log line for reconciliation', { usage_record: record, held: held.size });
    while (held.size > maxHeld) {
      const [oldest] = held.keys();
      held.delete(oldest!);
      countFallback('given_up');
      logger.error('usage record given up: too many held in memory; reconcile it from its earlier log line', { call_id: oldest, max_held: maxHeld });
    }
  };

  let retrying: Promise<void> | undefined;
  const retryHeld = (): Promise<void> => {
    retrying ??= (async () => {
      for (const [callId, record] of [...held]) {
        const via = await deliver(record);
        if (!via) return;
        held.delete(callId);
        logger.info('held usage record delivered', { call_id: callId, via, held: held.size });
      }
    })().finally(() => (retrying = undefined));
    return retrying;
  };

  const timer = setInterval(() => {
    if (held.size > 0) void retryHeld();
  }, options.retryIntervalMs ?? 5000);
  timer.unref();

  return {
    async record(usage) {
      const via = await deliver(usage);
      if (via === 'queue') return;
      if (via) countFallback(via);
      else hold(usage);
    },
    held: () => held.size,
    retryHeld,
    async close() {
      clearInterval(timer);
      await retrying;
      if (held.size > 0) await retryHeld();
      for (const record of held.values()) logger.error('usage record still not delivered at shutdown; reconcile it from this line', { usage_record: record });
    },
  };
}
