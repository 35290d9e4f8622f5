import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import type { Redis } from '@svc/redis';
import type { AmqpClient } from '@svc/amqp';
import { compactionResultKey, conversationCompact, type CompactionResult, type ConversationCompactJob } from '@svc/messages';

/**
 * The edge's side of compaction: the summary job goes to the workers (conversation.compact) and
 * the edge waits for its result, which the worker leaves in Redis, for at most `waitMs`. A job
 * queued ahead is published and not waited for.
 */
export interface Compactor {
  compact(job: ConversationCompactJob): Promise<CompactionResult>;
  queueAhead(job: ConversationCompactJob): void;
}

export function createCompactor(options: { amqp: Pick<AmqpClient, 'publish'>; redis: Redis; logger: Pick<Logger, 'warn'>; waitMs: number; pollMs?: number }): Compactor {
  const pollMs = options.pollMs ?? 100;
  return {
    async compact(job) {
      try {
        await options.amqp.publish(conversationCompact, job);
      } catch (error) {
        throw new ServiceError('conversations_unavailable', 'The conversation needs compaction and the compaction workers cannot be reached right now. Please retry.', { cause: error });
      }
      const deadline = Date.now() + options.waitMs;
      while (Date.now() < deadline) {
        const raw = await options.redis.get(compactionResultKey(job.job_id)).catch(() => null);
        if (raw) return JSON.parse(raw) as CompactionResult;
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
      throw new ServiceError('conversations_unavailable', `The conversation's compaction did not finish within ${Math.round(options.waitMs / 1000)} seconds. Please retry.`);
    },
    queueAhead(job) {
      options.amqp.publish(conversationCompact, job).catch((error: unknown) => options.logger.warn('compaction could not be queued ahead; the next turn compacts if it must', { conversation_id: job.conversation_id, err: error }));
    },
  };
}
