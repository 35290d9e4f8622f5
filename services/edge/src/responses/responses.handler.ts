import type { Request, Response } from 'express';
import { ServiceError } from '@svc/errors';
import { hex32, ids } from '@svc/ids';
import type { KeyRecord__Output } from '@svc/protos';
import { historyAfterTurn, type ConversationsClient, type ThreadHistory } from '@svc/backends';
import {
  COMPACTION_AHEAD,
  COMPACTION_TARGET,
  ChatCall,
  answeredTurn,
  contextWindowFor,
  batchBoundModel,
  checkQueuedCredit,
  planTier,
  isIncomplete,
  planCompaction,
  turnSvc,
  ResponsesStreamWriter,
  estimateInputTokens,
  outputItems,
  parseResponsesRequest,
  replayEvents,
  responseObject,
  servedHead,
  withHistory,
  withStoredIds,
  type OutputItem,
  type ResponseHead,
  type ResponsesInput,
  type Usage,
} from '@svc/call';
import { svcMetrics } from '@svc/telemetry';
import { requireScopes } from '../auth/authenticate';
import { callDeps, type ChatDeps } from '../chat/chat.handler';
import type { Compactor } from './compactor';
import type { BackgroundQueue } from './background';
import type { HistoryCache } from './history-cache';
import type { ChatModel } from '@svc/catalog';
import { COMPACTION_SUMMARY_MAX_TOKENS, type CompactionCost, type ResponseRunJob } from '@svc/messages';
import { clientFailure, SseResponse, unaryWithCommit } from '../calls/http';
import { applyHeaders, clientSignal, forwardedSimulatorHeaders, peekHeaders, servedHeaders, withRateLimitHeaders } from '../calls/ports';

export interface ResponsesDeps extends ChatDeps {
  conversations: ConversationsClient;
  /** The organization's retention when a conversation sets none (days). */
  retentionDays: number;
  /** Summaries of what no longer fits, written by the workers (compactor.ts). */
  compactor: Compactor;
  /** The fast model that writes compaction summaries. */
  compactionModel: string;
  /** Background responses go to the workers (response.run); absent: 400 background_unavailable. */
  background?: BackgroundQueue;
  /** Recent thread histories (history-cache.ts); absent: every turn asks BuildHistory. */
  historyCache?: HistoryCache;
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
  /** What that summary was billed (added to the turn's svc cost). */
  compactionCost?: CompactionCost;
  /** The history cache's change sequence before the history was read (HistoryCache.mark). */
  since: number;
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
      if (input.background) {
        if (!deps.background) throw new ServiceError('background_unavailable', 'Background responses are not available on this server.', { param: 'background' });
        const turn = await prepareTurn(deps, key, input);
        // Batch-bound (a named batch-tier model under a ≥ 24 h deadline): the estimate at batch
        // price must fit the balance before anything is stored (402 insufficient_credits).
        // Otherwise it runs as its own job: refused at zero balance without the Free allowance, and
        // on a named model when its estimate exceeds the balance (checkQueuedCredit).
        const batchModel = batchBoundModel(deps.catalog, input.chat, true);
        const history = withHistory(input.chat, (turn.history?.items ?? []) as never);
        const named = deps.catalog.isVirtual(input.chat.model) ? undefined : deps.catalog.chatModel(input.chat.model);
        await checkQueuedCredit(callDeps(deps), history, { key }, batchModel ?? named, input.maxOutputTokens, batchModel !== undefined);
        await queueTurn(deps, deps.background, key, turn, req, res, batchModel);
        return;
      }
      const turn = await prepareTurn(deps, key, input);
      const signal = clientSignal(res);
      // Spec (Escalation): a Responses turn under auto may ask for a stronger model (the pipeline decides when).
      const policy = { stream: input.stream, escalation: true, api: 'responses' as const, simulatorHeaders: forwardedSimulatorHeaders(deps.forwardSimHeaders, req.headers), ids: { callId: `call_${turn.head.id.slice(5)}`, completionId: turn.head.id } };
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

/**
 * The history a turn continues from: the edge's copy when it holds the previous response's
 * (history-cache.ts; never for a conversation given alone — its latest turn moves), else
 * BuildHistory, whose answer is kept for the next turn from the same response.
 */
async function readHistory(deps: ResponsesDeps, key: KeyRecord__Output, input: ResponsesInput, since: number): Promise<ThreadHistory | undefined> {
  if (!input.previousResponseId && !input.conversationId) return undefined;
  const cache = deps.historyCache;
  if (cache && input.previousResponseId) {
    const held = cache.get(key.organization_id, input.previousResponseId);
    // A conversation given too must be the response's (else BuildHistory gives the error).
    const hit = held !== undefined && (!input.conversationId || input.conversationId === held.conversation_id);
    svcMetrics().historyCache.add(1, { result: hit ? 'hit' : 'miss' });
    if (hit) return held;
  }
  const history = await deps.conversations.buildHistory({ organization_id: key.organization_id, previous_response_id: input.previousResponseId ?? null, conversation_id: input.conversationId ?? null });
  if (cache && input.previousResponseId) cache.put(key.organization_id, history, since);
  return history;
}

async function prepareTurn(deps: ResponsesDeps, key: KeyRecord__Output, input: ResponsesInput): Promise<Turn> {
  const since = deps.historyCache?.mark() ?? 0;
  let history = await readHistory(deps, key, input, since);
  if (history && input.store) {
    // The limits are checked before any vendor work: a turn that could not be stored is not run.
    const entries = history.thread_entries + input.items.length + 1;
    const tokens = history.thread_token_estimate + estimateInputTokens({ system: input.chat.system, messages: input.chat.messages, images: input.chat.images });
    if (entries > MAX_THREAD_ENTRIES || tokens > MAX_THREAD_TOKENS) {
      throw new ServiceError('conversation_too_large', `The conversation thread holds ${history.thread_entries} entries and about ${history.thread_token_estimate} tokens; a thread holds at most ${MAX_THREAD_ENTRIES} entries or ${MAX_THREAD_TOKENS} estimated tokens.`);
    }
  }
  const compacted = history ? await fitContext(deps, key, input, history) : undefined;
  if (compacted) history = compacted.history;
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
    background: input.background,
    maxOutputTokens: input.maxOutputTokens,
    echo: input.echo,
  };
  return { input, head, history, conversationId, createsConversation: !existing && conversationId !== undefined, compacted: compacted !== undefined, ...(compacted?.cost ? { compactionCost: compacted.cost } : {}), since };
}

