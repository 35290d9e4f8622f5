import { ServiceError, internalError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import { unary, type ServiceRegistration, type UnavailableWhen } from '@svc/grpc';
import { isDependencyOutage } from '@svc/db';
import { loadConversationsProto, type ConversationsServiceHandlers } from '@svc/protos';
import type { Prisma } from './db';
import { addItems, createConversation, deleteConversation, getConversation, listItems, updateConversation } from './store/conversations';
import { deleteResponse, getResponse } from './store/responses';
import { buildHistory, completeTurn, storeCompaction, updateResponse, type History } from './store/turns';
import type { StoreDeps } from './store/queries';
import { noChanges, type ConversationChanges } from './changes';
import { claimPool, claimPoolResults, markPoolSent, releasePoolClaim, type PoolGroup } from './store/pool';

export interface ConversationsDeps {
  prisma: Prisma;
  logger: Logger;
  protosDir?: string;
  now?: () => Date;
  beforeCommit?: StoreDeps['beforeCommit'];
  /** Where a conversation whose history changed (other than by a new turn) is announced (changes.ts). */
  changes?: ConversationChanges;
}

/** A JSON field of a request ("" = absent). */
function parseJson(text: string | undefined, param: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ServiceError('invalid_json', `'${param}' is not valid JSON.`, { param });
  }
}

/** The organization's retention must be sent: proto3 would read a forgotten field as 0 (delete at once). */
function organizationRetention(value: number | undefined): number {
  if (value === undefined || value === null) throw internalError(new Error('organization_retention_days is required'));
  return value;
}

const json = (value: unknown) => (value === undefined || value === null ? '' : JSON.stringify(value));

function historyReply(history: History) {
  return {
    conversation_id: history.conversation_id,
    parent_response_id: history.parent_response_id,
    items_json: JSON.stringify(history.items),
    thread_entries: history.thread_entries,
    thread_token_estimate: history.thread_token_estimate,
    history_entries: history.history_entries,
    history_token_estimate: history.history_token_estimate,
    ...(history.retention_days === undefined ? {} : { retention_days: history.retention_days }),
    history_characters: history.history_characters,
    expires_at: history.expires_at,
  };
}

function poolGroupsReply(groups: PoolGroup[]) {
  return groups.map((group) => ({
    organization_id: group.organization_id,
    vendor: group.vendor,
    rows: group.rows.map(({ job, vendor_batch, ...row }) => ({ ...row, job_json: JSON.stringify(job), vendor_batch_json: json(vendor_batch) })),
  }));
}

const CONVERSATIONS_UNAVAILABLE: UnavailableWhen = {
  is: isDependencyOutage,
  code: 'conversations_unavailable',
  message: 'Stored conversations are unavailable right now; please try again shortly.',
};

/**
 * The ConversationsService registration over the store functions (nothing at import time). Wire
 * JSON strings are parsed here and the public objects rendered back; the functions in ./store
 * validate and run everything else.
 */
