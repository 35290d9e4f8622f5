import { createHash, randomBytes } from 'node:crypto';
import { createBatchClient, type BatchClient, type FileObject } from '@svc/backends';
import { ServiceError } from '@svc/errors';
import { openBytes } from '@svc/crypto';
import { startGrpcServer, type GrpcServer } from '@svc/grpc';
import { createLogger } from '@svc/logger';
import { createPrisma, poolOf } from '../db';
import { batchService } from '../server';
import { dataKeys } from './encryption';
import { postgresBlobStore } from './postgres-blob-store';
import { CHUNK_BYTES } from './limits';
import { sweepFiles, STALE_UPLOAD_MS } from './sweep';
import type { FilesDeps } from './store';

// The files store over gRPC, through the client the edge uses (libs/backends batch-client.ts),
// against the real Postgres: uploads streamed in and content streamed out, what is at rest
// (encrypted chunks, a sealed data key per organization), the JSONL refusals arriving before the
// upload ends, tenancy, delete and file_in_use, the list order and cursor, and the sweeper.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const ORG = `org_files_${RUN}`;
const OTHER = `org_files_other_${RUN}`;
const MASTER = randomBytes(32);
const logger = createLogger({ service: 'batch-test', silent: !process.env.DEBUG_FILES });

let server: GrpcServer;
let prisma: ReturnType<typeof createPrisma>;
let client: BatchClient;
let deps: FilesDeps;
/** The service's clock; tests move it to expire files. */
let now = () => new Date();

const line = (id: string, pad = '') => `${JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'auto', messages: [{ role: 'user', content: `hello ${id}${pad}` }] } })}\n`;

beforeAll(async () => {
  prisma = createPrisma(process.env.DATABASE_URL!);
  const pool = poolOf(prisma);
  deps = { pool, blobs: postgresBlobStore(pool), keys: dataKeys(pool, MASTER), now: () => now() };
  server = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [batchService({ files: deps, logger })] });
  client = createBatchClient({ address: `127.0.0.1:${server.port}`, deadlineMs: 5000 });
});

afterAll(async () => {
  const pool = poolOf(prisma);
  await pool.query('DELETE FROM batch.file_chunk WHERE blob_id IN (SELECT id FROM batch.file WHERE organization_id = ANY($1))', [[ORG, OTHER]]);
  await pool.query('DELETE FROM batch.batch WHERE organization_id = ANY($1)', [[ORG, OTHER]]);
  await pool.query('DELETE FROM batch.file WHERE organization_id = ANY($1)', [[ORG, OTHER]]);
  await pool.query('DELETE FROM batch.organization_key WHERE organization_id = ANY($1)', [[ORG, OTHER]]);
  client.close();
  await server.shutdown(1000);
  await prisma.$disconnect();
});

async function upload(content: Buffer | string, options: { organization?: string; filename?: string; piece?: number; purpose?: string; expiresAfter?: number; retentionDays?: number } = {}): Promise<FileObject> {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
  const handle = client.uploadFile({ organization_id: options.organization ?? ORG, filename: options.filename ?? 'input.jsonl', organization_retention_days: options.retentionDays ?? 30 });
  const piece = options.piece ?? 64 * 1024;
  for (let at = 0; at < bytes.length && !handle.answered; at += piece) await handle.write(bytes.subarray(at, at + piece));
  return handle.finish({ purpose: options.purpose ?? 'batch', ...(options.expiresAfter === undefined ? {} : { expires_after_seconds: options.expiresAfter }) });
}

async function content(fileId: string, organization = ORG): Promise<Buffer> {
  const read = await client.fileContent({ organization_id: organization, file_id: fileId });
  const parts: Buffer[] = [];
  for await (const part of read.body) parts.push(part);
  const all = Buffer.concat(parts);
  expect(all.length).toBe(read.bytes);
  return all;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return `${error.status} ${error.code}${error.param ? `:${error.param}` : ''} ${error.message}`;
    throw error;
  }
  return 'ok';
}

