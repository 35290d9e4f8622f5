import { setMaxListeners } from 'node:events';
import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import type { Catalog } from '@svc/catalog';
import type { BatchClient, BatchObject } from '@svc/backends';
import { admissionKey, renderCompletion, sharedPrefixKey, type BillingPort, type CallerKey, type UsageRecord, type UsageSink } from '@svc/call';
import { lineCallIds, splitJsonl, type BatchLineRunJob, type BatchStartJob } from '@svc/messages';
import type { WorkerCalls } from '../calls/worker-calls';
import { MAX_BATCH_ERRORS, checkLine, planLine, type BatchError, type LinePlan } from './batch-validate';

/** Refusals that mean a dependency is away, not that a line failed: the job is held and tried again. */
export const BATCH_OUTAGE_CODES = new Set(['batches_unavailable', 'files_unavailable', 'billing_unavailable', 'auth_unavailable']);

/**
 * Refusals that the chunk's own lines can cause: each holds a reservation of its estimate until
 * billing settles its usage, so a key's spend limit, a member's quota or the balance can look
 * reached while the spend is well below it. A line refused so while others are in flight waits for
 * one of them to finish and runs again; with none in flight it asks again every SETTLE_WAIT_MS
 * while billing settles answered lines — this chunk's, or other chunks' of the batch running at
 * once — up to SETTLE_PATIENCE_MS after the chunk started or last had an answer; refused after
 * that, it is real.
 */
const RESERVATION_REFUSALS = new Set(['quota_exceeded', 'insufficient_credits']);
const SETTLE_WAIT_MS = 250;
const SETTLE_PATIENCE_MS = 10_000;

/**
 * The chunks running in this process, by batch: a cancel announced on BATCH_CANCEL_CHANNEL stops
 * them at once (lines not started are committed cancelled, calls in flight are cut), rather than at
 * their next status check.
 */
export class RunningBatches {
  private readonly running = new Map<string, Set<() => void>>();

  add(batchId: string, cancel: () => void): () => void {
    const chunks = this.running.get(batchId) ?? new Set();
    chunks.add(cancel);
    this.running.set(batchId, chunks);
    return () => {
      chunks.delete(cancel);
      if (chunks.size === 0 && this.running.get(batchId) === chunks) this.running.delete(batchId);
    };
  }

  /** Stops every chunk of the batch running here; false when none is. */
  cancel(batchId: string): boolean {
    const chunks = this.running.get(batchId);
    for (const cancel of chunks ?? []) cancel();
    return Boolean(chunks?.size);
  }
}

export function isBatchOutage(error: unknown, isConnectionError: (error: unknown) => boolean): boolean {
  return isConnectionError(error) || (error instanceof ServiceError && BATCH_OUTAGE_CODES.has(error.code));
}

/**
 * The usage sink of the workers' call pipeline, with a side door for batch lines: the usage
 * record of a call whose id is awaited (a batch line) is handed to the line instead of being
 * published, so the line commits it with its output in one transaction (CommitLines). Every other
 * call's record goes on to the usual sink.
 */
export class LineUsageCapture implements UsageSink {
  private readonly awaited = new Map<string, UsageRecord | null>();
  constructor(private readonly inner: () => UsageSink) {}

  expect(callId: string): void {
    this.awaited.set(callId, null);
  }

  take(callId: string): UsageRecord | undefined {
    const record = this.awaited.get(callId) ?? undefined;
    this.awaited.delete(callId);
    return record;
  }

  async record(usage: UsageRecord): Promise<void> {
    if (this.awaited.has(usage.call_id)) {
      this.awaited.set(usage.call_id, usage);
      return;
    }
    await this.inner().record(usage);
  }
}

