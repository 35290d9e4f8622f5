import type { PoolClient } from 'pg';
import { ServiceError, internalError } from '@svc/errors';
import { ids, isId } from '@svc/ids';
import { USAGE_OUTBOX_TABLE } from './outbox';
import { clock, readContent, visibleFile, type FilesDeps } from '../files/store';
import { sealChunk } from '../files/encryption';
import { BATCH_COLUMNS, COMPLETION_WINDOW_MS, DEFAULT_BATCH_LIST_LIMIT, ENDED_STATES, MAX_BATCH_LINES, MAX_BATCH_LIST_LIMIT, MAX_OPEN_BATCHES, OPEN_STATES, batchObject, type BatchRow } from './object';
import { splitLines } from './lines';

/** What the batches store needs: the files store's (it reads input files and writes result files). */
export interface BatchesDeps extends FilesDeps {
  /** The completion window (24 h; tests shorten it). */
  windowMs?: number;
}

const notFound = (batchId: string) => new ServiceError('not_found', `No batch found with id '${batchId}'.`, { param: 'batch_id' });

export async function inTransaction<T>(deps: Pick<FilesDeps, 'pool'>, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await deps.pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}

export async function batchRow(deps: Pick<FilesDeps, 'pool'>, organizationId: string, batchId: string): Promise<BatchRow> {
  if (!isId('batch', batchId)) throw notFound(batchId);
  const result = await deps.pool.query<BatchRow>({ name: 'batch.batch_get', text: `SELECT ${BATCH_COLUMNS} FROM batch.batch WHERE id = $1 AND organization_id = $2`, values: [batchId, organizationId] });
  if (!result.rows[0]) throw notFound(batchId);
  return result.rows[0];
}

/** GET /v1/batches/{id}: another organization's batch is not found. */
export async function getBatch(deps: Pick<FilesDeps, 'pool'>, organizationId: string, batchId: string): Promise<Record<string, unknown>> {
  return batchObject(await batchRow(deps, organizationId, batchId));
}

export interface CreateBatchInput {
  organization_id: string;
  key_id: string;
  input_file_id: string;
  endpoint: string;
  completion_window: string;
  metadata: Record<string, string> | null;
  allow_standard_price: boolean;
  organization_retention_days: number;
}

/**
 * POST /v1/batches once the edge checked the body. In one transaction: the input file, locked
 * (a DELETE of it waits, then sees the batch: 409 file_in_use), must be a processed batch upload
 * of the organization (404 not_found; another purpose: 400 invalid_value) of at most 50,000 lines
 * (400 batch_too_large); the organization's open batches are counted under a transaction-scoped
 * advisory lock on the organization, so two creations cannot both be the 20th (429
 * too_many_open_batches); then the batch row, `validating`, expiring 24 hours after creation.
 */
export async function createBatch(deps: BatchesDeps, input: CreateBatchInput): Promise<Record<string, unknown>> {
  return inTransaction(deps, async (client) => {
    if (!isId('file', input.input_file_id)) throw new ServiceError('not_found', `No file found with id '${input.input_file_id}'.`, { param: 'input_file_id' });
    const now = clock(deps);
    const file = await client.query<{ purpose: string; line_count: number }>({
      name: 'batch.batch_file_lock',
      text: `SELECT purpose, line_count FROM batch.file WHERE id = $1 AND organization_id = $2 AND status = 'processed' AND deleted_at IS NULL AND expires_at > $3 FOR UPDATE`,
      values: [input.input_file_id, input.organization_id, now],
    });
    const row = file.rows[0];
    if (!row) throw new ServiceError('not_found', `No file found with id '${input.input_file_id}'.`, { param: 'input_file_id' });
    if (row.purpose !== 'batch') throw new ServiceError('invalid_value', `File '${input.input_file_id}' is not a batch input file (purpose '${row.purpose}'); upload the lines with purpose 'batch'.`, { param: 'input_file_id' });
    if (row.line_count > MAX_BATCH_LINES) throw new ServiceError('batch_too_large', `The input file has ${row.line_count} lines; a batch takes at most ${MAX_BATCH_LINES}.`, { param: 'input_file_id' });
    await client.query({ name: 'batch.batch_org_lock', text: `SELECT pg_advisory_xact_lock(hashtext('batch.open:' || $1))`, values: [input.organization_id] });
    const open = await client.query<{ open: string }>({ name: 'batch.batch_open_count', text: 'SELECT count(*) AS open FROM batch.batch WHERE organization_id = $1 AND status = ANY($2::text[])', values: [input.organization_id, OPEN_STATES] });
    if (Number(open.rows[0]?.open ?? 0) >= MAX_OPEN_BATCHES) {
      throw new ServiceError('too_many_open_batches', `Your organization already has ${MAX_OPEN_BATCHES} open batches; wait for one to end or cancel one.`, { headers: { 'retry-after': '60' } });
    }
    const id = ids.batch();
    const inserted = await client.query<BatchRow>({
      name: 'batch.batch_insert',
      text: `INSERT INTO batch.batch (id, organization_id, key_id, input_file_id, status, endpoint, completion_window, metadata, allow_standard_price, total, retention_days, created_at, expires_at)
             VALUES ($1, $2, $3, $4, 'validating', $5, $6, $7::jsonb, $8, $9, $10, $11, $12) RETURNING ${BATCH_COLUMNS}`,
      values: [id, input.organization_id, input.key_id, input.input_file_id, input.endpoint, input.completion_window, input.metadata ? JSON.stringify(input.metadata) : null, input.allow_standard_price, row.line_count, input.organization_retention_days, now, new Date(now.getTime() + (deps.windowMs ?? COMPLETION_WINDOW_MS))],
    });
    return batchObject(inserted.rows[0]!);
  });
}

