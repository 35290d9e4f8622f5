import { withTimeout } from '@svc/lifecycle';
import type { Logger } from '@svc/logger';
import type { Redis } from '@svc/redis';
import { CONVERSATION_CHANGES_CHANNEL } from '@svc/messages';

/**
 * Announces a conversation whose stored history changed other than by a new turn (a response or
 * the conversation deleted, items added, a compaction stored), after commit, on Redis pub/sub
 * (CONVERSATION_CHANGES_CHANNEL): replicas that keep histories (the edge's history cache) drop what
 * they hold of it. The announcement is made before the RPC answers, so a client that deleted a
 * response and then continues from it is refused by every edge; it is bounded (a Redis that does
 * not answer in `timeoutMs` costs the change nothing: it is logged, and what an edge holds then
 * lives until its own expiry — a stored turn is still refused, CompleteTurn checks its parent).
 */
export interface ConversationChanges {
  changed(conversationId: string): Promise<void>;
}

export const noChanges: ConversationChanges = { changed: async () => undefined };

export function redisChanges(options: { redis: Pick<Redis, 'publish'>; keyPrefix: string; logger: Logger; timeoutMs?: number }): ConversationChanges {
  const channel = `${options.keyPrefix}${CONVERSATION_CHANGES_CHANNEL}`;
  const timeoutMs = options.timeoutMs ?? 250;
  return {
    async changed(conversationId) {
      try {
        await withTimeout(options.redis.publish(channel, conversationId), timeoutMs, `no answer from Redis in ${timeoutMs} ms`);
      } catch (error) {
        options.logger.warn('conversation change not announced: edges keep their copy of its history until it expires (RESPONSES_HISTORY_CACHE_TTL_MS)', { conversation_id: conversationId, err: error });
      }
    },
  };
}
