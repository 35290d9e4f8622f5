import type { Logger } from '@svc/logger';
import { OPEN_BATCH_STATES, clock, removeFile, type FilesDeps } from './store';

/** An upload whose row is still `uploading` this long after it began was abandoned (its process died). */
export const STALE_UPLOAD_MS = 2 * 60 * 60 * 1000;
export const DEFAULT_SWEEP_BATCH = 100;

/**
 * Spec (File object): files are kept "until deleted or expired". Removes, `batchSize` at a time
 * until a batch comes back short: files marked deleted whose removal did not finish, files past
 * expires_at, and uploads abandoned for STALE_UPLOAD_MS — each its chunks first, then its row. An
 * expired file that a batch still running uses as input is kept until that batch ends (it is
 * already invisible to the API). Rows another replica's sweep holds are skipped (SKIP LOCKED); a
 * file both sweeps remove is removed once (each step is idempotent). Returns how many were removed.
 */
export async function sweepFiles(deps: Pick<FilesDeps, 'pool' | 'blobs' | 'now'>, batchSize: number = DEFAULT_SWEEP_BATCH): Promise<number> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size must be a positive integer, got ${batchSize}`);
  let removed = 0;
  for (;;) {
    const now = clock(deps);
    const doomed = await deps.pool.query<{ id: string }>({
      name: 'batch.file_sweep',
      text: `WITH doomed AS (
               SELECT f.id FROM batch.file f
                WHERE (f.deleted_at IS NOT NULL
                       OR (f.status = 'processed' AND f.expires_at <= $1)
                       OR (f.status = 'uploading' AND f.created_at < $2))
                  AND NOT EXISTS (SELECT 1 FROM batch.batch b WHERE b.input_file_id = f.id AND b.status = ANY($4::text[]))
                ORDER BY f.expires_at
                LIMIT $3
                  FOR UPDATE OF f SKIP LOCKED
             )
             UPDATE batch.file f SET deleted_at = COALESCE(f.deleted_at, $1)
               FROM doomed WHERE f.id = doomed.id
             RETURNING f.id`,
      values: [now, new Date(now.getTime() - STALE_UPLOAD_MS), batchSize, OPEN_BATCH_STATES],
    });
    for (const { id } of doomed.rows) {
      await removeFile(deps, id);
      removed += 1;
    }
    if (doomed.rows.length < batchSize) return removed;
  }
}

/** Runs sweepFiles every `intervalMs` (the first run after one interval); stop() waits for a run in progress. */
export function startSweeper(deps: Pick<FilesDeps, 'pool' | 'blobs' | 'now'>, logger: Logger, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepFiles(deps)
      .then((removed) => {
        if (removed > 0) logger.info('files swept', { removed });
      })
      .catch((error: unknown) => {
        logger.warn('files sweep failed; the next run tries again', { err: error });
      })
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
