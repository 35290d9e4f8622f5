import { randomBytes } from 'node:crypto';
import { createBatchClient, type BatchClient, type BatchObject, type FileObject } from '@svc/backends';
import { startGrpcServer, type GrpcServer } from '@svc/grpc';
import { createLogger } from '@svc/logger';
import { createPrisma, poolOf } from '../db';
import { batchService } from '../server';
import { dataKeys } from '../files/encryption';
import { postgresBlobStore } from '../files/postgres-blob-store';
import { endBatch } from './finalize';
import type { BatchesDeps } from './store';

// Batches in the batch service over gRPC (the client the edge and the workers use) against the
// real Postgres: create with its limits, start (line rows), commits that count and bill a line
// once (billing.usage_outbox in the same transaction), and the three endings with their files.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const ORG = `org_batches_${RUN}`;
const OTHER = `org_batches_other_${RUN}`;
const logger = createLogger({ service: 'batch-test', silent: true });

let server: GrpcServer;
let prisma: ReturnType<typeof createPrisma>;
let client: BatchClient;
let deps: BatchesDeps;
let now = () => new Date();
const callIds: string[] = [];

const line = (id: string) => `${JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: `hi ${id}` }] } })}\n`;

beforeAll(async () => {
  prisma = createPrisma(process.env.DATABASE_URL!);
  const pool = poolOf(prisma);
  deps = { pool, blobs: postgresBlobStore(pool), keys: dataKeys(pool, randomBytes(32)), now: () => now() };
  server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [batchService({ files: deps, batches: deps, logger })] });
  client = createBatchClient({ address: `127.0.0.1:${server.port}`, deadlineMs: 5000 });
});

afterAll(async () => {
  const pool = poolOf(prisma);
  await pool.query('DELETE FROM billing.usage_outbox WHERE call_id = ANY($1)', [callIds]);
  await pool.query('DELETE FROM batch.batch_line WHERE batch_id IN (SELECT id FROM batch.batch WHERE organization_id = ANY($1))', [[ORG, OTHER]]);
  await pool.query('DELETE FROM batch.batch WHERE organization_id = ANY($1)', [[ORG, OTHER]]);
  await pool.query('DELETE FROM batch.file_chunk WHERE blob_id IN (SELECT id FROM batch.file WHERE organization_id = ANY($1))', [[ORG, OTHER]]);
  await pool.query('DELETE FROM batch.file WHERE organization_id = ANY($1)', [[ORG, OTHER]]);
  await pool.query('DELETE FROM batch.organization_key WHERE organization_id = ANY($1)', [[ORG, OTHER]]);
  client.close();
  await server.shutdown(1000);
  await prisma.$disconnect();
});

async function upload(lines: number, organization = ORG): Promise<FileObject> {
  const handle = client.uploadFile({ organization_id: organization, filename: 'input.jsonl', organization_retention_days: 30 });
  await handle.write(Buffer.from(Array.from({ length: lines }, (_, index) => line(`c-${index}`)).join('')));
  return handle.finish({ purpose: 'batch' });
}

const create = (fileId: string, organization = ORG) =>
  client.createBatch({ organization_id: organization, key_id: 'key_1', input_file_id: fileId, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { a: 'b' }, allow_standard_price: false, organization_retention_days: 30 });

async function started(lines: number): Promise<BatchObject> {
  const batch = await create((await upload(lines)).id);
  return client.batchWork<BatchObject>('StartBatch', { organization_id: ORG, batch_id: batch.id });
}

function usage(batchId: string, index: number) {
  const callId = `call_${randomBytes(16).toString('hex')}`;
  callIds.push(callId);
  return { call_id: callId, organization_id: ORG, key_id: 'key_1', kind: 'chat', cost_micros: 5, note: `${batchId}:${index}` };
}

const answered = (batchId: string, index: number) => ({
  index,
  status: 'completed',
  line: { id: `batch_req_${index}`, custom_id: `c-${index}`, response: { status_code: 200, request_id: 'req_x', body: { n: index } }, error: null },
  usage: usage(batchId, index),
  cost: { vendor_micros: 4, billed_micros: 5, direct_micros: 10, saved_micros: 5 },
});

async function content(fileId: string): Promise<any[]> {
  const file = await client.fileContent({ organization_id: ORG, file_id: fileId });
  const parts: Buffer[] = [];
  for await (const part of file.body) parts.push(part);
  return Buffer.concat(parts).toString('utf8').split('\n').filter(Boolean).map((text) => JSON.parse(text));
}

