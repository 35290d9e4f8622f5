import { z } from 'zod';
import { defineMessage } from '@svc/amqp';

/**
 * conversation.compact v1: summarize the oldest part of a conversation thread (spec: Compaction).
 * Published by the edge when a turn's history does not fit (it waits for the result) or ahead of
 * time when a thread nears the limit; consumed by the workers, which run the summary through the
 * call pipeline on the service's own key and store it with the conversations service. The result
 * is written to Redis under `compaction:result:<job_id>` (see libs/call responses/compaction.ts).
 */
export const conversationCompactSchema = z.object({
  job_id: z.string().min(1),
  organization_id: z.string().min(1),
  conversation_id: z.string().min(1),
  /** The thread head the summary is for (null: the conversation's root). */
  head_response_id: z.string().nullable(),
  /** The caller's key record (plan, limits, member; no secret): the summary is billed to it. */
  key: z.record(z.string(), z.unknown()),
  /** The fast model that writes the summary. */
  model: z.string().min(1),
  /** Ids of the stored items the summary replaces, oldest first. */
  replaces: z.array(z.string()).min(1),
  /** Their text, as the summary model reads it. */
  transcript: z.string(),
  queued_ahead: z.boolean().default(false),
});

export type ConversationCompactJob = z.infer<typeof conversationCompactSchema>;

export const conversationCompact = defineMessage('conversation.compact', 1, conversationCompactSchema);

/** Where the worker leaves a job's result (Redis, 10 minutes). */
export const compactionResultKey = (jobId: string) => `compaction:result:${jobId}`;
export const COMPACTION_RESULT_TTL_SECONDS = 600;

/** What the summary call was billed (its svc.cost_micros and svc.cost money fields); the turn that waited for it reports it in its own svc. */
export const compactionCostSchema = z.object({ cost_micros: z.number(), vendor_micros: z.number(), service_fee_micros: z.number(), direct_micros: z.number() });
export type CompactionCost = z.infer<typeof compactionCostSchema>;

/** `headers`: a refusal's own response headers (x-svc-balance-micros on a 402, Retry-After). */
export type CompactionResult = { status: 'done'; item_id: string; cost?: CompactionCost } | { status: 'failed'; code: string; message: string; headers?: Record<string, string> };

/** The longest summary a compaction writes (tokens): a turn is refused before any summary when even this would not make room. */
export const COMPACTION_SUMMARY_MAX_TOKENS = 1024;
