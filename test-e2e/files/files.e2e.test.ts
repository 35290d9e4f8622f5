import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { Client } from 'pg';
import { freePort, waitForPort } from '../../libs/fleet/src';
import { admin, fleetState, newOrganization, ROOT, spawnEdge } from '../support/fleet-state';

/**
 * Files (spec: File object, File endpoints, Errors, Limits): through the official `openai` SDK
 * (files.create with a real 100 MiB stream, list, retrieve, content, delete), plain fetch for the
 * raw bytes, headers and every refusal in the envelope. The memory test runs a batch service and
 * an edge of its own so their RSS is the upload's alone, and logs the growth.
 */
jest.setTimeout(300_000);

const MIB = 1024 * 1024;
const state = fleetState();
const sdk = (apiKey = state.apiKey) => new OpenAI({ baseURL: state.baseUrl, apiKey, maxRetries: 0, timeout: 240_000 });
const dir = mkdtempSync(join(tmpdir(), 'svc-files-e2e-'));

/** A batch input line of exactly `size` bytes (newline included). */
function fixedLine(index: number, size = 1024): string {
  const head = JSON.stringify({ custom_id: `req-${String(index).padStart(7, '0')}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: '' }] } });
  const pad = size - 1 - Buffer.byteLength(head);
  return `${head.replace('"content":""', `"content":"${'x'.repeat(pad)}"`)}\n`;
}

/** A file of `lines` lines of 1 KiB, written as a stream (never one string). */
async function writeLines(path: string, lines: number): Promise<void> {
  const out = createWriteStream(path);
  for (let index = 0; index < lines; index += 1) if (!out.write(fixedLine(index))) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

const line = (id: string) => `${JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'auto', messages: [{ role: 'user', content: `hi ${id}` }] } })}\n`;

/** A multipart body built by hand (fetch's FormData, but with control over order and parts). */
async function post(parts: Array<{ name: string; value: string; filename?: string }>, apiKey = state.apiKey): Promise<{ status: number; body: any; headers: Headers }> {
  const form = new FormData();
  for (const part of parts) {
    if (part.filename !== undefined) form.append(part.name, new Blob([part.value], { type: 'application/jsonl' }), part.filename);
    else form.append(part.name, part.value);
  }
  const response = await fetch(`${state.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

const envelope = (code: string, param: string | null, type = 'invalid_request_error') => ({ error: { message: expect.any(String), type, param, code } });

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('files through the official SDK', () => {
  it('uploads 100 MiB as a stream with flat memory in the batch service and the edge; 101 MiB is refused 413', async () => {
    const big = join(dir, 'big.jsonl');
    await writeLines(big, 100 * 1024);
    // A batch service and an edge of this test's own, so their memory is this upload's alone.
    const batchPort = await freePort();
    const batch: ChildProcess = spawn(process.execPath, [join(ROOT, 'services/batch/dist/main.js')], {
      env: { ...process.env, ...state.env, BATCH_HOST: '127.0.0.1', BATCH_PORT: String(batchPort), METRICS_PORT: '0', FILES_ENCRYPTION_KEY: state.env.FILES_ENCRYPTION_KEY! },
      stdio: 'ignore',
    });
    await waitForPort(batchPort, 20_000, () => batch.exitCode === null);
    const edge = await spawnEdge({ BATCH_ADDR: `127.0.0.1:${batchPort}`, CONVERSATIONS_ADDR: `127.0.0.1:${state.ports.conversations}` });
    try {
      const client = new OpenAI({ baseURL: edge.baseUrl, apiKey: state.apiKey, maxRetries: 0, timeout: 240_000 });
      // Warm both processes up (code paths, pools, the organization's data key, the heap at its
      // working size) with a 10 MiB upload, then measure the 100 MiB one: memory that grew with
      // the file would show there. The warm-up's own growth is logged too (a cold process grows
      // its heap once, whatever the size).
      const pids = { batch: batch.pid!, edge: edge.process.pid! };
      const warm = join(dir, 'warm.jsonl');
      await writeLines(warm, 10 * 1024);
      const cold = { batch: rssBytes(pids.batch), edge: rssBytes(pids.edge) };
      const warmed = await client.files.create({ file: createReadStream(warm), purpose: 'batch' });
      process.stdout.write(`files e2e: 10 MiB warm-up upload; RSS growth: batch ${((rssBytes(pids.batch) - cold.batch) / 1e6).toFixed(1)} MB, edge ${((rssBytes(pids.edge) - cold.edge) / 1e6).toFixed(1)} MB\n`);
      await client.files.delete(warmed.id);
      const baseline = { batch: rssBytes(pids.batch), edge: rssBytes(pids.edge) };
      const peak = { ...baseline };
      const sampler = setInterval(() => {
        peak.batch = Math.max(peak.batch, rssBytes(pids.batch));
        peak.edge = Math.max(peak.edge, rssBytes(pids.edge));
      }, 20);
      const started = Date.now();
      let file: OpenAI.FileObject;
      try {
        file = await client.files.create({ file: createReadStream(big), purpose: 'batch' });
      } finally {
        clearInterval(sampler);
      }
      const seconds = (Date.now() - started) / 1000;
      const growth = { batch_mb: (peak.batch - baseline.batch) / 1e6, edge_mb: (peak.edge - baseline.edge) / 1e6 };
      process.stdout.write(`files e2e: 100 MiB upload in ${seconds.toFixed(1)} s; RSS growth during it: batch ${growth.batch_mb.toFixed(1)} MB, edge ${growth.edge_mb.toFixed(1)} MB (baseline batch ${(baseline.batch / 1e6).toFixed(1)} MB, edge ${(baseline.edge / 1e6).toFixed(1)} MB)\n`);
      expect(file).toMatchObject({ object: 'file', bytes: 100 * MIB, filename: 'big.jsonl', purpose: 'batch', status: 'processed' });
      expect(growth.batch_mb).toBeLessThan(50);
      expect(growth.edge_mb).toBeLessThan(50);

      // The content streams back byte for byte.
      const response = await fetch(`${edge.baseUrl}/files/${file.id}/content`, { headers: { authorization: `Bearer ${state.apiKey}` } });
      expect(response.headers.get('content-length')).toBe(String(100 * MIB));
      let received = 0;
      const expected = readFileSync(big);
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        expect(Buffer.from(chunk).equals(expected.subarray(received, received + chunk.length))).toBe(true);
        received += chunk.length;
      }
      expect(received).toBe(100 * MIB);

      // One more MiB of lines: 413 file_too_large.
      const over = join(dir, 'over.jsonl');
      await writeLines(over, 101 * 1024);
      const refused = await client.files.create({ file: createReadStream(over), purpose: 'batch' }).then(() => undefined, (error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.APIError);
      expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
      expect((refused as InstanceType<typeof OpenAI.APIError>).error).toEqual({ message: expect.any(String), type: 'invalid_request_error', param: 'file', code: 'file_too_large' });
      await client.files.delete(file.id);
    } finally {
      await edge.stop();
      batch.kill('SIGTERM');
      await once(batch, 'exit');
    }
  });

  it('creates, lists, retrieves, reads and deletes; another organization gets 404', async () => {
    const client = sdk();
    const text = `${line('a')}${line('b')}${line('c')}`;
    const created = await client.files.create({ file: await toFile(Buffer.from(text), 'three.jsonl'), purpose: 'batch' });
    expect(created).toEqual({ id: expect.stringMatching(/^file_[0-9a-f]{32}$/), object: 'file', bytes: Buffer.byteLength(text), created_at: expect.any(Number), expires_at: created.created_at + 30 * 86_400, filename: 'three.jsonl', purpose: 'batch', status: 'processed' });
    const second = await client.files.create({ file: await toFile(Buffer.from(line('z')), 'one.jsonl'), purpose: 'batch', expires_after: { anchor: 'created_at', seconds: 3600 } });
    expect(second.expires_at! - second.created_at).toBe(3600);

    const listed: string[] = [];
    for await (const file of client.files.list({ purpose: 'batch' })) listed.push(file.id);
    expect(listed.indexOf(second.id)).toBeLessThan(listed.indexOf(created.id));
    expect(listed.indexOf(created.id)).toBeGreaterThanOrEqual(0);
    const page = await client.files.list({ limit: 1 });
    expect(page.data.map((file) => file.id)).toEqual([second.id]);
    expect(page.has_more).toBe(true);

    expect(await client.files.retrieve(created.id)).toEqual(created);
    expect(await (await client.files.content(created.id)).text()).toBe(text);

    const stranger = sdk(newOrganization().apiKey);
    for (const attempt of [stranger.files.retrieve(created.id), stranger.files.content(created.id), stranger.files.delete(created.id)]) {
      const error = await attempt.then(() => undefined, (failure: unknown) => failure);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({ code: 'not_found', type: 'invalid_request_error' });
    }
    expect((await stranger.files.list()).data).toEqual([]);

    expect(await client.files.delete(created.id)).toEqual({ id: created.id, object: 'file', deleted: true });
    const gone = await client.files.retrieve(created.id).then(() => undefined, (failure: unknown) => failure);
    expect(gone).toBeInstanceOf(OpenAI.NotFoundError);
    await client.files.delete(second.id);
  });

  it('refuses bad JSONL naming the 1-based line', async () => {
    const text = `${line('a')}${line('b')}${line('a')}`;
    const error = await sdk().files.create({ file: await toFile(Buffer.from(text), 'dup.jsonl'), purpose: 'batch' }).then(() => undefined, (failure: unknown) => failure);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toEqual({ message: 'Invalid file: line 3 repeats the custom_id "a" of line 1; each custom_id must be unique.', type: 'invalid_request_error', param: 'file', code: 'invalid_file' });
    const bad = await post([{ name: 'purpose', value: 'batch' }, { name: 'file', value: `${line('a')}not json\n${line('c')}`, filename: 'bad.jsonl' }]);
    expect([bad.status, bad.body]).toEqual([400, { error: { message: 'Invalid file: line 2 is not valid JSON.', type: 'invalid_request_error', param: 'file', code: 'invalid_file' } }]);
  });
});

describe('files over plain HTTP', () => {
  it('streams content with Content-Disposition naming the file, Content-Length and x-request-id', async () => {
    const text = line('only');
    const created = await post([{ name: 'file', value: text, filename: 'résumé v2.jsonl' }, { name: 'purpose', value: 'batch' }]);
    expect(created.status).toBe(200);
    expect(created.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(created.body.filename).toBe('résumé v2.jsonl');
    const response = await fetch(`${state.baseUrl}/files/${created.body.id}/content`, { headers: { authorization: `Bearer ${state.apiKey}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="r_sum_ v2.jsonl"; filename*=UTF-8''r%C3%A9sum%C3%A9%20v2.jsonl`);
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(await response.text()).toBe(text);
  });

  it.each([
    ['no file', [{ name: 'purpose', value: 'batch' }], 400, envelope('missing_field', 'file')],
    ['no purpose', [{ name: 'file', value: line('a'), filename: 'a.jsonl' }], 400, envelope('missing_field', 'purpose')],
    ['purpose other than batch', [{ name: 'purpose', value: 'fine-tune' }, { name: 'file', value: line('a'), filename: 'a.jsonl' }], 400, envelope('invalid_value', 'purpose')],
    ['purpose after the file, other than batch', [{ name: 'file', value: line('a'), filename: 'a.jsonl' }, { name: 'purpose', value: 'assistants' }], 400, envelope('invalid_value', 'purpose')],
    ['expires_after seconds too small', [{ name: 'purpose', value: 'batch' }, { name: 'expires_after[anchor]', value: 'created_at' }, { name: 'expires_after[seconds]', value: '3599' }, { name: 'file', value: line('a'), filename: 'a.jsonl' }], 400, envelope('invalid_value', 'expires_after[seconds]')],
    ['expires_after seconds too large', [{ name: 'purpose', value: 'batch' }, { name: 'expires_after[anchor]', value: 'created_at' }, { name: 'expires_after[seconds]', value: '2592001' }, { name: 'file', value: line('a'), filename: 'a.jsonl' }], 400, envelope('invalid_value', 'expires_after[seconds]')],
    ['expires_after anchor other than created_at', [{ name: 'purpose', value: 'batch' }, { name: 'expires_after[anchor]', value: 'last_active_at' }, { name: 'expires_after[seconds]', value: '3600' }, { name: 'file', value: line('a'), filename: 'a.jsonl' }], 400, envelope('invalid_value', 'expires_after[anchor]')],
    ['expires_after seconds without anchor', [{ name: 'purpose', value: 'batch' }, { name: 'expires_after[seconds]', value: '3600' }, { name: 'file', value: line('a'), filename: 'a.jsonl' }], 400, envelope('missing_field', 'expires_after[anchor]')],
  ])('%s: %p', async (_name, parts, status, body) => {
    const response = await post(parts);
    expect([response.status, response.body]).toEqual([status, body]);
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('400 invalid_multipart for a body that is not multipart or is cut short', async () => {
    const json = await fetch(`${state.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json' }, body: '{"purpose":"batch"}' });
    expect([json.status, await json.json()]).toEqual([400, envelope('invalid_multipart', null)]);
    const boundary = 'xyzzy';
    const cut = `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jsonl"\r\n\r\n${line('a')}`;
    const response = await fetch(`${state.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, body: cut });
    expect([response.status, await response.json()]).toEqual([400, envelope('invalid_multipart', null)]);
  });

  it('needs the chat scope and a key, like every /v1 route', async () => {
    const embeddingsOnly = admin<{ key: string }>('key', 'create', '--org', state.organizationId, '--scopes', 'embeddings');
    for (const [method, path] of [['GET', '/files'], ['POST', '/files'], ['GET', '/files/file_0123456789abcdef0123456789abcdef'], ['DELETE', '/files/file_0123456789abcdef0123456789abcdef'], ['GET', '/files/file_0123456789abcdef0123456789abcdef/content']]) {
      const refused = await fetch(`${state.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${embeddingsOnly.key}` } });
      expect([method, path, refused.status, await refused.json()]).toEqual([method, path, 403, envelope('insufficient_scope', null, 'permission_error')]);
    }
    const anonymous = await fetch(`${state.baseUrl}/files`);
    expect([anonymous.status, (await anonymous.json()).error.code]).toEqual([401, 'invalid_api_key']);
  });

  it('list: limit 1 to 10000, after a file id', async () => {
    for (const query of ['limit=0', 'limit=10001', 'limit=x', 'limit=1&limit=2']) {
      const response = await fetch(`${state.baseUrl}/files?${query}`, { headers: { authorization: `Bearer ${state.apiKey}` } });
      expect([query, response.status, await response.json()]).toEqual([query, 400, envelope('invalid_value', 'limit')]);
    }
    const badAfter = await fetch(`${state.baseUrl}/files?after=nope`, { headers: { authorization: `Bearer ${state.apiKey}` } });
    expect([badAfter.status, await badAfter.json()]).toEqual([400, envelope('invalid_value', 'after')]);
    const list = await fetch(`${state.baseUrl}/files?limit=10000`, { headers: { authorization: `Bearer ${state.apiKey}` } });
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ object: 'list', data: expect.any(Array), has_more: expect.any(Boolean) });
  });

  it('409 file_in_use while a batch that has not ended uses the file; deleted once it ends', async () => {
    const created = await post([{ name: 'purpose', value: 'batch' }, { name: 'file', value: line('a'), filename: 'in-use.jsonl' }]);
    const db = new Client({ connectionString: state.env.DATABASE_URL });
    await db.connect();
    const batchId = `batch_${randomBytes(16).toString('hex')}`;
    try {
      await db.query("INSERT INTO batch.batch (id, organization_id, key_id, input_file_id, status) VALUES ($1, $2, 'key_e2e', $3, 'validating')", [batchId, state.organizationId, created.body.id]);
      const refused = await fetch(`${state.baseUrl}/files/${created.body.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${state.apiKey}` } });
      expect([refused.status, await refused.json()]).toEqual([409, envelope('file_in_use', 'file_id')]);
      await db.query("UPDATE batch.batch SET status = 'completed' WHERE id = $1", [batchId]);
      const deleted = await fetch(`${state.baseUrl}/files/${created.body.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${state.apiKey}` } });
      expect([deleted.status, await deleted.json()]).toEqual([200, { id: created.body.id, object: 'file', deleted: true }]);
    } finally {
      await db.query('DELETE FROM batch.batch WHERE id = $1', [batchId]);
      await db.end();
    }
  });

  it('404 not_found in the envelope for unknown ids and odd paths', async () => {
    for (const path of ['/files/file_0123456789abcdef0123456789abcdef', '/files/nope', '/files/%E2%9C%93/content']) {
      const response = await fetch(`${state.baseUrl}${path}`, { headers: { authorization: `Bearer ${state.apiKey}` } });
      expect([path, response.status, await response.json()]).toEqual([path, 404, envelope('not_found', 'file_id')]);
    }
  });
});
