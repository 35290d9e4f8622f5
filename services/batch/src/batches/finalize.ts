import { createHash } from 'node:crypto';
import type { Logger } from '@svc/logger';
import { ids } from '@svc/ids';
import { ServiceError, internalError } from '@svc/errors';
import { openChunk, sealChunk } from '../files/encryption';
import { CHUNK_BYTES } from '../files/limits';
import { clock, readContent, removeFile, type FilesDeps } from '../files/store';
import { splitLines } from './lines';
import { inTransaction, type BatchesDeps } from './store';

const DAY_MS = 86_400_000;
/** How long a replica holds a batch while it writes its files; a replica that died lets it lapse. */
export const FINALIZE_LEASE_MS = 5 * 60_000;
/** The purpose of the files a batch writes (output and error files). */
export const OUTPUT_PURPOSE = 'batch_output';

/**
 * A file written by the service itself (a batch's output or error file), through the same
 * encrypted chunk store as uploads: a row `uploading` first (the sweeper removes it if this
 * process dies), sealed 1 MiB chunks as the lines come, then the row `processed`.
 */
export class ResultFileWriter {
  readonly id = ids.file();
  private held: Buffer[] = [];
  private heldBytes = 0;
  private chunks = 0;
  private bytes = 0;
  lines = 0;
  private key: Buffer | undefined;

  constructor(private readonly deps: FilesDeps, private readonly organizationId: string, private readonly filename: string) {}

  async start(): Promise<void> {
    const now = clock(this.deps);
    await this.deps.pool.query({
      name: 'batch.result_file_start',
      text: `INSERT INTO batch.file (id, organization_id, filename, purpose, bytes, line_count, status, chunk_count, expires_at, created_at) VALUES ($1, $2, $3, '', 0, 0, 'uploading', 0, $4, $4)`,
      values: [this.id, this.organizationId, this.filename, now],
    });
    this.key = await this.deps.keys.fileKey(this.organizationId, this.id);
  }

  async writeLine(line: string): Promise<void> {
    const data = Buffer.from(`${line}\n`);
    this.held.push(data);
    this.heldBytes += data.length;
    this.bytes += data.length;
    this.lines += 1;
    await this.flush(false);
  }

  private async flush(final: boolean): Promise<void> {
    while (this.heldBytes >= CHUNK_BYTES || (final && this.heldBytes > 0)) {
      const all = this.held.length === 1 ? this.held[0]! : Buffer.concat(this.held, this.heldBytes);
      const plain = all.subarray(0, Math.min(CHUNK_BYTES, all.length));
      const rest = all.subarray(plain.length);
      await this.deps.blobs.put(this.id, this.chunks, sealChunk(this.key!, this.id, this.chunks, plain));
      this.chunks += 1;
      this.held = rest.length > 0 ? [rest] : [];
      this.heldBytes = rest.length;
    }
  }

  /** Commits the file (kept for the organization's retention). */
  async finish(retentionDays: number): Promise<string> {
    await this.flush(true);
    const now = clock(this.deps);
    const result = await this.deps.pool.query({
      name: 'batch.result_file_commit',
      text: `UPDATE batch.file SET status = 'processed', purpose = $2, bytes = $3, line_count = $4, chunk_count = $5, created_at = $6, expires_at = $7 WHERE id = $1 AND status = 'uploading'`,
      values: [this.id, OUTPUT_PURPOSE, this.bytes, this.lines, this.chunks, now, new Date(now.getTime() + Math.max(1, retentionDays) * DAY_MS)],
    });
    if (result.rowCount === 0) throw internalError(new Error(`result file ${this.id}: its row was gone at commit`));
    return this.id;
  }

  async discard(): Promise<void> {
    await this.deps.pool.query({ name: 'batch.result_file_discard', text: `UPDATE batch.file SET deleted_at = $2 WHERE id = $1`, values: [this.id, clock(this.deps)] });
    await removeFile(this.deps, this.id).catch(() => undefined);
  }
}

type Ending = 'completed' | 'cancelled' | 'expired';

const NEVER_RAN: Record<'cancelled' | 'expired', { code: string; message: string }> = {
  cancelled: { code: 'batch_cancelled', message: 'This line was not run: the batch was cancelled before it reached a vendor.' },
  expired: { code: 'batch_expired', message: 'This line was not run: the batch expired (24-hour completion window) before it reached a vendor.' },
};

/**
 * Ends one batch whose lines are all settled, or whose window passed, or that is being
 * cancelled: lines still pending become `expired` or `cancelled` (counted as failed), the output
 * file (answered lines) and the error file (the rest; only when there is any) are written in
 * line order, then the batch takes its final status and timestamp. Every input line appears
 * exactly once across the two files. Returns false when another replica holds the batch or
 * there is nothing to do.
 */
