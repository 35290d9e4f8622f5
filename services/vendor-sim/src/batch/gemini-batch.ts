import express, { type Express, type Request, type Response } from 'express';
import type { SimContext } from '../engine';
import { randomId } from '../hash';
import { header, parseJsonBody, sendError, sendJson } from '../http';
import { geminiGenerate, geminiVendor, parseGeminiRequest } from '../protocols/gemini';
import { isRecord } from '../request';
import { BatchRun, batchOptionsOf, prepareLine, type BatchStore, type RunPhase } from './run';

/**
 * Gemini batch mode with inlined requests: POST /v1beta/models/{model}:batchGenerateContent
 * ({batch: {display_name, input_config: {requests: {requests: [{request, metadata: {key}}]}}}})
 * answers a long-running operation named `batches/{id}`; GET /v1beta/batches/{id} polls it, and
 * once done its response carries the inlined responses (the lines that ran, in input order);
 * POST /v1beta/batches/{id}:cancel. Input files (input_config.file_name) are not simulated.
 */

export const GEMINI_BATCH_ROUTE = /^\/(?:v1beta|v1)\/models\/([^/]+):batchGenerateContent$/;
// Only under v1beta: /v1/batches/{id} is OpenAI's.
const CANCEL_ROUTE = /^\/v1beta\/batches\/([^/:]+):cancel$/;
const GET_ROUTE = /^\/v1beta\/batches\/([^/:]+)$/;

const STATE: Record<RunPhase, string> = {
  running: 'BATCH_STATE_RUNNING',
  cancelling: 'BATCH_STATE_RUNNING',
  cancelled: 'BATCH_STATE_CANCELLED',
  expired: 'BATCH_STATE_EXPIRED',
  completed: 'BATCH_STATE_SUCCEEDED',
  failed: 'BATCH_STATE_FAILED',
};
const TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1beta';
const iso = (ms: number) => new Date(ms).toISOString();
const invalid = (res: Response, message: string) => sendError(res, geminiVendor.error({ kind: 'invalid_request', message }));
const field = (body: Record<string, unknown>, camel: string) => body[camel] ?? body[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];

function authorized(req: Request, res: Response): boolean {
  const problem = geminiVendor.checkAuth(req);
  if (problem) sendError(res, geminiVendor.error(problem));
  return !problem;
}

function operation(run: BatchRun, store: BatchStore, ctx: SimContext) {
  const now = store.now();
  const phase = run.phase(now);
  const counts = run.counts(now);
  const ended = run.endedAt(now);
  const model = String(run.metadata.model);
  const metadata = {
    '@type': `${TYPE}.GenerateContentBatch`,
    model: `models/${model}`,
    displayName: String(run.metadata.displayName ?? ''),
    createTime: iso(run.created),
    updateTime: iso(Math.min(now, ended ?? now)),
    ...(ended !== undefined ? { endTime: iso(ended) } : {}),
    batchStats: {
      requestCount: String(counts.total),
      successfulRequestCount: String(counts.succeeded),
      failedRequestCount: String(counts.errored),
      pendingRequestCount: String(counts.processing),
    },
    state: STATE[phase],
    name: run.id,
  };
  const out: Record<string, unknown> = { name: run.id, metadata };
  if (ended === undefined) return out;
  out.done = true;
  if (phase === 'failed') {
    out.error = { code: 3, message: 'The batch was refused at validation.' };
    return out;
  }
  const inlined: unknown[] = [];
  for (let i = 0; i < run.lines.length; i++) {
    const outcome = run.outcome(i, now);
    if (outcome !== 'succeeded' && outcome !== 'errored') continue;
    const answered = run.answer(i, geminiGenerate, { includeThoughts: false, sse: false }, ctx.cache);
    const key = { key: run.lines[i]!.customId };
    inlined.push(answered.ok ? { response: geminiGenerate.unary(answered.turn), metadata: key } : { error: (answered.error.body as { error: unknown }).error, metadata: key });
  }
  out.response = { '@type': `${TYPE}.GenerateContentBatchOutput`, inlinedResponses: { inlinedResponses: inlined } };
  return out;
}

const find = (store: BatchStore, id: string): BatchRun | undefined => store.runs.get(`batches/${id}`);

export function mountGeminiBatch(app: Express, ctx: SimContext, store: BatchStore): void {
  const body = express.text({ type: () => true, limit: '64mb' });

  app.post(GEMINI_BATCH_ROUTE, body, (req, res) => {
    if (!authorized(req, res)) return;
    const model = decodeURIComponent(GEMINI_BATCH_ROUTE.exec(req.path)?.[1] ?? '');
    const json = parseJsonBody(req);
    if (!json.ok) return sendError(res, geminiVendor.error({ kind: 'invalid_json' }));
    const batch = isRecord(json.value) ? json.value.batch : undefined;
    if (!isRecord(batch)) return invalid(res, '* BatchGenerateContentRequest.batch: batch is required\n');
    const input = field(batch, 'inputConfig');
    if (!isRecord(input)) return invalid(res, '* GenerateContentBatch.input_config: input_config is required\n');
    if (field(input, 'fileName') !== undefined) return invalid(res, 'input_config.file_name: input files are not supported by this simulator; send inlined requests');
    const requests = isRecord(input.requests) ? input.requests.requests : undefined;
    if (!Array.isArray(requests) || requests.length === 0) return invalid(res, '* GenerateContentBatch.input_config.requests: requests must not be empty\n');
    const options = batchOptionsOf(header(req, 'x-sim-batch'), store.defaults);
    if (typeof options === 'string') return invalid(res, options);
    const lines = [];
    for (const [i, item] of requests.entries()) {
      if (!isRecord(item) || !isRecord(item.request)) return invalid(res, `* GenerateContentBatch.input_config.requests.requests[${i}].request: request is required\n`);
      const key = isRecord(item.metadata) && typeof item.metadata.key === 'string' ? item.metadata.key : String(i);
      const { model: _ignored, ...request } = item.request;
      lines.push(prepareLine(key, request, (value) => parseGeminiRequest(value, model, false, false)));
    }
    const run = new BatchRun(`batches/${randomId(24).toLowerCase()}`, lines, options, store.now(), { model, displayName: field(batch, 'displayName') });
    store.runs.set(run.id, run);
    sendJson(res, 200, operation(run, store, ctx));
  });

  app.get(GET_ROUTE, (req, res) => {
    if (!authorized(req, res)) return;
    const id = GET_ROUTE.exec(req.path)?.[1] ?? '';
    const run = find(store, id);
    if (!run) return sendError(res, geminiVendor.error({ kind: 'not_found', message: `Batch batches/${id} not found.` }));
    sendJson(res, 200, operation(run, store, ctx));
  });

  app.post(CANCEL_ROUTE, body, (req, res) => {
    if (!authorized(req, res)) return;
    const id = CANCEL_ROUTE.exec(req.path)?.[1] ?? '';
    const run = find(store, id);
    if (!run) return sendError(res, geminiVendor.error({ kind: 'not_found', message: `Batch batches/${id} not found.` }));
    const phase = run.phase(store.now());
    if (phase !== 'running' && phase !== 'cancelling') return sendError(res, geminiVendor.error({ kind: 'status', status: 400 }));
    run.cancel(store.now());
    sendJson(res, 200, {});
  });
}
