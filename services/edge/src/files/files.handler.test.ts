import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ServiceError, internalError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import type { BatchClient, FileObject, FileUpload } from '@svc/backends';
import { errorHandler } from '../middleware/errors';
import { contentDisposition, fileHandlers } from './files.handler';
import { listenLocal, type LocalServer } from '../listen.test-support';

/** A batch client in memory: records what each upload received; behaviour set per test. */
interface Recorded {
  start: { organization_id: string; filename: string; organization_retention_days: number };
  chunks: Buffer[];
  finish?: { purpose: string; expires_after_seconds?: number };
  cancelled: boolean;
}
let uploads: Recorded[] = [];
let refuseAfterBytes: number | undefined;
let contentParts: Array<Buffer | Error> = [];
const errors: Array<{ message: string; meta: unknown }> = [];

const FILE: FileObject = { id: 'file_0123456789abcdef0123456789abcdef', object: 'file', bytes: 0, created_at: 1, expires_at: 2, filename: 'a.jsonl', purpose: 'batch', status: 'processed' };

function fakeUpload(start: Recorded['start']): FileUpload {
  const record: Recorded = { start, chunks: [], cancelled: false };
  uploads.push(record);
  let answered = false;
  let settle!: { resolve: (file: FileObject) => void; reject: (error: ServiceError) => void };
  const result = new Promise<FileObject>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => undefined);
  let received = 0;
  return {
    get answered() {
      return answered;
    },
    result,
    async write(data) {
      if (answered) return;
      record.chunks.push(Buffer.from(data));
      received += data.length;
      if (refuseAfterBytes !== undefined && received >= refuseAfterBytes) {
        answered = true;
        settle.reject(new ServiceError('invalid_file', 'Invalid file: line 2 is not valid JSON.', { param: 'file' }));
      }
    },
    finish(fields) {
      if (!answered) {
        record.finish = fields;
        answered = true;
        settle.resolve({ ...FILE, bytes: received, filename: start.filename });
      }
      return result;
    },
    cancel() {
      record.cancelled = true;
      if (!answered) {
        answered = true;
        settle.reject(new ServiceError('invalid_multipart', 'cancelled'));
      }
    },
  };
}

const batch: BatchClient = {
  uploadFile: fakeUpload,
  getFile: async () => FILE,
  listFiles: async () => ({ object: 'list', data: [], first_id: null, last_id: null, has_more: false }),
  deleteFile: async (query) => ({ id: query.file_id, object: 'file', deleted: true }),
  fileContent: async () => {
    if (contentParts[0] instanceof Error && contentParts.length === 1) throw contentParts[0];
    async function* body() {
      for (const part of contentParts) {
        if (part instanceof Error) throw part;
        yield part;
      }
    }
    return { filename: 'ü "x".jsonl', bytes: contentParts.reduce((sum, part) => sum + (part instanceof Error ? 0 : part.length), 0) + 10, body: body(), cancel: () => undefined };
  },
  close: () => undefined,
};

const logger = { error: (message: string, meta: unknown) => errors.push({ message, meta }), warn: () => undefined, info: () => undefined, debug: () => undefined } as unknown as Logger;
let local: LocalServer;
let base = '';

beforeAll(async () => {
  const app = express();
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.locals.key = { organization_id: 'org_1', scopes: ['chat'] };
    res.locals.requestId = 'req_test';
    next();
  });
  const files = fileHandlers({ batch, retentionDays: 30, logger });
  const handle = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => void fn(req, res).catch(next);
  app.post('/v1/files', handle(files.upload));
  app.get('/v1/files/:id/content', handle(files.content));
  app.use(errorHandler(logger));
  local = await listenLocal(app);
  base = local.base;
});

afterAll(() => local.close());

beforeEach(() => {
  uploads = [];
  refuseAfterBytes = undefined;
  contentParts = [];
  errors.length = 0;
});

function multipart(parts: Array<{ name: string; value: string | Buffer; filename?: string }>, boundary = 'b0undary'): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

