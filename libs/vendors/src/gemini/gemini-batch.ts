import { getJson, postJson, readJson, vendorRequest } from '../http';
import { VendorError, errorFromStatus } from '../errors';
import type { BatchLine, BatchSubmission, VendorBatchAdapter, VendorBatchHandle, VendorBatchResult, VendorBatchState, VendorBatchStatus } from '../batch-types';
import { checkCustomId, readJsonLines } from '../batch/jsonl';
import type { CallContext } from '../types';
import { convertToGeminiRequest } from './convert-to-gemini-request';
import { geminiHeaders, parseGeminiResponse } from './gemini-chat-model';
import { geminiErrorReason, refineGeminiError } from './gemini-error';

/**
 * Gemini batch mode, inlined requests: POST /v1beta/models/{model}:batchGenerateContent with
 * {batch: {display_name, input_config: {requests: {requests: [{request, metadata: {key}}]}}}}
 * (the body streamed; Gemini takes up to 20 MB inlined, one model per batch), a long-running
 * operation `batches/{id}` polled with GET /v1beta/batches/{id}, cancelled with
 * POST /v1beta/batches/{id}:cancel. Results: the operation's inlined responses (read whole: they
 * answer at most 20 MB of requests) or, when the vendor wrote a responses file, that file's
 * JSONL read line by line.
 */

const STATES: Record<string, VendorBatchStatus> = {
  BATCH_STATE_PENDING: 'in_progress',
  BATCH_STATE_RUNNING: 'in_progress',
  BATCH_STATE_SUCCEEDED: 'ended',
  BATCH_STATE_FAILED: 'failed',
  BATCH_STATE_CANCELLED: 'cancelled',
  BATCH_STATE_EXPIRED: 'expired',
  JOB_STATE_PENDING: 'in_progress',
  JOB_STATE_RUNNING: 'in_progress',
  JOB_STATE_SUCCEEDED: 'ended',
  JOB_STATE_FAILED: 'failed',
  JOB_STATE_CANCELLED: 'cancelled',
  JOB_STATE_EXPIRED: 'expired',
};

interface BatchOutput {
  inlinedResponses?: { inlinedResponses?: unknown[] };
  responsesFile?: string;
}

interface GeminiBatch {
  state?: string;
  batchStats?: { requestCount?: string | number; successfulRequestCount?: string | number; failedRequestCount?: string | number; pendingRequestCount?: string | number };
  output?: BatchOutput;
}

interface Operation {
  name?: string;
  metadata?: GeminiBatch;
  done?: boolean;
  error?: { code?: number; message?: string };
  response?: BatchOutput;
}

const root = (context: CallContext) => context.baseUrl.replace(/\/$/, '');
const count = (value: string | number | undefined) => Number(value ?? 0) || 0;

async function* requestBody(submission: BatchSubmission, model: string): AsyncIterable<string> {
  const seen = new Set<string>();
  const name = submission.metadata?.display_name ?? submission.metadata?.name ?? 'svc-batch';
  yield `{"batch":{"display_name":${JSON.stringify(name)},"input_config":{"requests":{"requests":[`;
  for await (const line of submission.lines) {
    checkCustomId(line.customId, seen);
    if (line.request.model !== model) throw new VendorError('invalid_request', `a Gemini batch runs one model: ${model} and ${line.request.model} were given`);
    yield `${seen.size > 1 ? ',' : ''}${JSON.stringify({ request: convertToGeminiRequest(line.request), metadata: { key: line.customId } })}`;
  }
  if (seen.size === 0) throw new VendorError('invalid_request', 'a batch needs at least one line');
  yield ']}}}}';
}

