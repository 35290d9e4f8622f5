import { insertPoolRow, parsePoolEntry, removePoolRow } from './pool';
import { ServiceError } from '@svc/errors';
import { ids, isId } from '@svc/ids';
import { Prisma as P } from '../generated/prisma/client';
import { expiresAtFor, organizationRetention, rfc3339, validateRetentionDays } from '../domain/conversation-object';
import { addTotals, assembleHistory, checkCompactionRun, checkThreadLimits, totalsOf, type AssembledHistory, type ThreadRow } from '../domain/history';
import { compactionItem, normaliseInputItems, tokensOf, type CompactionItem, type StoredItem } from '../domain/items';
import { ENDED_STATUSES, HEAD_STATUSES, assignOutputIds, parseResponseBody, type StoredId } from '../domain/response-object';
import {
  clock,
  conversationId as checkedConversationId,
  conversationNotFound,
  insertItems,
  previousResponseNotFound,
  requireConversation,
  requireOrganization,
  responseInConversation,
  responseNotFound,
  threadRows,
  threadTotals,
  type StoreDeps,
} from './queries';
import { hasConversation, poolFor, readThread, transaction, writeTurn, type TurnWritten } from './sql';

/**
 * A turn of the Responses API, in the steps the edge takes: BuildHistory before the model call
 * (one round trip, read only, also for store false), CompleteTurn after it (one transaction),
 * UpdateResponse when a background response ends, StoreCompaction when history is summarised.
 */

export interface BuildHistoryInput {
  organization_id: string;
  previous_response_id?: string;
  conversation_id?: string;
}

export interface History {
  /** "" when neither a previous response nor a conversation was given. */
  conversation_id: string;
  /** The thread head the turn continues from; "" = the conversation's root. */
  parent_response_id: string;
  items: StoredItem[];
  /** Every stored item of the thread (the limits count these). */
  thread_entries: number;
  thread_token_estimate: number;
  /** The history as given to the model (compaction items in place). */
  history_entries: number;
  history_token_estimate: number;
  /** The conversation's own retention; absent when the organization's applies. */
  retention_days?: number;
  /** Characters of items under the token rule (history_token_estimate = tokensOf of it). */
  history_characters: number;
  /** When the conversation expires (RFC 3339); "" for the empty history. */
  expires_at: string;
}

function historyOf(conversation: string, head: string | null, assembled: AssembledHistory, retentionDays: number | null, expiresAt: Date): History {
  const history: History = {
    conversation_id: conversation,
    parent_response_id: head ?? '',
    items: assembled.items,
    thread_entries: assembled.thread.entries,
    thread_token_estimate: tokensOf(assembled.thread.characters),
    history_entries: assembled.history.entries,
    history_token_estimate: tokensOf(assembled.history.characters),
    history_characters: assembled.history.characters,
    expires_at: rfc3339(expiresAt),
  };
  if (retentionDays !== null) history.retention_days = retentionDays;
  return history;
}

/**
 * The history of a new turn. With previous_response_id: that response's thread (it must be the
 * organization's, and in `conversation_id` when both are given: 400 conversation_mismatch). With
 * only a conversation: its latest turn (the completed or incomplete response that ended last;
 * the root when there is none). Another organization's ids are not found.
 */
