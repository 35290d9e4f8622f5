import { randomBytes } from 'node:crypto';
import { getJson, postJson, readJson, vendorRequest } from '../http';
import { VendorError, errorFromStatus } from '../errors';
import type { BatchSubmission, VendorBatchAdapter, VendorBatchHandle, VendorBatchResult, VendorBatchState, VendorBatchStatus } from '../batch-types';
import { checkCustomId, readJsonLines } from '../batch/jsonl';
import type { CallContext } from '../types';
import { convertToOpenAIRequest } from './convert-to-openai-request';
import { openAIErrorReason, openAIHeaders, openAIUrl, parseOpenAIChatCompletion } from './openai-chat-model';

/**
 * OpenAI Batch: the lines are uploaded as a JSONL file (POST /files, purpose `batch`; each line
 * {custom_id, method, url, body}), the batch is created on it (POST /batches, endpoint
 * /v1/chat/completions, window 24h), polled (GET /batches/{id}), and its output and error files
 * are read line by line (GET /files/{id}/content). Cancel: POST /batches/{id}/cancel.
 */

const ENDPOINT = '/v1/chat/completions';

interface OpenAIBatch {
  id?: string;
  status?: string;
  input_file_id?: string;
  output_file_id?: string | null;
  error_file_id?: string | null;
  request_counts?: { total?: number; completed?: number; failed?: number };
  errors?: { data?: Array<{ code?: string; message?: string; line?: number | null }> } | null;
}

const STATUS: Record<string, VendorBatchStatus> = {
  validating: 'in_progress',
  in_progress: 'in_progress',
  finalizing: 'in_progress',
  cancelling: 'cancelling',
  completed: 'ended',
  expired: 'expired',
  cancelled: 'cancelled',
  failed: 'failed',
};

/** The multipart upload, streamed: the JSONL is written as the lines are read. */
async function* multipartUpload(submission: BatchSubmission, boundary: string): AsyncIterable<string> {
  yield `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n`;
  yield `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="batch.jsonl"\r\nContent-Type: application/jsonl\r\n\r\n`;
  const seen = new Set<string>();
  for await (const line of submission.lines) {
    checkCustomId(line.customId, seen);
    yield `${JSON.stringify({ custom_id: line.customId, method: 'POST', url: ENDPOINT, body: convertToOpenAIRequest(line.request, false) })}\n`;
  }
  if (seen.size === 0) throw new VendorError('invalid_request', 'a batch needs at least one line');
  yield `\r\n--${boundary}--\r\n`;
}

function stateOf(handle: VendorBatchHandle, batch: OpenAIBatch): VendorBatchState {
  const status = STATUS[batch.status ?? ''];
  if (!status) throw new VendorError('bad_response', `vendor batch has an unknown status "${String(batch.status)}"`);
  const total = batch.request_counts?.total ?? 0;
  const succeeded = batch.request_counts?.completed ?? 0;
  const errored = batch.request_counts?.failed ?? 0;
  const left = Math.max(0, total - succeeded - errored);
  const failure = batch.errors?.data?.[0];
  return {
    handle,
    status,
    counts: {
      total,
      succeeded,
      errored,
      processing: status === 'in_progress' || status === 'cancelling' || status === 'ended' ? left : 0,
      cancelled: status === 'cancelled' ? left : 0,
      expired: status === 'expired' ? left : 0,
    },
    resultsReady: status !== 'in_progress' && status !== 'cancelling',
    ...(status === 'failed' ? { failure: (failure?.message ?? failure?.code ?? 'batch failed').slice(0, 300) } : {}),
  };
}

interface OutputLine {
  custom_id?: string;
  response?: { status_code?: number; body?: unknown } | null;
  error?: { code?: string; message?: string } | null;
}

export function openAIBatchLine(raw: unknown): VendorBatchResult {
  const line = raw as OutputLine;
  const customId = typeof line?.custom_id === 'string' ? line.custom_id : '';
  if (!customId) throw new VendorError('bad_response', 'vendor batch result line has no custom_id');
  if (line.error) {
    if (line.error.code === 'batch_expired') return { customId, outcome: 'expired' };
    if (line.error.code === 'batch_cancelled') return { customId, outcome: 'cancelled' };
  }
  const status = line.response?.status_code;
  if (status !== undefined && status >= 200 && status < 300) {
    // Batch is not a tier of a call: the line's own service_tier is not reported.
    const result = parseOpenAIChatCompletion(line.response?.body);
    return { customId, outcome: 'succeeded', result };
  }
  if (status !== undefined) return { customId, outcome: 'errored', error: errorFromStatus(status, openAIErrorReason(line.response?.body), null) };
  return { customId, outcome: 'errored', error: new VendorError('server', 'vendor batch line failed', { reason: (line.error?.message ?? line.error?.code)?.slice(0, 300) }) };
}

async function batchOf(handle: VendorBatchHandle, context: CallContext): Promise<OpenAIBatch> {
  return (await getJson(openAIUrl(context, `/batches/${encodeURIComponent(handle.id)}`), openAIHeaders(context), context.signal, openAIErrorReason)) as OpenAIBatch;
}

export const openAIBatchAdapter: VendorBatchAdapter = {
  specificationVersion: 'v1',
  protocol: 'openai',

  async submit(submission, context) {
    const boundary = `svc-batch-${randomBytes(12).toString('hex')}`;
    const upload = await vendorRequest(
      {
        method: 'POST',
        url: openAIUrl(context, '/files'),
        body: multipartUpload(submission, boundary),
        headers: { ...openAIHeaders(context), 'content-type': `multipart/form-data; boundary=${boundary}` },
        signal: context.signal,
      },
      openAIErrorReason,
    );
    const file = (await readJson(upload, context.signal)) as { id?: string };
    if (typeof file?.id !== 'string') throw new VendorError('bad_response', 'vendor file upload has no id');
    const payload: Record<string, unknown> = { input_file_id: file.id, endpoint: ENDPOINT, completion_window: '24h' };
    if (submission.metadata && Object.keys(submission.metadata).length > 0) payload.metadata = submission.metadata;
    const created = (await readJson(await postJson(openAIUrl(context, '/batches'), payload, openAIHeaders(context), context.signal, openAIErrorReason), context.signal)) as OpenAIBatch;
    if (typeof created?.id !== 'string') throw new VendorError('bad_response', 'vendor batch has no id');
    return { protocol: 'openai', id: created.id, inputFileId: file.id };
  },

  async poll(handle, context) {
    return stateOf(handle, await batchOf(handle, context));
  },

  async *results(handle, context) {
    const batch = await batchOf(handle, context);
    const state = stateOf(handle, batch);
    if (!state.resultsReady) throw new VendorError('invalid_request', `vendor batch ${handle.id} is still running`);
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (!fileId) continue;
      const response = await vendorRequest({ method: 'GET', url: openAIUrl(context, `/files/${encodeURIComponent(fileId)}/content`), headers: openAIHeaders(context), signal: context.signal }, openAIErrorReason);
      for await (const line of readJsonLines(response.body, context.signal)) yield openAIBatchLine(line);
    }
  },

  async cancel(handle, context) {
    const response = await postJson(openAIUrl(context, `/batches/${encodeURIComponent(handle.id)}/cancel`), {}, openAIHeaders(context), context.signal, openAIErrorReason);
    return stateOf(handle, (await readJson(response, context.signal)) as OpenAIBatch);
  },
};