async function upload(body: Buffer, contentType = 'multipart/form-data; boundary=b0undary'): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}/v1/files`, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { status: response.status, body: await response.json() };
}

describe('POST /v1/files (multipart read as a stream)', () => {
  it.each([
    ['fields first', (file: Buffer) => [{ name: 'purpose', value: 'batch' }, { name: 'expires_after[anchor]', value: 'created_at' }, { name: 'expires_after[seconds]', value: '7200' }, { name: 'file', value: file, filename: 'ü.jsonl' }]],
    ['fields after the file', (file: Buffer) => [{ name: 'file', value: file, filename: 'ü.jsonl' }, { name: 'expires_after[seconds]', value: '7200' }, { name: 'purpose', value: 'batch' }, { name: 'expires_after[anchor]', value: 'created_at' }]],
  ])('passes every byte in order and commits at the end (%s)', async (_name, parts) => {
    const file = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
    const answer = await upload(multipart(parts(file)));
    expect(answer).toEqual({ status: 200, body: { ...FILE, bytes: file.length, filename: 'ü.jsonl' } });
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.start).toEqual({ organization_id: 'org_1', filename: 'ü.jsonl', organization_retention_days: 30 });
    expect(Buffer.concat(uploads[0]!.chunks).equals(file)).toBe(true);
    expect(uploads[0]!.finish).toEqual({ purpose: 'batch', expires_after_seconds: 7200 });
  });

  it('answers the batch service refusal once the rest of the body was read, and sends nothing more', async () => {
    refuseAfterBytes = 1;
    const file = Buffer.alloc(3 * 1024 * 1024, 0x61);
    const answer = await upload(multipart([{ name: 'purpose', value: 'batch' }, { name: 'file', value: file, filename: 'a.jsonl' }]));
    expect(answer).toEqual({ status: 400, body: { error: { message: 'Invalid file: line 2 is not valid JSON.', type: 'invalid_request_error', param: 'file', code: 'invalid_file' } } });
    expect(Buffer.concat(uploads[0]!.chunks).length).toBeLessThan(file.length);
    expect(uploads[0]!.finish).toBeUndefined();
  });

  it('a bad field before the file refuses without opening an upload', async () => {
    const answer = await upload(multipart([{ name: 'purpose', value: 'assistants' }, { name: 'file', value: 'x', filename: 'a.jsonl' }]));
    expect([answer.status, answer.body.error.code, answer.body.error.param]).toEqual([400, 'invalid_value', 'purpose']);
    expect(uploads).toEqual([]);
  });

  it('a bad field after the file cancels the upload', async () => {
    const answer = await upload(multipart([{ name: 'file', value: 'x', filename: 'a.jsonl' }, { name: 'purpose', value: 'assistants' }]));
    expect([answer.status, answer.body.error.code]).toEqual([400, 'invalid_value']);
    expect(uploads[0]!.cancelled).toBe(true);
    expect(uploads[0]!.finish).toBeUndefined();
  });

  it('two file parts are invalid_multipart; a part with an empty filename (a form with no file chosen) is no file', async () => {
    const two = await upload(multipart([{ name: 'purpose', value: 'batch' }, { name: 'file', value: 'x', filename: 'a' }, { name: 'file', value: 'y', filename: 'b' }]));
    expect([two.status, two.body.error.code]).toEqual([400, 'invalid_multipart']);
    uploads = [];
    const unnamed = await upload(multipart([{ name: 'purpose', value: 'batch' }, { name: 'file', value: 'x', filename: '' }]));
    expect([unnamed.status, unnamed.body.error.code, unnamed.body.error.param, uploads]).toEqual([400, 'missing_field', 'file', []]);
  });

  it('a declared body far past the limit is refused at once with connection: close', async () => {
    const status = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const request = httpRequest(`${base}/v1/files`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(200 * 1024 * 1024) } }, (response) => {
        response.resume();
        resolve({ status: response.statusCode!, connection: response.headers.connection });
      });
      request.on('error', reject);
      request.write('--x\r\n');
    });
    expect(status).toEqual({ status: 413, connection: 'close' });
  });

  it('the client going away mid-upload cancels it', async () => {
    // A raw socket: an http.request could be held by an HTTP interceptor another test file installed.
    const socket = connect(local.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`POST /v1/files HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b0undary\r\nContent-Length: 100000\r\n\r\n--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n${'x'.repeat(1000)}`);
    // Once the upload has begun (however busy the machine), the client goes away.
    for (let attempt = 0; attempt < 200 && !uploads[0]; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    socket.destroy();
    for (let attempt = 0; attempt < 200 && !uploads[0]?.cancelled; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(uploads[0]!.cancelled).toBe(true);
  }, 15_000);
});

describe('GET /v1/files/{id}/content', () => {
  it('a failure before the first byte is the envelope; after it, the connection is cut and logged at error level', async () => {
    contentParts = [internalError(new Error('chunk 0 missing'))];
    const before = await fetch(`${base}/v1/files/file_x/content`);
    expect([before.status, (await before.json()).error.code]).toEqual([500, 'internal_error']);
    expect(errors.map((entry) => entry.message)).toEqual(['request failed']);

    errors.length = 0;
    contentParts = [Buffer.from('abc'), internalError(new Error('chunk 1 altered'))];
    // The client sees a cut transfer (before or after the headers, depending on what was flushed), never a complete one.
    const outcome = await fetch(`${base}/v1/files/file_x/content`).then((response) => response.text()).then(() => 'complete', () => 'cut');
    expect(outcome).toBe('cut');
    expect(errors.map((entry) => entry.message)).toEqual(['file content failed after its first byte; connection cut']);
  });
});

describe('contentDisposition', () => {
  it('an ASCII stand-in and the exact name, for any filename', () => {
    expect(contentDisposition('input.jsonl')).toBe(`attachment; filename="input.jsonl"; filename*=UTF-8''input.jsonl`);
    expect(contentDisposition('a "b"\r\n\\c ü(1)*.jsonl')).toBe(`attachment; filename="a _b____c _(1)*.jsonl"; filename*=UTF-8''a%20%22b%22%0D%0A%5Cc%20%C3%BC%281%29%2A.jsonl`);
  });
});