/**
 * Spec (POST /v1/responses `background`): the turn is stored `queued` (its input items with it,
 * so the thread and GET see it at once) and handed to the workers (response.run), and the queued
 * response is returned at once. The workers run it through the call pipeline and end it
 * (completed, incomplete or failed); POST /v1/responses/{id}/cancel ends it cancelled. A turn the
 * workers cannot be handed is ended `failed` and the client gets 503, so nothing is left queued
 * that no one runs.
 */
async function queueTurn(deps: ResponsesDeps, background: BackgroundQueue, key: KeyRecord__Output, turn: Turn, req: Request, res: Response, batchModel?: ChatModel): Promise<void> {
  const tier = planTier(turn.input.chat.svc.deadlineMs, { background: true });
  // RULINGS 2: cache and tier are always present — also on the queued object, and on the
  // cancelled or failed one made from it before anything was served.
  const svc = { cost_micros: 0, ...(turn.conversationId ? { session_id: turn.conversationId } : {}), cache: { read_tokens: 0, write_tokens: 0, ttl_applied: '' }, tier: { requested: tier.requested }, ...(turn.compacted ? { compacted: true } : {}) };
  const job = (conversationId: string | undefined): ResponseRunJob => ({
    response_id: turn.head.id,
    organization_id: key.organization_id,
    key: { ...key } as Record<string, unknown>,
    body: req.body as Record<string, unknown>,
    headers: svcHeaders(req.headers),
    head: { ...turn.head, ...(conversationId ? { conversationId } : {}) } as unknown as Record<string, unknown>,
    parent_response_id: turn.history?.parent_response_id ?? null,
    compacted: turn.compacted,
    ...(turn.compactionCost ? { compaction_cost: turn.compactionCost } : {}),
    organization_retention_days: deps.retentionDays,
    simulator_headers: forwardedSimulatorHeaders(deps.forwardSimHeaders, req.headers) ?? {},
    queued_at_ms: Date.now(),
  });
  const response = responseObject(turn.head, { status: 'queued', output: [], usage: null, svc });
  if (batchModel) {
    // The pool path: stored queued and in the organization's vendor-batch pool (waiting) in one
    // transaction; the workers' pool flush sends it (services/workers/src/jobs/pool.ts).
    const completed = await deps.conversations.completeTurn({ ...completeTurnQuery(deps, key, turn, response), pool: { vendor: batchModel.vendor, model: batchModel.id, job: job(turn.conversationId) as unknown as Record<string, unknown> } });
    applyHeaders(res, await peekHeaders(deps.keyLimiter, key));
    res.status(200).json(completed.response);
    return;
  }
  const completed = await deps.conversations.completeTurn(completeTurnQuery(deps, key, turn, response));
  try {
    await background.enqueue(job(completed.conversation_id));
  } catch (error) {
    const failure = clientFailure(error);
    await deps.conversations
      .updateResponse({ organization_id: key.organization_id, response_id: turn.head.id, response: { ...completed.response, status: 'failed', error: { code: failure.code, message: failure.message } }, organization_retention_days: deps.retentionDays })
      .catch((cause: unknown) => deps.logger.error('background response could not be queued nor ended; it stays queued until its conversation expires', { response_id: turn.head.id, err: cause }));
    throw error;
  }
  applyHeaders(res, await peekHeaders(deps.keyLimiter, key));
  res.status(200).json(completed.response);
}