/** GET /v1/batches: newest first (created_at, then id); `after` a batch id of the organization's. */
export async function listBatches(deps: Pick<FilesDeps, 'pool'>, input: { organization_id: string; limit?: number; after?: string }): Promise<{ data: Record<string, unknown>[]; has_more: boolean }> {
  const limit = input.limit === undefined || input.limit === 0 ? DEFAULT_BATCH_LIST_LIMIT : input.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_BATCH_LIST_LIMIT) throw new ServiceError('invalid_value', `'limit' must be an integer from 1 to ${MAX_BATCH_LIST_LIMIT}.`, { param: 'limit' });
  const values: unknown[] = [input.organization_id, limit + 1];
  let where = 'organization_id = $1';
  if (input.after) {
    const badCursor = new ServiceError('invalid_value', `Invalid 'after': no batch '${input.after}'.`, { param: 'after' });
    if (!isId('batch', input.after)) throw badCursor;
    const cursor = await deps.pool.query<{ created_at: Date }>({ name: 'batch.batch_cursor', text: 'SELECT created_at FROM batch.batch WHERE id = $1 AND organization_id = $2', values: [input.after, input.organization_id] });
    if (!cursor.rows[0]) throw badCursor;
    values.push(cursor.rows[0].created_at, input.after);
    where += ' AND (created_at, id) < ($3, $4)';
  }
  const result = await deps.pool.query<BatchRow>(`SELECT ${BATCH_COLUMNS} FROM batch.batch WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $2`, values);
  return { data: result.rows.slice(0, limit).map(batchObject), has_more: result.rows.length > limit };
}

/**
 * POST /v1/batches/{id}/cancel: a batch that has not ended becomes `cancelling` (cancelling_at);
 * workers stop starting its lines and cut the calls in flight, lines that finished stay billed,
 * and the ticker ends it `cancelled` with its files (ticker.ts). Cancelling again returns it as
 * it is; an ended batch is 400 batch_not_cancellable.
 */
export async function cancelBatch(deps: BatchesDeps, organizationId: string, batchId: string): Promise<Record<string, unknown>> {
  if (!isId('batch', batchId)) throw notFound(batchId);
  return inTransaction(deps, async (client) => {
    const locked = await client.query<BatchRow>({ name: 'batch.batch_lock', text: `SELECT ${BATCH_COLUMNS} FROM batch.batch WHERE id = $1 AND organization_id = $2 FOR UPDATE`, values: [batchId, organizationId] });
    const row = locked.rows[0];
    if (!row) throw notFound(batchId);
    if ((ENDED_STATES as readonly string[]).includes(row.status)) throw new ServiceError('batch_not_cancellable', `Batch '${batchId}' has already ended (${row.status}) and cannot be cancelled.`, { param: 'batch_id' });
    if (row.status === 'cancelling') return batchObject(row);
    const updated = await client.query<BatchRow>({ name: 'batch.batch_cancel', text: `UPDATE batch.batch SET status = 'cancelling', cancelling_at = $2 WHERE id = $1 RETURNING ${BATCH_COLUMNS}`, values: [batchId, clock(deps)] });
    return batchObject(updated.rows[0]!);
  });
}