/** The first line's model names the endpoint; the lines are read once, so the first is taken out ahead. */
async function firstAndRest(submission: BatchSubmission) {
  const { lines: source } = submission;
  const iterator: AsyncIterator<BatchLine> | Iterator<BatchLine> = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  const first = await iterator.next();
  if (first.done) throw new VendorError('invalid_request', 'a batch needs at least one line');
  async function* all() {
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { model: first.value.request.model, lines: all() };
}

function batchOf(operation: Operation): GeminiBatch & { output?: BatchOutput } {
  const metadata = operation.metadata ?? (operation as GeminiBatch);
  return { ...metadata, output: operation.response ?? metadata.output };
}

function stateOf(handle: VendorBatchHandle, operation: Operation): VendorBatchState {
  const batch = batchOf(operation);
  const status = STATES[batch.state ?? ''];
  if (!status) throw new VendorError('bad_response', `vendor batch has an unknown state "${String(batch.state)}"`);
  const stats = batch.batchStats ?? {};
  const total = count(stats.requestCount);
  const succeeded = count(stats.successfulRequestCount);
  const errored = count(stats.failedRequestCount);
  const left = Math.max(0, total - succeeded - errored);
  return {
    handle,
    status,
    counts: {
      total,
      succeeded,
      errored,
      processing: status === 'in_progress' ? left : 0,
      cancelled: status === 'cancelled' ? left : 0,
      expired: status === 'expired' ? left : 0,
    },
    resultsReady: status !== 'in_progress',
    ...(status === 'failed' ? { failure: (operation.error?.message ?? 'batch failed').slice(0, 300) } : {}),
  };
}

/** One inlined response or responses-file line: {response | error, metadata: {key}} or {key, response | error}. */
export function geminiBatchLine(raw: unknown): VendorBatchResult {
  const item = raw as { key?: unknown; metadata?: { key?: unknown }; response?: unknown; error?: { code?: number; message?: string; status?: string } };
  const key = item?.metadata?.key ?? item?.key;
  const customId = typeof key === 'string' ? key : '';
  if (!customId) throw new VendorError('bad_response', 'vendor batch result has no key');
  if (item.error) {
    const code = typeof item.error.code === 'number' && item.error.code >= 400 ? item.error.code : 500;
    return { customId, outcome: 'errored', error: errorFromStatus(code, geminiErrorReason({ error: item.error }), null) };
  }
  return { customId, outcome: 'succeeded', result: parseGeminiResponse(item.response) };
}

async function operationOf(handle: VendorBatchHandle, context: CallContext): Promise<Operation> {
  let body: unknown;
  try {
    return (await getJson(`${root(context)}/v1beta/${handle.id}`, geminiHeaders(context), context.signal, (value) => ((body = value), geminiErrorReason(value)))) as Operation;
  } catch (error) {
    throw refineGeminiError(error, body);
  }
}

export const geminiBatchAdapter: VendorBatchAdapter = {
  specificationVersion: 'v1',
  protocol: 'gemini',

  async submit(submission, context) {
    const { model, lines } = await firstAndRest(submission);
    let body: unknown;
    let created: Operation;
    try {
      const response = await vendorRequest(
        {
          method: 'POST',
          url: `${root(context)}/v1beta/models/${encodeURIComponent(model)}:batchGenerateContent`,
          body: requestBody({ ...submission, lines }, model),
          headers: geminiHeaders(context),
          signal: context.signal,
        },
        (value) => ((body = value), geminiErrorReason(value)),
      );
      created = (await readJson(response, context.signal)) as Operation;
    } catch (error) {
      throw refineGeminiError(error, body);
    }
    if (typeof created?.name !== 'string') throw new VendorError('bad_response', 'vendor batch has no name');
    return { protocol: 'gemini', id: created.name, model };
  },

  async poll(handle, context) {
    return stateOf(handle, await operationOf(handle, context));
  },

  async *results(handle, context) {
    const operation = await operationOf(handle, context);
    if (!stateOf(handle, operation).resultsReady) throw new VendorError('invalid_request', `vendor batch ${handle.id} is still running`);
    const output = batchOf(operation).output;
    for (const item of output?.inlinedResponses?.inlinedResponses ?? []) yield geminiBatchLine(item);
    if (output?.responsesFile) {
      const response = await vendorRequest({ method: 'GET', url: `${root(context)}/download/v1beta/${output.responsesFile}:download?alt=media`, headers: geminiHeaders(context), signal: context.signal }, geminiErrorReason);
      for await (const line of readJsonLines(response.body, context.signal)) yield geminiBatchLine(line);
    }
  },

  async cancel(handle, context) {
    let body: unknown;
    try {
      await postJson(`${root(context)}/v1beta/${handle.id}:cancel`, {}, geminiHeaders(context), context.signal, (value) => ((body = value), geminiErrorReason(value)));
    } catch (error) {
      throw refineGeminiError(error, body);
    }
    const state = await geminiBatchAdapter.poll(handle, context);
    // Gemini has no cancelling state: a batch still running after the cancel is stopping.
    return state.status === 'in_progress' ? { ...state, status: 'cancelling' } : state;
  },
};
