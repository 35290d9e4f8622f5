import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import type { Redis } from '@svc/redis';
import { COMPACTION_RESULT_TTL_SECONDS, COMPACTION_SUMMARY_MAX_TOKENS, compactionResultKey, type CompactionCost, type CompactionResult, type ConversationCompactJob } from '@svc/messages';
import { SUMMARY_INSTRUCTIONS, parseChatRequest, type CallerKey } from '@svc/call';
import type { ConversationsClient } from '@svc/backends';
import type { WorkerCalls } from '../calls/worker-calls';

/** The longest summary a compaction writes (tokens). */
export const SUMMARY_MAX_TOKENS = COMPACTION_SUMMARY_MAX_TOKENS;

/** The summary call's bill, from its svc object. */
function costOf(svc: Record<string, unknown>): CompactionCost {
  const cost = (svc.cost ?? {}) as Record<string, unknown>;
  const micros = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  return { cost_micros: micros(svc.cost_micros), vendor_micros: micros(cost.vendor_micros), service_fee_micros: micros(cost.service_fee_micros), direct_micros: micros(cost.direct_micros) };
}

/**
 * conversation.compact: the summary of a thread's oldest part, written by a fast model through the
 * call pipeline on the service's own key (the organization's own vendor keys are not used, and the
 * call needs credit: spec, Compaction), stored by the conversations service as a `compaction`
 * item in place of what it replaces. The result goes to Redis for the edge that waits for it.
 * A refusal (no credit, limits) is a result, not a retry; a dependency outage is retried.
 */
export function compactionHandler(deps: { calls: Pick<WorkerCalls, 'run'>; conversations: Pick<ConversationsClient, 'storeCompaction'>; redis: Redis; logger: Logger }) {
  const finish = (job: ConversationCompactJob, result: CompactionResult) => deps.redis.set(compactionResultKey(job.job_id), JSON.stringify(result), 'EX', COMPACTION_RESULT_TTL_SECONDS);
  return async (job: ConversationCompactJob): Promise<void> => {
    try {
      const input = parseChatRequest(
        {
          model: job.model,
          max_tokens: SUMMARY_MAX_TOKENS,
          messages: [
            { role: 'system', content: SUMMARY_INSTRUCTIONS },
            { role: 'user', content: `Transcript of the earlier conversation:\n\n${job.transcript}` },
          ],
        },
        {},
      );
      const key = { ...(job.key as unknown as CallerKey), byok_vendors: [] };
      const outcome = await deps.calls.run(input, { key }, { cacheTtl: 'none', requireCredit: true }, new AbortController().signal);
      const summary = outcome?.result.content?.trim();
      if (!summary) throw new ServiceError('upstream_error', 'The summary model returned no text.');
      const stored = await deps.conversations.storeCompaction({ organization_id: job.organization_id, conversation_id: job.conversation_id, head_response_id: job.head_response_id, replaces: job.replaces, summary });
      await finish(job, { status: 'done', item_id: stored.item.id, cost: costOf(outcome!.svc) });
      deps.logger.info('conversation compacted', { job_id: job.job_id, conversation_id: job.conversation_id, replaced: job.replaces.length, queued_ahead: job.queued_ahead });
    } catch (error) {
      if (error instanceof ServiceError && error.status < 500) {
        await finish(job, { status: 'failed', code: error.code, message: error.message, ...(Object.keys(error.headers).length > 0 ? { headers: error.headers } : {}) });
        return;
      }
      if (error instanceof ServiceError) {
        // A vendor or dependency failure: the waiting edge learns it now; the job is tried again.
        await finish(job, { status: 'failed', code: error.code, message: error.message }).catch(() => undefined);
      }
      throw error;
    }
  };
}