export interface BatchError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

/**
 * validating → failed with its errors (nothing was billed: no line ran). Its lines count as failed
 * (request_counts adds up for every ended batch, as for one cancelled while validating). A batch no
 * longer validating is left as it is.
 */
export async function failBatch(deps: BatchesDeps, input: { organization_id: string; batch_id: string; errors: BatchError[] }): Promise<Record<string, unknown>> {
  const result = await deps.pool.query<BatchRow>({
    name: 'batch.batch_fail',
    text: `UPDATE batch.batch SET status = 'failed', failed_at = $3, errors = $4::jsonb, completed = 0, failed = total WHERE id = $1 AND organization_id = $2 AND status = 'validating' RETURNING ${BATCH_COLUMNS}`,
    values: [input.batch_id, input.organization_id, clock(deps), JSON.stringify(input.errors)],
  });
  return result.rows[0] ? batchObject(result.rows[0]) : getBatch(deps, input.organization_id, input.batch_id);
}

const LINE_PAGE = 5_000;

/**
 * validating → in_progress: one row per input line (index from 0, custom_id), read from the
 * input file here (the service that owns it), written with the status change in one
 * transaction. A batch that is no longer validating (a start repeated after a worker died) is
 * returned as it is.
 */
export async function startBatch(deps: BatchesDeps, input: { organization_id: string; batch_id: string }): Promise<Record<string, unknown>> {
  const row = await batchRow(deps, input.organization_id, input.batch_id);
  if (row.status !== 'validating') return batchObject(row);
  await visibleFile(deps, input.organization_id, row.input_file_id);
  const content = await readContent(deps, input.organization_id, row.input_file_id);
  return inTransaction(deps, async (client) => {
    const locked = await client.query<{ status: string }>({ name: 'batch.batch_lock_status', text: 'SELECT status FROM batch.batch WHERE id = $1 FOR UPDATE', values: [input.batch_id] });
    if (locked.rows[0]?.status !== 'validating') return getBatch(deps, input.organization_id, input.batch_id);
    let indexes: number[] = [];
    let customIds: string[] = [];
    let total = 0;
    const flush = async () => {
      if (indexes.length === 0) return;
      await client.query({ name: 'batch.line_insert', text: 'INSERT INTO batch.batch_line (batch_id, index, custom_id) SELECT $1, * FROM unnest($2::int[], $3::text[])', values: [input.batch_id, indexes, customIds] });
      indexes = [];
      customIds = [];
    };
    for await (const line of splitLines(content.chunks)) {
      const parsed = JSON.parse(line.text) as { custom_id: string };
      indexes.push(line.index);
      customIds.push(parsed.custom_id);
      total += 1;
      if (indexes.length >= LINE_PAGE) await flush();
    }
    await flush();
    const updated = await client.query<BatchRow>({ name: 'batch.batch_start', text: `UPDATE batch.batch SET status = 'in_progress', in_progress_at = $2, total = $3 WHERE id = $1 RETURNING ${BATCH_COLUMNS}`, values: [input.batch_id, clock(deps), total] });
    return batchObject(updated.rows[0]!);
  });
}

/** Which of `indexes` are still pending, and the batch's status (and whether the window passed). */
export async function pendingLines(deps: BatchesDeps, input: { organization_id: string; batch_id: string; indexes: number[] }): Promise<{ status: string; pending: number[] }> {
  const row = await batchRow(deps, input.organization_id, input.batch_id);
  const status = (OPEN_STATES as readonly string[]).includes(row.status) && row.expires_at.getTime() <= clock(deps).getTime() ? 'expired' : row.status;
  if (input.indexes.length === 0) return { status, pending: [] };
  const result = await deps.pool.query<{ index: number }>({ name: 'batch.line_pending', text: `SELECT index FROM batch.batch_line WHERE batch_id = $1 AND index = ANY($2::int[]) AND status = 'pending' ORDER BY index`, values: [input.batch_id, input.indexes] });
  return { status, pending: result.rows.map((line) => line.index) };
}

