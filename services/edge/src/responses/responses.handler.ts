import type { Request, Response } from 'express';
import { ServiceError } from '@svc/errors';
import { hex32, ids } from '@svc/ids';
import type { KeyRecord__Output } from '@svc/protos';
import type { ConversationsClient, ThreadHistory } from '@svc/backends';
import {
  COMPACTION_AHEAD,
  COMPACTION_TARGET,
  ChatCall,
  contextWindowFor,
  planCompaction,
  ResponsesStreamWriter,
  estimateInputTokens,
  outputItems,
  parseResponsesRequest,
  replayEvents,
  responseObject,
  withHistory,
  withStoredIds,
  type OutputItem,
  type ResponseHead,
  type ResponsesInput,
  type Usage,
} from '@svc/call';
import { requireScopes } from '../auth/authenticate';
import { keyLimitsOf } from '../limits/key-limits';
import { callDeps, type ChatDeps } from '../chat/chat.handler';
import type { Compactor } from './compactor';
import { clientFailure, SseResponse, unaryWithCommit } from '../calls/http';
import { applyHeaders, clientSignal, forwardedSimulatorHeaders, servedHeaders, withRateLimitHeaders } from '../calls/ports';

export interface ResponsesDeps extends ChatDeps {
  conversations: ConversationsClient;
  /** The organization's retention when a conversation sets none (days). */
  retentionDays: number;
  /** Summaries of what no longer fits, written by the workers (compactor.ts). */
  compactor: Compactor;
  /** The fast model that writes compaction summaries. */
  compactionModel: string;
}

/** Spec (Conversation items): a thread holds at most 4000 entries or 2,000,000 estimated tokens. */
export const MAX_THREAD_ENTRIES = 4000;
export const MAX_THREAD_TOKENS = 2_000_000;

/** One turn being answered: everything the response object and the store need. */
interface Turn {
  input: ResponsesInput;
  head: ResponseHead;
  history: ThreadHistory | undefined;
  /** The conversation this turn belongs to (existing or to be created), when stored or given. */
  conversationId: string | undefined;
  createsConversation: boolean;
  /** The history was compacted for this turn (svc.compacted). */
  compacted: boolean;
}

/**
 * POST /v1/responses (scopes chat and conversations): parse → the thread's history from the
 * conversations service → one call through the pipeline (the conversation id is its session id)
 * → the turn stored in one transaction (unless store is false) → the response object, or the
 * Responses stream.
 */
export function createResponseHandler(deps: ResponsesDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const key = res.locals.key as KeyRecord__Output;
    try {
      requireScopes(key, ['chat', 'conversations']);
      const input = parseResponsesRequest(req.body, req.headers, { remoteImages: 'defer' });
      if (input.background) throw new ServiceError('background_unavailable', 'Background responses are not available on this server.', { param: 'background' });
      const turn = await prepareTurn(deps, key, input);
      const signal = clientSignal(res);
      const policy = { stream: input.stream, simulatorHeaders: forwardedSimulatorHeaders(deps.forwardSimHeaders, req.headers), ids: { callId: `call_${turn.head.id.slice(5)}`, completionId: turn.head.id } };
      const chat = withHistory(input.chat, (turn.history?.items ?? []) as never);
      if (turn.conversationId) chat.svc.sessionId = turn.conversationId;
      const call = await ChatCall.start(callDeps(deps), chat, { key }, policy, signal);
      applyHeaders(res, call.headers);
      if (input.stream) await streamTurn(deps, key, turn, call, res, signal);
      else await unaryTurn(deps, key, turn, call, res, signal);
    } catch (error) {
      await withRateLimitHeaders(deps.keyLimiter, key, error, res);
      throw error;
    }
  };
}

