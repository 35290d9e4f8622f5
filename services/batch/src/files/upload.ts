import { ServiceError, internalError } from '@svc/errors';
import { ids } from '@svc/ids';
import { sealChunk } from './encryption';
import { JsonlCheck } from './jsonl-check';
import { CHUNK_BYTES, MAX_EXPIRES_AFTER_SECONDS, MAX_FILE_BYTES, MIN_EXPIRES_AFTER_SECONDS, PURPOSES } from './limits';
import { clock, fileObject, removeFile, type FileObject, type FileRow, type FilesDeps } from './store';

/** One message of an upload stream (the wire's oneof, decoded). */
export type UploadPart =
  | { start: { organization_id: string; filename: string; organization_retention_days?: number } }
  | { data: Buffer }
  | { finish: { purpose: string; expires_after_seconds?: number } };

const DAY_MS = 86_400_000;

/**
 * POST /v1/files in the batch service: the bytes arrive as a stream and leave as encrypted
 * chunks, never held whole.
 *
 * 1. `start`: a row (status `uploading`, invisible to the API) is written, so chunks always have
 *    a row that the sweeper finds if this process dies mid-upload.
 * 2. `data`: every byte goes through the JSONL check (400 invalid_file naming the line, as soon
 *    as the line is complete) and is counted (413 file_too_large past 100 MiB); each full 1 MiB
 *    of plaintext is sealed and written to the blob store before more is read (the stream is read
 *    one message at a time, so a slow store slows the sender instead of filling memory).
 * 3. `finish`: the form fields (purpose only `batch`; expires_after seconds 3600–2592000, checked
 *    again here), the last chunk, then the row becomes `processed` with its size, line count,
 *    chunk count, created_at and expires_at (the earlier of the organization's retention end and
 *    the requested expiry) in one statement. That commit is the moment the file exists.
 *
 * Any failure, a stream that ends without `finish` or one the caller cancels removes what was
 * written (chunks, then the row) before the error is returned.
 */
export async function uploadFile(deps: FilesDeps, parts: AsyncIterable<UploadPart>): Promise<FileObject> {
  const iterator = parts[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || !('start' in first.value)) throw internalError(new Error('an upload stream must begin with start'));
  const start = first.value.start;
  if (!start.organization_id) throw internalError(new Error('upload start without organization_id'));
  const retentionDays = start.organization_retention_days;
  if (retentionDays === undefined || retentionDays === null || !Number.isInteger(retentionDays) || retentionDays < 0) throw internalError(new Error('organization_retention_days is required'));

  const fileId = ids.file();
  const startedAt = clock(deps);
  await deps.pool.query({
    name: 'batch.file_start',
    text: `INSERT INTO batch.file (id, organization_id, filename, purpose, bytes, line_count, status, chunk_count, expires_at, created_at) VALUES ($1, $2, $3, '', 0, 0, 'uploading', 0, $4, $4)`,
    values: [fileId, start.organization_id, start.filename, startedAt],
  });
  try {
    const key = await deps.keys.fileKey(start.organization_id, fileId);
    const check = new JsonlCheck();
    let bytes = 0;
    let chunks = 0;
    let held: Buffer[] = [];
    let heldBytes = 0;
    const flush = async (final: boolean) => {
      while (heldBytes >= CHUNK_BYTES || (final && heldBytes > 0)) {
        const all = held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes);
        const plain = all.subarray(0, Math.min(CHUNK_BYTES, all.length));
        const rest = all.subarray(plain.length);
        await deps.blobs.put(fileId, chunks, sealChunk(key, fileId, chunks, plain));
        chunks += 1;
        held = rest.length > 0 ? [rest] : [];
        heldBytes = rest.length;
      }
    };
    for (;;) {
      const next = await iterator.next();
      if (next.done) throw new ServiceError('invalid_multipart', 'The upload ended before it was complete.');
      const part = next.value;
      if ('data' in part) {
        bytes += part.data.length;
        if (bytes > MAX_FILE_BYTES) throw new ServiceError('file_too_large', 'The file is larger than 100 MiB.', { param: 'file' });
        check.push(part.data);
        held.push(part.data);
        heldBytes += part.data.length;
        await flush(false);
        continue;
      }
      if ('finish' in part) {
        const { purpose, expires_after_seconds: expiresAfter } = part.finish;
        if (!(PURPOSES as readonly string[]).includes(purpose)) throw new ServiceError('invalid_value', "'purpose' must be 'batch'.", { param: 'purpose' });
        if (expiresAfter !== undefined && expiresAfter !== null && (!Number.isInteger(expiresAfter) || expiresAfter < MIN_EXPIRES_AFTER_SECONDS || expiresAfter > MAX_EXPIRES_AFTER_SECONDS)) {
          throw new ServiceError('invalid_value', `'expires_after[seconds]' must be an integer from ${MIN_EXPIRES_AFTER_SECONDS} to ${MAX_EXPIRES_AFTER_SECONDS}.`, { param: 'expires_after[seconds]' });
        }
        const lines = check.end();
        await flush(true);
        // Spec: expires_at is the retention end or the requested expiry, whichever is earlier.
        const createdAt = clock(deps);
        const retentionEnd = createdAt.getTime() + retentionDays * DAY_MS;
        const requested = expiresAfter === undefined || expiresAfter === null ? Number.POSITIVE_INFINITY : createdAt.getTime() + expiresAfter * 1000;
        const expiresAt = new Date(Math.min(retentionEnd, requested));
        const result = await deps.pool.query<FileRow>({
          name: 'batch.file_commit',
          text: `UPDATE batch.file SET status = 'processed', purpose = $2, bytes = $3, line_count = $4, chunk_count = $5, created_at = $6, expires_at = $7
                  WHERE id = $1 AND status = 'uploading' AND deleted_at IS NULL
              RETURNING id, organization_id, filename, purpose, bytes, line_count, status, chunk_count, expires_at, created_at`,
          values: [fileId, purpose, bytes, lines, chunks, createdAt, expiresAt],
        });
        if (!result.rows[0]) throw internalError(new Error(`file ${fileId}: the upload's row was gone at commit (swept as stale?)`));
        return fileObject(result.rows[0]);
      }
      throw internalError(new Error('a second start in one upload stream'));
    }
  } catch (error) {
    await removeFile(deps, fileId).catch(() => undefined);
    throw error;
  } finally {
    // Stop the source (a cancelled or failed stream) if it is still open.
    await iterator.return?.().catch(() => undefined);
  }
}