/** The request's x-svc-* headers (they win over the body's svc options; the worker reads the request again). */
function svcHeaders(headers: Request['headers']): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name.startsWith('x-svc-') && typeof value === 'string') kept[name] = value;
  return kept;
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
async function fitContext(deps: ResponsesDeps, key: KeyRecord__Output, input: ResponsesInput, history: ThreadHistory): Promise<{ history: ThreadHistory; cost?: CompactionCost } | undefined> {
  const window = contextWindowFor(deps.catalog, input.chat.model);
  const needed = neededTokens(deps, input, history.items);
  if (needed <= window) return undefined;
  const refuse = (reason: string) =>
    new ServiceError('context_length_exceeded', `The conversation's history and this turn need about ${needed} tokens; the model's context window is ${window}. ${reason}`);
  if (input.compaction === 'off') throw refuse('Compaction is off (svc.compaction).');
  const turnTokens = needed - history.history_token_estimate;
  const plan = history.conversation_id ? planCompaction(history.items as never, Math.floor(window * COMPACTION_TARGET) - turnTokens) : undefined;
  if (!plan) throw refuse('Compaction cannot make enough room: the turn itself is too large.');
  // Refused before any summary is written (or billed) when even the longest summary in place of
  // what it replaces leaves the turn too large: the recent turns are kept verbatim.
  const projected = needed - plan.removedTokens + COMPACTION_SUMMARY_MAX_TOKENS;
  if (projected > window) throw refuse(`Even after compaction the turn would need about ${projected} tokens (the most recent turns are kept as they are).`);
  const result = await deps.compactor.compact(compactionJob(deps, key, history, plan, false));
  if (result.status === 'failed') throw new ServiceError(result.code as never, result.message, result.headers ? { headers: result.headers } : undefined);
  const compacted = await deps.conversations.buildHistory({ organization_id: key.organization_id, previous_response_id: input.previousResponseId ?? null, conversation_id: input.conversationId ?? null });
  const after = neededTokens(deps, input, compacted.items);
  if (after > window) throw refuse(`Even after compaction the turn needs about ${after} tokens.`);
  return { history: compacted, ...(result.cost ? { cost: result.cost } : {}) };
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


/** CompleteTurn for this turn: its conversation (existing or to create), parent, retention and input items, with `response`. */
function completeTurnQuery(deps: ResponsesDeps, key: KeyRecord__Output, turn: Turn, response: Record<string, unknown>) {
  return {
    organization_id: key.organization_id,
    response_id: turn.head.id,
    ...(turn.createsConversation ? { new_conversation_id: turn.conversationId } : { conversation_id: turn.conversationId }),
    parent_response_id: turn.history?.parent_response_id ?? null,
    ...(turn.input.retentionDays !== undefined ? { retention_days: turn.input.retentionDays } : {}),
    organization_retention_days: deps.retentionDays,
    input_items: turn.input.items,
    response,
  };
}

/**
 * Stores the turn (input items, output items, response) in one transaction, and returns the
 * response as stored (output items carry their stored ids). With store false nothing is kept.
 */
async function storeTurn(deps: ResponsesDeps, key: KeyRecord__Output, turn: Turn, response: Record<string, unknown>, output: OutputItem[]): Promise<{ response: Record<string, unknown>; deleteAfter: boolean }> {
  // Nothing is kept, but the output items still get item ids of their own (msg_ / fc_ + 32 hex),
  // as a stored turn's do; the stream form (msg_<response id>_<index>) is for a stream's events.
  if (!turn.input.store) return { response: { ...response, output: output.map((item) => ({ ...item, id: item.type === 'message' ? ids.message() : ids.functionCall() })) }, deleteAfter: false };
  const completed = await deps.conversations.completeTurn(completeTurnQuery(deps, key, turn, response));
  const stored = { ...completed.response, output: withStoredIds(output, completed.output_ids) };
  // The next turn from this response starts from the edge's copy (unless retention 0 deletes it
  // now). Only for a thread being continued: a conversation's first turn is often its only one
  // (one-shot callers with store on by default), and keeping those would fill the cache with
  // histories no turn reads; a thread's second turn asks BuildHistory, and the ones after it hit.
  if (deps.historyCache && turn.history && !completed.delete_after_response && (completed.response.status === 'completed' || completed.response.status === 'incomplete')) {
    deps.historyCache.put(key.organization_id, historyAfterTurn(turn.history, completed, turn.input.retentionDays), turn.since);
  }
  if (completed.response.status === 'completed' || completed.response.status === 'incomplete') compactAhead(deps, key, turn, completed.thread_token_estimate);
  return { response: stored, deleteAfter: completed.delete_after_response };
}

/**
 * A failed turn whose response object the client is given — a stream that failed once it began
 * (its id went out in response.created), a long call that failed after its commit — is stored
 * `failed` with what the client was shown, so the id reads back (GET) as the client saw it and the
 * conversation it names exists. A failed response is never a thread's head: continuing from the
 * conversation skips it. Best effort: the client gets the failure either way.
 */
async function storeFailedTurn(deps: ResponsesDeps, key: KeyRecord__Output, turn: Turn, res: Response, response: Record<string, unknown>, output: OutputItem[]): Promise<Record<string, unknown>> {
  try {
    const stored = await storeTurn(deps, key, turn, response, output);
    if (stored.deleteAfter) deleteAfterResponse(deps, key, turn, res);
    return stored.response;
  } catch (error) {
    deps.logger.warn('failed response not stored: GET will not find it', { response_id: turn.head.id, err: error });
    return response;
  }
}

/** A stored turn whose call could not be billed is taken back: its response (and everything after it), or the conversation it created. */
async function unstoreTurn(deps: ResponsesDeps, key: KeyRecord__Output, turn: Turn): Promise<void> {
  if (!turn.input.store) return;
  if (turn.createsConversation && turn.conversationId) await deps.conversations.deleteConversation({ organization_id: key.organization_id, conversation_id: turn.conversationId });
  else await deps.conversations.deleteResponse({ organization_id: key.organization_id, response_id: turn.head.id });
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

async function unaryTurn(deps: ResponsesDeps, key: KeyRecord__Output, turn: Turn, call: ChatCall, res: Response, signal: AbortSignal): Promise<void> {
  let deleteAfter = false;
  await unaryWithCommit(
    res,
    deps,
    async () => {
      // The turn is stored while the call's usage is published (both before the answer is given).
      const outcome = await call.unary(signal, {
        run: (answer) => {
          const { response: rendered, output } = answeredTurn(turn.head, answer, turn);
          return storeTurn(deps, key, turn, rendered, output);
        },
        undo: () => unstoreTurn(deps, key, turn),
      });
      if (!outcome?.alongside) return undefined;
      deleteAfter = outcome.alongside.deleteAfter;
      return { body: outcome.alongside.response, headers: { ...outcome.headers, ...servedHeaders(outcome.served) } };
    },
    (failure) => storeFailedTurn(deps, key, turn, res, responseObject(turn.head, { status: 'failed', output: [], usage: null, error: { code: failure.code, message: failure.message }, svc: turnSvc(call.failedSvc(), turn) }), []),
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
  const failed = async (error: unknown) => {
    if (signal.aborted) return;
    const failure = clientFailure(error);
    sse.write(writer.error(failure.code, failure.message));
    // Items the failure cut short (still in progress, a call's arguments unfinished) are left out:
    // a stored item is whole (spec: Conversation items, status completed).
    const output = writer.items().filter((item) => item.status === 'completed');
    const response = responseObject(head, { status: 'failed', output, usage: null, error: { code: failure.code, message: failure.message }, svc: turnSvc(call.failedSvc(), turn) });
    sse.end(writer.end('failed', await storeFailedTurn(deps, key, turn, res, response, output)));
  };
  try {
    let stream;
    try {
      stream = await call.stream(signal);
    } catch (error) {
      if (!sse.isCommitted) throw error;
      deps.logger.warn('response stream failed before its first event, after keepalive', { err: error });
      sse.write(writer.start(responseObject(head, { status: 'in_progress', output: [], usage: null })));
      await failed(error);
      return;
    }
    head = servedHead(turn.head, stream.served);
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
      await failed(error);
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
      applyHeaders(res, await peekHeaders(deps.keyLimiter, key));
      await handler(req, res, key);
    } catch (error) {
      await withRateLimitHeaders(deps.keyLimiter, key, error, res);
      throw error;
    }
  };
}

/** GET /v1/responses/{id} (scope conversations). */
/** How often GET ?stream=true of a queued background response reads it again until it ends. */
const QUEUED_POLL_MS = 1000;

export function getResponseHandler(deps: Pick<ResponsesDeps, 'conversations' | 'keyLimiter'> & { keepaliveIntervalMs?: number }) {
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
    const after = raw === undefined ? -1 : Number(raw);
    if (stored.response.status !== 'queued') {
      // Replay: the stored response's events, rebuilt the same way on every replica.
      res.status(200).setHeader('content-type', 'text/event-stream; charset=utf-8');
      res.setHeader('cache-control', 'no-cache');
      res.end(replayEvents(stored.response, after));
      return;
    }
    // A background response still queued has no terminal event yet: the stream stays open (with
    // `: keepalive` comments) until it ends, then replays it; a client that leaves stops the wait.
    const sse = new SseResponse(res, deps.keepaliveIntervalMs ?? 20_000);
    sse.commit();
    let gone = false;
    res.on('close', () => {
      gone = true;
    });
    let current = stored.response;
    try {
      while (current.status === 'queued' && !gone) {
        await new Promise((resolve) => setTimeout(resolve, QUEUED_POLL_MS));
        if (gone) break;
        current = (await deps.conversations.getResponse({ organization_id: key.organization_id, response_id: String(req.params.id) })).response;
      }
      sse.end(gone ? '' : replayEvents(current, after));
    } catch (error) {
      // Deleted while waiting, or the store unreachable: the stream's own error event, then the end.
      const failure = error instanceof ServiceError ? error : new ServiceError('conversations_unavailable', 'The response could not be read. Please retry.');
      sse.end(`event: error\ndata: ${JSON.stringify({ type: 'error', code: failure.code, message: failure.message, param: null })}\n\n`);
    }
  });
}