async function prepareTurn(deps: ResponsesDeps, key: KeyRecord__Output, input: ResponsesInput): Promise<Turn> {
  let history = input.previousResponseId || input.conversationId ? await deps.conversations.buildHistory({ organization_id: key.organization_id, previous_response_id: input.previousResponseId ?? null, conversation_id: input.conversationId ?? null }) : undefined;
  if (history && input.store) {
    // The limits are checked before any vendor work: a turn that could not be stored is not run.
    const entries = history.thread_entries + input.items.length + 1;
    const tokens = history.thread_token_estimate + estimateInputTokens({ system: input.chat.system, messages: input.chat.messages, images: input.chat.images });
    if (entries > MAX_THREAD_ENTRIES || tokens > MAX_THREAD_TOKENS) {
      throw new ServiceError('conversation_too_large', `The conversation thread holds ${history.thread_entries} entries and about ${history.thread_token_estimate} tokens; a thread holds at most ${MAX_THREAD_ENTRIES} entries or ${MAX_THREAD_TOKENS} estimated tokens.`);
    }
  }
  const compacted = history ? await fitContext(deps, key, input, history) : undefined;
  if (compacted) history = compacted;
  const existing = history?.conversation_id ?? undefined;
  const conversationId = existing ?? (input.store ? ids.conversation() : undefined);
  const head: ResponseHead = {
    id: ids.response(),
    createdAt: Math.floor(Date.now() / 1000),
    model: input.chat.model,
    ...(input.previousResponseId ? { previousResponseId: input.previousResponseId } : {}),
    ...(conversationId ? { conversationId } : {}),
    ...(input.instructions !== undefined ? { instructions: input.instructions } : {}),
    metadata: input.metadata,
    store: input.store,
    background: false,
    maxOutputTokens: input.maxOutputTokens,
    echo: input.echo,
  };
  return { input, head, history, conversationId, createsConversation: !existing && conversationId !== undefined, compacted: compacted !== undefined };
}

/** Tokens a turn needs: its history and input, and the answer's room. */
function neededTokens(deps: ResponsesDeps, input: ResponsesInput, items: ThreadHistory['items']): number {
  const chat = withHistory(input.chat, items as never);
  const named = deps.catalog.chatModel(input.chat.model);
  return estimateInputTokens(chat) + Math.min(input.maxOutputTokens, named?.capabilities.max_output ?? input.maxOutputTokens);
}

function compactionJob(deps: ResponsesDeps, key: KeyRecord__Output, history: ThreadHistory, plan: { replaces: string[]; transcript: string }, queuedAhead: boolean) {
  return {
    job_id: hex32(),
    organization_id: key.organization_id,
    conversation_id: history.conversation_id as string,
    head_response_id: history.parent_response_id,
    key: { ...key } as Record<string, unknown>,
    model: deps.compactionModel,
    replaces: plan.replaces,
    transcript: plan.transcript,
    queued_ahead: queuedAhead,
  };
}

/**
 * Spec (Compaction): when the stored history plus the turn does not fit the serving model's
 * context window, the oldest part is summarized (on the workers) and the turn continues with the
 * summary in its place; with compaction off, 400 context_length_exceeded with the numbers.
 * Returns the new history when it compacted, undefined when the turn fits as it is.
 */
async function fitContext(deps: ResponsesDeps, key: KeyRecord__Output, input: ResponsesInput, history: ThreadHistory): Promise<ThreadHistory | undefined> {
  const window = contextWindowFor(deps.catalog, input.chat.model);
  const needed = neededTokens(deps, input, history.items);
  if (needed <= window) return undefined;
  const refuse = (reason: string) =>
    new ServiceError('context_length_exceeded', `The conversation's history and this turn need about ${needed} tokens; the model's context window is ${window}. ${reason}`);
  if (input.compaction === 'off') throw refuse('Compaction is off (svc.compaction).');
  const turnTokens = needed - history.history_token_estimate;
  const plan = history.conversation_id ? planCompaction(history.items as never, Math.floor(window * COMPACTION_TARGET) - turnTokens) : undefined;
  if (!plan) throw refuse('Compaction cannot make enough room: the turn itself is too large.');
  const result = await deps.compactor.compact(compactionJob(deps, key, history, plan, false));
  if (result.status === 'failed') throw new ServiceError(result.code as never, result.message);
  const compacted = await deps.conversations.buildHistory({ organization_id: key.organization_id, previous_response_id: input.previousResponseId ?? null, conversation_id: input.conversationId ?? null });
  const after = neededTokens(deps, input, compacted.items);
  if (after > window) throw refuse(`Even after compaction the turn needs about ${after} tokens.`);
  return compacted;
}

/** A thread whose history nears the window gets its summary written ahead, so the next turn does not wait. */
function compactAhead(deps: ResponsesDeps, key: KeyRecord__Output, turn: Turn, threadTokens: number): void {
  const window = contextWindowFor(deps.catalog, turn.input.chat.model);
  if (!Number.isFinite(window) || threadTokens < window * COMPACTION_AHEAD || turn.input.compaction === 'off') return;
  void deps.conversations
    .buildHistory({ organization_id: key.organization_id, previous_response_id: turn.head.id, conversation_id: null })
    .then((history) => {
      if (history.history_token_estimate < window * COMPACTION_AHEAD) return;
      const plan = planCompaction(history.items as never, Math.floor(window * COMPACTION_TARGET));
      if (plan) deps.compactor.queueAhead(compactionJob(deps, key, history, plan, true));
    })
    .catch((error: unknown) => deps.logger.warn('compaction ahead skipped', { err: error }));
}

