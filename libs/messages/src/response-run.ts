import { z } from 'zod';
import { defineMessage } from '@svc/amqp';
import { compactionCostSchema } from './conversation-compact';

/**
 * response.run v1: a background response's turn (spec: POST /v1/responses `background`, States and
 * transitions). Published by the edge after the response was stored `queued` (with its input
 * items); consumed by the workers, which run the turn through the call pipeline and end the stored
 * response (UpdateResponse: completed, incomplete or failed). Acked only once the response has
 * ended, so a worker that dies mid-turn leaves the job to another; the call id is the response's,
 * so a turn run twice is billed once.
 */
export const responseRunSchema = z.object({
  response_id: z.string().min(1),
  organization_id: z.string().min(1),
  /** The caller's key record (plan, limits, member, expiry; no secret): the turn is billed to it. */
  key: z.record(z.string(), z.unknown()),
  /** The request body as sent (re-read by the worker exactly as the edge read it). */
  body: z.record(z.string(), z.unknown()),
  /** The request's svc headers (x-svc-*), which win over body options. */
  headers: z.record(z.string(), z.string()).default({}),
  /** The stored response's head (id, created_at, model asked, conversation, echo, ...). */
  head: z.record(z.string(), z.unknown()),
  /** The thread the turn continues: its parent response (null: the conversation's root). */
  parent_response_id: z.string().nullable(),
  /** The history was compacted for this turn before it was queued (svc.compacted). */
  compacted: z.boolean().default(false),
  /** What that summary was billed (reported in the turn's svc.cost_micros and cost). */
  compaction_cost: compactionCostSchema.optional(),
  organization_retention_days: z.number().int(),
  /** x-sim-* headers forwarded to the simulator (development and tests only). */
  simulator_headers: z.record(z.string(), z.string()).default({}),
  queued_at_ms: z.number().int(),
});

export type ResponseRunJob = z.infer<typeof responseRunSchema>;

export const responseRun = defineMessage('response.run', 1, responseRunSchema);

/** Redis pub/sub channel on which a cancelled background response's id is announced (the worker running it cuts its call). */
export const RESPONSE_CANCEL_CHANNEL = 'response:cancel';

/**
 * Redis pub/sub channel on which the conversations service announces, after commit, a conversation
 * whose stored history changed other than by a new turn (a response or the conversation deleted,
 * items added, a compaction stored). Message: the conversation id. Replicas that keep histories
 * (the edge's history cache) drop what they hold of it.
 */
export const CONVERSATION_CHANGES_CHANNEL = 'conversation:changes';