describe('batches in the batch service', () => {
  it('creates a batch validating, 24 h window; refuses unknown files, other purposes and over 50,000 lines; another organization sees 404', async () => {
    const file = await upload(2);
    const batch = await create(file.id);
    expect(batch).toMatchObject({ status: 'validating', input_file_id: file.id, metadata: { a: 'b' }, request_counts: { total: 2, completed: 0, failed: 0 } });
    expect((batch.expires_at as number) - (batch.created_at as number)).toBe(86_400);
    await expect(create('file_00000000000000000000000000000000')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(create(file.id, OTHER)).rejects.toMatchObject({ code: 'not_found' });
    await expect(client.getBatch({ organization_id: OTHER, batch_id: batch.id })).rejects.toMatchObject({ code: 'not_found' });
    await poolOf(prisma).query('UPDATE batch.file SET line_count = 50001 WHERE id = $1', [file.id]);
    await expect(create(file.id)).rejects.toMatchObject({ code: 'batch_too_large', status: 400 });
    await poolOf(prisma).query("UPDATE batch.file SET line_count = 2, purpose = 'batch_output' WHERE id = $1", [file.id]);
    await expect(create(file.id)).rejects.toMatchObject({ code: 'invalid_value', param: 'input_file_id' });
  });

  it('refuses the 21st open batch of an organization with 429 and Retry-After', async () => {
    const file = await upload(1, OTHER);
    for (let index = 0; index < 20; index += 1) await create(file.id, OTHER);
    await expect(create(file.id, OTHER)).rejects.toMatchObject({ code: 'too_many_open_batches', status: 429, headers: { 'retry-after': '60' } });
    const list = await client.listBatches({ organization_id: OTHER, limit: 100 });
    expect(list.data).toHaveLength(20);
  });

  it('commits each line once with its usage row; a repeated commit counts and bills nothing; the end writes both files', async () => {
    const batch = await started(3);
    expect(batch).toMatchObject({ status: 'in_progress', request_counts: { total: 3, completed: 0, failed: 0 } });
    const first = answered(batch.id, 0);
    const result = await client.batchWork<{ committed: number[]; remaining: number }>('CommitLines', { organization_id: ORG, batch_id: batch.id, lines: [first] });
    expect(result).toEqual({ committed: [0], remaining: 2 });
    // The same line again (a chunk redelivered after a worker died), even with another answer.
    const again = await client.batchWork<{ committed: number[] }>('CommitLines', { organization_id: ORG, batch_id: batch.id, lines: [answered(batch.id, 0)] });
    expect(again.committed).toEqual([]);
    const outbox = await poolOf(prisma).query("SELECT call_id FROM billing.usage_outbox WHERE record->>'note' LIKE $1", [`${batch.id}:%`]);
    expect(outbox.rows.map((row) => row.call_id)).toEqual([first.usage.call_id]);
    const refused = { index: 1, status: 'failed', line: { id: 'batch_req_1', custom_id: 'c-1', response: { status_code: 400, request_id: 'req_y', body: { error: { code: 'upstream_invalid_request' } } }, error: null } };
    const last = await client.batchWork<{ remaining: number }>('CommitLines', { organization_id: ORG, batch_id: batch.id, lines: [refused, answered(batch.id, 2)] });
    expect(last.remaining).toBe(0);
    const midway = await client.getBatch({ organization_id: ORG, batch_id: batch.id });
    expect(midway).toMatchObject({ request_counts: { total: 3, completed: 2, failed: 1 }, svc: { tier: 'batch', cost: { vendor_micros: 8, billed_micros: 10, direct_micros: 20, saved_micros: 10, classifier_micros: 0 } } });

    expect(await endBatch(deps, batch.id, { cancelGraceMs: 30_000 })).toBe('completed');
    const ended = await client.getBatch({ organization_id: ORG, batch_id: batch.id });
    expect(ended).toMatchObject({ status: 'completed', completed_at: expect.any(Number), finalizing_at: expect.any(Number) });
    expect((await content(ended.output_file_id as string)).map((row) => row.custom_id)).toEqual(['c-0', 'c-2']);
    expect(await content(ended.error_file_id as string)).toEqual([refused.line]);
    await expect(client.cancelBatch({ organization_id: ORG, batch_id: batch.id })).rejects.toMatchObject({ code: 'batch_not_cancellable', status: 400 });
  });

  it('cancel: cancelling at once, pending lines batch_cancelled with response null once the grace passed, finished lines kept', async () => {
    const batch = await started(3);
    await client.batchWork('CommitLines', { organization_id: ORG, batch_id: batch.id, lines: [answered(batch.id, 0)] });
    const cancelling = await client.cancelBatch({ organization_id: ORG, batch_id: batch.id });
    expect(cancelling).toMatchObject({ status: 'cancelling', cancelling_at: expect.any(Number) });
    expect(await client.cancelBatch({ organization_id: ORG, batch_id: batch.id })).toMatchObject({ status: 'cancelling' });
    // Workers still hold lines: nothing ends before the grace.
    expect(await endBatch(deps, batch.id, { cancelGraceMs: 60_000 })).toBeUndefined();
    expect(await endBatch(deps, batch.id, { cancelGraceMs: 0 })).toBe('cancelled');
    const ended = await client.getBatch({ organization_id: ORG, batch_id: batch.id });
    expect(ended).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(Number), request_counts: { total: 3, completed: 1, failed: 2 } });
    expect(await content(ended.output_file_id as string)).toHaveLength(1);
    const errors = await content(ended.error_file_id as string);
    expect(errors.map((row) => row.custom_id)).toEqual(['c-1', 'c-2']);
    for (const row of errors) expect(row).toEqual({ id: expect.stringMatching(/^batch_req_[0-9a-f]{32}$/), custom_id: expect.any(String), response: null, error: { code: 'batch_cancelled', message: expect.any(String) } });
    // A late answer of a cancelled line is neither written nor billed.
    expect((await client.batchWork<{ committed: number[] }>('CommitLines', { organization_id: ORG, batch_id: batch.id, lines: [answered(batch.id, 1)] })).committed).toEqual([]);
  });

  it('cancelled while validating: no line ran, every input line in the error file as batch_cancelled, failed = total; a late start runs nothing', async () => {
    const batch = await create((await upload(3)).id);
    expect(await client.cancelBatch({ organization_id: ORG, batch_id: batch.id })).toMatchObject({ status: 'cancelling' });
    // The validation that was under way ends after the cancel: it reads no lines.
    expect(await client.batchWork<BatchObject>('StartBatch', { organization_id: ORG, batch_id: batch.id })).toMatchObject({ status: 'cancelling' });
    expect(await endBatch(deps, batch.id, { cancelGraceMs: 60_000 })).toBe('cancelled');
    const ended = await client.getBatch({ organization_id: ORG, batch_id: batch.id });
    expect(ended).toMatchObject({ status: 'cancelled', request_counts: { total: 3, completed: 0, failed: 3 } });
    expect(await content(ended.output_file_id as string)).toEqual([]);
    const errors = await content(ended.error_file_id as string);
    expect(errors.map((row) => row.custom_id)).toEqual(['c-0', 'c-1', 'c-2']);
    for (const row of errors) expect(row).toEqual({ id: expect.stringMatching(/^batch_req_[0-9a-f]{32}$/), custom_id: expect.any(String), response: null, error: { code: 'batch_cancelled', message: expect.any(String) } });
    expect(new Set(errors.map((row) => row.id)).size).toBe(3);
  });

  it('a failure while writing the files gives the batch back at once: the next try ends it (no five-minute lease to wait out)', async () => {
    const batch = await started(2);
    await client.batchWork('CommitLines', { organization_id: ORG, batch_id: batch.id, lines: [answered(batch.id, 0), answered(batch.id, 1)] });
    let failures = 1;
    const flaky: BatchesDeps = {
      ...deps,
      blobs: {
        ...deps.blobs,
        put: async (...args: Parameters<BatchesDeps['blobs']['put']>) => {
          if (failures-- > 0) throw new Error('blob store unavailable');
          return deps.blobs.put(...args);
        },
      },
    };
    await expect(endBatch(flaky, batch.id, { cancelGraceMs: 30_000 })).rejects.toThrow('blob store unavailable');
    expect((await client.getBatch({ organization_id: ORG, batch_id: batch.id })).status).toBe('finalizing');
    expect(await endBatch(flaky, batch.id, { cancelGraceMs: 30_000 })).toBe('completed');
    const ended = await client.getBatch({ organization_id: ORG, batch_id: batch.id });
    expect(ended).toMatchObject({ status: 'completed', request_counts: { total: 2, completed: 2, failed: 0 } });
    expect(await content(ended.output_file_id as string)).toHaveLength(2);
  });

  it('expires at the window: pending lines batch_expired, the batch expired with its files', async () => {
    const batch = await started(2);
    await client.batchWork('CommitLines', { organization_id: ORG, batch_id: batch.id, lines: [answered(batch.id, 1)] });
    now = () => new Date(Date.now() + 86_400_000 + 1000);
    try {
      expect((await client.batchWork<{ status: string }>('PendingLines', { organization_id: ORG, batch_id: batch.id, indexes: [0] })).status).toBe('expired');
      expect(await endBatch(deps, batch.id, { cancelGraceMs: 30_000 })).toBe('expired');
    } finally {
      now = () => new Date();
    }
    const ended = await client.getBatch({ organization_id: ORG, batch_id: batch.id });
    expect(ended).toMatchObject({ status: 'expired', expired_at: expect.any(Number), request_counts: { total: 2, completed: 1, failed: 1 } });
    expect(await content(ended.error_file_id as string)).toEqual([expect.objectContaining({ custom_id: 'c-0', response: null, error: expect.objectContaining({ code: 'batch_expired' }) })]);
  });

  it('a failed validation ends the batch failed with its errors; a second start or fail changes nothing', async () => {
    const batch = await create((await upload(1)).id);
    const failed = await client.batchWork<BatchObject>('FailBatch', { organization_id: ORG, batch_id: batch.id, errors: [{ code: 'model_not_batchable', message: 'm', param: 'body.model', line: 1 }] });
    expect(failed).toMatchObject({ status: 'failed', failed_at: expect.any(Number), errors: { object: 'list', data: [{ code: 'model_not_batchable', line: 1 }] }, output_file_id: null });
    expect(await client.batchWork<BatchObject>('StartBatch', { organization_id: ORG, batch_id: batch.id })).toMatchObject({ status: 'failed' });
  });
});
