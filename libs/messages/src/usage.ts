import { z } from 'zod';
import { defineMessage } from '@svc/amqp';

/**
 * usage.settle v1: one answered call to be written into the ledger. The edge publishes it
 * with a publisher confirm before the client's response completes; billing consumes in
 * batches. Same fields as billing.v1.UsageRecord.
 */
export const usageRecordSchema = z.object({
  call_id: z.string().min(1),
  organization_id: z.string().min(1),
  key_id: z.string().min(1),
  kind: z.enum(['chat', 'embeddings']),
  vendor: z.string(),
  model: z.string(),
  line: z.string().default(''),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cached_tokens: z.number().int().nonnegative().default(0),
  cache_write_tokens: z.number().int().nonnegative().default(0),
  reasoning_tokens: z.number().int().nonnegative().default(0),
  vendor_micros: z.number().int(),
  service_fee_micros: z.number().int(),
  call_fee_micros: z.number().int(),
  cost_micros: z.number().int(),
  direct_micros: z.number().int(),
  byok: z.boolean().default(false),
  occurred_at_ms: z.number().int(),
  reserved_micros: z.number().int().default(0),
  /** "free" when served under the Free limits (not charged to the balance). */
  plan: z.enum(['', 'free']).default(''),
  /** The key's spend period at admission, or "" without a spend limit. */
  spend_period: z.enum(['', 'day', 'week', 'month', 'life']).default(''),
  /** Account id of the member whose monthly quota the call counts against. */
  member_id: z.string().default(''),
  /** The key's baseline was pending: the call saves nothing. */
  baseline_pending: z.boolean().default(false),
});

export const usageSettle = defineMessage('usage.settle', 1, usageRecordSchema);