/** The svc object of a turn: the call's, with the conversation as the session, and compacted when it was. */
function turnSvc(svc: Record<string, unknown>, turn: Turn): Record<string, unknown> {
  return { ...svc, ...(turn.conversationId ? { session_id: turn.conversationId } : {}), ...(turn.compacted ? { compacted: true } : {}) };
}

/**
 * Stores the turn (input items, output items, response) in one transaction, and returns the
 * response as stored (output items carry their stored ids). With store false nothing is kept.
 */
async function storeTurn(deps: ResponsesDeps, key: KeyRecord__Output, turn: Turn, response: Record<string, unknown>, output: OutputItem[]): Promise<{ response: Record<string, unknown>; deleteAfter: boolean }> {
  if (!turn.input.store) return { response, deleteAfter: false };
  const completed = await deps.conversations.completeTurn({
    organization_id: key.organization_id,
    response_id: turn.head.id,
    ...(turn.createsConversation ? { new_conversation_id: turn.conversationId } : { conversation_id: turn.conversationId }),
    parent_response_id: turn.history?.parent_response_id ?? null,
    ...(turn.input.retentionDays !== undefined ? { retention_days: turn.input.retentionDays } : {}),
    organization_retention_days: deps.retentionDays,
    input_items: turn.input.items,
    response,
  });
  const stored = { ...completed.response, output: withStoredIds(output, completed.output_ids) };
  compactAhead(deps, key, turn, completed.thread_token_estimate);
  return { response: stored, deleteAfter: completed.delete_after_response };
}

/** Retention 0: the conversation goes once the response was written (spec: Conversation lifecycle). */
function deleteAfterResponse(deps: ResponsesDeps, key: KeyRecord__Output, turn: Turn, res: Response): void {
  if (!turn.conversationId) return;
  const conversationId = turn.conversationId;
  const remove = () =>
    deps.conversations.deleteConversation({ organization_id: key.organization_id, conversation_id: conversationId }).catch((error: unknown) => {
      if (!(error instanceof ServiceError && error.status === 404)) deps.logger.warn('retention 0: conversation not deleted; the retention sweep removes it', { conversation_id: conversationId, err: error });
    });
  if (res.writableFinished) void remove();
  else res.once('finish', () => void remove());
}

function isIncomplete(finishReason: string): boolean {
  return finishReason === 'length';
}

async function unaryTurn(deps: ResponsesDeps, key: KeyRecord__Output, turn: Turn, call: ChatCall, res: Response, signal: AbortSignal): Promise<void> {
  let deleteAfter = false;
  await unaryWithCommit(
    res,
    deps,
    async () => {
      const outcome = await call.unary(signal);
      if (!outcome) return undefined;
      const incomplete = isIncomplete(outcome.result.finishReason);
      const output = outputItems(turn.head.id, outcome.result, incomplete);
      const head = { ...turn.head, model: outcome.served.model };
      const rendered = responseObject(head, { status: incomplete ? 'incomplete' : 'completed', output, usage: outcome.result.usage, svc: turnSvc(outcome.svc, turn) });
      const stored = await storeTurn(deps, key, turn, rendered, output);
      deleteAfter = stored.deleteAfter;
      return { body: stored.response, headers: { ...outcome.headers, ...servedHeaders(outcome.served) } };
    },
    (failure) => responseObject(turn.head, { status: 'failed', output: [], usage: null, error: { code: failure.code, message: failure.message }, svc: turnSvc(call.failedSvc(), turn) }),
  );
  if (deleteAfter) deleteAfterResponse(deps, key, turn, res);
}

/**
 * Spec (Responses stream): `event:`/`data:` lines, sequence numbers from 0; the output items'
 * events as the answer streams; then response.completed (or .incomplete) with the response as
 * stored — its items carry the stored ids. A failure after the stream began: `event: error`,
 * then response.failed. No [DONE].
 */
