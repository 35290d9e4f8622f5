import type { Pool } from 'pg';
import type { FileObject } from '@svc/messages';
export type { FileObject };
import { ServiceError, internalError } from '@svc/errors';
import { isId } from '@svc/ids';
import type { BlobStore } from './blob-store';
import type { DataKeys } from './encryption';
import { openChunk } from './encryption';
import { MAX_LIST_LIMIT } from './limits';

/** What the files store needs; every function takes it (no state of its own). */
export interface FilesDeps {
  pool: Pool;
  blobs: BlobStore;
  keys: DataKeys;
  now?: () => Date;
}


export interface FileRow {
  id: string;
  organization_id: string;
  filename: string;
  purpose: string;
  bytes: string;
  line_count: number;
  status: string;
  chunk_count: number;
  expires_at: Date;
  created_at: Date;
}

/** Batch states that are not ended: a batch in one of them still needs its input file. */
export const OPEN_BATCH_STATES = ['validating', 'in_progress', 'finalizing', 'cancelling'] as const;

export const clock = (deps: Pick<FilesDeps, 'now'>): Date => deps.now?.() ?? new Date();
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

export function fileObject(row: FileRow): FileObject {
  return { id: row.id, object: 'file', bytes: Number(row.bytes), created_at: seconds(row.created_at), expires_at: seconds(row.expires_at), filename: row.filename, purpose: row.purpose, status: 'processed' };
}

const notFound = (fileId: string) => new ServiceError('not_found', `No file found with id '${fileId}'.`, { param: 'file_id' });

/**
 * A file the API can see: processed (its upload committed), not deleted, not expired, and the
 * organization's own. Anything else reads as 404 not_found, another organization's file included.
 */
const VISIBLE = `status = 'processed' AND deleted_at IS NULL AND expires_at > $3`;
const COLUMNS = 'id, organization_id, filename, purpose, bytes, line_count, status, chunk_count, expires_at, created_at';

export async function visibleFile(deps: FilesDeps, organizationId: string, fileId: string): Promise<FileRow> {
  if (!isId('file', fileId)) throw notFound(fileId);
  const result = await deps.pool.query<FileRow>({
    name: 'batch.file_get',
    text: `SELECT ${COLUMNS} FROM batch.file WHERE id = $1 AND organization_id = $2 AND ${VISIBLE}`,
    values: [fileId, organizationId, clock(deps)],
  });
  const row = result.rows[0];
  if (!row) throw notFound(fileId);
  return row;
}

/** GET /v1/files/{id}. */
export async function getFile(deps: FilesDeps, organizationId: string, fileId: string): Promise<FileObject> {
  return fileObject(await visibleFile(deps, organizationId, fileId));
}

export interface FileList {
  data: FileObject[];
  has_more: boolean;
}

/** GET /v1/files: newest first (created_at, then id), `purpose` filter, `after` a file id of the organization's. */
export async function listFiles(deps: FilesDeps, input: { organization_id: string; limit?: number; after?: string; purpose?: string }): Promise<FileList> {
  const limit = input.limit === undefined || input.limit === 0 ? MAX_LIST_LIMIT : input.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) throw new ServiceError('invalid_value', `'limit' must be an integer from 1 to ${MAX_LIST_LIMIT}.`, { param: 'limit' });
  const now = clock(deps);
  const values: unknown[] = [input.organization_id, limit + 1, now];
  let where = `organization_id = $1 AND ${VISIBLE}`;
  if (input.purpose) {
    values.push(input.purpose);
    where += ` AND purpose = $${values.length}`;
  }
  if (input.after) {
    const badCursor = new ServiceError('invalid_value', `Invalid 'after': no file '${input.after}'.`, { param: 'after' });
    if (!isId('file', input.after)) throw badCursor;
    const cursor = await deps.pool.query<{ created_at: Date }>({
      name: 'batch.file_cursor',
      text: `SELECT created_at FROM batch.file WHERE id = $1 AND organization_id = $2 AND ${VISIBLE}`,
      values: [input.after, input.organization_id, now],
    });
    if (!cursor.rows[0]) throw badCursor;
    values.push(cursor.rows[0].created_at, input.after);
    where += ` AND (created_at, id) < ($${values.length - 1}, $${values.length})`;
  }
  const result = await deps.pool.query<FileRow>(`SELECT ${COLUMNS} FROM batch.file WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $2`, values);
  const rows = result.rows.slice(0, limit);
  return { data: rows.map(fileObject), has_more: result.rows.length > limit };
}

