import { usageRecordSchema } from './usage';

/**
 * The usage outbox (billing.usage_outbox, created by billing's migration 0004): where an edge
 * puts an answered call's usage record when the broker cannot take it, for billing to settle.
 * Like a queue message, the row is the usage.settle v1 payload, and settlement is idempotent on
 * its call_id, so a record that reached both the queue and the outbox is billed once.
 *
 * The statement is defined here, beside the message schema, so the writer (the edge) and the
 * reader (billing) share one definition without importing each other.
 */
export const USAGE_OUTBOX_TABLE = 'billing.usage_outbox';

/** The parameterised INSERT of one record (validated; unknown fields stripped). A repeat of a call_id is a no-op. */
export function usageOutboxInsert(record: unknown): { text: string; values: [string, string] } {
  const parsed = usageRecordSchema.parse(record);
  return {
    text: `INSERT INTO ${USAGE_OUTBOX_TABLE} (call_id, record) VALUES ($1, $2::jsonb) ON CONFLICT (call_id) DO NOTHING`,
    values: [parsed.call_id, JSON.stringify(parsed)],
  };
}
