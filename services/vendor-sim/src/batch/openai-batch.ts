import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type { SimContext } from '../engine';
import { randomId } from '../hash';
import { header, parseJsonBody, sendError, sendJson } from '../http';
import { openaiChat, openaiVendor, parseOpenAIChat } from '../protocols/openai';
import { isRecord } from '../request';
import { boundaryOf, parseMultipart } from './multipart';
import { BatchRun, batchOptionsOf, prepareLine, writeLine, type BatchStore, type RunPhase, type SimFile } from './run';

/**
 * OpenAI Files and Batch: POST /v1/files (multipart, purpose `batch`), GET /v1/files/{id},
 * GET /v1/files/{id}/content, DELETE /v1/files/{id}; POST /v1/batches, GET /v1/batches/{id},
 * POST /v1/batches/{id}/cancel. Output and error files are rendered line by line when read.
 */

const ENDPOINTS = ['/v1/chat/completions'];
const STATUS: Record<RunPhase, string> = { running: 'in_progress', cancelling: 'cancelling', cancelled: 'cancelled', expired: 'expired', completed: 'completed', failed: 'failed' };

const seconds = (ms: number | undefined) => (ms === undefined ? null : Math.floor(ms / 1000));
const invalid = (res: Response, message: string, param: string | null = null, code: string | null = null) => sendError(res, openaiVendor.error({ kind: 'invalid_request', message, param, code }));
const notFound = (res: Response, message: string) => sendError(res, openaiVendor.error({ kind: 'not_found', message }));

function authorized(req: Request, res: Response): boolean {
  const problem = openaiVendor.checkAuth(req);
  if (problem) sendError(res, openaiVendor.error(problem));
  return !problem;
}

function fileObject(file: SimFile) {
  const bytes = file.kind === 'upload' ? file.bytes.length : 0;
  const purpose = file.kind === 'upload' ? file.purpose : 'batch_output';
  const filename = file.kind === 'upload' ? file.filename : `batch_${file.kind}.jsonl`;
  return { id: file.id, object: 'file', bytes, created_at: seconds(file.created), filename, purpose, status: 'processed', expires_at: null, status_details: null };
}

interface OpenAIRunMeta {
  inputFileId: string;
  endpoint: string;
  metadata: Record<string, string> | null;
  errors?: Array<{ code: string; message: string; param: string | null; line: number | null }>;
}

function outputFiles(run: BatchRun, store: BatchStore): { output: string | null; error: string | null } {
  const now = store.now();
  if (run.endedAt(now) === undefined) return { output: null, error: null };
  const counts = run.counts(now);
  const id = (kind: 'output' | 'error') => {
    const fileId = `file-${run.id.slice(6)}${kind === 'output' ? 'o' : 'e'}`;
    if (!store.files.has(fileId)) store.files.set(fileId, { id: fileId, kind, batchId: run.id, created: run.endedAt(now) ?? now });
    return fileId;
  };
  return {
    output: counts.succeeded > 0 ? id('output') : null,
    error: counts.errored + counts.cancelled + counts.expired > 0 ? id('error') : null,
  };
}

function batchObject(run: BatchRun, store: BatchStore) {
  const now = store.now();
  const meta = run.metadata as unknown as OpenAIRunMeta;
  const phase = run.phase(now);
  const counts = run.counts(now);
  const ended = run.endedAt(now);
  const files = outputFiles(run, store);
  return {
    id: run.id,
    object: 'batch',
    endpoint: meta.endpoint,
    model: (run.lines[0]?.parsed?.model ?? null) as string | null,
    errors: meta.errors ? { object: 'list', data: meta.errors } : null,
    input_file_id: meta.inputFileId,
    completion_window: '24h',
    status: STATUS[phase],
    output_file_id: files.output,
    error_file_id: files.error,
    created_at: seconds(run.created),
    in_progress_at: phase === 'failed' ? null : seconds(run.created),
    expires_at: seconds(run.expireAt),
    finalizing_at: phase === 'completed' || phase === 'expired' ? seconds(ended) : null,
    completed_at: phase === 'completed' ? seconds(ended) : null,
    failed_at: phase === 'failed' ? seconds(ended) : null,
    expired_at: phase === 'expired' ? seconds(ended) : null,
    cancelling_at: seconds(run.cancelAt),
    cancelled_at: phase === 'cancelled' ? seconds(ended) : null,
    request_counts: { total: phase === 'failed' ? 0 : counts.total, completed: counts.succeeded, failed: counts.errored },
    metadata: meta.metadata,
  };
}