export async function endBatch(deps: BatchesDeps, batchId: string, options: { cancelGraceMs: number }): Promise<Ending | undefined> {
  const claimed = await inTransaction(deps, async (client) => {
    const now = clock(deps);
    const locked = await client.query<{ organization_id: string; status: string; expires_at: Date; cancelling_at: Date | null; retention_days: number; pending: boolean; started: boolean; input_file_id: string; total: number }>({
      name: 'batch.end_lock',
      text: `SELECT organization_id, status, expires_at, cancelling_at, retention_days, input_file_id, total,
                    EXISTS (SELECT 1 FROM batch.batch_line l WHERE l.batch_id = b.id AND l.status = 'pending') AS pending,
                    EXISTS (SELECT 1 FROM batch.batch_line l WHERE l.batch_id = b.id) AS started
               FROM batch.batch b WHERE id = $1 AND status IN ('validating', 'in_progress', 'finalizing', 'cancelling') AND (lease_until IS NULL OR lease_until < $2)
                FOR UPDATE SKIP LOCKED`,
      values: [batchId, now],
    });
    const row = locked.rows[0];
    if (!row) return undefined;
    let ending: Ending;
    if (row.status === 'finalizing') ending = 'completed';
    else if (row.expires_at.getTime() <= now.getTime()) ending = 'expired';
    else if (row.status === 'cancelling' && (!row.pending || (row.cancelling_at && row.cancelling_at.getTime() + options.cancelGraceMs <= now.getTime()))) ending = 'cancelled';
    else if (row.status === 'in_progress' && !row.pending) ending = 'completed';
    else return undefined;
    // Cancelled or expired before its lines were read (still validating): none of them ran, and
    // every one goes to the error file from the input file itself (RULINGS 15).
    const neverStarted = ending !== 'completed' && !row.started && row.total > 0;
    if (neverStarted) {
      await client.query({ name: 'batch.end_count_never_started', text: 'UPDATE batch.batch SET failed = total, completed = 0 WHERE id = $1', values: [batchId] });
    } else if (ending !== 'completed') {
      const closed = await client.query({ name: 'batch.end_close_lines', text: `UPDATE batch.batch_line SET status = $2 WHERE batch_id = $1 AND status = 'pending'`, values: [batchId, ending] });
      if ((closed.rowCount ?? 0) > 0) await client.query({ name: 'batch.end_count_closed', text: 'UPDATE batch.batch SET failed = failed + $2 WHERE id = $1', values: [batchId, closed.rowCount] });
    }
    await client.query({
      name: 'batch.end_lease',
      text: `UPDATE batch.batch SET lease_until = $2, status = CASE WHEN $3 = 'completed' THEN 'finalizing' ELSE status END, finalizing_at = CASE WHEN $3 = 'completed' THEN COALESCE(finalizing_at, $4) ELSE finalizing_at END WHERE id = $1`,
      values: [batchId, new Date(now.getTime() + FINALIZE_LEASE_MS), ending, now],
    });
    return { ending, organizationId: row.organization_id, retentionDays: row.retention_days, neverStarted, inputFileId: row.input_file_id };
  });
  if (!claimed) return undefined;
  const { ending, organizationId, retentionDays, neverStarted, inputFileId } = claimed;
  const output = new ResultFileWriter(deps, organizationId, `${batchId}_output.jsonl`);
  const errors = new ResultFileWriter(deps, organizationId, `${batchId}_error.jsonl`);
  await output.start();
  await errors.start();
  try {
    if (neverStarted) {
      const reason = NEVER_RAN[ending === 'expired' ? 'expired' : 'cancelled'];
      // The input file cannot be deleted while its batch is open; one past its own expiry has no lines to list.
      const content = await readContent(deps, organizationId, inputFileId).catch((error: unknown) => {
        if (error instanceof ServiceError && error.code === 'not_found') return undefined;
        throw error;
      });
      for await (const line of content ? splitLines(content.chunks) : []) {
        await errors.writeLine(JSON.stringify({ id: `batch_req_${lineHex(batchId, line.index)}`, custom_id: customIdOf(line.text), response: null, error: reason }));
      }
    }
    const key = await deps.keys.fileKey(organizationId, batchId);
    let after = -1;
    for (;;) {
      const page = await deps.pool.query<{ index: number; custom_id: string; status: string; result: Buffer | null }>({
        name: 'batch.end_lines',
        text: 'SELECT index, custom_id, status, result FROM batch.batch_line WHERE batch_id = $1 AND index > $2 ORDER BY index LIMIT 2000',
        values: [batchId, after],
      });
      for (const line of page.rows) {
        after = line.index;
        if (line.result) {
          const text = openChunk(key, batchId, line.index, line.result).toString('utf8');
          await (line.status === 'completed' ? output : errors).writeLine(text);
          continue;
        }
        const reason = NEVER_RAN[line.status === 'expired' ? 'expired' : 'cancelled'];
        await errors.writeLine(JSON.stringify({ id: `batch_req_${lineHex(batchId, line.index)}`, custom_id: line.custom_id, response: null, error: reason }));
      }
      if (page.rows.length < 2000) break;
    }
    const outputId = await output.finish(retentionDays);
    let errorId: string | null = null;
    if (errors.lines > 0) errorId = await errors.finish(retentionDays);
    else await errors.discard();
    const now = clock(deps);
    await deps.pool.query({
      name: 'batch.end_final',
      text: `UPDATE batch.batch SET status = $2, output_file_id = $3, error_file_id = $4, lease_until = NULL,
                    completed_at = CASE WHEN $2 = 'completed' THEN $5 ELSE completed_at END,
                    cancelled_at = CASE WHEN $2 = 'cancelled' THEN $5 ELSE cancelled_at END,
                    expired_at = CASE WHEN $2 = 'expired' THEN $5 ELSE expired_at END
              WHERE id = $1`,
      values: [batchId, ending, outputId, errorId, now],
    });
    return ending;
  } catch (error) {
    await output.discard().catch(() => undefined);
    await errors.discard().catch(() => undefined);
    // Give the batch back at once so the next tick (this replica or another) writes its files
    // again, rather than leaving it held for the lease's five minutes; only a replica that died
    // mid-way waits for the lease to lapse.
    await deps.pool
      .query({ name: 'batch.end_release', text: 'UPDATE batch.batch SET lease_until = NULL WHERE id = $1 AND output_file_id IS NULL', values: [batchId] })
      .catch(() => undefined);
    throw error;
  }
}