type BatchDeps = {
  batches: Pick<BatchClient, 'getBatch' | 'fileContent' | 'batchWork'>;
  catalog: Catalog;
  billing: Pick<BillingPort, 'admit' | 'release'>;
  authenticateKey: (keyHash: string) => Promise<{ key?: { revoked?: boolean; expires_at_ms?: number | string } | null }>;
  publishChunk: (job: BatchLineRunJob) => Promise<void>;
  logger: Logger;
  /** Lines per batch.line.run message (also bounded by chunkBytes). */
  chunkLines: number;
  chunkBytes?: number;
  now?: () => number;
};

/**
 * batch.start: a `validating` batch is checked and started.
 *
 * 1. The input file is read as a stream (gone: `input_file_missing`; no lines: `empty_file`)
 *    and every line checked as it will run (batch-validate.ts), collecting the first 100 errors
 *    with their 1-based line; the key must still be valid (`api_key_revoked`, `key_expired`);
 *    the organization's credit must cover the lines' estimate at the prices they run at
 *    (`insufficient_credits`, estimate and balance in the message; a reservation taken for the
 *    question and given back at once). Any failure ends the batch `failed` with `errors`; no
 *    line ran, nothing is billed.
 * 2. StartBatch writes the line rows (`in_progress`); the file is read again and the lines are
 *    published in chunks. A batch found `in_progress` (this job redelivered after a worker died
 *    between start and publish) has its chunks published again: lines already committed are
 *    skipped by the chunk and a line committed twice is billed and written once.
 */
export function batchStartHandler(deps: BatchDeps) {
  const now = deps.now ?? Date.now;
  return async (job: BatchStartJob): Promise<void> => {
    const query = { organization_id: job.organization_id, batch_id: job.batch_id };
    let batch: BatchObject;
    try {
      batch = await deps.batches.getBatch(query);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'not_found') {
        deps.logger.warn('batch.start for a batch that does not exist: dropped', query);
        return;
      }
      throw error;
    }
    if (batch.status !== 'validating' && batch.status !== 'in_progress') return;
    const key = job.key as unknown as CallerKey & { expires_at_ms?: number | string };
    const fail = async (errors: BatchError[]) => {
      await deps.batches.batchWork('FailBatch', { ...query, errors });
      deps.logger.info('batch failed validation', { ...query, codes: [...new Set(errors.map((error) => error.code))] });
    };
    const readLines = async () => {
      try {
        const content = await deps.batches.fileContent({ organization_id: job.organization_id, file_id: batch.input_file_id });
        return splitJsonl(content.body as AsyncIterable<Buffer>);
      } catch (error) {
        if (error instanceof ServiceError && error.code === 'not_found') return undefined;
        throw error;
      }
    };

    if (batch.status === 'validating') {
      if (job.key_hash) {
        const current = await deps.authenticateKey(job.key_hash).catch((error: unknown) => {
          if (error instanceof ServiceError && error.code === 'invalid_api_key') return { key: { revoked: true } };
          throw error;
        });
        if (current.key?.revoked) return fail([{ code: 'api_key_revoked', message: 'The API key that created this batch was revoked before the batch started.', param: null, line: null }]);
      }
      if (Number(key.expires_at_ms ?? 0) > 0 && Number(key.expires_at_ms) <= now()) {
        return fail([{ code: 'key_expired', message: 'The API key that created this batch expired before the batch started.', param: null, line: null }]);
      }
      const lines = await readLines();
      if (!lines) return fail([{ code: 'input_file_missing', message: `The input file '${batch.input_file_id}' no longer exists (deleted or expired).`, param: 'input_file_id', line: null }]);
      const errors: BatchError[] = [];
      let count = 0;
      let estimate = 0;
      for await (const line of lines) {
        count += 1;
        const checked = checkLine(deps.catalog, key, line.text, line.index + 1, job.allow_standard_price);
        if ('error' in checked) {
          if (errors.length < MAX_BATCH_ERRORS) errors.push(checked.error);
        } else estimate += checked.plan.estimateMicros;
      }
      if (count === 0) return fail([{ code: 'empty_file', message: `The input file '${batch.input_file_id}' has no lines.`, param: 'input_file_id', line: null }]);
      if (errors.length > 0) return fail(errors);
      const refusal = await creditRefusal(deps.billing, key, job.batch_id, estimate);
      if (refusal) return fail([refusal]);
      batch = await deps.batches.batchWork<BatchObject>('StartBatch', query);
      if (batch.status !== 'in_progress') return;
      deps.logger.info('batch started', { ...query, lines: count });
    }
    const lines = await readLines();
    if (!lines) return;
    let chunk: BatchLineRunJob['lines'] = [];
    let bytes = 0;
    const maxBytes = deps.chunkBytes ?? 4 * 1024 * 1024;
    const publish = async () => {
      if (chunk.length === 0) return;
      await deps.publishChunk({ ...query, key: job.key, allow_standard_price: job.allow_standard_price, simulator_headers: job.simulator_headers, lines: chunk });
      chunk = [];
      bytes = 0;
    };
    for await (const line of lines) {
      const parsed = JSON.parse(line.text) as { custom_id: string; body: Record<string, unknown> };
      if (chunk.length > 0 && (chunk.length >= deps.chunkLines || bytes + line.text.length > maxBytes)) await publish();
      chunk.push({ index: line.index, custom_id: parsed.custom_id, body: parsed.body });
      bytes += line.text.length;
    }
    await publish();
  };
}