export async function buildHistory(deps: StoreDeps, input: BuildHistoryInput): Promise<History> {
  const organizationId = requireOrganization(input.organization_id);
  const previous = input.previous_response_id || '';
  const wanted = input.conversation_id || '';
  const now = clock(deps);
  if (!previous && !wanted) return { conversation_id: '', parent_response_id: '', items: [], thread_entries: 0, thread_token_estimate: 0, history_entries: 0, history_token_estimate: 0, history_characters: 0, expires_at: '' };

  if (previous) {
    const thread = isId('resp', previous) ? await readThread(deps, { organizationId, now, previousResponseId: previous }) : undefined;
    if (!thread) throw previousResponseNotFound(previous);
    // A background response still queued has no answer yet: nothing to continue from.
    if (thread.headStatus === 'queued') throw new ServiceError('invalid_value', `Previous response '${previous}' is a background response that has not finished yet; continue from it once it has (poll GET /v1/responses/${previous}).`, { param: 'previous_response_id' });
    if (wanted && wanted !== thread.conversationId) {
      if (!(await hasConversation(deps, organizationId, checkedConversationId(wanted), now))) throw conversationNotFound(wanted);
      throw new ServiceError('conversation_mismatch', `Previous response '${previous}' belongs to another conversation than '${wanted}'.`, { param: 'previous_response_id' });
    }
    return historyOf(thread.conversationId, thread.head, assembleHistory(thread.rows), thread.retentionDays, thread.expiresAt);
  }
  const thread = await readThread(deps, { organizationId, now, conversationId: checkedConversationId(wanted) });
  if (!thread) throw conversationNotFound(wanted);
  return historyOf(thread.conversationId, thread.head, assembleHistory(thread.rows), thread.retentionDays, thread.expiresAt);
}

export interface CompleteTurnInput {
  organization_id: string;
  /** resp_ + 32 hex, chosen by the caller. */
  response_id: string;
  /** An existing conversation; absent or "": the turn creates one. */
  conversation_id?: string;
  /** The id of the conversation this turn creates; absent or "": a new one. */
  new_conversation_id?: string;
  /** The thread head from BuildHistory; absent or "": the root. */
  parent_response_id?: string;
  /** Retention of a conversation this turn creates; ignored when it exists. */
  retention_days?: number;
  organization_retention_days: number;
  /** The turn's input items (request or stored shapes), or a string (one user message). */
  input_items: unknown;
  /** The response object as rendered by the caller. */
  response: unknown;
  /** Opaque replay data of the stream. */
  stream?: unknown;
  /** A batch-bound background turn: it joins the vendor-batch pool (waiting) in the same transaction. */
  pool?: unknown;
}

export interface CompletedTurn {
  response: Record<string, unknown>;
  conversation_id: string;
  output_ids: StoredId[];
  input_item_ids: string[];
  delete_after_response: boolean;
  thread_entries: number;
  thread_token_estimate: number;
  expires_at: string;
  /** The turn's input items as stored (with their ids). */
  input_items: StoredItem[];
  /** What the turn added: its input and output items, and their characters. */
  turn_entries: number;
  turn_characters: number;
}

/**
 * A finished turn, stored whole or not at all: the conversation (created when the turn has
 * none), the response, its input and output items, the retention clock restarted
 * (expires_at = now + the conversation's retention, else the organization's). The parent and the
 * thread limits are checked with the conversation row locked, in the same statement that writes
 * (writeTurn, one round trip): when either fails nothing is written. A queued (background)
 * response is stored the same way with no output; UpdateResponse ends it.
 */
