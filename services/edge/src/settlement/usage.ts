import type { ConfirmChannel } from 'amqplib';
import { publish } from '@svc/amqp';
import { usageSettle } from '@svc/messages';
import type { Logger } from '@svc/logger';
import type { UsageRecord } from '@svc/protos';

export type UsageRecordInput = Required<Pick<UsageRecord, 'call_id' | 'organization_id' | 'key_id' | 'vendor' | 'model'>> & {
  kind: 'chat' | 'embeddings';
  line: string;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  vendor_micros: number;
  service_fee_micros: number;
  call_fee_micros: number;
  cost_micros: number;
  direct_micros: number;
  byok: boolean;
  occurred_at_ms: number;
  reserved_micros: number;
  plan: '' | 'free';
  spend_period: '' | 'day' | 'week' | 'month' | 'life';
  member_id: string;
  baseline_pending: boolean;
};

export interface UsageSink {
  record(usage: UsageRecordInput): Promise<void>;
}

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