/** The upload's lines, checked as OpenAI validates a batch input file. */
function readInput(bytes: Buffer, endpoint: string): { lines: Array<{ customId: string; body: unknown }>; errors: OpenAIRunMeta['errors'] } {
  const lines: Array<{ customId: string; body: unknown }> = [];
  const errors: NonNullable<OpenAIRunMeta['errors']> = [];
  const seen = new Set<string>();
  bytes
    .toString('utf8')
    .split('\n')
    .forEach((text, i) => {
      if (text.trim() === '') return;
      const line = i + 1;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        errors.push({ code: 'invalid_json_line', message: 'This line is not parseable as valid JSON.', param: null, line });
        return;
      }
      if (!isRecord(value) || typeof value.custom_id !== 'string') return void errors.push({ code: 'missing_required_parameter', message: "Missing required parameter: 'custom_id'.", param: 'custom_id', line });
      if (seen.has(value.custom_id)) return void errors.push({ code: 'duplicate_custom_id', message: 'The custom_id for this request is a duplicate of another request. The custom_id parameter must be unique for each request in a batch.', param: 'custom_id', line });
      seen.add(value.custom_id);
      if (value.method !== 'POST') return void errors.push({ code: 'invalid_method', message: "Invalid value for 'method': only POST is supported.", param: 'method', line });
      if (value.url !== endpoint) return void errors.push({ code: 'mismatched_endpoint', message: `The provided URL '${String(value.url)}' does not match the batch endpoint '${endpoint}'.`, param: 'url', line });
      if (!isRecord(value.body)) return void errors.push({ code: 'missing_required_parameter', message: "Missing required parameter: 'body'.", param: 'body', line });
      lines.push({ customId: value.custom_id, body: value.body });
    });
  if (lines.length === 0 && errors.length === 0) errors.push({ code: 'empty_file', message: 'The batch input file is empty.', param: null, line: null });
  return { lines, errors: errors.length > 0 ? errors.slice(0, 20) : undefined };
}

async function writeFileContent(res: Response, file: Extract<SimFile, { kind: 'output' | 'error' }>, ctx: SimContext, store: BatchStore): Promise<void> {
  const run = store.runs.get(file.batchId);
  res.status(200).set({ 'content-type': 'application/octet-stream' });
  if (!run) return void res.end();
  const now = store.now();
  for (let i = 0; i < run.lines.length; i++) {
    if (res.destroyed) return;
    const outcome = run.outcome(i, now);
    const line = run.lines[i]!;
    const id = `batch_req_${randomId(32)}`;
    let out: unknown;
    if (outcome === 'succeeded' && file.kind === 'output') {
      const result = run.answer(i, openaiChat, { includeUsage: false }, ctx.cache);
      if (!result.ok) continue;
      out = { id, custom_id: line.customId, response: { status_code: 200, request_id: randomId(32), body: { ...(openaiChat.unary(result.turn) as object), service_tier: 'batch' } }, error: null };
    } else if (outcome === 'errored' && file.kind === 'error') {
      const result = run.answer(i, openaiChat, { includeUsage: false }, ctx.cache);
      if (result.ok) continue;
      out = { id, custom_id: line.customId, response: { status_code: result.error.status, request_id: randomId(32), body: result.error.body }, error: null };
    } else if ((outcome === 'cancelled' || outcome === 'expired') && file.kind === 'error') {
      const message = outcome === 'expired' ? 'This request could not be executed before the completion window expired.' : 'This request was not executed because the batch was cancelled.';
      out = { id, custom_id: line.customId, response: null, error: { code: outcome === 'expired' ? 'batch_expired' : 'batch_cancelled', message } };
    } else continue;
    await writeLine(res, `${JSON.stringify(out)}\n`);
  }
  res.end();
}

