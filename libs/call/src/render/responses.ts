import type { ChatResult, Usage } from '@svc/vendors';
import type { ResponseEcho } from '../request/responses-request';

/**
 * The Responses API's shapes (spec: Response object, Responses stream): the response object from
 * a call's answer, and the stream's events as the exact bytes sent. Pure: the edge writes the
 * bytes, the workers and the replay endpoint build the same ones.
 */

export type OutputItem =
  | { type: 'message'; id: string; status: 'completed' | 'in_progress' | 'incomplete'; role: 'assistant'; content: Array<{ type: 'output_text'; text: string; annotations: unknown[] }> }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: 'completed' | 'in_progress' };

export interface ResponseHead {
  id: string;
  createdAt: number;
  model: string;
  previousResponseId?: string;
  conversationId?: string;
  instructions?: string;
  metadata: Record<string, string>;
  store: boolean;
  background: boolean;
  maxOutputTokens: number | null;
  echo: ResponseEcho;
}

export type ResponseStatus = 'completed' | 'incomplete' | 'failed' | 'queued' | 'cancelled' | 'in_progress';

/** Stream item ids before the completed event reports stored ids (spec: Responses stream). */
export function streamItemId(kind: 'msg' | 'fc', responseId: string, index: number): string {
  return `${kind}_${responseId}_${index}`;
}

/** usage in the Responses shape (cached inside input, reasoning 0 when not reported). */
export function responseUsage(usage: Usage): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** The output items of a unary answer: the message (when there is text), then the function calls. */
export function outputItems(responseId: string, result: Pick<ChatResult, 'content' | 'toolCalls'>, incomplete: boolean): OutputItem[] {
  const items: OutputItem[] = [];
  if (result.content) items.push({ type: 'message', id: streamItemId('msg', responseId, 0), status: incomplete ? 'incomplete' : 'completed', role: 'assistant', content: [{ type: 'output_text', text: result.content, annotations: [] }] });
  for (const call of result.toolCalls) items.push({ type: 'function_call', id: streamItemId('fc', responseId, items.length), call_id: call.id, name: call.name, arguments: call.arguments, status: 'completed' });
  return items;
}

/**
 * The head once a model serves the turn (spec: Response object): `model` is the model that answered
 * and `max_output_tokens` is as applied — lowered to that model's maximum output, as the vendor got it.
 */
export function servedHead(head: ResponseHead, served: { model: string; maxTokens: number }): ResponseHead {
  return { ...head, model: served.model, maxOutputTokens: head.maxOutputTokens === null ? null : Math.min(head.maxOutputTokens, served.maxTokens) };
}

/** The response object (spec: Response object). */
export function responseObject(head: ResponseHead, state: { status: ResponseStatus; output: OutputItem[]; usage: Usage | null; error?: { code: string; message: string } | null; svc?: Record<string, unknown> }): Record<string, unknown> {
  return {
    id: head.id,
    object: 'response',
    created_at: head.createdAt,
    status: state.status,
    background: head.background,
    error: state.error ?? null,
    incomplete_details: state.status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    model: head.model,
    output: state.output,
    usage: state.usage ? responseUsage(state.usage) : null,
    previous_response_id: head.previousResponseId ?? null,
    conversation: head.conversationId ? { id: head.conversationId } : null,
    instructions: head.instructions ?? null,
    metadata: head.metadata,
    store: head.store,
    max_output_tokens: head.maxOutputTokens,
    tools: head.echo.tools,
    tool_choice: head.echo.toolChoice,
    parallel_tool_calls: head.echo.parallelToolCalls,
    ...(head.echo.temperature !== undefined ? { temperature: head.echo.temperature } : {}),
    ...(head.echo.topP !== undefined ? { top_p: head.echo.topP } : {}),
    ...(head.echo.text ? { text: head.echo.text } : {}),
    ...(head.echo.reasoning ? { reasoning: head.echo.reasoning } : {}),
    ...(state.svc ? { svc: state.svc } : {}),
  };
}

/** Output ids replaced by the ids the store gave them (by position). */
export function withStoredIds(output: OutputItem[], stored: ReadonlyArray<{ index: number; id: string }>): OutputItem[] {
  const byIndex = new Map(stored.map((entry) => [entry.index, entry.id]));
  return output.map((item, index) => (byIndex.has(index) ? { ...item, id: byIndex.get(index)! } : item));
}

/**
 * The Responses stream as bytes: `event:` and `data:` lines, sequence_number from 0 up by one,
 * the text and tool-call event orders of the spec. Feed it the answer's events; it tracks the
 * output items it opened and closes them in order.
 */
export class ResponsesStreamWriter {
  private sequence = 0;
  private readonly output: OutputItem[] = [];
  private text: { index: number; item: Extract<OutputItem, { type: 'message' }> } | undefined;
  private readonly calls = new Map<number, { index: number; item: Extract<OutputItem, { type: 'function_call' }> }>();

  constructor(private readonly responseId: string) {}