/**
 * The credit question for the whole batch (spec: 402 insufficient_credits, "a batch whose
 * estimate exceeds the balance"): admission of the estimate under a call id of the batch's own,
 * given back at once. A batch needs credit: an organization that admission would serve on the
 * Free limits is refused too.
 */
async function creditRefusal(billing: Pick<BillingPort, 'admit' | 'release'>, key: CallerKey, batchId: string, estimate: number): Promise<BatchError | undefined> {
  const callId = lineCallIds(batchId, -1).callId;
  const message = (balance: string | undefined) => `The batch's estimated cost (${estimate} micros, every line at its max_tokens) exceeds the available balance (${balance ?? 'unknown'} micros). Top up, or lower max_tokens on the lines.`;
  try {
    const answer = await billing.admit({ call_id: callId, organization_id: key.organization_id, key_id: key.key_id, key: admissionKey(key), estimated_micros: estimate, estimated_list_micros: estimate, byok: false, auto: false, input_tokens: 0 });
    await billing.release(callId, key.organization_id).catch(() => undefined);
    const balance = answer.headers?.['x-svc-balance-micros'];
    // Admission asks only that some credit is left; a batch must be covered whole (spec: 402, "a batch whose estimate exceeds the balance").
    if (answer.plan_tier === 'free' || (balance !== undefined && Number(balance) < estimate)) return { code: 'insufficient_credits', message: message(balance), param: null, line: null };
    return undefined;
  } catch (error) {
    if (error instanceof ServiceError && (error.code === 'insufficient_credits' || error.code === 'quota_exceeded' || error.code === 'free_tier_limit')) {
      await billing.release(callId, key.organization_id).catch(() => undefined);
      return { code: 'insufficient_credits', message: message(error.headers['x-svc-balance-micros']), param: null, line: null };
    }
    throw error;
  }
}

type LineDeps = {
  calls: Pick<WorkerCalls, 'run'>;
  capture: LineUsageCapture;
  batches: Pick<BatchClient, 'batchWork'>;
  catalog: Catalog;
  logger: Logger;
  /** Lines of one chunk in flight at once. */
  concurrency: number;
  /** How often a running chunk asks whether its batch was cancelled or expired. */
  statusCheckMs?: number;
  /** A step of the wait for billing to settle answered lines before a refusal counts (RESERVATION_REFUSALS). */
  settleWaitMs?: number;
  /** How long after the chunk's last answer a refusal may still be the reservations' (RESERVATION_REFUSALS). */
  settlePatienceMs?: number;
  /** Where a running chunk registers, so an announced cancel reaches it at once. */
  running?: RunningBatches;
  /** Commit outcomes in groups of this many (or every flushMs). */
  commitEvery?: number;
  flushMs?: number;
};

