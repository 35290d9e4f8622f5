import { ServiceError } from '@svc/errors';
import { prepareOutputItem, type PreparedItem } from './items';

/** States of a response (spec: States and transitions). */
export const RESPONSE_STATUSES = ['queued', 'completed', 'incomplete', 'failed', 'cancelled'] as const;
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];
export const ENDED_STATUSES: readonly ResponseStatus[] = ['completed', 'incomplete', 'failed', 'cancelled'];
/** A response with one of these is a turn a conversation continues from (its "latest turn"). */
export const HEAD_STATUSES: readonly ResponseStatus[] = ['completed', 'incomplete'];

export type ResponseBody = Record<string, unknown> & { id: string; status: ResponseStatus; output: unknown[] };

export interface StoredId {
  index: number;
  previous_id: string;
  id: string;
}

export function isResponseStatus(value: unknown): value is ResponseStatus {
  return typeof value === 'string' && (RESPONSE_STATUSES as readonly string[]).includes(value);
}

/** The response object a caller sends: an object with this id, a known status and an output array. */
export function parseResponseBody(value: unknown, responseId: string): ResponseBody {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ServiceError('invalid_value', 'The response object must be a JSON object.', { param: 'response' });
  const body = { ...(value as Record<string, unknown>) };
  if (body.id === undefined) body.id = responseId;
  if (body.id !== responseId) throw new ServiceError('invalid_value', `The response object's id '${String(body.id)}' is not '${responseId}'.`, { param: 'response.id' });
  if (!isResponseStatus(body.status)) throw new ServiceError('invalid_value', `Invalid response status '${String(body.status)}'.`, { param: 'response.status' });
  if (body.output === undefined || body.output === null) body.output = [];
  if (!Array.isArray(body.output)) throw new ServiceError('invalid_value', 'The response object\'s output must be an array.', { param: 'response.output' });
  return body as ResponseBody;
}

/**
 * Stored ids for a response's output: every output item gets a new msg_ / fc_ id (the stream's
 * temporary ids msg_<resp>_<i> are replaced); the body is returned with the stored ids and the
 * conversation set, with the items to store and the id mapping.
 */
export function assignOutputIds(body: ResponseBody, conversationId: string): { body: ResponseBody; items: PreparedItem[]; storedIds: StoredId[] } {
  const items = body.output.map((raw, index) => prepareOutputItem(raw, index));
  const storedIds = body.output.map((raw, index) => {
    const previous = (raw as { id?: unknown }).id;
    return { index, previous_id: typeof previous === 'string' ? previous : '', id: items[index]!.item.id };
  });
  return { body: { ...body, output: items.map((prepared) => prepared.item), conversation: { id: conversationId } }, items, storedIds };
}

/**
 * GET /v1/responses/{id}: the stored object with max_output_tokens null, tools [], tool_choice
 * auto and parallel_tool_calls true (spec: Response object).
 */
export function getView(body: Record<string, unknown>): Record<string, unknown> {
  return { ...body, max_output_tokens: null, tools: [], tool_choice: 'auto', parallel_tool_calls: true };
}
