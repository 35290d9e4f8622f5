import { grpc, callUnary, clientOptions, grpcTarget, insecure } from '@svc/grpc';
import { loadConversationsProto, type ConversationsServiceClient } from '@svc/protos';

/**
 * The conversations service's gRPC client (svc.conversations.v1) for the edge and the workers,
 * as promises with deadlines and spec errors (ServiceError, `conversations_unavailable` when the
 * service cannot be reached). The wire carries the public objects as JSON strings; here they are
 * parsed into plain domain shapes that keep the wire's field names, and "" becomes null. The
 * thread model and every RPC's rules: services/conversations/README.md, "Conversations storage".
 */

export type ConversationRole = 'user' | 'assistant' | 'system' | 'developer';
export type ConversationContentPart = { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail?: string } | { type: 'output_text'; text: string; annotations: unknown[] };

/** A stored conversation item (spec: Conversation items), id included. */
export type ConversationItem =
  | { type: 'message'; id: string; status: string; role: ConversationRole; content: ConversationContentPart[] }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: string }
  | { type: 'function_call_output'; id: string; call_id: string; output: string; status: 'completed' }
  | { type: 'compaction'; id: string; summary: string };

/** The conversation object (spec: Conversation object), rendered by the service. */
export interface ConversationObject {
  id: string;
  object: 'conversation';
  created_at: number;
  metadata: Record<string, string>;
  svc: { entries: number; token_estimate: number; expires_at: string; last_turn_at: string; retention_days?: number };
}

/** The response object (spec: Response object) as stored; the service fills output ids and conversation. */
export type ResponseObject = Record<string, unknown> & { id: string; status: string; output: unknown[] };

export interface ConversationResult {
  conversation: ConversationObject;
  /** Retention 0: the conversation reads as gone already; call deleteConversation once the reply was written. */
  delete_after_response: boolean;
}