interface Outcome {
  index: number;
  status: 'completed' | 'failed' | 'cancelled';
  line?: Record<string, unknown>;
  usage?: UsageRecord;
  cost?: { vendor_micros: number; billed_micros: number; direct_micros: number; saved_micros: number };
}

/**
 * batch.line.run: a chunk of lines. Lines already committed are skipped (PendingLines); the
 * rest run through the call pipeline, `concurrency` at a time, each under its own call id
 * (lineCallIds: the same on every run) at the batch tier (or standard with `no_batch_tier`),
 * cache ttl `none` unless the line sets one. Outcomes are committed in groups with their usage
 * records (CommitLines, one transaction): answered lines to the output file, refused ones to the
 * error file with the error envelope as body. While it runs, the chunk checks its batch: once
 * `cancelling`, lines not started are committed `cancelled` and calls in flight are cut (a cut
 * call is not billed; an answer that arrived first is kept and billed); once expired, the chunk
 * stops and the batch service closes what is left. A dependency outage retries the chunk.
 */
export function batchLinesHandler(deps: LineDeps) {
  return async (job: BatchLineRunJob): Promise<void> => {
    const query = { organization_id: job.organization_id, batch_id: job.batch_id };
    const state = await deps.batches.batchWork<{ status: string; pending: number[] }>('PendingLines', { ...query, indexes: job.lines.map((line) => line.index) });
    if (state.pending.length === 0) return;
    const pending = new Set(state.pending);
    const lines = job.lines.filter((line) => pending.has(line.index));
    if (state.status === 'cancelling') {
      await commit(deps, query, lines.map((line) => ({ index: line.index, status: 'cancelled' as const })));
      return;
    }
    if (state.status !== 'in_progress') return;

    const stop = new AbortController();
    // Every line in flight listens on it (BATCH_LINE_CONCURRENCY of them, each with its attempts).
    setMaxListeners(Math.max(10, deps.concurrency * 4), stop.signal);
    let stopReason: 'cancelling' | 'ended' | undefined;
    const unregister = deps.running?.add(job.batch_id, () => {
      stopReason ??= 'cancelling';
      stop.abort(new DOMException('batch cancelling', 'AbortError'));
    });
    const check = setInterval(() => {
      deps.batches
        .batchWork<{ status: string }>('PendingLines', { ...query, indexes: [] })
        .then((current) => {
          if (current.status === 'in_progress' || current.status === 'finalizing') return;
          stopReason = current.status === 'cancelling' ? 'cancelling' : 'ended';
          stop.abort(new DOMException(`batch ${current.status}`, 'AbortError'));
        })
        .catch(() => undefined);
    }, deps.statusCheckMs ?? 1_000);

    let buffered: Outcome[] = [];
    let flushing: Promise<void> = Promise.resolve();
    let flushError: unknown;
    const flush = () => {
      const group = buffered;
      buffered = [];
      if (group.length === 0) return flushing;
      flushing = flushing.then(() => commit(deps, query, group)).catch((error: unknown) => void (flushError ??= error));
      return flushing;
    };
    const timer = setInterval(() => void flush(), deps.flushMs ?? 100);
    const add = (outcome: Outcome) => {
      buffered.push(outcome);
      if (buffered.length >= (deps.commitEvery ?? 50)) void flush();
    };

    // Spec (Caching rules 6): lines of the chunk sharing a long prefix on the explicit-marker
    // vendor: the first runs marked and writes it, the others wait for it and read it.
    const key = job.key as unknown as CallerKey;
    const planned = new Map(lines.map((line) => [line.index, planLine(deps.catalog, key, line.custom_id, line.body, line.index + 1, job.allow_standard_price)] as const));
    const groups = new Map<string, number[]>();
    for (const line of lines) {
      const checked = planned.get(line.index)!;
      if ('error' in checked || checked.plan.input.svc.cacheTtl !== undefined) continue;
      const model = deps.catalog.chatModel(checked.plan.input.model);
      const group = sharedPrefixKey(checked.plan.input, model, model ? deps.catalog.vendor(model.vendor) : undefined);
      if (group) groups.set(group, [...(groups.get(group) ?? []), line.index]);
    }
    const writers = new Map<number, { done: Promise<void>; finish: () => void }>();
    const readerOf = new Map<number, number>();
    for (const members of groups.values()) {
      if (members.length < 2) continue;
      const [writer, ...readers] = members;
      let finish = () => undefined as void;
      const done = new Promise<void>((resolve) => (finish = resolve));
      writers.set(writer!, { done, finish });
      for (const reader of readers) readerOf.set(reader, writer!);
    }

    // Lines of this chunk in flight, and a wake-up each time one settles (RESERVATION_REFUSALS).
    let inFlight = 0;
    let wake = () => undefined as void;
    let settledOne = new Promise<void>((resolve) => (wake = resolve));
    const settle = () => {
      const woken = wake;
      settledOne = new Promise<void>((resolve) => (wake = resolve));
      woken();
    };
    const untilOneSettles = () =>
      new Promise<void>((resolve) => {
        if (stop.signal.aborted) return resolve();
        const done = () => {
          stop.signal.removeEventListener('abort', done);
          resolve();
        };
        stop.signal.addEventListener('abort', done, { once: true });
        void settledOne.then(done);
      });
    // A finished line's reservation is let go when billing settles its usage, after the line is
    // committed: a refusal with nothing else of the chunk in flight waits for that (flushing the
    // commits) in steps of SETTLE_WAIT_MS, until SETTLE_PATIENCE_MS after the chunk started or its
    // last answer (other chunks of the batch hold reservations too).
    const patience = deps.settlePatienceMs ?? SETTLE_PATIENCE_MS;
    let settleUntil = Date.now() + patience;
    const waitOn = (code: string) => RESERVATION_REFUSALS.has(code) && (inFlight > 1 || Date.now() < settleUntil);

    try {
      let next = 0;
      const runOne = async (line: BatchLineRunJob['lines'][number]) => {
        const writer = writers.get(line.index);
        inFlight += 1;
        try {
          if (stop.signal.aborted) {
            if (stopReason === 'cancelling') add({ index: line.index, status: 'cancelled' });
            return;
          }
          const after = readerOf.get(line.index);
          if (after !== undefined) await writers.get(after)!.done;
          const shared = writer !== undefined || after !== undefined;
          const run = () => runLine(deps, job, line, stop.signal, planned.get(line.index)!, shared ? '5m' : 'none', waitOn);
          let outcome = await run();
          while (outcome === 'wait') {
            // Refused for what the chunk's other lines hold: run again once one of them settles,
            // or, with none left in flight, once billing had a moment to settle the answered ones.
            inFlight -= 1;
            if (inFlight > 0) await untilOneSettles();
            else {
              await flush();
              await new Promise((resolve) => setTimeout(resolve, deps.settleWaitMs ?? SETTLE_WAIT_MS));
            }
            inFlight += 1;
            outcome = stop.signal.aborted ? undefined : await run();
          }
          if (outcome && outcome !== 'outage' && outcome.status === 'completed') settleUntil = Date.now() + patience;
          if (outcome === 'outage') throw new ServiceError('batches_unavailable', 'a dependency of a batch line is unavailable');
          if (outcome) add(outcome);
          else if (stopReason === 'cancelling') add({ index: line.index, status: 'cancelled' });
        } finally {
          inFlight -= 1;
          settle();
          writer?.finish();
        }
      };
      // One runner failing (an outage) stops the others before the chunk is handed back for a retry.
      let failed = false;
      const workers = Array.from({ length: Math.min(deps.concurrency, lines.length) }, async () => {
        while (next < lines.length && !failed) {
          if (flushError) throw flushError;
          await runOne(lines[next++]!);
        }
      });
      const settledRuns = await Promise.allSettled(workers.map((run) => run.catch((error: unknown) => {
        failed = true;
        throw error;
      })));
      const failure = settledRuns.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failure) throw failure.reason;
      await flush();
      if (flushError) throw flushError;
    } finally {
      unregister?.();
      clearInterval(check);
      clearInterval(timer);
    }
  };
}

