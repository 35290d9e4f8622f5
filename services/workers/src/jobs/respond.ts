import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import type { ResponseRunJob } from '@svc/messages';
import type { ConversationsClient } from '@svc/backends';
import { answeredTurn, parseResponsesRequest, responseObject, withHistory, type CallerKey, type ResponseHead } from '@svc/call';
import type { WorkerCalls } from '../calls/worker-calls';

/** Refusals that mean a dependency is away, not that the turn failed: the job is held and tried again. */
export const OUTAGE_CODES = new Set(['conversations_unavailable', 'billing_unavailable', 'auth_unavailable']);

/** The consumer's outage test for response.run: a connection error, or one of OUTAGE_CODES. */
export function isResponseRunOutage(error: unknown, isConnectionError: (error: unknown) => boolean): boolean {
  return isConnectionError(error) || (error instanceof ServiceError && OUTAGE_CODES.has(error.code)) || (error instanceof Error && /is not readable yet$/.test(error.message));
}

/** How long a job waits for its response to be readable before it is dropped (the edge stores it before it publishes). */
export const UNSTORED_GRACE_MS = 60_000;

/**
 * The running background turns of this worker, by response id: a cancel heard over Redis pub/sub
 * aborts the turn's call (its vendor call is cut; the pipeline releases the reservation).
 */
export class RunningTurns {
  private readonly running = new Map<string, AbortController>();

  start(responseId: string): AbortController {
    const controller = new AbortController();
    this.running.set(responseId, controller);
    return controller;
  }

  end(responseId: string, controller: AbortController): void {
    if (this.running.get(responseId) === controller) this.running.delete(responseId);
  }

  cancel(responseId: string): boolean {
    const controller = this.running.get(responseId);
    controller?.abort(new DOMException('background response cancelled', 'AbortError'));
    return controller !== undefined;
  }

  get size(): number {
    return this.running.size;
  }
}

type Deps = {
  calls: Pick<WorkerCalls, 'run'>;
  conversations: Pick<ConversationsClient, 'getResponse' | 'buildHistory' | 'updateResponse' | 'deleteConversation'>;
  running: RunningTurns;
  logger: Logger;
  /** How often a running turn checks that it was not cancelled (a cancel whose announcement was missed). */
  statusCheckMs?: number;
  now?: () => number;
};

/**
 * response.run: a background response's turn (spec: POST /v1/responses `background`, States and
 * transitions). The stored response must still be `queued` (a cancelled or already ended one is
 * left as it is: a redelivered job does nothing). The request is read again exactly as the edge
 * read it, the history is the thread up to the turn's parent, and the turn runs through the call
 * pipeline under the response's own call id (a turn run twice after a worker died is billed
 * once). It ends completed or incomplete with its output, or failed with {code, message} for a
 * refusal or a vendor failure; a key that expired while the turn waited fails it with
 * `key_expired`. A dependency outage (the conversations service) is retried by the consumer.
 */
export function responseRunHandler(deps: Deps) {
  const now = deps.now ?? Date.now;
  return async (job: ResponseRunJob): Promise<void> => {
    const query = { organization_id: job.organization_id, response_id: job.response_id };
    let stored;
    try {
      stored = await deps.conversations.getResponse(query);
    } catch (error) {
      if (!(error instanceof ServiceError && error.status === 404)) throw error;
      if (now() - job.queued_at_ms < UNSTORED_GRACE_MS) throw new Error(`response ${job.response_id} is not readable yet`, { cause: error });
      deps.logger.warn('background turn dropped: its response is gone (deleted, expired, or never stored)', query);
      return;
    }
    if (stored.status !== 'queued') return;
    const head = job.head as unknown as ResponseHead;
    const turn = { conversationId: head.conversationId, compacted: job.compacted, ...(job.compaction_cost ? { compactionCost: job.compaction_cost } : {}) };
    const end = async (response: Record<string, unknown>) => {
      const updated = await deps.conversations.updateResponse({ ...query, response, organization_retention_days: job.organization_retention_days });
      if (updated.delete_after_response && head.conversationId) {
        await deps.conversations.deleteConversation({ organization_id: job.organization_id, conversation_id: head.conversationId }).catch((error: unknown) => deps.logger.warn('retention 0: conversation not deleted; the retention sweep removes it', { conversation_id: head.conversationId, err: error }));
      }
      return updated;
    };
    const fail = (code: string, message: string) => end(responseObject(head, { status: 'failed', output: [], usage: null, error: { code, message }, svc: stored.stored.svc as Record<string, unknown> | undefined }));

    const key = job.key as unknown as CallerKey & { expires_at_ms?: number | string };
    if (Number(key.expires_at_ms ?? 0) > 0 && Number(key.expires_at_ms) <= now()) {
      await fail('key_expired', 'The API key that queued this response expired before it ran.');
      return;
    }
    const running = deps.running.start(job.response_id);
    const check = setInterval(() => {
      deps.conversations
        .getResponse(query)
        .then((current) => current.status !== 'queued' && running.abort(new DOMException('background response ended elsewhere', 'AbortError')))
        .catch(() => undefined);
    }, deps.statusCheckMs ?? 2_000);
    try {
      const input = parseResponsesRequest(job.body, job.headers, { remoteImages: 'defer' });
      const history = job.parent_response_id ? await deps.conversations.buildHistory({ organization_id: job.organization_id, previous_response_id: job.parent_response_id, conversation_id: null }) : undefined;
      const chat = withHistory(input.chat, (history?.items ?? []) as never);
      if (head.conversationId) chat.svc.sessionId = head.conversationId;
      const policy = {
        escalation: true,
        background: true,
        simulatorHeaders: job.simulator_headers,
        ids: { callId: `call_${job.response_id.slice(5)}`, completionId: job.response_id },
      };
      const outcome = await deps.calls.run(chat, { key }, policy, running.signal);
      if (!outcome || running.signal.aborted) return;
      const { response } = answeredTurn(head, outcome, turn);
      const updated = await end(response);
      if (!updated.updated) deps.logger.warn('background turn answered after it was cancelled; the answer is billed and not stored', query);
    } catch (error) {
      if (running.signal.aborted) {
        deps.logger.info('background turn cancelled: vendor call cut', query);
        return;
      }
      // A refusal or a vendor failure ends the response failed; anything else (a dependency the
      // worker cannot reach) is retried by the consumer.
      if (error instanceof ServiceError && !OUTAGE_CODES.has(error.code)) {
        if (error.status >= 500) deps.logger.error('background turn failed', { ...query, code: error.code, err: error });
        await fail(error.code, error.message);
        return;
      }
      throw error;
    } finally {
      clearInterval(check);
      deps.running.end(job.response_id, running);
    }
  };
}