async function streamTurn(deps: ResponsesDeps, key: KeyRecord__Output, turn: Turn, call: ChatCall, res: Response, signal: AbortSignal): Promise<void> {
  const sse = new SseResponse(res, deps.keepaliveIntervalMs);
  const writer = new ResponsesStreamWriter(turn.head.id);
  let head = turn.head;
  const failed = (error: unknown) => {
    if (signal.aborted) return;
    const failure = clientFailure(error);
    sse.write(writer.error(failure.code, failure.message));
    sse.end(writer.end('failed', responseObject(head, { status: 'failed', output: writer.items(), usage: null, error: { code: failure.code, message: failure.message }, svc: turnSvc(call.failedSvc(), turn) })));
  };
  try {
    let stream;
    try {
      stream = await call.stream(signal);
    } catch (error) {
      if (!sse.isCommitted) throw error;
      deps.logger.warn('response stream failed before its first event, after keepalive', { err: error });
      sse.write(writer.start(responseObject(head, { status: 'in_progress', output: [], usage: null })));
      failed(error);
      return;
    }
    head = { ...turn.head, model: stream.served.model };
    sse.commit(servedHeaders(stream.served));
    sse.write(writer.start(responseObject(head, { status: 'in_progress', output: [], usage: null })));
    try {
      for await (const event of stream.events) {
        if (event.type === 'text') sse.write(writer.textDelta(event.delta));
        else if (event.type === 'tool_call_start') sse.write(writer.toolCallStart(event.index, event.id, event.name));
        else if (event.type === 'tool_call_delta') sse.write(writer.toolCallDelta(event.index, event.arguments));
        else {
          const incomplete = isIncomplete(event.finishReason);
          sse.write(writer.finish(incomplete));
          const output = writer.items();
          const rendered = responseObject(head, { status: incomplete ? 'incomplete' : 'completed', output, usage: event.usage as Usage, svc: turnSvc(event.svc, turn) });
          const stored = await storeTurn(deps, key, turn, rendered, output);
          sse.end(writer.end(incomplete ? 'incomplete' : 'completed', stored.response));
          if (stored.deleteAfter) deleteAfterResponse(deps, key, turn, res);
        }
      }
    } catch (error) {
      failed(error);
    }
  } finally {
    sse.close();
  }
}

/**
 * RULINGS 6: every responses response carries the key's rate-limit headers once the key is known
 * (read without taking anything: reading a stored response is not a model call).
 */
function withKeyHeaders(deps: Pick<ResponsesDeps, 'keyLimiter'>, handler: (req: Request, res: Response, key: KeyRecord__Output) => Promise<void>) {
  return async (req: Request, res: Response): Promise<void> => {
    const key = res.locals.key as KeyRecord__Output;
    try {
      applyHeaders(res, await deps.keyLimiter.peek(key.key_id, keyLimitsOf(key)));
      await handler(req, res, key);
    } catch (error) {
      await withRateLimitHeaders(deps.keyLimiter, key, error, res);
      throw error;
    }
  };
}

/** GET /v1/responses/{id} (scope conversations). */
export function getResponseHandler(deps: Pick<ResponsesDeps, 'conversations' | 'keyLimiter'>) {
  return withKeyHeaders(deps, async (req, res, key) => {
    requireScopes(key, ['conversations']);
    const stream = req.query.stream;
    if (stream !== undefined && stream !== 'true' && stream !== 'false') throw new ServiceError('invalid_value', "'stream' must be true or false.", { param: 'stream' });
    const raw = req.query.starting_after;
    if (raw !== undefined && (typeof raw !== 'string' || !/^\d+$/.test(raw))) throw new ServiceError('invalid_value', "'starting_after' must be a sequence number (an integer of at least 0).", { param: 'starting_after' });
    const stored = await deps.conversations.getResponse({ organization_id: key.organization_id, response_id: String(req.params.id) });
    if (stream !== 'true') {
      res.status(200).json(stored.response);
      return;
    }
    // Replay: the stored response's events, rebuilt the same way on every replica.
    res.status(200).setHeader('content-type', 'text/event-stream; charset=utf-8');
    res.setHeader('cache-control', 'no-cache');
    res.end(replayEvents(stored.response, raw === undefined ? -1 : Number(raw)));
  });
}

/** DELETE /v1/responses/{id} (scope conversations): the turn and everything after it on its thread. */
export function deleteResponseHandler(deps: Pick<ResponsesDeps, 'conversations' | 'keyLimiter'>) {
  return withKeyHeaders(deps, async (req, res, key) => {
    requireScopes(key, ['conversations']);
    res.status(200).json(await deps.conversations.deleteResponse({ organization_id: key.organization_id, response_id: String(req.params.id) }));
  });
}