/** One line's outcome from a worker. */
export interface LineOutcome {
  index: number;
  /** completed (output file), failed (error file), cancelled (never reached a vendor, or cut). */
  status: 'completed' | 'failed' | 'cancelled';
  /** The output or error file's line; absent for a cancelled line (rendered at the end). */
  line?: Record<string, unknown>;
  /** The usage record of a billed line (usage.settle v1 payload). */
  usage?: { call_id: string } & Record<string, unknown>;
  cost?: { vendor_micros: number; billed_micros: number; direct_micros: number; saved_micros: number };
}

/**
 * Lines' outcomes, committed with their billing in one transaction (spec: exactly once): a line
 * moves from pending to its outcome only once (the UPDATE's `status = 'pending'` guard), and only
 * the lines that moved here insert their usage record into billing.usage_outbox (idempotent on
 * call_id; billing settles it) and add to request_counts and svc.cost. A line committed twice
 * (a chunk redelivered after a worker died) is neither counted nor billed again; a line whose
 * batch ended meanwhile (expired, cancelled) was already closed and is dropped, unbilled.
 * Returns the indexes that were committed here.
 */
export async function commitLines(deps: BatchesDeps, input: { organization_id: string; batch_id: string; lines: LineOutcome[] }): Promise<{ committed: number[]; remaining: number }> {
  if (input.lines.length === 0) return { committed: [], remaining: -1 };
  const key = await deps.keys.fileKey(input.organization_id, input.batch_id);
  const indexes = input.lines.map((line) => line.index);
  const statuses = input.lines.map((line) => line.status);
  const results = input.lines.map((line) => (line.line ? sealChunk(key, input.batch_id, line.index, Buffer.from(JSON.stringify(line.line))) : null));
  return inTransaction(deps, async (client) => {
    // The batch row first, as endBatch takes it: commits and endings of one batch never deadlock.
    await client.query({ name: 'batch.batch_commit_lock', text: 'SELECT 1 FROM batch.batch WHERE id = $1 FOR UPDATE', values: [input.batch_id] });
    const moved = await client.query<{ index: number }>({
      name: 'batch.line_commit',
      text: `UPDATE batch.batch_line l SET status = u.status, result = u.result
               FROM unnest($2::int[], $3::text[], $4::bytea[]) AS u(index, status, result)
              WHERE l.batch_id = $1 AND l.index = u.index AND l.status = 'pending'
          RETURNING l.index`,
      values: [input.batch_id, indexes, statuses, results],
    });
    const committed = new Set(moved.rows.map((row) => row.index));
    if (committed.size === 0) return { committed: [], remaining: -1 };
    const billed = input.lines.filter((line) => committed.has(line.index) && line.usage);
    if (billed.length > 0) {
      await client.query({
        name: 'batch.line_usage',
        text: `INSERT INTO ${USAGE_OUTBOX_TABLE} (call_id, record) SELECT * FROM unnest($1::text[], $2::jsonb[]) ON CONFLICT (call_id) DO NOTHING`,
        values: [billed.map((line) => line.usage!.call_id), billed.map((line) => JSON.stringify(line.usage))],
      });
    }
    let completed = 0;
    let failed = 0;
    const cost = { vendor: 0, billed: 0, direct: 0, saved: 0 };
    for (const line of input.lines) {
      if (!committed.has(line.index)) continue;
      if (line.status === 'completed') completed += 1;
      else failed += 1;
      if (line.cost) {
        cost.vendor += line.cost.vendor_micros;
        cost.billed += line.cost.billed_micros;
        cost.direct += line.cost.direct_micros;
        cost.saved += line.cost.saved_micros;
      }
    }
    const updated = await client.query<{ total: number; completed: number; failed: number }>({
      name: 'batch.batch_counts',
      text: `UPDATE batch.batch SET completed = completed + $2, failed = failed + $3, vendor_micros = vendor_micros + $4, billed_micros = billed_micros + $5, direct_micros = direct_micros + $6, saved_micros = saved_micros + $7
              WHERE id = $1 RETURNING total, completed, failed`,
      values: [input.batch_id, completed, failed, cost.vendor, cost.billed, cost.direct, cost.saved],
    });
    const counts = updated.rows[0];
    if (!counts) throw internalError(new Error(`batch ${input.batch_id}: lines committed without their batch row`));
    return { committed: [...committed], remaining: counts.total - counts.completed - counts.failed };
  });
}