/** A line's custom_id when it has one (a batch cancelled while validating may hold lines that do not parse). */
function customIdOf(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { custom_id?: unknown };
    return typeof parsed?.custom_id === 'string' ? parsed.custom_id : null;
  } catch {
    return null;
  }
}

/** The line id (`batch_req_` + 32 hex) as the workers make it (libs/messages lineCallIds). */
function lineHex(batchId: string, index: number): string {
  return createHash('sha256').update(`${batchId}:${index}`).digest('hex').slice(0, 32);
}

/** Batches that may be ready to end (a page; each is then claimed under its own lock). */
export async function endableBatches(deps: BatchesDeps, cancelGraceMs: number, limit = 20): Promise<string[]> {
  const now = clock(deps);
  const result = await deps.pool.query<{ id: string }>({
    name: 'batch.endable',
    text: `SELECT id FROM batch.batch b
            WHERE status IN ('validating', 'in_progress', 'finalizing', 'cancelling') AND (lease_until IS NULL OR lease_until < $1)
              AND (expires_at <= $1 OR status = 'finalizing'
                   OR (status = 'cancelling' AND (cancelling_at <= $2 OR NOT EXISTS (SELECT 1 FROM batch.batch_line l WHERE l.batch_id = b.id AND l.status = 'pending')))
                   OR (status = 'in_progress' AND NOT EXISTS (SELECT 1 FROM batch.batch_line l WHERE l.batch_id = b.id AND l.status = 'pending')))
            ORDER BY created_at LIMIT $3`,
    values: [now, new Date(now.getTime() - cancelGraceMs), limit],
  });
  return result.rows.map((row) => row.id);
}

/**
 * Every replica runs this: each tick ends the batches that are ready (endBatch). `poke()` runs a
 * tick at once (a worker committed a batch's last line). Errors are logged and the next tick
 * tries again.
 */
export function startBatchTicker(deps: BatchesDeps, logger: Logger, options: { intervalMs: number; cancelGraceMs: number }): { poke(): void; stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const tick = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        for (const id of await endableBatches(deps, options.cancelGraceMs)) {
          if (stopped) return;
          try {
            const ended = await endBatch(deps, id, options);
            if (ended) logger.info('batch ended', { batch_id: id, status: ended });
          } catch (error) {
            logger.error('batch could not be ended: its files were not written; the next tick tries again (check Postgres and FILES_ENCRYPTION_KEY)', { batch_id: id, err: error });
          }
        }
      } while (again && !stopped);
    })()
      .catch((error: unknown) => void logger.error('batch ticker failed: batches wait for the next tick (check Postgres)', { err: error }))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    poke: tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