/** DELETE /v1/responses/{id} (scope conversations): the turn and everything after it on its thread. */
export function deleteResponseHandler(deps: Pick<ResponsesDeps, 'conversations' | 'keyLimiter'>) {
  return withKeyHeaders(deps, async (req, res, key) => {
    requireScopes(key, ['conversations']);
    res.status(200).json(await deps.conversations.deleteResponse({ organization_id: key.organization_id, response_id: String(req.params.id) }));
  });
}

/**
 * POST /v1/responses/{id}/cancel (scope conversations), every row of the state table: not created
 * with background → 400 not_background; unknown or another organization's → 404
 * response_not_found; already ended → the object as is; queued, waiting for its batch in the
 * vendor-batch pool, or running as its own job → `cancelled` (nothing billed; the pool row leaves
 * with the status change, in one transaction; a running turn's vendor call is cut: the worker
 * running it hears it over Redis pub/sub); claimed for or sent inside a vendor batch → 409
 * not_cancellable (conversations refuses it; the answer is billed when it arrives).
 */
export function cancelResponseHandler(deps: Pick<ResponsesDeps, 'conversations' | 'keyLimiter' | 'retentionDays' | 'logger'> & { background?: BackgroundQueue }) {
  return withKeyHeaders(deps, async (req, res, key) => {
    requireScopes(key, ['conversations']);
    const query = { organization_id: key.organization_id, response_id: String(req.params.id) };
    const stored = await deps.conversations.getResponse(query);
    if (!stored.background) throw new ServiceError('not_background', 'Only a response created with background true can be cancelled.', { param: 'response_id' });
    if (stored.status === 'queued') {
      const ended = await deps.conversations.updateResponse({
        ...query,
        response: { ...stored.stored, status: 'cancelled', error: { code: 'cancelled', message: 'The response was cancelled before it finished.' } },
        organization_retention_days: deps.retentionDays,
        cancel: true,
      });
      if (ended.updated) {
        await deps.background?.announceCancel(query.response_id).catch((error: unknown) => deps.logger.warn('cancel not announced to the workers; the running turn ends at its next status check', { response_id: query.response_id, err: error }));
      }
    }
    res.status(200).json((await deps.conversations.getResponse(query)).response);
  });
}
