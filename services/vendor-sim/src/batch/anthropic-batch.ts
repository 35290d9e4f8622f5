import express, { type Express, type Request, type Response } from 'express';
import type { SimContext } from '../engine';
import { randomId } from '../hash';
import { header, parseJsonBody, sendError, sendJson } from '../http';
import { anthropicMessages, anthropicVendor, parseAnthropicRequest } from '../protocols/anthropic';
import { isRecord } from '../request';
import { BatchRun, batchOptionsOf, prepareLine, writeLine, type BatchStore, type RunPhase } from './run';

/**
 * Anthropic Message Batches: POST /v1/messages/batches ({requests: [{custom_id, params}]}),
 * GET /v1/messages/batches/{id}, GET /v1/messages/batches/{id}/results (JSONL, once ended),
 * POST /v1/messages/batches/{id}/cancel. Each line's params are checked as /v1/messages checks
 * them; a line that would be refused ends `errored`, as Anthropic validates lines asynchronously.
 */

const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const STATUS: Record<RunPhase, string> = { running: 'in_progress', cancelling: 'canceling', cancelled: 'ended', expired: 'ended', completed: 'ended', failed: 'ended' };
const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
const invalid = (res: Response, message: string) => sendError(res, anthropicVendor.error({ kind: 'invalid_request', message }));
const notFound = (res: Response, id: string) => sendError(res, anthropicVendor.error({ kind: 'not_found', message: `Message batch ${id} not found.` }));

function authorized(req: Request, res: Response): boolean {
  const problem = anthropicVendor.checkAuth(req);
  if (problem) sendError(res, anthropicVendor.error(problem));
  else if (!header(req, 'anthropic-version')) invalid(res, 'anthropic-version: header is required');
  return !problem && !!header(req, 'anthropic-version');
}

function batchObject(run: BatchRun, store: BatchStore, req: Request) {
  const now = store.now();
  const counts = run.counts(now);
  const phase = run.phase(now);
  const ended = run.endedAt(now);
  const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  return {
    id: run.id,
    type: 'message_batch',
    processing_status: STATUS[phase],
    request_counts: { processing: counts.processing, succeeded: counts.succeeded, errored: counts.errored, canceled: counts.cancelled, expired: counts.expired },
    ended_at: iso(ended),
    created_at: iso(run.created),
    expires_at: iso(run.expireAt),
    archived_at: null,
    cancel_initiated_at: iso(run.cancelAt),
    results_url: ended === undefined ? null : `${origin}/v1/messages/batches/${run.id}/results`,
  };
}

function find(store: BatchStore, id: string): BatchRun | undefined {
  const run = store.runs.get(id);
  return run && run.id.startsWith('msgbatch_') ? run : undefined;
}

export function mountAnthropicBatch(app: Express, ctx: SimContext, store: BatchStore): void {
  // Anthropic takes up to 256 MB of requests in one batch.
  const body = express.text({ type: () => true, limit: '256mb' });

  app.post('/v1/messages/batches', body, (req, res) => {
    if (!authorized(req, res)) return;
    const json = parseJsonBody(req);
    if (!json.ok) return sendError(res, anthropicVendor.error({ kind: 'invalid_json' }));
    const value = json.value;
    if (!isRecord(value)) return invalid(res, 'Input should be a valid dictionary or object to extract fields from');
    for (const field of Object.keys(value)) if (field !== 'requests') return invalid(res, `${field}: Extra inputs are not permitted`);
    if (!Array.isArray(value.requests)) return invalid(res, 'requests: Field required');
    if (value.requests.length === 0) return invalid(res, 'requests: List should have at least 1 item after validation, not 0');
    if (value.requests.length > 100_000) return invalid(res, 'requests: List should have at most 100000 items after validation');
    const options = batchOptionsOf(header(req, 'x-sim-batch'), store.defaults);
    if (typeof options === 'string') return invalid(res, options);
    if (options.fail) return invalid(res, 'requests: the batch was refused (x-sim-batch fail)');
    const version = header(req, 'anthropic-version');
    const seen = new Set<string>();
    const lines = [];
    for (const [i, item] of value.requests.entries()) {
      if (!isRecord(item)) return invalid(res, `requests.${i}: Input should be a valid dictionary`);
      if (typeof item.custom_id !== 'string' || !CUSTOM_ID.test(item.custom_id)) return invalid(res, `requests.${i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
      if (seen.has(item.custom_id)) return invalid(res, `Duplicate custom_id: ${item.custom_id}. Each request must have a unique custom_id.`);
      seen.add(item.custom_id);
      if (!isRecord(item.params)) return invalid(res, `requests.${i}.params: Field required`);
      if (item.params.stream === true) return invalid(res, `requests.${i}.params.stream: streaming is not supported in batches`);
      lines.push(prepareLine(item.custom_id, item.params, (params) => parseAnthropicRequest(params, version)));
    }
    const run = new BatchRun(`msgbatch_01${randomId(22)}`, lines, options, store.now());
    store.runs.set(run.id, run);
    sendJson(res, 200, batchObject(run, store, req));
  });

  app.get('/v1/messages/batches/:id', (req, res) => {
    if (!authorized(req, res)) return;
    const run = find(store, String(req.params.id));
    if (!run) return notFound(res, String(req.params.id));
    sendJson(res, 200, batchObject(run, store, req));
  });

  app.post('/v1/messages/batches/:id/cancel', (req, res) => {
    if (!authorized(req, res)) return;
    const run = find(store, String(req.params.id));
    if (!run) return notFound(res, String(req.params.id));
    // A batch that ended is returned as it is.
    run.cancel(store.now());
    sendJson(res, 200, batchObject(run, store, req));
  });

  app.get('/v1/messages/batches/:id/results', async (req, res) => {
    if (!authorized(req, res)) return;
    const run = find(store, String(req.params.id));
    if (!run) return notFound(res, String(req.params.id));
    const now = store.now();
    if (run.endedAt(now) === undefined) return invalid(res, `Message batch ${run.id} has not yet ended. Results are available once processing_status is ended.`);
    res.status(200).set({ 'content-type': 'application/binary', 'request-id': `req_011${randomId(21)}` });
    for (let i = 0; i < run.lines.length; i++) {
      if (res.destroyed) return;
      const outcome = run.outcome(i, now);
      const customId = run.lines[i]!.customId;
      let result: unknown;
      if (outcome === 'succeeded' || outcome === 'errored') {
        const answered = run.answer(i, anthropicMessages, { thinking: false }, ctx.cache);
        if (answered.ok) {
          const message = anthropicMessages.unary(answered.turn) as { usage: Record<string, unknown> };
          result = { type: 'succeeded', message: { ...message, usage: { ...message.usage, service_tier: 'batch' } } };
        } else result = { type: 'errored', error: answered.error.body };
      } else if (outcome === 'cancelled') result = { type: 'canceled' };
      else if (outcome === 'expired') result = { type: 'expired' };
      else continue;
      await writeLine(res, `${JSON.stringify({ custom_id: customId, result })}\n`);
    }
    res.end();
  });
}