export interface ItemList {
  object: 'list';
  data: ConversationItem[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

export interface ThreadHistory {
  /** null when neither a previous response nor a conversation was given. */
  conversation_id: string | null;
  /** The thread head the turn continues from (pass it to completeTurn); null = the conversation's root. */
  parent_response_id: string | null;
  /** Thread order, compaction items in place of what they replaced. */
  items: ConversationItem[];
  /** Every stored item of the thread: what the 4000 entries / 2,000,000 tokens limits count. */
  thread_entries: number;
  thread_token_estimate: number;
  /** What the model is given (items). */
  history_entries: number;
  history_token_estimate: number;
  /** The conversation's own retention; absent when the organization's applies. */
  retention_days?: number;
  /** Characters of items under the token rule (history_token_estimate = ceil(characters / 4)). */
  history_characters: number;
  /** When the conversation expires (RFC 3339); null for the empty history. */
  expires_at: string | null;
}

export interface StoredOutputId {
  /** Position in output[]. */
  index: number;
  /** The id the caller sent (the stream's msg_<resp>_<i>), or null. */
  previous_id: string | null;
  id: string;
}

export interface CompleteTurnQuery {
  organization_id: string;
  /** resp_ + 32 hex, chosen by the caller before the turn (the stream shows it). */
  response_id: string;
  /** An existing conversation (from buildHistory); absent: the turn creates one. */
  conversation_id?: string | null;
  /** The id of the conversation this turn creates; absent: the service picks one. */
  new_conversation_id?: string;
  /** buildHistory's parent_response_id; absent/null: the root. */
  parent_response_id?: string | null;
  /** svc.retention_days of the request: retention of a conversation this turn creates. */
  retention_days?: number;
  organization_retention_days: number;
  /** The turn's input items (request or stored shapes; instructions as a developer message), or a string. */
  input_items: unknown;
  /** The response object as rendered for the client (status, background, output[] with any ids, usage, ...). */
  response: Record<string, unknown>;
  /** Whatever the caller needs to replay the stream later (kept as JSON, returned by getResponse). */
  stream?: unknown;
  /** A batch-bound background turn: it joins the vendor-batch pool (waiting) in the same transaction. */
  pool?: { vendor: string; model: string; job: Record<string, unknown> };
}

import { tokensForCharacters, type PoolGroup, type PoolRow } from '@svc/call';

export type { PoolGroup, PoolRow };

export interface CompletedTurn {
  /** The response object as stored: output ids are the stored ids, conversation {id} set. */
  response: ResponseObject;
  conversation_id: string;
  output_ids: StoredOutputId[];
  input_item_ids: string[];
  /** Retention 0: call deleteConversation once the response was written. */
  delete_after_response: boolean;
  thread_entries: number;
  thread_token_estimate: number;
  /** RFC 3339. */
  expires_at: string;
  /** The turn's input items as stored (with their ids), in order. */
  input_items: ConversationItem[];
  /** What the turn added to its thread: its input and output items, and their characters. */
  turn_entries: number;
  turn_characters: number;
}

export interface StoredResponse {
  /** As GET /v1/responses/{id} shows it (max_output_tokens null, tools [], tool_choice auto, parallel_tool_calls true). */
  response: ResponseObject;
  /** Exactly as stored. */
  stored: ResponseObject;
  /** completeTurn's / updateResponse's stream, or null. */
  stream: unknown;
  conversation_id: string;
  parent_response_id: string | null;
  status: string;
  background: boolean;
}

export interface UpdatedResponse {
  /** false: the response had already ended and is returned unchanged. */
  updated: boolean;
  response: ResponseObject;
  output_ids: StoredOutputId[];
  delete_after_response: boolean;
}

export interface ConversationsClient {
  createConversation(query: { organization_id: string; metadata?: Record<string, unknown> | null; items?: unknown; retention_days?: number; organization_retention_days: number }): Promise<ConversationResult>;
  getConversation(query: { organization_id: string; conversation_id: string }): Promise<ConversationObject>;
  updateConversation(query: { organization_id: string; conversation_id: string; metadata: Record<string, unknown> | null }): Promise<ConversationObject>;
  deleteConversation(query: { organization_id: string; conversation_id: string }): Promise<{ id: string; object: 'conversation.deleted'; deleted: true }>;
  listItems(query: { organization_id: string; conversation_id: string; limit?: number; after?: string; order?: 'asc' | 'desc' }): Promise<ItemList>;
  addItems(query: { organization_id: string; conversation_id: string; items: unknown }): Promise<ItemList>;
  buildHistory(query: { organization_id: string; previous_response_id?: string | null; conversation_id?: string | null }): Promise<ThreadHistory>;
  completeTurn(query: CompleteTurnQuery): Promise<CompletedTurn>;
  getResponse(query: { organization_id: string; response_id: string }): Promise<StoredResponse>;
  /** `cancel`: refused with 409 not_cancellable when the response's pool row is claimed or sent. */
  updateResponse(query: { organization_id: string; response_id: string; response: Record<string, unknown>; organization_retention_days: number; stream?: unknown; cancel?: boolean }): Promise<UpdatedResponse>;
  deleteResponse(query: { organization_id: string; response_id: string }): Promise<{ id: string; object: 'response'; deleted: true }>;
  storeCompaction(query: { organization_id: string; conversation_id: string; head_response_id?: string | null; replaces: string[]; summary: string }): Promise<{ item: ConversationItem; history: ThreadHistory }>;
  claimPool(query: { claim_id: string; max_lines: number; max_age_ms: number; lease_ms: number; max_groups?: number }): Promise<PoolGroup[]>;
  markPoolSent(query: { claim_id: string; response_ids: string[]; vendor_batch_id: string; vendor_batch: unknown }): Promise<number>;
  releasePoolClaim(query: { claim_id: string; response_ids: string[] }): Promise<number>;
  claimPoolResults(query: { claim_id: string; lease_ms: number; max_batches?: number }): Promise<PoolGroup[]>;
  close(): void;
}

/** The wire types of one RPC, read off the generated client (its last overload: argument, callback). */
type Rpc = 'CreateConversation' | 'GetConversation' | 'UpdateConversation' | 'DeleteConversation' | 'ListItems' | 'AddItems' | 'BuildHistory' | 'CompleteTurn' | 'GetResponse' | 'UpdateResponse' | 'DeleteResponse' | 'StoreCompaction' | 'ClaimPool' | 'MarkPoolSent' | 'ReleasePoolClaim' | 'ClaimPoolResults';
type WireRequest<K extends Rpc> = ConversationsServiceClient[K] extends (argument: infer R, callback: grpc.requestCallback<infer _S>) => grpc.ClientUnaryCall ? R : never;
type WireReply<K extends Rpc> = ConversationsServiceClient[K] extends (argument: infer _R, callback: grpc.requestCallback<infer S>) => grpc.ClientUnaryCall ? S : never;
type HistoryReply__Output = WireReply<'BuildHistory'>;
type StoredId__Output = NonNullable<WireReply<'CompleteTurn'>['output_ids']>[number];

const toJson = (value: unknown): string => (value === undefined || value === null ? '' : JSON.stringify(value));
const fromJson = <T>(text: string | undefined, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);
const orNull = (text: string | undefined): string | null => (text ? text : null);

/**
 * The history of the turn just stored, as BuildHistory would return it for a turn continuing from
 * it: the history the turn was given (`parent`; undefined for a first turn), then its input items
 * and its output items as stored, in that order — a stored turn is one node appended to its
 * thread, so nothing before it moves (the conversations service's domain/history.ts). Totals
 * from CompleteTurn's answer: the thread's own, and the history's grown by what the turn added.
 */
export function historyAfterTurn(parent: ThreadHistory | undefined, completed: CompletedTurn, retentionDays: number | undefined): ThreadHistory {
  const characters = (parent?.history_characters ?? 0) + completed.turn_characters;
  const next: ThreadHistory = {
    conversation_id: completed.conversation_id,
    parent_response_id: String(completed.response.id),
    items: [...(parent?.items ?? []), ...completed.input_items, ...((completed.response.output ?? []) as ConversationItem[])],
    thread_entries: completed.thread_entries,
    thread_token_estimate: completed.thread_token_estimate,
    history_entries: (parent?.history_entries ?? 0) + completed.turn_entries,
    history_token_estimate: tokensForCharacters(characters),
    history_characters: characters,
    expires_at: completed.expires_at,
  };
  const retention = parent?.conversation_id ? parent.retention_days : retentionDays;
  if (retention !== undefined) next.retention_days = retention;
  return next;
}

function history(reply: HistoryReply__Output | null | undefined): ThreadHistory {
  const wire = reply ?? ({} as Partial<HistoryReply__Output>);
  const out: ThreadHistory = {
    conversation_id: orNull(wire.conversation_id),
    parent_response_id: orNull(wire.parent_response_id),
    items: fromJson<ConversationItem[]>(wire.items_json, []),
    thread_entries: wire.thread_entries ?? 0,
    thread_token_estimate: wire.thread_token_estimate ?? 0,
    history_entries: wire.history_entries ?? 0,
    history_token_estimate: wire.history_token_estimate ?? 0,
    history_characters: Number(wire.history_characters ?? 0),
    expires_at: orNull(wire.expires_at),
  };
  if (wire.retention_days !== undefined && wire.retention_days !== null) out.retention_days = wire.retention_days;
  return out;
}

function poolGroups(reply: WireReply<'ClaimPool'>): PoolGroup[] {
  return (reply.groups ?? []).map((group) => ({
    organization_id: group.organization_id,
    vendor: group.vendor,
    rows: (group.rows ?? []).map((row) => ({
      response_id: row.response_id,
      organization_id: row.organization_id,
      vendor: row.vendor,
      model: row.model,
      job: fromJson<Record<string, unknown>>(row.job_json, {}),
      enqueued_at_ms: Number(row.enqueued_at_ms),
      vendor_batch_id: row.vendor_batch_id,
      vendor_batch: fromJson<unknown>(row.vendor_batch_json, null),
    })),
  }));
}

const storedIds = (ids: StoredId__Output[] | undefined): StoredOutputId[] => (ids ?? []).map((entry) => ({ index: entry.index, previous_id: orNull(entry.previous_id), id: entry.id }));

function itemList(data: ConversationItem[], hasMore: boolean, firstId?: string, lastId?: string): ItemList {
  return { object: 'list', data, has_more: hasMore, first_id: orNull(firstId) ?? data[0]?.id ?? null, last_id: orNull(lastId) ?? data[data.length - 1]?.id ?? null };
}

/**
 * `address`: host:port, a comma-separated list of replicas, or any grpc target. Reads use
 * `deadlineMs`; writes (which may store thousands of items in one transaction) use
 * `writeDeadlineMs` (default 10 s).
 */
export function createConversationsClient(options: { address: string; deadlineMs: number; writeDeadlineMs?: number; protosDir?: string }): ConversationsClient {
  const proto = loadConversationsProto(options.protosDir);
  const channelOptions = clientOptions(options.deadlineMs);
  const client = new proto.ConversationsService(grpcTarget(options.address), insecure(), channelOptions) as unknown as ConversationsServiceClient;
  const read = { deadlineMs: options.deadlineMs };
  const write = { deadlineMs: Math.max(options.deadlineMs, options.writeDeadlineMs ?? 10_000) };
  const rpc = <K extends Rpc>(name: K, request: WireRequest<K>, deadline: { deadlineMs: number }): Promise<WireReply<K>> =>
    callUnary<WireRequest<K>, WireReply<K>>(client[name] as never, client as unknown as grpc.Client, request, deadline, 'conversations_unavailable');

  return {
    async createConversation(query) {
      const reply = await rpc('CreateConversation', {
        organization_id: query.organization_id,
        metadata_json: toJson(query.metadata),
        ...(query.retention_days === undefined ? {} : { retention_days: query.retention_days }),
        organization_retention_days: query.organization_retention_days,
        items_json: toJson(query.items),
      }, write);
      return { conversation: JSON.parse(reply.conversation_json) as ConversationObject, delete_after_response: reply.delete_after_response };
    },
    async getConversation(query) {
      const reply = await rpc('GetConversation', query, read);
      return JSON.parse(reply.conversation_json) as ConversationObject;
    },
    async updateConversation(query) {
      const reply = await rpc('UpdateConversation', { organization_id: query.organization_id, conversation_id: query.conversation_id, metadata_json: toJson(query.metadata) }, write);
      return JSON.parse(reply.conversation_json) as ConversationObject;
    },
    async deleteConversation(query) {
      const reply = await rpc('DeleteConversation', query, write);
      return { id: reply.id, object: 'conversation.deleted', deleted: true };
    },
    async listItems(query) {
      const reply = await rpc('ListItems', { organization_id: query.organization_id, conversation_id: query.conversation_id, limit: query.limit ?? 0, after: query.after ?? '', order: query.order ?? '' }, read);
      return itemList(fromJson<ConversationItem[]>(reply.data_json, []), reply.has_more, reply.first_id, reply.last_id);
    },
    async addItems(query) {
      const reply = await rpc('AddItems', { organization_id: query.organization_id, conversation_id: query.conversation_id, items_json: toJson(query.items) }, write);
      return itemList(fromJson<ConversationItem[]>(reply.items_json, []), false);
    },
    async buildHistory(query) {
      const reply = await rpc('BuildHistory', { organization_id: query.organization_id, previous_response_id: query.previous_response_id ?? '', conversation_id: query.conversation_id ?? '' }, read);
      return history(reply);
    },
    async completeTurn(query) {
      const reply = await rpc('CompleteTurn', {
        organization_id: query.organization_id,
        response_id: query.response_id,
        conversation_id: query.conversation_id ?? '',
        new_conversation_id: query.new_conversation_id ?? '',
        parent_response_id: query.parent_response_id ?? '',
        ...(query.retention_days === undefined ? {} : { retention_days: query.retention_days }),
        organization_retention_days: query.organization_retention_days,
        input_items_json: toJson(query.input_items),
        response_json: JSON.stringify(query.response),
        stream_json: toJson(query.stream),
        pool_json: toJson(query.pool),
      }, write);
      return {
        response: JSON.parse(reply.response_json) as ResponseObject,
        conversation_id: reply.conversation_id,
        output_ids: storedIds(reply.output_ids),
        input_item_ids: reply.input_item_ids ?? [],
        delete_after_response: reply.delete_after_response,
        thread_entries: reply.thread_entries,
        thread_token_estimate: reply.thread_token_estimate,
        expires_at: reply.expires_at,
        input_items: fromJson<ConversationItem[]>(reply.input_items_json, []),
        turn_entries: reply.turn_entries ?? 0,
        turn_characters: Number(reply.turn_characters ?? 0),
      };
    },
    async getResponse(query) {
      const reply = await rpc('GetResponse', query, read);
      return {
        response: JSON.parse(reply.response_json) as ResponseObject,
        stored: JSON.parse(reply.stored_json) as ResponseObject,
        stream: fromJson<unknown>(reply.stream_json, null),
        conversation_id: reply.conversation_id,
        parent_response_id: orNull(reply.parent_response_id),
        status: reply.status,
        background: reply.background,
      };
    },
    async updateResponse(query) {
      const reply = await rpc('UpdateResponse', {
        organization_id: query.organization_id,
        response_id: query.response_id,
        response_json: JSON.stringify(query.response),
        organization_retention_days: query.organization_retention_days,
        stream_json: toJson(query.stream),
        cancel: query.cancel === true,
      }, write);
      return { updated: reply.updated, response: JSON.parse(reply.response_json) as ResponseObject, output_ids: storedIds(reply.output_ids), delete_after_response: reply.delete_after_response };
    },
    async deleteResponse(query) {
      const reply = await rpc('DeleteResponse', query, write);
      return { id: reply.id, object: 'response', deleted: true };
    },
    async storeCompaction(query) {
      const reply = await rpc('StoreCompaction', {
        organization_id: query.organization_id,
        conversation_id: query.conversation_id,
        head_response_id: query.head_response_id ?? '',
        replaces: query.replaces,
        summary: query.summary,
      }, write);
      return { item: JSON.parse(reply.item_json) as ConversationItem, history: history(reply.history) };
    },
    async claimPool(query) {
      return poolGroups(await rpc('ClaimPool', { claim_id: query.claim_id, max_lines: query.max_lines, max_age_ms: query.max_age_ms, lease_ms: query.lease_ms, max_groups: query.max_groups ?? 0 }, write));
    },
    async markPoolSent(query) {
      return (await rpc('MarkPoolSent', { claim_id: query.claim_id, response_ids: query.response_ids, vendor_batch_id: query.vendor_batch_id, vendor_batch_json: toJson(query.vendor_batch) }, write)).rows;
    },
    async releasePoolClaim(query) {
      return (await rpc('ReleasePoolClaim', query, write)).rows;
    },
    async claimPoolResults(query) {
      return poolGroups(await rpc('ClaimPoolResults', { claim_id: query.claim_id, lease_ms: query.lease_ms, max_batches: query.max_batches ?? 0 }, write));
    },
    close: () => (client as unknown as grpc.Client).close(),
  };
}