const rowsOf = async (fileId: string) => (await poolOf(prisma).query('SELECT status, deleted_at, chunk_count, line_count FROM batch.file WHERE id = $1', [fileId])).rows;
const chunksOf = async (fileId: string) => Number((await poolOf(prisma).query('SELECT count(*) AS n FROM batch.file_chunk WHERE blob_id = $1', [fileId])).rows[0].n);

describe('files in the batch service', () => {
  it('stores a multi-chunk upload encrypted and streams it back byte for byte', async () => {
    // 3.5 chunks of lines, sent in odd-sized pieces.
    const parts: string[] = [];
    let size = 0;
    for (let index = 0; size < CHUNK_BYTES * 3.5; index += 1) {
      const text = line(`req-${index}`, 'é'.repeat(200));
      parts.push(text);
      size += Buffer.byteLength(text);
    }
    const body = Buffer.from(parts.join(''));
    const before = Math.floor(Date.now() / 1000);
    const file = await upload(body, { piece: 77_777, filename: 'lines "ü".jsonl' });
    expect(file).toEqual({ id: expect.stringMatching(/^file_[0-9a-f]{32}$/), object: 'file', bytes: body.length, created_at: expect.any(Number), expires_at: file.created_at + 30 * 86_400, filename: 'lines "ü".jsonl', purpose: 'batch', status: 'processed' });
    expect(file.created_at).toBeGreaterThanOrEqual(before);
    expect(await rowsOf(file.id)).toEqual([{ status: 'processed', deleted_at: null, chunk_count: 4, line_count: parts.length }]);

    // At rest: four chunks, none holding the plaintext, each opening only under the file's own key and position.
    const stored = (await poolOf(prisma).query<{ index: number; data: Buffer }>('SELECT index, data FROM batch.file_chunk WHERE blob_id = $1 ORDER BY index', [file.id])).rows;
    expect(stored.map((row) => row.index)).toEqual([0, 1, 2, 3]);
    expect(stored.map((row) => row.data.length)).toEqual([CHUNK_BYTES + 28, CHUNK_BYTES + 28, CHUNK_BYTES + 28, body.length - 3 * CHUNK_BYTES + 28]);
    for (const row of stored) expect(row.data.includes(Buffer.from('req-'))).toBe(false);
    const fileKey = await deps.keys.fileKey(ORG, file.id);
    expect(openBytes(fileKey, stored[1]!.data, `${file.id}:1`).equals(body.subarray(CHUNK_BYTES, 2 * CHUNK_BYTES))).toBe(true);
    expect(() => openBytes(fileKey, stored[1]!.data, `${file.id}:2`)).toThrow();
    const otherKey = await deps.keys.fileKey(OTHER, file.id);
    expect(() => openBytes(otherKey, stored[1]!.data, `${file.id}:1`)).toThrow();

    // The organization's data key is stored sealed under the master key, bound to the organization.
    const sealed = (await poolOf(prisma).query<{ sealed_key: Buffer }>('SELECT sealed_key FROM batch.organization_key WHERE organization_id = $1', [ORG])).rows[0]!.sealed_key;
    expect(openBytes(MASTER, sealed, `files:${ORG}`)).toHaveLength(32);
    expect(() => openBytes(MASTER, sealed, `files:${OTHER}`)).toThrow();

    const back = await content(file.id);
    expect(createHash('sha256').update(back).digest('hex')).toBe(createHash('sha256').update(body).digest('hex'));
    expect(await client.getFile({ organization_id: ORG, file_id: file.id })).toEqual(file);
  });

  it('a fresh service with the same master key reads what another wrote (nothing kept in memory only)', async () => {
    const file = await upload(line('only'));
    const pool = poolOf(prisma);
    const again = { pool, blobs: postgresBlobStore(pool), keys: dataKeys(pool, MASTER) };
    const other = await startGrpcServer({ host: '127.0.0.1', port: 0, services: [batchService({ files: again, logger })] });
    const otherClient = createBatchClient({ address: `127.0.0.1:${other.port}`, deadlineMs: 5000 });
    try {
      const read = await otherClient.fileContent({ organization_id: ORG, file_id: file.id });
      const parts: Buffer[] = [];
      for await (const part of read.body) parts.push(part);
      expect(Buffer.concat(parts).toString()).toBe(line('only'));
    } finally {
      otherClient.close();
      await other.shutdown(1000);
    }
  });

  it('an altered chunk is an internal error, never wrong bytes', async () => {
    const file = await upload(line('tamper'));
    await poolOf(prisma).query("UPDATE batch.file_chunk SET data = overlay(data placing '\\x00'::bytea from 40 for 1) WHERE blob_id = $1", [file.id]);
    const read = await client.fileContent({ organization_id: ORG, file_id: file.id });
    expect(read.bytes).toBe(Buffer.byteLength(line('tamper')));
    await expect((async () => {
      for await (const part of read.body) void part;
    })()).rejects.toMatchObject({ code: 'internal_error' });
  });

  it('refuses a bad line while the upload is still streaming, naming the line, and leaves nothing behind', async () => {
    const handle = client.uploadFile({ organization_id: ORG, filename: 'bad.jsonl', organization_retention_days: 30 });
    await handle.write(Buffer.from(`${line('a')}${line('b')}{"custom_id":"c","method":"GET","url":"/v1/chat/completions","body":{}}\n`));
    // The answer arrives without finish: the service did not wait for the rest.
    expect(await refusal(handle.result)).toBe("400 invalid_file:file Invalid file: line 3 has a 'method' other than POST.");
    expect(handle.answered).toBe(true);
    await handle.write(Buffer.from(line('d')));
    const rows = await poolOf(prisma).query("SELECT id FROM batch.file WHERE organization_id = $1 AND filename = 'bad.jsonl'", [ORG]);
    expect(rows.rows).toEqual([]);
  });

  it('refuses a file over 100 MiB (file_too_large) and a purpose other than batch', async () => {
    const handle = client.uploadFile({ organization_id: ORG, filename: 'big.jsonl', organization_retention_days: 30 });
    const piece = Buffer.from(line('x', 'p'.repeat(1024 * 1024 - 200)).repeat(1));
    // Distinct ids in 1 MiB lines: 101 of them pass 100 MiB.
    for (let index = 0; index < 101 && !handle.answered; index += 1) await handle.write(Buffer.from(line(`big-${index}`, 'p'.repeat(piece.length - 120))));
    expect(await refusal(handle.result)).toBe('413 file_too_large:file The file is larger than 100 MiB.');
    expect(await refusal(upload(line('p'), { purpose: 'fine-tune', filename: 'purpose.jsonl' }))).toBe("400 invalid_value:purpose 'purpose' must be 'batch'.");
    const rows = await poolOf(prisma).query("SELECT id FROM batch.file WHERE organization_id = $1 AND filename IN ('big.jsonl', 'purpose.jsonl')", [ORG]);
    expect(rows.rows).toEqual([]);
  }, 60_000);

  it('a cancelled upload leaves nothing behind', async () => {
    const handle = client.uploadFile({ organization_id: ORG, filename: 'cancelled.jsonl', organization_retention_days: 30 });
    await handle.write(Buffer.from(line('a').repeat(1)));
    await handle.write(Buffer.alloc(CHUNK_BYTES + 10, 0x20));
    handle.cancel();
    await expect(handle.result).rejects.toBeInstanceOf(ServiceError);
    // The service removes what it wrote once it sees the cancellation.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const rows = await poolOf(prisma).query("SELECT id FROM batch.file WHERE organization_id = $1 AND filename = 'cancelled.jsonl'", [ORG]);
      if (rows.rows.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the cancelled upload was not removed');
  });

  it('expires_at is the earlier of the retention end and the requested expiry; an empty file has no chunks', async () => {
    const shorter = await upload(line('e1'), { expiresAfter: 3600 });
    expect(shorter.expires_at - shorter.created_at).toBe(3600);
    const longer = await upload(line('e2'), { expiresAfter: 2_592_000, retentionDays: 7 });
    expect(longer.expires_at - longer.created_at).toBe(7 * 86_400);
    expect(await refusal(upload(line('e3'), { expiresAfter: 3599 }))).toBe("400 invalid_value:expires_after[seconds] 'expires_after[seconds]' must be an integer from 3600 to 2592000.");
    const empty = await upload('');
    expect(empty.bytes).toBe(0);
    expect(await chunksOf(empty.id)).toBe(0);
    expect((await content(empty.id)).length).toBe(0);
  });

  it('another organization reads none of it: 404 not_found for get, content and delete', async () => {
    const file = await upload(line('mine'));
    for (const call of [client.getFile({ organization_id: OTHER, file_id: file.id }), client.fileContent({ organization_id: OTHER, file_id: file.id }), client.deleteFile({ organization_id: OTHER, file_id: file.id })]) {
      expect(await refusal(call)).toBe(`404 not_found:file_id No file found with id '${file.id}'.`);
    }
    expect((await client.listFiles({ organization_id: OTHER })).data.map((entry) => entry.id)).not.toContain(file.id);
    expect(await refusal(client.getFile({ organization_id: ORG, file_id: 'file-nope' }))).toBe("404 not_found:file_id No file found with id 'file-nope'.");
  });

  it('lists newest first with limit, after and purpose', async () => {
    const org = `${OTHER}_list`;
    const made: FileObject[] = [];
    for (let index = 0; index < 5; index += 1) made.push(await upload(line(`l${index}`), { organization: org, filename: `f${index}.jsonl` }));
    try {
      const newestFirst = [...made].reverse().map((file) => file.id);
      const all = await client.listFiles({ organization_id: org });
      expect(all).toEqual({ object: 'list', data: [...made].reverse(), first_id: newestFirst[0], last_id: newestFirst[4], has_more: false });
      const page = await client.listFiles({ organization_id: org, limit: 2 });
      expect([page.data.map((file) => file.id), page.has_more]).toEqual([newestFirst.slice(0, 2), true]);
      const next = await client.listFiles({ organization_id: org, limit: 2, after: page.last_id! });
      expect([next.data.map((file) => file.id), next.has_more]).toEqual([newestFirst.slice(2, 4), true]);
      const last = await client.listFiles({ organization_id: org, limit: 2, after: next.last_id! });
      expect([last.data.map((file) => file.id), last.has_more]).toEqual([newestFirst.slice(4), false]);
      expect((await client.listFiles({ organization_id: org, purpose: 'batch' })).data).toHaveLength(5);
      expect(await client.listFiles({ organization_id: org, purpose: 'assistants' })).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
      expect(await refusal(client.listFiles({ organization_id: org, after: 'file_0123456789abcdef0123456789abcdef' }))).toBe("400 invalid_value:after Invalid 'after': no file 'file_0123456789abcdef0123456789abcdef'.");
      expect(await refusal(client.listFiles({ organization_id: org, limit: 10_001 }))).toBe("400 invalid_value:limit 'limit' must be an integer from 1 to 10000.");
    } finally {
      await poolOf(prisma).query('DELETE FROM batch.file_chunk WHERE blob_id = ANY($1)', [made.map((file) => file.id)]);
      await poolOf(prisma).query('DELETE FROM batch.file WHERE organization_id = $1', [org]);
      await poolOf(prisma).query('DELETE FROM batch.organization_key WHERE organization_id = $1', [org]);
    }
  });

  it('delete is immediate, 409 file_in_use while a batch that has not ended uses the file', async () => {
    const file = await upload(line('in-use'));
    const batchId = `batch_${randomBytes(16).toString('hex')}`;
    await poolOf(prisma).query("INSERT INTO batch.batch (id, organization_id, key_id, input_file_id, status) VALUES ($1, $2, 'key_x', $3, 'in_progress')", [batchId, ORG, file.id]);
    expect(await refusal(client.deleteFile({ organization_id: ORG, file_id: file.id }))).toBe(`409 file_in_use:file_id File '${file.id}' is the input of a batch that has not ended (${batchId}); it can be deleted once that batch ends or is cancelled.`);
    for (const ended of ['completed', 'failed', 'expired', 'cancelled']) {
      await poolOf(prisma).query('UPDATE batch.batch SET status = $2 WHERE id = $1', [batchId, ended]);
    }
    expect(await client.deleteFile({ organization_id: ORG, file_id: file.id })).toEqual({ id: file.id, object: 'file', deleted: true });
    expect(await rowsOf(file.id)).toEqual([]);
    expect(await chunksOf(file.id)).toBe(0);
    expect(await refusal(client.getFile({ organization_id: ORG, file_id: file.id }))).toMatch(/^404 not_found/);
    expect(await refusal(client.deleteFile({ organization_id: ORG, file_id: file.id }))).toMatch(/^404 not_found/);
  });

  it('the sweeper removes expired, deleted and abandoned files with their chunks, and keeps what a running batch needs', async () => {
    const expired = await upload(line('s1'), { expiresAfter: 3600 });
    const needed = await upload(line('s2'), { expiresAfter: 3600 });
    const kept = await upload(line('s3'));
    const markedDeleted = await upload(line('s4'));
    await poolOf(prisma).query('UPDATE batch.file SET deleted_at = now() WHERE id = $1', [markedDeleted.id]);
    const batchId = `batch_${randomBytes(16).toString('hex')}`;
    await poolOf(prisma).query("INSERT INTO batch.batch (id, organization_id, key_id, input_file_id, status) VALUES ($1, $2, 'key_x', $3, 'validating')", [batchId, ORG, needed.id]);
    // An upload abandoned mid-way (its process died): a row still uploading, with a chunk.
    const abandoned = `file_${randomBytes(16).toString('hex')}`;
    await poolOf(prisma).query("INSERT INTO batch.file (id, organization_id, filename, purpose, bytes, status, expires_at, created_at) VALUES ($1, $2, 'x', '', 0, 'uploading', now(), now() - interval '3 hours')", [abandoned, ORG]);
    await deps.blobs.put(abandoned, 0, Buffer.from('sealed bytes'));

    const later = new Date(Date.now() + 3601_000);
    now = () => later;
    try {
      // Expired files read as gone at once, before any sweep.
      expect(await refusal(client.getFile({ organization_id: ORG, file_id: expired.id }))).toMatch(/^404 not_found/);
      const removed = await sweepFiles({ pool: deps.pool, blobs: deps.blobs, now: () => later }, 2);
      expect(removed).toBeGreaterThanOrEqual(3);
      for (const id of [expired.id, markedDeleted.id, abandoned]) {
        expect([id, await rowsOf(id), await chunksOf(id)]).toEqual([id, [], 0]);
      }
      expect(await rowsOf(needed.id)).toHaveLength(1);
      expect(await chunksOf(needed.id)).toBe(1);
      expect(await rowsOf(kept.id)).toHaveLength(1);
      // Once the batch ends, the next sweep takes the expired input too.
      await poolOf(prisma).query("UPDATE batch.batch SET status = 'completed' WHERE id = $1", [batchId]);
      await sweepFiles({ pool: deps.pool, blobs: deps.blobs, now: () => later });
      expect(await rowsOf(needed.id)).toEqual([]);
      expect(await chunksOf(needed.id)).toBe(0);
      expect(await rowsOf(kept.id)).toHaveLength(1);
    } finally {
      now = () => new Date();
    }
    expect(STALE_UPLOAD_MS).toBe(2 * 60 * 60 * 1000);
  });
});