export function conversationsService(deps: ConversationsDeps): ServiceRegistration {
  const proto = loadConversationsProto(deps.protosDir);
  const store: StoreDeps = { prisma: deps.prisma, ...(deps.now ? { now: deps.now } : {}), ...(deps.beforeCommit ? { beforeCommit: deps.beforeCommit } : {}) };
  const log = deps.logger;
  // Postgres out of reach or out of connections (or Redis, for the change announcements) is this
  // service's 503, not a bug: the edge answers conversations_unavailable, the workers try again.
  const rpc = <Req, Res>(method: string, fn: (request: Req) => Promise<Res>) => unary<Req, Res>(log, method, fn, CONVERSATIONS_UNAVAILABLE);
  const changes = deps.changes ?? noChanges;
  /** The store's answer, once the change it made is announced. */
  const announced = async <T>(conversationId: string, result: T): Promise<T> => {
    await changes.changed(conversationId);
    return result;
  };
  const handlers: ConversationsServiceHandlers = {
    CreateConversation: rpc('CreateConversation', async (request) => {
      const result = await createConversation(store, {
        organization_id: request.organization_id,
        metadata: parseJson(request.metadata_json, 'metadata'),
        ...(request.retention_days === undefined ? {} : { retention_days: request.retention_days }),
        organization_retention_days: organizationRetention(request.organization_retention_days),
        items: parseJson(request.items_json, 'items'),
      });
      return { conversation_json: JSON.stringify(result.conversation), delete_after_response: result.delete_after_response };
    }),
    GetConversation: rpc('GetConversation', async (request) => ({
      conversation_json: JSON.stringify(await getConversation(store, request.organization_id, request.conversation_id)),
      delete_after_response: false,
    })),
    UpdateConversation: rpc('UpdateConversation', async (request) => ({
      conversation_json: JSON.stringify(await updateConversation(store, request.organization_id, request.conversation_id, parseJson(request.metadata_json, 'metadata'))),
      delete_after_response: false,
    })),
    DeleteConversation: rpc('DeleteConversation', async (request) => announced(request.conversation_id, await deleteConversation(store, request.organization_id, request.conversation_id))),
    ListItems: rpc('ListItems', async (request) => {
      const list = await listItems(store, {
        organization_id: request.organization_id,
        conversation_id: request.conversation_id,
        limit: request.limit,
        after: request.after,
        order: request.order as 'asc' | 'desc' | '',
      });
      return { data_json: JSON.stringify(list.data), has_more: list.has_more, first_id: list.first_id ?? '', last_id: list.last_id ?? '' };
    }),
    AddItems: rpc('AddItems', async (request) => {
      const items = await addItems(store, { organization_id: request.organization_id, conversation_id: request.conversation_id, items: parseJson(request.items_json, 'items') });
      return announced(request.conversation_id, { items_json: JSON.stringify(items) });
    }),
    BuildHistory: rpc('BuildHistory', async (request) =>
      historyReply(await buildHistory(store, { organization_id: request.organization_id, previous_response_id: request.previous_response_id, conversation_id: request.conversation_id })),
    ),
    CompleteTurn: rpc('CompleteTurn', async (request) => {
      const turn = await completeTurn(store, {
        organization_id: request.organization_id,
        response_id: request.response_id,
        conversation_id: request.conversation_id,
        new_conversation_id: request.new_conversation_id,
        parent_response_id: request.parent_response_id,
        ...(request.retention_days === undefined ? {} : { retention_days: request.retention_days }),
        organization_retention_days: organizationRetention(request.organization_retention_days),
        input_items: parseJson(request.input_items_json, 'input'),
        response: parseJson(request.response_json, 'response'),
        stream: parseJson(request.stream_json, 'stream'),
        pool: parseJson(request.pool_json, 'pool'),
      });
      return {
        response_json: JSON.stringify(turn.response),
        conversation_id: turn.conversation_id,
        output_ids: turn.output_ids,
        input_item_ids: turn.input_item_ids,
        delete_after_response: turn.delete_after_response,
        thread_entries: turn.thread_entries,
        thread_token_estimate: turn.thread_token_estimate,
        expires_at: turn.expires_at,
        input_items_json: JSON.stringify(turn.input_items),
        turn_entries: turn.turn_entries,
        turn_characters: turn.turn_characters,
      };
    }),
    GetResponse: rpc('GetResponse', async (request) => {
      const stored = await getResponse(store, request.organization_id, request.response_id);
      return {
        response_json: JSON.stringify(stored.response),
        stored_json: JSON.stringify(stored.stored),
        stream_json: json(stored.stream),
        conversation_id: stored.conversation_id,
        parent_response_id: stored.parent_response_id,
        status: stored.status,
        background: stored.background,
      };
    }),
    UpdateResponse: rpc('UpdateResponse', async (request) => {
      const result = await updateResponse(store, {
        organization_id: request.organization_id,
        response_id: request.response_id,
        response: parseJson(request.response_json, 'response'),
        organization_retention_days: organizationRetention(request.organization_retention_days),
        stream: parseJson(request.stream_json, 'stream'),
        cancel: request.cancel === true,
      });
      return { updated: result.updated, response_json: JSON.stringify(result.response), output_ids: result.output_ids, delete_after_response: result.delete_after_response };
    }),
    DeleteResponse: rpc('DeleteResponse', async (request) => {
      const { conversation_id: conversationId, ...deleted } = await deleteResponse(store, request.organization_id, request.response_id);
      return announced(conversationId, deleted);
    }),
    StoreCompaction: rpc('StoreCompaction', async (request) => {
      const result = await storeCompaction(store, {
        organization_id: request.organization_id,
        conversation_id: request.conversation_id,
        head_response_id: request.head_response_id,
        replaces: request.replaces,
        summary: request.summary,
      });
      return announced(request.conversation_id, { item_json: JSON.stringify(result.item), history: historyReply(result.history) });
    }),
    ClaimPool: rpc('ClaimPool', async (request) => ({
      groups: poolGroupsReply(await claimPool(store, { claim_id: request.claim_id, max_lines: request.max_lines, max_age_ms: Number(request.max_age_ms), lease_ms: Number(request.lease_ms), max_groups: request.max_groups })),
    })),
    MarkPoolSent: rpc('MarkPoolSent', async (request) => ({
      rows: await markPoolSent(store, { claim_id: request.claim_id, response_ids: request.response_ids ?? [], vendor_batch_id: request.vendor_batch_id, vendor_batch: parseJson(request.vendor_batch_json, 'vendor_batch') }),
    })),
    ReleasePoolClaim: rpc('ReleasePoolClaim', async (request) => ({ rows: await releasePoolClaim(store, { claim_id: request.claim_id, response_ids: request.response_ids ?? [] }) })),
    ClaimPoolResults: rpc('ClaimPoolResults', async (request) => ({
      groups: poolGroupsReply(await claimPoolResults(store, { claim_id: request.claim_id, lease_ms: Number(request.lease_ms), max_batches: request.max_batches })),
    })),
  };
  return { definition: proto.ConversationsService.service, implementation: handlers as never, name: 'svc.conversations.v1.ConversationsService' };
}
