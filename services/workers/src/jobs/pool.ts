import { ServiceError } from '@svc/errors';
import { randomBytes } from 'node:crypto';
import type { Logger } from '@svc/logger';
import { responseRunSchema, type ResponseRunJob } from '@svc/messages';
import type { ConversationsClient, PoolGroup, PoolRow } from '@svc/backends';
import { batchAdapterFor as registryAdapterFor, VendorError, type BatchProtocol, type CallContext, type VendorBatchAdapter, type VendorBatchHandle, type VendorBatchState } from '@svc/vendors';
import {
  answeredTurn,
  batchLineOutcome,
  batchProtocolOf,
  parseResponsesRequest,
  poolLinePolicy,
  prepareBatchLine,
  responseObject,
  toClientError,
  withHistory,
  type BatchLinePlan,
  type CallDeps,
  type CallPolicy,
  type CallerKey,
  type ChatRequestInput,
  type ResponseHead,
} from '@svc/call';
import { OUTAGE_CODES } from './respond';

/**
 * The organization's vendor-batch pool on the workers (spec: POST /v1/responses `background`,
 * "waiting for its batch" and "sent inside a vendor batch"; ARCHITECTURE.md "Background responses
 * and the vendor-batch pool"). State lives in Postgres (conversations.response_pool), so any
 * replica does any step and resumes after a crash:
 *
 * - flush: claims, per (organization, vendor), up to maxLines waiting rows once that many wait or
 *   the oldest waited maxAgeMs (a lease; FOR UPDATE SKIP LOCKED in conversations). Each line's
 *   vendor request is built through libs/call (prepareBatchLine: the turn's history, cache ttl
 *   `none` unless the request set one), the lines go to the vendor batch adapter (custom id =
 *   response id; one vendor batch per model and endpoint), and the rows are marked `sent` with
 *   the handle. A line that cannot be built ends `failed` (key_expired, model_not_found, ...); a
 *   vendor or service that is away puts the rows back to waiting.
 * - results: sent rows are leased per vendor batch for one poll; once results are ready each line
 *   completes its response (libs/call batchLineOutcome: svc object, cost and usage record at the
 *   batch price, billed once under the response's call id; then UpdateResponse, which removes the
 *   pool row), errored lines end `failed` {code, message}, lines that never ran end `failed`
 *   with upstream_timeout (the vendor batch expired) or upstream_error (refused or cancelled), in
 *   the service's words (the vendor's own text is logged, never shown).
 */
/** The WORKER_QUEUES name that runs the pool on a replica (it is a Postgres loop, not a RabbitMQ queue). */
export const POOL_QUEUE = 'response.pool';

export interface PoolSettings {
  maxLines: number;
  maxAgeMs: number;
  /** How long a flush may hold its claim before the rows go back to waiting. */
  claimLeaseMs: number;
  flushIntervalMs: number;
  /** How often a sent vendor batch is polled (its rows' poll lease). */
  pollIntervalMs: number;
}

export interface PoolDeps {
  call: CallDeps;
  conversations: Pick<ConversationsClient, 'claimPool' | 'markPoolSent' | 'releasePoolClaim' | 'claimPoolResults' | 'buildHistory' | 'updateResponse' | 'deleteConversation'>;
  logger: Logger;
  settings: PoolSettings;
  /** The vendor batch adapters (tests replace them). */
  batchAdapterFor?: (protocol: BatchProtocol) => VendorBatchAdapter | undefined;
  now?: () => number;
}

/** One pool line made ready: its turn, its request and where it is served. */
interface Line {
  row: PoolRow;
  job: ResponseRunJob;
  head: ResponseHead;
  input: ChatRequestInput;
  key: CallerKey;
  policy: CallPolicy;
  plan: BatchLinePlan;
}

/** What a flush sent (the bench and the logs read it). */
export interface SentBatch {
  organization_id: string;
  vendor: string;
  model: string;
  vendor_batch_id: string;
  lines: number;
}

export class ResponsePool {
  private readonly adapterFor: (protocol: BatchProtocol) => VendorBatchAdapter | undefined;
  private timers: NodeJS.Timeout[] = [];
  private busy = { flush: false, poll: false };
  private stopped = false;