/**
 * DELETE /v1/files/{id}: immediate. The row is marked deleted (from then on it reads as not
 * found) in a transaction that holds it locked while it checks that no batch still needs it (409
 * file_in_use while a batch that uses it as input is not ended; a batch created from the file
 * takes the same row lock, so the two cannot cross). Its chunks and then its row are removed at
 * once; what a failure leaves, the sweeper removes.
 */
export async function deleteFile(deps: FilesDeps, organizationId: string, fileId: string): Promise<{ id: string }> {
  if (!isId('file', fileId)) throw notFound(fileId);
  const client = await deps.pool.connect();
  let released = false;
  try {
    await client.query('BEGIN');
    const locked = await client.query({
      name: 'batch.file_lock',
      text: `SELECT id FROM batch.file WHERE id = $1 AND organization_id = $2 AND ${VISIBLE} FOR UPDATE`,
      values: [fileId, organizationId, clock(deps)],
    });
    if (locked.rowCount === 0) throw notFound(fileId);
    const using = await client.query({
      name: 'batch.file_in_use',
      text: 'SELECT id FROM batch.batch WHERE input_file_id = $1 AND organization_id = $2 AND status = ANY($3::text[]) LIMIT 1',
      values: [fileId, organizationId, OPEN_BATCH_STATES],
    });
    if ((using.rowCount ?? 0) > 0) throw new ServiceError('file_in_use', `File '${fileId}' is the input of a batch that has not ended (${(using.rows[0] as { id: string }).id}); it can be deleted once that batch ends or is cancelled.`, { param: 'file_id' });
    await client.query({ name: 'batch.file_mark_deleted', text: 'UPDATE batch.file SET deleted_at = $2 WHERE id = $1', values: [fileId, clock(deps)] });
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      client.release(true);
      released = true;
    });
    throw error;
  } finally {
    if (!released) client.release();
  }
  await removeFile(deps, fileId).catch(() => undefined);
  return { id: fileId };
}

/** A file's chunks, then its row (the order the sweeper relies on: no chunk outlives its row). */
export async function removeFile(deps: Pick<FilesDeps, 'pool' | 'blobs'>, fileId: string): Promise<void> {
  await deps.blobs.delete(fileId);
  await deps.pool.query({ name: 'batch.file_remove', text: 'DELETE FROM batch.file WHERE id = $1 AND (deleted_at IS NOT NULL OR status = $2)', values: [fileId, 'uploading'] });
}

/**
 * GET /v1/files/{id}/content: the file's head, then its plaintext chunk by chunk, in order. One
 * chunk is read ahead while the caller sends the one before it; nothing holds more than two.
 * A chunk missing, altered or short is an internal error (after the head, the caller cuts the
 * stream: the client sees fewer bytes than Content-Length said).
 */
export async function readContent(deps: FilesDeps, organizationId: string, fileId: string): Promise<{ head: { filename: string; bytes: number }; chunks: AsyncIterable<Buffer> }> {
  const row = await visibleFile(deps, organizationId, fileId);
  const key = await deps.keys.fileKey(organizationId, fileId);
  const total = Number(row.bytes);
  const fetchChunk = async (index: number): Promise<Buffer> => {
    const sealed = await deps.blobs.get(fileId, index);
    if (!sealed) throw internalError(new Error(`file ${fileId}: chunk ${index} of ${row.chunk_count} is missing`));
    return openChunk(key, fileId, index, sealed);
  };
  async function* chunks(): AsyncGenerator<Buffer> {
    let sent = 0;
    let next: Promise<Buffer> | undefined = row.chunk_count > 0 ? fetchChunk(0) : undefined;
    // A read-ahead that is never awaited (the reader stopped) must not surface as an unhandled rejection.
    next?.catch(() => undefined);
    for (let index = 0; index < row.chunk_count; index += 1) {
      const chunk = await next!;
      next = index + 1 < row.chunk_count ? fetchChunk(index + 1) : undefined;
      next?.catch(() => undefined);
      sent += chunk.length;
      yield chunk;
    }
    if (sent !== total) throw internalError(new Error(`file ${fileId}: ${sent} bytes read, the row says ${total}`));
  }
  return { head: { filename: row.filename, bytes: total }, chunks: chunks() };
}