export async function completeTurn(deps: StoreDeps, input: CompleteTurnInput): Promise<CompletedTurn> {
  const organizationId = requireOrganization(input.organization_id);
  const responseId = input.response_id;
  if (!isId('resp', responseId)) throw new ServiceError('invalid_value', `Invalid response id '${responseId}'.`, { param: 'response_id' });
  const body = parseResponseBody(input.response, responseId);
  const inputs = normaliseInputItems(input.input_items, 'input');
  const organizationDays = organizationRetention(input.organization_retention_days);
  const ownDays = input.retention_days === undefined ? null : validateRetentionDays(input.retention_days);
  const parent = input.parent_response_id || null;
  const existing = input.conversation_id || null;
  const newId = input.new_conversation_id || ids.conversation();
  if (!existing && !isId('conv', newId)) throw new ServiceError('invalid_value', `Invalid conversation id '${newId}'.`, { param: 'new_conversation_id' });
  const conversation = existing ?? newId;
  const { body: storedBody, items: outputs, storedIds } = assignOutputIds(body, conversation);
  const turn = addTotals(totalsOf(inputs), totalsOf(outputs));
  const now = clock(deps);
  const pool = parsePoolEntry(input.pool);
  if (pool && (storedBody.status !== 'queued' || storedBody.background !== true)) throw new ServiceError('invalid_value', 'Only a queued background response joins the vendor-batch pool.', { param: 'pool' });

  if (existing) checkedConversationId(existing);
  if (!existing && parent) throw previousResponseNotFound(parent);
  const write = {
    organizationId,
    conversationId: conversation,
    create: existing ? null : { retentionDays: ownDays },
    organizationRetentionDays: organizationDays,
    responseId,
    parentResponseId: parent,
    status: storedBody.status,
    background: storedBody.background === true,
    body: storedBody,
    stream: input.stream ?? null,
    items: [...inputs.map((item) => ({ ...item, origin: 'input' as const })), ...outputs.map((item) => ({ ...item, origin: 'output' as const }))],
    turn,
    now,
  };
  /** Nothing was written unless it stored: each refusal is the turn's error. */
  const checked = (written: TurnWritten): TurnWritten & { expiresAt: Date } => {
    if (!written.conversationFound) throw conversationNotFound(existing ?? conversation);
    if (!written.parentFound) throw previousResponseNotFound(parent ?? '');
    if (!written.stored || !written.expiresAt) {
      checkThreadLimits(addTotals(written.before, turn));
      throw new ServiceError('conversation_too_large', 'This conversation thread is full.');
    }
    return written as TurnWritten & { expiresAt: Date };
  };
  // One round trip, its own transaction; a pool row (or the test seam) needs a transaction around it.
  const result =
    pool || deps.beforeCommit
      ? await transaction(deps, 'CompleteTurn', async (client) => {
          const written = checked(await writeTurn(client, write));
          if (pool) await insertPoolRow(client, responseId, organizationId, pool, now);
          return written;
        })
      : checked(await writeTurn(poolFor(deps), write));
  const days = result.retentionDays ?? organizationDays;
  const after = addTotals(result.before, turn);

  return {
    response: storedBody,
    conversation_id: conversation,
    output_ids: storedIds,
    input_item_ids: inputs.map((prepared) => prepared.item.id),
    delete_after_response: days === 0,
    thread_entries: after.entries,
    thread_token_estimate: tokensOf(after.characters),
    expires_at: rfc3339(result.expiresAt),
    input_items: inputs.map((prepared) => prepared.item),
    turn_entries: turn.entries,
    turn_characters: turn.characters,
  };
}

export interface UpdateResponseInput {
  organization_id: string;
  response_id: string;
  /** The ended response object (completed, incomplete, failed or cancelled). */
  response: unknown;
  organization_retention_days: number;
  stream?: unknown;
  /** A cancel: refused (409 not_cancellable) when the response's pool row is claimed or sent. */
  cancel?: boolean;
}

export interface UpdatedResponse {
  /** false: the response had already ended; `response` is the stored one, unchanged. */
  updated: boolean;
  response: Record<string, unknown>;
  output_ids: StoredId[];
  delete_after_response: boolean;
}

/**
 * A queued (background) response reaches an ended state: its output items are stored on its node,
 * its object replaced, and when it completed (completed or incomplete) it becomes the
 * conversation's latest turn and restarts the retention clock. One that already ended is returned
 * unchanged (the cancel endpoint's "any ended state: object returned as is").
 */
