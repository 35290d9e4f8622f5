import type { ConfirmChannel } from 'amqplib';
import { publish } from '@svc/amqp';
import { usageSettle } from '@svc/messages';
import type { Logger } from '@svc/logger';
import type { UsageRecord, UsageSink } from '@svc/call';

/** One answered call's usage record (the pipeline's domain shape; billing.v1.UsageRecord on the wire). */
export type UsageRecordInput = UsageRecord;
export type { UsageSink };

/**
 * Nothing answered goes unbilled: the record is published to the durable `usage.settle`
 * queue and the broker's confirm is awaited before the client's response completes. When the
 * broker cannot take it, billing's Settle RPC writes it directly; only if both fail is the
 * record logged in full for reconciliation (it carries no prompt).
 */
export function createUsageSink(options: { channel: () => ConfirmChannel | undefined; settleDirect: (records: UsageRecordInput[]) => Promise<number>; logger: Logger }): UsageSink {
  return {
    async record(usage) {
      const channel = options.channel();
      if (channel) {
        try {
          await publish(channel, usageSettle, usage);
          return;
        } catch (error) {
          options.logger.warn('usage publish failed; settling directly', { call_id: usage.call_id, err: error });
        }
      }
      try {
        await options.settleDirect([usage]);
      } catch (error) {
        options.logger.error('usage could not be settled: kept in this log line for reconciliation', { usage_record: usage, err: error });
      }
    },
  };
}