export function mountOpenAIBatch(app: Express, ctx: SimContext, store: BatchStore, jsonBody: RequestHandler): void {
  const raw = express.raw({ type: () => true, limit: '256mb' });

  app.post('/v1/files', raw, (req, res) => {
    if (!authorized(req, res)) return;
    const boundary = boundaryOf(header(req, 'content-type'));
    const parts = boundary && Buffer.isBuffer(req.body) ? parseMultipart(req.body, boundary) : undefined;
    if (!parts) return invalid(res, 'Invalid multipart form: expected multipart/form-data with a file and a purpose.');
    const purpose = parts.find((part) => part.name === 'purpose')?.data.toString('utf8').trim();
    const file = parts.find((part) => part.name === 'file');
    if (!file) return invalid(res, "Missing required parameter: 'file'.", 'file', 'missing_required_parameter');
    if (!purpose) return invalid(res, "Missing required parameter: 'purpose'.", 'purpose', 'missing_required_parameter');
    if (!['batch', 'assistants', 'fine-tune', 'vision', 'user_data', 'evals'].includes(purpose)) return invalid(res, `Invalid value for 'purpose': '${purpose}'.`, 'purpose', 'invalid_value');
    const id = `file-${randomId(22)}`;
    const stored: SimFile = { id, kind: 'upload', bytes: Buffer.from(file.data), filename: file.filename ?? 'upload', purpose, created: store.now() };
    store.files.set(id, stored);
    sendJson(res, 200, fileObject(stored));
  });

  app.get('/v1/files/:id', (req, res) => {
    if (!authorized(req, res)) return;
    const file = store.files.get(String(req.params.id));
    if (!file) return notFound(res, `No such File object: ${String(req.params.id)}`);
    sendJson(res, 200, fileObject(file));
  });

  app.delete('/v1/files/:id', (req, res) => {
    if (!authorized(req, res)) return;
    const id = String(req.params.id);
    if (!store.files.delete(id)) return notFound(res, `No such File object: ${id}`);
    sendJson(res, 200, { id, object: 'file', deleted: true });
  });

  app.get('/v1/files/:id/content', async (req, res) => {
    if (!authorized(req, res)) return;
    const file = store.files.get(String(req.params.id));
    if (!file) return notFound(res, `No such File object: ${String(req.params.id)}`);
    if (file.kind === 'upload') return void res.status(200).type('application/octet-stream').send(file.bytes);
    await writeFileContent(res, file, ctx, store);
  });

  app.post('/v1/batches', jsonBody, (req, res) => {
    if (!authorized(req, res)) return;
    const json = parseJsonBody(req);
    if (!json.ok || !isRecord(json.value)) return sendError(res, openaiVendor.error({ kind: 'invalid_json' }));
    const body = json.value;
    if (typeof body.input_file_id !== 'string') return invalid(res, "Missing required parameter: 'input_file_id'.", 'input_file_id', 'missing_required_parameter');
    if (typeof body.endpoint !== 'string' || !ENDPOINTS.includes(body.endpoint)) return invalid(res, `Invalid value for 'endpoint': '${String(body.endpoint)}'.`, 'endpoint', 'invalid_value');
    if (body.completion_window !== '24h') return invalid(res, `Invalid value for 'completion_window': '${String(body.completion_window)}'. Supported values are: '24h'.`, 'completion_window', 'invalid_value');
    const input = store.files.get(body.input_file_id);
    if (!input || input.kind !== 'upload') return notFound(res, `No such File object: ${body.input_file_id}`);
    if (input.purpose !== 'batch') return invalid(res, `The file ${body.input_file_id} does not have purpose 'batch'.`, 'input_file_id', 'invalid_value');
    const options = batchOptionsOf(header(req, 'x-sim-batch'), store.defaults);
    if (typeof options === 'string') return invalid(res, options);
    const { lines, errors } = readInput(input.bytes, body.endpoint);
    const prepared = errors ? [] : lines.map((line) => prepareLine(line.customId, line.body, (value) => ({ request: parseOpenAIChat(value).request })));
    const meta: OpenAIRunMeta = { inputFileId: input.id, endpoint: body.endpoint, metadata: isRecord(body.metadata) ? (body.metadata as Record<string, string>) : null };
    if (errors || options.fail) meta.errors = errors ?? [{ code: 'invalid_request', message: 'The batch was refused at validation.', param: null, line: null }];
    const run = new BatchRun(`batch_${randomId(32)}`, prepared, { ...options, fail: options.fail || !!errors }, store.now(), meta as unknown as Record<string, unknown>);
    store.runs.set(run.id, run);
    sendJson(res, 200, batchObject(run, store));
  });

  app.get('/v1/batches/:id', (req, res) => {
    if (!authorized(req, res)) return;
    const run = store.runs.get(String(req.params.id));
    if (!run || !run.id.startsWith('batch_')) return notFound(res, `No batch found with id '${String(req.params.id)}'.`);
    sendJson(res, 200, batchObject(run, store));
  });

  app.post('/v1/batches/:id/cancel', (req, res) => {
    if (!authorized(req, res)) return;
    const run = store.runs.get(String(req.params.id));
    if (!run || !run.id.startsWith('batch_')) return notFound(res, `No batch found with id '${String(req.params.id)}'.`);
    const phase = run.phase(store.now());
    if (phase !== 'running' && phase !== 'cancelling') return sendJson(res, 409, { error: { message: `Cannot cancel a batch with status '${STATUS[phase]}'.`, type: 'invalid_request_error', param: null, code: null } });
    run.cancel(store.now());
    sendJson(res, 200, batchObject(run, store));
  });
}