export async function updateResponse(deps: StoreDeps, input: UpdateResponseInput): Promise<UpdatedResponse> {
  const organizationId = requireOrganization(input.organization_id);
  const responseId = input.response_id;
  if (!isId('resp', responseId)) throw responseNotFound(responseId);
  const body = parseResponseBody(input.response, responseId);
  if (!ENDED_STATUSES.includes(body.status)) throw new ServiceError('invalid_value', `A response can only move to an ended state, not '${body.status}'.`, { param: 'response.status' });
  const organizationDays = organizationRetention(input.organization_retention_days);
  const now = clock(deps);
  return deps.prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ conversation_id: string; status: string; body: Record<string, unknown>; background: boolean; retention_days: number | null }>>`
      SELECT r.conversation_id, r.status, r.body, r.background, c.retention_days
        FROM conversations.response r JOIN conversations.conversation c ON c.id = r.conversation_id
       WHERE r.id = ${responseId} AND r.organization_id = ${organizationId} AND c.organization_id = ${organizationId} AND c.expires_at > ${now}
         FOR UPDATE`;
    const row = rows[0];
    if (!row) throw responseNotFound(responseId);
    // The vendor-batch pool row goes with the queued state (a cancel once it was claimed or sent is refused).
    await removePoolRow(tx, responseId, now, input.cancel === true && row.status === 'queued');
    if (row.status !== 'queued') return { updated: false, response: row.body, output_ids: [], delete_after_response: false };
    const { body: storedBody, items: outputs, storedIds } = assignOutputIds({ ...body, background: row.background }, row.conversation_id);
    checkThreadLimits(addTotals(await threadTotals(tx, row.conversation_id, responseId), totalsOf(outputs)));
    await insertItems(tx, row.conversation_id, responseId, 'output', outputs);
    const completed = HEAD_STATUSES.includes(storedBody.status);
    await tx.$executeRaw`
      UPDATE conversations.response
         SET status = ${storedBody.status}, body = ${JSON.stringify(storedBody)}::jsonb,
             stream = ${input.stream === undefined || input.stream === null ? null : JSON.stringify(input.stream)}::jsonb
             ${completed ? P.sql`, turn_seq = nextval(pg_get_serial_sequence('conversations.response', 'turn_seq'))` : P.empty}
       WHERE id = ${responseId}`;
    const days = row.retention_days ?? organizationDays;
    if (completed) await tx.conversation.update({ where: { id: row.conversation_id }, data: { expiresAt: expiresAtFor(now, days), lastTurnAt: now } });
    await deps.beforeCommit?.('UpdateResponse');
    return { updated: true, response: storedBody, output_ids: storedIds, delete_after_response: completed && days === 0 };
  });
}

export interface StoreCompactionInput {
  organization_id: string;
  conversation_id: string;
  /** The thread head the compaction was made for; absent or "": the root. */
  head_response_id?: string;
  /** A contiguous run of the head's current history, in order. */
  replaces: string[];
  summary: string;
}

/**
 * A compaction summary: stored as a `compaction` item on the head's node, so every thread through
 * that head (the next turn continuing from it, and later ones) gets it in place of the items it
 * replaces. The replaced items stay stored (listed, and counted by the thread limits).
 */
export async function storeCompaction(deps: StoreDeps, input: StoreCompactionInput): Promise<{ item: CompactionItem; history: History }> {
  const organizationId = requireOrganization(input.organization_id);
  if (typeof input.summary !== 'string' || input.summary.length === 0) throw new ServiceError('missing_field', "Missing required parameter: 'summary'.", { param: 'summary' });
  const head = input.head_response_id || null;
  const prepared = compactionItem(input.summary);
  const now = clock(deps);
  return deps.prisma.$transaction(async (tx) => {
    const conversation = await requireConversation(tx, organizationId, input.conversation_id, now, true);
    if (head && !(await responseInConversation(tx, conversation.id, head))) throw previousResponseNotFound(head);
    const rows = await threadRows(tx, conversation.id, head);
    const current = assembleHistory(rows);
    checkCompactionRun(current.items, input.replaces);
    checkThreadLimits(addTotals(current.thread, totalsOf([prepared])));
    await insertItems(tx, conversation.id, head, 'compaction', [prepared], [...input.replaces]);
    await deps.beforeCommit?.('StoreCompaction');
    const row: ThreadRow = { id: prepared.item.id, origin: 'compaction', body: prepared.item, characters: prepared.characters, replaces: [...input.replaces], seq: maxSeq(rows) + 1n };
    return { item: prepared.item as CompactionItem, history: historyOf(conversation.id, head, assembleHistory([...rows, row]), conversation.retentionDays, conversation.expiresAt) };
  });
}

function maxSeq(rows: readonly ThreadRow[]): bigint {
  return rows.reduce((max, row) => (row.seq > max ? row.seq : max), 0n);
}