/**
 * Commits outcomes with their usage records in one transaction of the batch service; billing
 * settles the records from billing.usage_outbox (idempotent on call_id). Nothing is published
 * on the side: a record exists exactly when its line is committed.
 */
async function commit(deps: Pick<LineDeps, 'batches'>, query: { organization_id: string; batch_id: string }, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await deps.batches.batchWork<{ committed: number[] }>('CommitLines', { ...query, lines: outcomes });
}

/**
 * One line through the call pipeline; undefined when it was cut by a cancel or the batch's end;
 * 'wait' when refused with a code `waitOn` accepts (the caller runs it again later).
 */
async function runLine(deps: LineDeps, job: BatchLineRunJob, line: BatchLineRunJob['lines'][number], signal: AbortSignal, checked: ReturnType<typeof planLine>, cacheTtl: 'none' | '5m', waitOn: (code: string) => boolean = () => false): Promise<Outcome | 'outage' | 'wait' | undefined> {
  const ids = lineCallIds(job.batch_id, line.index);
  const key = job.key as unknown as CallerKey;
  const errorLine = (error: ServiceError): Outcome => ({
    index: line.index,
    status: 'failed',
    line: { id: ids.lineId, custom_id: line.custom_id, response: { status_code: error.status, request_id: ids.requestId, body: error.toBody() }, error: null },
  });
  if ('error' in checked) return errorLine(new ServiceError(checked.error.code === 'model_not_found' ? 'model_not_found' : 'invalid_value', checked.error.message, { param: checked.error.param ?? undefined }));
  const plan: LinePlan = checked.plan;
  deps.capture.expect(ids.callId);
  try {
    const outcome = await deps.calls.run(
      plan.input,
      { key },
      {
        tier: plan.tier,
        ...(plan.tierFallback ? { tierFallback: plan.tierFallback } : {}),
        ...(job.allow_standard_price ? {} : { batchTierOnly: true }),
        // Spec (Caching rules 6): a batch line gets ttl `none` unless it sets one, or `5m` when it
        // shares a long prefix with other lines (written by the first, read by the rest).
        cacheTtl,
        ids: { callId: ids.callId, completionId: ids.completionId },
        simulatorHeaders: job.simulator_headers,
      },
      signal,
    );
    const usage = deps.capture.take(ids.callId);
    // An answer that arrived before a cancel cut the call is kept and billed (spec: finished lines kept).
    if (!outcome) return undefined;
    const body = renderCompletion(outcome.head, outcome.result, outcome.svc);
    const svc = outcome.svc as { cost_micros?: number; cost?: { vendor_micros?: number; direct_micros?: number; saved_micros?: number } };
    return {
      index: line.index,
      status: 'completed',
      line: { id: ids.lineId, custom_id: line.custom_id, response: { status_code: 200, request_id: ids.requestId, body }, error: null },
      ...(usage ? { usage } : {}),
      cost: { vendor_micros: svc.cost?.vendor_micros ?? 0, billed_micros: svc.cost_micros ?? 0, direct_micros: svc.cost?.direct_micros ?? 0, saved_micros: svc.cost?.saved_micros ?? 0 },
    };
  } catch (error) {
    deps.capture.take(ids.callId);
    if (signal.aborted) return undefined;
    if (error instanceof ServiceError && BATCH_OUTAGE_CODES.has(error.code)) return 'outage';
    if (error instanceof ServiceError && waitOn(error.code)) return 'wait';
    if (error instanceof ServiceError) {
      // A 5xx line is the service's or a vendor's failure: error level with its cause, as every 5xx.
      if (error.status >= 500) deps.logger.error('batch line failed; written to the error file', { batch_id: job.batch_id, custom_id: line.custom_id, code: error.code, err: error.cause ?? error });
      return errorLine(error);
    }
    throw error;
  }
}
