import { getJson, postJson, readJson, vendorRequest } from '../http';
import { VendorError } from '../errors';
import type { BatchSubmission, VendorBatchAdapter, VendorBatchHandle, VendorBatchResult, VendorBatchState, VendorBatchStatus } from '../batch-types';
import { ANTHROPIC_CUSTOM_ID, checkCustomId, readJsonLines } from '../batch/jsonl';
import type { CallContext } from '../types';
import { anthropicHeaders, parseAnthropicMessage } from './anthropic-chat-model';
import { anthropicErrorReason, refineAnthropicError } from './anthropic-error';
import { convertToAnthropicRequest } from './convert-to-anthropic-messages';

/**
 * Anthropic Message Batches: POST /v1/messages/batches with {requests: [{custom_id, params}]}
 * (the body streamed as the lines are read), GET /v1/messages/batches/{id}, the results as JSONL
 * at the batch's results_url, POST /v1/messages/batches/{id}/cancel.
 */

interface MessageBatch {
  id?: string;
  processing_status?: string;
  request_counts?: { processing?: number; succeeded?: number; errored?: number; canceled?: number; expired?: number };
  cancel_initiated_at?: string | null;
  results_url?: string | null;
}

const base = (context: CallContext) => `${context.baseUrl.replace(/\/$/, '')}/v1/messages/batches`;
// Lines may ask for 1-hour cache markers; the header that enables them is sent with every batch.
const headers = (context: CallContext) => anthropicHeaders({ cache: { ttl: '1h' } }, context);

async function* requestBody(submission: BatchSubmission): AsyncIterable<string> {
  const seen = new Set<string>();
  yield '{"requests":[';
  for await (const line of submission.lines) {
    checkCustomId(line.customId, seen, ANTHROPIC_CUSTOM_ID);
    yield `${seen.size > 1 ? ',' : ''}${JSON.stringify({ custom_id: line.customId, params: convertToAnthropicRequest(line.request, false) })}`;
  }
  if (seen.size === 0) throw new VendorError('invalid_request', 'a batch needs at least one line');
  yield ']}';
}

function stateOf(handle: VendorBatchHandle, batch: MessageBatch): VendorBatchState {
  const counts = batch.request_counts ?? {};
  const c = { succeeded: counts.succeeded ?? 0, errored: counts.errored ?? 0, processing: counts.processing ?? 0, cancelled: counts.canceled ?? 0, expired: counts.expired ?? 0 };
  let status: VendorBatchStatus;
  if (batch.processing_status === 'in_progress') status = 'in_progress';
  else if (batch.processing_status === 'canceling') status = 'cancelling';
  else if (batch.processing_status === 'ended') status = batch.cancel_initiated_at ? 'cancelled' : c.expired > 0 ? 'expired' : 'ended';
  else throw new VendorError('bad_response', `vendor batch has an unknown status "${String(batch.processing_status)}"`);
  return { handle, status, counts: { total: c.succeeded + c.errored + c.processing + c.cancelled + c.expired, ...c }, resultsReady: batch.processing_status === 'ended' };
}

/** An errored line's error: {type: 'error', error: {type, message}}, or the inner object alone. */
function lineError(raw: unknown): VendorError {
  const outer = raw as { type?: unknown; error?: { type?: unknown; message?: unknown } } | undefined;
  const inner = outer?.type === 'error' && outer.error ? outer.error : (outer as { type?: unknown; message?: unknown } | undefined);
  const type = typeof inner?.type === 'string' ? inner.type : '';
  const reason = anthropicErrorReason({ error: inner });
  switch (type) {
    case 'invalid_request_error':
    case 'not_found_error':
    case 'request_too_large':
      return new VendorError('invalid_request', 'vendor rejected the batch line', { reason });
    case 'authentication_error':
    case 'permission_error':
      return new VendorError('auth', 'vendor rejected the key for the batch line', { reason });
    case 'rate_limit_error':
      return new VendorError('rate_limited', 'vendor rate limited the batch line', { reason });
    case 'overloaded_error':
      return new VendorError('unavailable', 'vendor overloaded on the batch line', { reason });
    default:
      return new VendorError('server', 'vendor failed the batch line', { reason });
  }
}

export function anthropicBatchLine(raw: unknown): VendorBatchResult {
  const line = raw as { custom_id?: unknown; result?: { type?: string; message?: unknown; error?: unknown } };
  const customId = typeof line?.custom_id === 'string' ? line.custom_id : '';
  if (!customId) throw new VendorError('bad_response', 'vendor batch result line has no custom_id');
  switch (line.result?.type) {
    case 'succeeded':
      return { customId, outcome: 'succeeded', result: parseAnthropicMessage(line.result.message) };
    case 'errored':
      return { customId, outcome: 'errored', error: lineError(line.result.error) };
    case 'canceled':
      return { customId, outcome: 'cancelled' };
    case 'expired':
      return { customId, outcome: 'expired' };
    default:
      throw new VendorError('bad_response', `vendor batch result line has an unknown type "${String(line.result?.type)}"`);
  }
}

async function batchOf(handle: VendorBatchHandle, context: CallContext): Promise<MessageBatch> {
  try {
    return (await getJson(`${base(context)}/${encodeURIComponent(handle.id)}`, headers(context), context.signal, anthropicErrorReason)) as MessageBatch;
  } catch (error) {
    throw refineAnthropicError(error);
  }
}

export const anthropicBatchAdapter: VendorBatchAdapter = {
  specificationVersion: 'v1',
  protocol: 'anthropic',

  async submit(submission, context) {
    let created: MessageBatch;
    try {
      const response = await vendorRequest({ method: 'POST', url: base(context), body: requestBody(submission), headers: headers(context), signal: context.signal }, anthropicErrorReason);
      created = (await readJson(response, context.signal)) as MessageBatch;
    } catch (error) {
      throw refineAnthropicError(error);
    }
    if (typeof created?.id !== 'string') throw new VendorError('bad_response', 'vendor batch has no id');
    return { protocol: 'anthropic', id: created.id };
  },

  async poll(handle, context) {
    return stateOf(handle, await batchOf(handle, context));
  },

  async *results(handle, context) {
    const batch = await batchOf(handle, context);
    if (!stateOf(handle, batch).resultsReady || !batch.results_url) throw new VendorError('invalid_request', `vendor batch ${handle.id} has not ended`);
    const response = await vendorRequest({ method: 'GET', url: batch.results_url, headers: headers(context), signal: context.signal }, anthropicErrorReason);
    for await (const line of readJsonLines(response.body, context.signal)) yield anthropicBatchLine(line);
  },

  async cancel(handle, context) {
    try {
      const response = await postJson(`${base(context)}/${encodeURIComponent(handle.id)}/cancel`, {}, headers(context), context.signal, anthropicErrorReason);
      return stateOf(handle, (await readJson(response, context.signal)) as MessageBatch);
    } catch (error) {
      throw refineAnthropicError(error);
    }
  },
};