  constructor(private readonly deps: PoolDeps) {
    this.adapterFor = deps.batchAdapterFor ?? registryAdapterFor;
  }

  start(): void {
    const tick = (name: 'flush' | 'poll', work: () => Promise<unknown>) => () => {
      if (this.busy[name] || this.stopped) return;
      this.busy[name] = true;
      work()
        .catch((error: unknown) => this.deps.logger.warn(`response pool ${name} failed; next tick retries`, { err: error }))
        .finally(() => (this.busy[name] = false));
    };
    this.timers.push(setInterval(tick('flush', () => this.flushAll()), this.deps.settings.flushIntervalMs));
    this.timers.push(setInterval(tick('poll', () => this.pollOnce()), Math.max(100, Math.floor(this.deps.settings.pollIntervalMs / 2))));
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** Flushes until nothing more is due (a full group may be followed by more waiting rows). */
  async flushAll(): Promise<SentBatch[]> {
    const sent: SentBatch[] = [];
    for (let round = 0; round < 100 && !this.stopped; round += 1) {
      const { batches, claimed } = await this.flushOnce();
      sent.push(...batches);
      if (claimed === 0) break;
    }
    return sent;
  }

  /** One claim: the due groups, each sent as vendor batches. */
  async flushOnce(): Promise<{ batches: SentBatch[]; claimed: number }> {
    const { settings } = this.deps;
    const claimId = `pool_${randomBytes(16).toString('hex')}`;
    const groups = await this.deps.conversations.claimPool({ claim_id: claimId, max_lines: settings.maxLines, max_age_ms: settings.maxAgeMs, lease_ms: settings.claimLeaseMs });
    const batches: SentBatch[] = [];
    for (const group of groups) batches.push(...(await this.sendGroup(claimId, group)));
    return { batches, claimed: groups.reduce((sum, group) => sum + group.rows.length, 0) };
  }

  private async sendGroup(claimId: string, group: PoolGroup): Promise<SentBatch[]> {
    const lines: Line[] = [];
    const back: string[] = [];
    for (const row of group.rows) {
      const line = await this.readyLine(row, true).catch((error: unknown) => {
        back.push(row.response_id);
        this.deps.logger.warn('pool line not built (a dependency is away); back to waiting', { response_id: row.response_id, err: error });
        return undefined;
      });
      if (line) lines.push(line);
    }
    if (back.length > 0) await this.deps.conversations.releasePoolClaim({ claim_id: claimId, response_ids: back });
    // One vendor batch per model and endpoint (Gemini batches name one model; own keys differ per organization anyway).
    const byTarget = new Map<string, Line[]>();
    for (const line of lines) {
      const target = `${line.plan.model.id}\u0000${line.plan.provider.context.baseUrl}\u0000${line.plan.byok}`;
      byTarget.set(target, [...(byTarget.get(target) ?? []), line]);
    }
    const sent: SentBatch[] = [];
    for (const batch of byTarget.values()) {
      const result = await this.submit(claimId, group, batch);
      if (result) sent.push(result);
    }
    return sent;
  }

  private async submit(claimId: string, group: PoolGroup, lines: Line[]): Promise<SentBatch | undefined> {
    const first = lines[0]!;
    const protocol = batchProtocolOf(this.deps.call.catalog, first.plan.model);
    const adapter = protocol ? this.adapterFor(protocol) : undefined;
    const ids = lines.map((line) => line.row.response_id);
    if (!adapter) {
      for (const line of lines) await this.fail(line.row, line.job, line.head, 'model_not_batchable', `The model '${line.plan.model.id}' has no vendor batch API here.`);
      return undefined;
    }
    let handle: VendorBatchHandle;
    try {
      handle = await adapter.submit({ lines: lines.map((line) => ({ customId: line.row.response_id, request: line.plan.prepared.request })), metadata: { svc_pool: claimId, organization: group.organization_id } }, this.context(first));
    } catch (error) {
      if (error instanceof VendorError && !error.retryable) {
        const failure = toClientError(error, first.plan.model.vendor);
        this.deps.logger.error('vendor refused a pool batch; its responses end failed', { vendor: first.plan.model.vendor, model: first.plan.model.id, lines: lines.length, code: failure.code, err: error });
        for (const line of lines) await this.fail(line.row, line.job, line.head, failure.code, failure.message);
        return undefined;
      }
      this.deps.logger.warn('pool batch not sent (vendor away); its lines wait for the next flush', { vendor: first.plan.model.vendor, lines: lines.length, err: error });
      await this.deps.conversations.releasePoolClaim({ claim_id: claimId, response_ids: ids });
      return undefined;
    }
    const vendorBatchId = `${handle.protocol}:${handle.id}`;
    const marked = await this.deps.conversations.markPoolSent({ claim_id: claimId, response_ids: ids, vendor_batch_id: vendorBatchId, vendor_batch: handle });
    if (marked < ids.length) this.deps.logger.warn('pool claim lost for some lines while sending (lease expired); they may be sent again and are billed once', { vendor_batch_id: vendorBatchId, lines: ids.length, marked });
    this.deps.logger.info('pool batch sent', { organization_id: group.organization_id, vendor: group.vendor, model: first.plan.model.id, vendor_batch_id: vendorBatchId, lines: ids.length });
    return { organization_id: group.organization_id, vendor: group.vendor, model: first.plan.model.id, vendor_batch_id: vendorBatchId, lines: ids.length };
  }

  /** One poll round over the sent vendor batches whose poll lease is free. */
  async pollOnce(): Promise<{ polled: number; ended: number }> {
    const claimId = `poll_${randomBytes(16).toString('hex')}`;
    const groups = await this.deps.conversations.claimPoolResults({ claim_id: claimId, lease_ms: this.deps.settings.pollIntervalMs });
    let ended = 0;
    for (const group of groups) ended += await this.collect(group);
    return { polled: groups.length, ended };
  }

  /** A vendor batch's rows (this lease's): polled, and once ready every line ended. Returns how many ended. */
  private async collect(group: PoolGroup): Promise<number> {
    const handle = group.rows[0]!.vendor_batch as VendorBatchHandle;
    const adapter = this.adapterFor(handle.protocol);
    const lines = new Map<string, Line>();
    for (const row of group.rows) {
      const line = await this.readyLine(row, false).catch((error: unknown) => {
        this.deps.logger.warn('pool line not readable (a dependency is away); polled again later', { response_id: row.response_id, err: error });
        return undefined;
      });
      if (line) lines.set(row.response_id, line);
    }
    const first = lines.values().next().value as Line | undefined;
    if (!first || !adapter) return 0;
    const context = this.context(first);
    let state: VendorBatchState;
    try {
      state = await adapter.poll(handle, context);
    } catch (error) {
      this.deps.logger.warn('pool batch poll failed; polled again later', { vendor_batch: handle.id, err: error });
      return 0;
    }
    if (!state.resultsReady) return 0;
    let ended = 0;
    const seen = new Set<string>();
    for await (const result of adapter.results(handle, context)) {
      const line = lines.get(result.customId);
      if (!line || seen.has(result.customId)) continue;
      seen.add(result.customId);
      if (result.outcome === 'succeeded') {
        const outcome = await batchLineOutcome(this.deps.call, line.input, { key: line.key }, line.policy, line.plan, result.result);
        const { response } = answeredTurn(line.head, outcome, { conversationId: line.head.conversationId, compacted: line.job.compacted, ...(line.job.compaction_cost ? { compactionCost: line.job.compaction_cost } : {}) });
        await this.end(line.row, line.job, line.head, response);
      } else if (result.outcome === 'errored') {
        const failure = toClientError(result.error, line.plan.model.vendor);
        if (failure.status >= 500) this.deps.logger.error('pool line failed at the vendor', { response_id: line.row.response_id, code: failure.code, err: result.error });
        await this.fail(line.row, line.job, line.head, failure.code, failure.message);
      } else {
        // The spec's codes for a vendor that did not answer: in time (expired) or at all.
        const code = result.outcome === 'expired' ? 'upstream_timeout' : 'upstream_error';
        await this.fail(line.row, line.job, line.head, code, `The vendor batch this response was sent in ${result.outcome === 'expired' ? 'expired' : 'was cancelled'} before it was answered.`);
      }
      ended += 1;
    }
    // Lines the vendor did not report never ran: the batch's status says why.
    for (const line of lines.values()) {
      if (seen.has(line.row.response_id)) continue;
      // The vendor's own words stay in the log (spec: a vendor's own error body never reaches the client).
      const code = state.status === 'expired' ? 'upstream_timeout' : 'upstream_error';
      this.deps.logger.error('pool line missing from its vendor batch results', { response_id: line.row.response_id, status: state.status, failure: state.failure });
      await this.fail(line.row, line.job, line.head, code, state.status === 'expired' ? 'The vendor batch this response was sent in expired before it was answered.' : 'The vendor could not run the batch this response was sent in.');
      ended += 1;
    }
    return ended;
  }

  /**
   * The line's turn as the edge read it, its history, and its vendor request (prepareBatchLine).
   * At flush (`sending`) a key that expired or a refusal ends the response failed and returns
   * undefined; a dependency outage throws (the caller retries later).
   */
  private async readyLine(row: PoolRow, sending: boolean): Promise<Line | undefined> {
    const job = responseRunSchema.parse(row.job);
    const head = job.head as unknown as ResponseHead;
    const key = job.key as unknown as CallerKey & { expires_at_ms?: number | string };
    const now = (this.deps.now ?? Date.now)();
    if (sending && Number(key.expires_at_ms ?? 0) > 0 && Number(key.expires_at_ms) <= now) {
      await this.fail(row, job, head, 'key_expired', 'The API key that queued this response expired before it ran.');
      return undefined;
    }
    try {
      const parsed = parseResponsesRequest(job.body, job.headers, { remoteImages: 'defer' });
      const history = job.parent_response_id ? await this.deps.conversations.buildHistory({ organization_id: job.organization_id, previous_response_id: job.parent_response_id, conversation_id: null }) : undefined;
      const input = withHistory(parsed.chat, (history?.items ?? []) as never);
      if (head.conversationId) input.svc.sessionId = head.conversationId;
      const policy = poolLinePolicy(job.response_id, job.simulator_headers);
      const plan = await prepareBatchLine(this.deps.call, input, { key }, policy);
      return { row, job, head, input, key, policy, plan };
    } catch (error) {
      if (error instanceof ServiceError && !OUTAGE_CODES.has(error.code)) {
        if (error.status === 404 && !sending) return undefined;
        await this.fail(row, job, head, error.code, error.message);
        return undefined;
      }
      throw error;
    }
  }

  /** The vendor call context of a line's batch: its endpoint and key, and the x-sim-* headers to the simulator. */
  private context(line: Line): CallContext {
    const headers = line.plan.provider.simulated && line.policy.simulatorHeaders ? line.policy.simulatorHeaders : undefined;
    return { ...line.plan.provider.context, ...(headers ? { headers } : {}) };
  }

  private async end(row: PoolRow, job: ResponseRunJob, head: ResponseHead, response: Record<string, unknown>): Promise<void> {
    try {
      const updated = await this.deps.conversations.updateResponse({ organization_id: row.organization_id, response_id: row.response_id, response, organization_retention_days: job.organization_retention_days });
      if (!updated.updated) this.deps.logger.warn('pool line answered after its response ended elsewhere; the answer is billed and not stored', { response_id: row.response_id });
      if (updated.delete_after_response && head.conversationId) {
        await this.deps.conversations.deleteConversation({ organization_id: row.organization_id, conversation_id: head.conversationId }).catch((error: unknown) => this.deps.logger.warn('retention 0: conversation not deleted; the retention sweep removes it', { conversation_id: head.conversationId, err: error }));
      }
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) {
        this.deps.logger.warn('pool line answered after its response was deleted', { response_id: row.response_id });
        return;
      }
      throw error;
    }
  }

  private fail(row: PoolRow, job: ResponseRunJob, head: ResponseHead, code: string, message: string): Promise<void> {
    return this.end(row, job, head, responseObject(head, { status: 'failed', output: [], usage: null, error: { code, message }, svc: { cost_micros: 0, ...(head.conversationId ? { session_id: head.conversationId } : {}), cache: { read_tokens: 0, write_tokens: 0, ttl_applied: '' }, tier: { requested: 'batch' } } }));
  }
}