  /** One event's bytes. */
  event(type: string, payload: Record<string, unknown>): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.sequence++, ...payload })}\n\n`;
  }

  /** response.created and response.in_progress with the response so far. */
  start(response: Record<string, unknown>): string {
    return this.event('response.created', { response }) + this.event('response.in_progress', { response });
  }

  textDelta(delta: string): string {
    let out = '';
    if (!this.text) {
      const index = this.output.length;
      const item: Extract<OutputItem, { type: 'message' }> = { type: 'message', id: streamItemId('msg', this.responseId, index), status: 'in_progress', role: 'assistant', content: [] };
      this.output.push(item);
      this.text = { index, item };
      out += this.event('response.output_item.added', { output_index: index, item: { ...item, content: [] } });
      out += this.event('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      item.content.push({ type: 'output_text', text: '', annotations: [] });
    }
    this.text.item.content[0].text += delta;
    return out + this.event('response.output_text.delta', { item_id: this.text.item.id, output_index: this.text.index, content_index: 0, delta });
  }

  toolCallStart(vendorIndex: number, callId: string, name: string): string {
    let out = this.closeText('completed');
    const index = this.output.length;
    const item: Extract<OutputItem, { type: 'function_call' }> = { type: 'function_call', id: streamItemId('fc', this.responseId, index), call_id: callId, name, arguments: '', status: 'in_progress' };
    this.output.push(item);
    this.calls.set(vendorIndex, { index, item });
    out += this.event('response.output_item.added', { output_index: index, item: { ...item } });
    return out;
  }

  toolCallDelta(vendorIndex: number, delta: string): string {
    const call = this.calls.get(vendorIndex);
    if (!call) return '';
    call.item.arguments += delta;
    return this.event('response.function_call_arguments.delta', { item_id: call.item.id, output_index: call.index, delta });
  }

  private closeText(status: 'completed' | 'incomplete'): string {
    if (!this.text) return '';
    const { index, item } = this.text;
    this.text = undefined;
    item.status = status;
    const part = item.content[0];
    return (
      this.event('response.output_text.done', { item_id: item.id, output_index: index, content_index: 0, text: part.text }) +
      this.event('response.content_part.done', { item_id: item.id, output_index: index, content_index: 0, part }) +
      this.event('response.output_item.done', { output_index: index, item })
    );
  }

  /** Closes every open item (text first, then tool calls in order). */
  finish(incomplete: boolean): string {
    let out = this.closeText(incomplete ? 'incomplete' : 'completed');
    for (const { index, item } of [...this.calls.values()].sort((a, b) => a.index - b.index)) {
      item.status = 'completed';
      if (!item.arguments) item.arguments = '{}';
      out += this.event('response.function_call_arguments.done', { item_id: item.id, output_index: index, arguments: item.arguments });
      out += this.event('response.output_item.done', { output_index: index, item });
    }
    this.calls.clear();
    return out;
  }

  /** What was streamed, as output items. */
  items(): OutputItem[] {
    return this.output.map((item) => ({ ...item }));
  }

  /** response.completed / response.incomplete / response.failed with the full response. */
  end(kind: 'completed' | 'incomplete' | 'failed', response: Record<string, unknown>): string {
    return this.event(`response.${kind}`, { response });
  }

  /** `event: error` after a failure once streaming began. */
  error(code: string, message: string): string {
    return this.event('error', { code, message, param: null });
  }
}

/**
 * A stored response's stream, rebuilt (GET /v1/responses/{id}?stream=true): the same event order
 * as the live stream, each item's text or arguments as one delta, the stream form of the item ids
 * until the terminal event (which reports the stored ids), and
 * the final event by the response's status (a failed one's `error` event before it). Deterministic, so any replica replays the same bytes;
 * `startingAfter` skips the events up to that sequence number.
 */
export function replayEvents(response: Record<string, unknown> & { id: string; status: string; output: unknown[] }, startingAfter = -1): string {
  const writer = new ResponsesStreamWriter(response.id);
  const inProgress = { ...response, status: 'in_progress', output: [], usage: null };
  let out = writer.start(inProgress);
  // As a live stream: the stream form of each item's id (msg_<response id>_<index>) until the
  // terminal event, which carries the response with its stored ids.
  const items = (response.output as OutputItem[]).map((item, index) => ({ ...item, id: streamItemId(item.type === 'message' ? 'msg' : 'fc', response.id, index) }) as OutputItem);
  items.forEach((item, index) => {
    if (item.type === 'message') {
      const text = item.content.map((part) => part.text).join('');
      out += writer.event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } });
      out += writer.event('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      out += writer.event('response.output_text.delta', { item_id: item.id, output_index: index, content_index: 0, delta: text });
      out += writer.event('response.output_text.done', { item_id: item.id, output_index: index, content_index: 0, text });
      out += writer.event('response.content_part.done', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text, annotations: [] } });
    } else {
      out += writer.event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', arguments: '' } });
      out += writer.event('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: item.arguments });
      out += writer.event('response.function_call_arguments.done', { item_id: item.id, output_index: index, arguments: item.arguments });
    }
    out += writer.event('response.output_item.done', { output_index: index, item });
  });
  const kind = response.status === 'incomplete' ? 'incomplete' : response.status === 'failed' || response.status === 'cancelled' ? 'failed' : 'completed';
  // A failed response's stream said why before its terminal event (as the live stream did).
  const error = response.error as { code?: unknown; message?: unknown } | null | undefined;
  if (response.status === 'failed' && error && typeof error.code === 'string') out += writer.error(error.code, typeof error.message === 'string' ? error.message : '');
  out += writer.end(kind, response);
  if (startingAfter < 0) return out;
  return out
    .split('\n\n')
    .filter((block) => block !== '' && Number((JSON.parse(block.slice(block.indexOf('\ndata: ') + 7)) as { sequence_number: number }).sequence_number) > startingAfter)
    .map((block) => `${block}\n\n`)
    .join('');
}
