// Original file: protos/svc/conversations/v1/conversations_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AddItemsRequest as _svc_conversations_v1_AddItemsRequest, AddItemsRequest__Output as _svc_conversations_v1_AddItemsRequest__Output } from '../../../svc/conversations/v1/AddItemsRequest';
import type { AddItemsResponse as _svc_conversations_v1_AddItemsResponse, AddItemsResponse__Output as _svc_conversations_v1_AddItemsResponse__Output } from '../../../svc/conversations/v1/AddItemsResponse';
import type { BuildHistoryRequest as _svc_conversations_v1_BuildHistoryRequest, BuildHistoryRequest__Output as _svc_conversations_v1_BuildHistoryRequest__Output } from '../../../svc/conversations/v1/BuildHistoryRequest';
import type { ClaimPoolRequest as _svc_conversations_v1_ClaimPoolRequest, ClaimPoolRequest__Output as _svc_conversations_v1_ClaimPoolRequest__Output } from '../../../svc/conversations/v1/ClaimPoolRequest';
import type { ClaimPoolResponse as _svc_conversations_v1_ClaimPoolResponse, ClaimPoolResponse__Output as _svc_conversations_v1_ClaimPoolResponse__Output } from '../../../svc/conversations/v1/ClaimPoolResponse';
import type { ClaimPoolResultsRequest as _svc_conversations_v1_ClaimPoolResultsRequest, ClaimPoolResultsRequest__Output as _svc_conversations_v1_ClaimPoolResultsRequest__Output } from '../../../svc/conversations/v1/ClaimPoolResultsRequest';
import type { CompleteTurnRequest as _svc_conversations_v1_CompleteTurnRequest, CompleteTurnRequest__Output as _svc_conversations_v1_CompleteTurnRequest__Output } from '../../../svc/conversations/v1/CompleteTurnRequest';
import type { CompleteTurnResponse as _svc_conversations_v1_CompleteTurnResponse, CompleteTurnResponse__Output as _svc_conversations_v1_CompleteTurnResponse__Output } from '../../../svc/conversations/v1/CompleteTurnResponse';
import type { ConversationReply as _svc_conversations_v1_ConversationReply, ConversationReply__Output as _svc_conversations_v1_ConversationReply__Output } from '../../../svc/conversations/v1/ConversationReply';
import type { CreateConversationRequest as _svc_conversations_v1_CreateConversationRequest, CreateConversationRequest__Output as _svc_conversations_v1_CreateConversationRequest__Output } from '../../../svc/conversations/v1/CreateConversationRequest';
import type { DeleteConversationResponse as _svc_conversations_v1_DeleteConversationResponse, DeleteConversationResponse__Output as _svc_conversations_v1_DeleteConversationResponse__Output } from '../../../svc/conversations/v1/DeleteConversationResponse';
import type { DeleteResponseResponse as _svc_conversations_v1_DeleteResponseResponse, DeleteResponseResponse__Output as _svc_conversations_v1_DeleteResponseResponse__Output } from '../../../svc/conversations/v1/DeleteResponseResponse';
import type { GetConversationRequest as _svc_conversations_v1_GetConversationRequest, GetConversationRequest__Output as _svc_conversations_v1_GetConversationRequest__Output } from '../../../svc/conversations/v1/GetConversationRequest';
import type { GetResponseRequest as _svc_conversations_v1_GetResponseRequest, GetResponseRequest__Output as _svc_conversations_v1_GetResponseRequest__Output } from '../../../svc/conversations/v1/GetResponseRequest';
import type { HistoryReply as _svc_conversations_v1_HistoryReply, HistoryReply__Output as _svc_conversations_v1_HistoryReply__Output } from '../../../svc/conversations/v1/HistoryReply';
import type { ListItemsRequest as _svc_conversations_v1_ListItemsRequest, ListItemsRequest__Output as _svc_conversations_v1_ListItemsRequest__Output } from '../../../svc/conversations/v1/ListItemsRequest';
import type { ListItemsResponse as _svc_conversations_v1_ListItemsResponse, ListItemsResponse__Output as _svc_conversations_v1_ListItemsResponse__Output } from '../../../svc/conversations/v1/ListItemsResponse';
import type { MarkPoolSentRequest as _svc_conversations_v1_MarkPoolSentRequest, MarkPoolSentRequest__Output as _svc_conversations_v1_MarkPoolSentRequest__Output } from '../../../svc/conversations/v1/MarkPoolSentRequest';
import type { MarkPoolSentResponse as _svc_conversations_v1_MarkPoolSentResponse, MarkPoolSentResponse__Output as _svc_conversations_v1_MarkPoolSentResponse__Output } from '../../../svc/conversations/v1/MarkPoolSentResponse';
import type { ReleasePoolClaimRequest as _svc_conversations_v1_ReleasePoolClaimRequest, ReleasePoolClaimRequest__Output as _svc_conversations_v1_ReleasePoolClaimRequest__Output } from '../../../svc/conversations/v1/ReleasePoolClaimRequest';
import type { ResponseReply as _svc_conversations_v1_ResponseReply, ResponseReply__Output as _svc_conversations_v1_ResponseReply__Output } from '../../../svc/conversations/v1/ResponseReply';
import type { StoreCompactionRequest as _svc_conversations_v1_StoreCompactionRequest, StoreCompactionRequest__Output as _svc_conversations_v1_StoreCompactionRequest__Output } from '../../../svc/conversations/v1/StoreCompactionRequest';
import type { StoreCompactionResponse as _svc_conversations_v1_StoreCompactionResponse, StoreCompactionResponse__Output as _svc_conversations_v1_StoreCompactionResponse__Output } from '../../../svc/conversations/v1/StoreCompactionResponse';
import type { UpdateConversationRequest as _svc_conversations_v1_UpdateConversationRequest, UpdateConversationRequest__Output as _svc_conversations_v1_UpdateConversationRequest__Output } from '../../../svc/conversations/v1/UpdateConversationRequest';
import type { UpdateResponseRequest as _svc_conversations_v1_UpdateResponseRequest, UpdateResponseRequest__Output as _svc_conversations_v1_UpdateResponseRequest__Output } from '../../../svc/conversations/v1/UpdateResponseRequest';
import type { UpdateResponseResponse as _svc_conversations_v1_UpdateResponseResponse, UpdateResponseResponse__Output as _svc_conversations_v1_UpdateResponseResponse__Output } from '../../../svc/conversations/v1/UpdateResponseResponse';

/**
 * ConversationsService owns stored responses, conversations and their items (Postgres schema
 * "conversations"). Public objects travel as JSON strings in the spec's shapes (conversation
 * object, item shapes, response object) so the service renders them once and the edge passes
 * them through. Every request names its organization: another organization's ids are simply not
 * found. Everything a reply names an id for was committed to Postgres before the reply was sent,
 * so any replica reads it at once. Errors are spec codes in gRPC metadata (libs/errors).
 * 
 * Thread model (services/conversations/README.md, "Conversations storage"): a conversation is a
 * tree. Its nodes are the root (items stored without any turn before them) and its responses; a
 * response points at its parent response (none: the root). A thread is the chain of parents from
 * a response up to the root; continuing from an older response starts a new branch. Each item
 * belongs to one node: a turn's input and output items to its response, items added without a
 * turn (AddItems) to the conversation's latest response at the time (the root when it has
 * none), a compaction item to the thread head it was made for. A thread's history is the items
 * of its nodes, root first, each node's items in creation order, with every compaction item in
 * place of the items it replaced.
 */
export interface ConversationsServiceClient extends grpc.Client {
  /**
   * POST /v1/conversations/{id}/items: stored without a model turn, after the latest turn.
   */
  AddItems(argument: _svc_conversations_v1_AddItemsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_AddItemsResponse__Output>): grpc.ClientUnaryCall;
  AddItems(argument: _svc_conversations_v1_AddItemsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_AddItemsResponse__Output>): grpc.ClientUnaryCall;
  AddItems(argument: _svc_conversations_v1_AddItemsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_AddItemsResponse__Output>): grpc.ClientUnaryCall;
  AddItems(argument: _svc_conversations_v1_AddItemsRequest, callback: grpc.requestCallback<_svc_conversations_v1_AddItemsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v1/conversations/{id}/items: stored without a model turn, after the latest turn.
   */
  addItems(argument: _svc_conversations_v1_AddItemsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_AddItemsResponse__Output>): grpc.ClientUnaryCall;
  addItems(argument: _svc_conversations_v1_AddItemsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_AddItemsResponse__Output>): grpc.ClientUnaryCall;
  addItems(argument: _svc_conversations_v1_AddItemsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_AddItemsResponse__Output>): grpc.ClientUnaryCall;
  addItems(argument: _svc_conversations_v1_AddItemsRequest, callback: grpc.requestCallback<_svc_conversations_v1_AddItemsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * A turn's history before the model call (read only; also for store false).
   */
  BuildHistory(argument: _svc_conversations_v1_BuildHistoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_HistoryReply__Output>): grpc.ClientUnaryCall;
  BuildHistory(argument: _svc_conversations_v1_BuildHistoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_HistoryReply__Output>): grpc.ClientUnaryCall;
  BuildHistory(argument: _svc_conversations_v1_BuildHistoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_HistoryReply__Output>): grpc.ClientUnaryCall;
  BuildHistory(argument: _svc_conversations_v1_BuildHistoryRequest, callback: grpc.requestCallback<_svc_conversations_v1_HistoryReply__Output>): grpc.ClientUnaryCall;
  /**
   * A turn's history before the model call (read only; also for store false).
   */
  buildHistory(argument: _svc_conversations_v1_BuildHistoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_HistoryReply__Output>): grpc.ClientUnaryCall;
  buildHistory(argument: _svc_conversations_v1_BuildHistoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_HistoryReply__Output>): grpc.ClientUnaryCall;
  buildHistory(argument: _svc_conversations_v1_BuildHistoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_HistoryReply__Output>): grpc.ClientUnaryCall;
  buildHistory(argument: _svc_conversations_v1_BuildHistoryRequest, callback: grpc.requestCallback<_svc_conversations_v1_HistoryReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The vendor-batch pool of batch-bound background responses (table response_pool; rows join
   * it through CompleteTurn's pool_json and leave it when UpdateResponse ends their response).
   * Claims, per (organization, vendor), up to max_lines waiting rows when that many wait or the
   * oldest waited max_age_ms; expired claims without a vendor batch go back to waiting first.
   */
  ClaimPool(argument: _svc_conversations_v1_ClaimPoolRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  ClaimPool(argument: _svc_conversations_v1_ClaimPoolRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  ClaimPool(argument: _svc_conversations_v1_ClaimPoolRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  ClaimPool(argument: _svc_conversations_v1_ClaimPoolRequest, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The vendor-batch pool of batch-bound background responses (table response_pool; rows join
   * it through CompleteTurn's pool_json and leave it when UpdateResponse ends their response).
   * Claims, per (organization, vendor), up to max_lines waiting rows when that many wait or the
   * oldest waited max_age_ms; expired claims without a vendor batch go back to waiting first.
   */
  claimPool(argument: _svc_conversations_v1_ClaimPoolRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  claimPool(argument: _svc_conversations_v1_ClaimPoolRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  claimPool(argument: _svc_conversations_v1_ClaimPoolRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  claimPool(argument: _svc_conversations_v1_ClaimPoolRequest, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Sent rows whose poll lease has expired, leased to `claim_id` for lease_ms: one replica polls
   * each row's vendor batch at a time; any replica resumes after a crash.
   */
  ClaimPoolResults(argument: _svc_conversations_v1_ClaimPoolResultsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  ClaimPoolResults(argument: _svc_conversations_v1_ClaimPoolResultsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  ClaimPoolResults(argument: _svc_conversations_v1_ClaimPoolResultsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  ClaimPoolResults(argument: _svc_conversations_v1_ClaimPoolResultsRequest, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Sent rows whose poll lease has expired, leased to `claim_id` for lease_ms: one replica polls
   * each row's vendor batch at a time; any replica resumes after a crash.
   */
  claimPoolResults(argument: _svc_conversations_v1_ClaimPoolResultsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  claimPoolResults(argument: _svc_conversations_v1_ClaimPoolResultsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  claimPoolResults(argument: _svc_conversations_v1_ClaimPoolResultsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  claimPoolResults(argument: _svc_conversations_v1_ClaimPoolResultsRequest, callback: grpc.requestCallback<_svc_conversations_v1_ClaimPoolResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * A finished (or queued background) turn: input items, output items and the response in one
   * transaction; creates the conversation when the turn has none; restarts the retention clock.
   */
  CompleteTurn(argument: _svc_conversations_v1_CompleteTurnRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_CompleteTurnResponse__Output>): grpc.ClientUnaryCall;
  CompleteTurn(argument: _svc_conversations_v1_CompleteTurnRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_CompleteTurnResponse__Output>): grpc.ClientUnaryCall;
  CompleteTurn(argument: _svc_conversations_v1_CompleteTurnRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_CompleteTurnResponse__Output>): grpc.ClientUnaryCall;
  CompleteTurn(argument: _svc_conversations_v1_CompleteTurnRequest, callback: grpc.requestCallback<_svc_conversations_v1_CompleteTurnResponse__Output>): grpc.ClientUnaryCall;
  /**
   * A finished (or queued background) turn: input items, output items and the response in one
   * transaction; creates the conversation when the turn has none; restarts the retention clock.
   */
  completeTurn(argument: _svc_conversations_v1_CompleteTurnRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_CompleteTurnResponse__Output>): grpc.ClientUnaryCall;
  completeTurn(argument: _svc_conversations_v1_CompleteTurnRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_CompleteTurnResponse__Output>): grpc.ClientUnaryCall;
  completeTurn(argument: _svc_conversations_v1_CompleteTurnRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_CompleteTurnResponse__Output>): grpc.ClientUnaryCall;
  completeTurn(argument: _svc_conversations_v1_CompleteTurnRequest, callback: grpc.requestCallback<_svc_conversations_v1_CompleteTurnResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v1/conversations: metadata, initial items (on the root), retention.
   */
  CreateConversation(argument: _svc_conversations_v1_CreateConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  CreateConversation(argument: _svc_conversations_v1_CreateConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  CreateConversation(argument: _svc_conversations_v1_CreateConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  CreateConversation(argument: _svc_conversations_v1_CreateConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v1/conversations: metadata, initial items (on the root), retention.
   */
  createConversation(argument: _svc_conversations_v1_CreateConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  createConversation(argument: _svc_conversations_v1_CreateConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  createConversation(argument: _svc_conversations_v1_CreateConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  createConversation(argument: _svc_conversations_v1_CreateConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Immediate and permanent: the conversation, its responses and items.
   */
  DeleteConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  DeleteConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  DeleteConversation(argument: _svc_conversations_v1_GetConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  DeleteConversation(argument: _svc_conversations_v1_GetConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Immediate and permanent: the conversation, its responses and items.
   */
  deleteConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  deleteConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  deleteConversation(argument: _svc_conversations_v1_GetConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  deleteConversation(argument: _svc_conversations_v1_GetConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * DELETE /v1/responses/{id}: the turn and every turn after it on its threads (descendants).
   */
  DeleteResponse(argument: _svc_conversations_v1_GetResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteResponseResponse__Output>): grpc.ClientUnaryCall;
  DeleteResponse(argument: _svc_conversations_v1_GetResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_DeleteResponseResponse__Output>): grpc.ClientUnaryCall;
  DeleteResponse(argument: _svc_conversations_v1_GetResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteResponseResponse__Output>): grpc.ClientUnaryCall;
  DeleteResponse(argument: _svc_conversations_v1_GetResponseRequest, callback: grpc.requestCallback<_svc_conversations_v1_DeleteResponseResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DELETE /v1/responses/{id}: the turn and every turn after it on its threads (descendants).
   */
  deleteResponse(argument: _svc_conversations_v1_GetResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteResponseResponse__Output>): grpc.ClientUnaryCall;
  deleteResponse(argument: _svc_conversations_v1_GetResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_DeleteResponseResponse__Output>): grpc.ClientUnaryCall;
  deleteResponse(argument: _svc_conversations_v1_GetResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteResponseResponse__Output>): grpc.ClientUnaryCall;
  deleteResponse(argument: _svc_conversations_v1_GetResponseRequest, callback: grpc.requestCallback<_svc_conversations_v1_DeleteResponseResponse__Output>): grpc.ClientUnaryCall;
  
  GetConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  GetConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  GetConversation(argument: _svc_conversations_v1_GetConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  GetConversation(argument: _svc_conversations_v1_GetConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  getConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  getConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  getConversation(argument: _svc_conversations_v1_GetConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  getConversation(argument: _svc_conversations_v1_GetConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v1/responses/{id}.
   */
  GetResponse(argument: _svc_conversations_v1_GetResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ResponseReply__Output>): grpc.ClientUnaryCall;
  GetResponse(argument: _svc_conversations_v1_GetResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ResponseReply__Output>): grpc.ClientUnaryCall;
  GetResponse(argument: _svc_conversations_v1_GetResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ResponseReply__Output>): grpc.ClientUnaryCall;
  GetResponse(argument: _svc_conversations_v1_GetResponseRequest, callback: grpc.requestCallback<_svc_conversations_v1_ResponseReply__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v1/responses/{id}.
   */
  getResponse(argument: _svc_conversations_v1_GetResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ResponseReply__Output>): grpc.ClientUnaryCall;
  getResponse(argument: _svc_conversations_v1_GetResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ResponseReply__Output>): grpc.ClientUnaryCall;
  getResponse(argument: _svc_conversations_v1_GetResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ResponseReply__Output>): grpc.ClientUnaryCall;
  getResponse(argument: _svc_conversations_v1_GetResponseRequest, callback: grpc.requestCallback<_svc_conversations_v1_ResponseReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v1/conversations/{id}/items: every thread, in creation order, compaction items included.
   */
  ListItems(argument: _svc_conversations_v1_ListItemsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ListItemsResponse__Output>): grpc.ClientUnaryCall;
  ListItems(argument: _svc_conversations_v1_ListItemsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ListItemsResponse__Output>): grpc.ClientUnaryCall;
  ListItems(argument: _svc_conversations_v1_ListItemsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ListItemsResponse__Output>): grpc.ClientUnaryCall;
  ListItems(argument: _svc_conversations_v1_ListItemsRequest, callback: grpc.requestCallback<_svc_conversations_v1_ListItemsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v1/conversations/{id}/items: every thread, in creation order, compaction items included.
   */
  listItems(argument: _svc_conversations_v1_ListItemsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ListItemsResponse__Output>): grpc.ClientUnaryCall;
  listItems(argument: _svc_conversations_v1_ListItemsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ListItemsResponse__Output>): grpc.ClientUnaryCall;
  listItems(argument: _svc_conversations_v1_ListItemsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ListItemsResponse__Output>): grpc.ClientUnaryCall;
  listItems(argument: _svc_conversations_v1_ListItemsRequest, callback: grpc.requestCallback<_svc_conversations_v1_ListItemsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Claimed rows of `claim_id` are inside a vendor batch now (state sent, with its handle).
   */
  MarkPoolSent(argument: _svc_conversations_v1_MarkPoolSentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  MarkPoolSent(argument: _svc_conversations_v1_MarkPoolSentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  MarkPoolSent(argument: _svc_conversations_v1_MarkPoolSentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  MarkPoolSent(argument: _svc_conversations_v1_MarkPoolSentRequest, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Claimed rows of `claim_id` are inside a vendor batch now (state sent, with its handle).
   */
  markPoolSent(argument: _svc_conversations_v1_MarkPoolSentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  markPoolSent(argument: _svc_conversations_v1_MarkPoolSentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  markPoolSent(argument: _svc_conversations_v1_MarkPoolSentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  markPoolSent(argument: _svc_conversations_v1_MarkPoolSentRequest, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Claimed rows of `claim_id` go back to waiting (the batch could not be sent).
   */
  ReleasePoolClaim(argument: _svc_conversations_v1_ReleasePoolClaimRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  ReleasePoolClaim(argument: _svc_conversations_v1_ReleasePoolClaimRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  ReleasePoolClaim(argument: _svc_conversations_v1_ReleasePoolClaimRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  ReleasePoolClaim(argument: _svc_conversations_v1_ReleasePoolClaimRequest, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Claimed rows of `claim_id` go back to waiting (the batch could not be sent).
   */
  releasePoolClaim(argument: _svc_conversations_v1_ReleasePoolClaimRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  releasePoolClaim(argument: _svc_conversations_v1_ReleasePoolClaimRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  releasePoolClaim(argument: _svc_conversations_v1_ReleasePoolClaimRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  releasePoolClaim(argument: _svc_conversations_v1_ReleasePoolClaimRequest, callback: grpc.requestCallback<_svc_conversations_v1_MarkPoolSentResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * A compaction summary replacing a contiguous run of a thread's history.
   */
  StoreCompaction(argument: _svc_conversations_v1_StoreCompactionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_StoreCompactionResponse__Output>): grpc.ClientUnaryCall;
  StoreCompaction(argument: _svc_conversations_v1_StoreCompactionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_StoreCompactionResponse__Output>): grpc.ClientUnaryCall;
  StoreCompaction(argument: _svc_conversations_v1_StoreCompactionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_StoreCompactionResponse__Output>): grpc.ClientUnaryCall;
  StoreCompaction(argument: _svc_conversations_v1_StoreCompactionRequest, callback: grpc.requestCallback<_svc_conversations_v1_StoreCompactionResponse__Output>): grpc.ClientUnaryCall;
  /**
   * A compaction summary replacing a contiguous run of a thread's history.
   */
  storeCompaction(argument: _svc_conversations_v1_StoreCompactionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_StoreCompactionResponse__Output>): grpc.ClientUnaryCall;
  storeCompaction(argument: _svc_conversations_v1_StoreCompactionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_StoreCompactionResponse__Output>): grpc.ClientUnaryCall;
  storeCompaction(argument: _svc_conversations_v1_StoreCompactionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_StoreCompactionResponse__Output>): grpc.ClientUnaryCall;
  storeCompaction(argument: _svc_conversations_v1_StoreCompactionRequest, callback: grpc.requestCallback<_svc_conversations_v1_StoreCompactionResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v1/conversations/{id}: replaces the metadata.
   */
  UpdateConversation(argument: _svc_conversations_v1_UpdateConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  UpdateConversation(argument: _svc_conversations_v1_UpdateConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  UpdateConversation(argument: _svc_conversations_v1_UpdateConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  UpdateConversation(argument: _svc_conversations_v1_UpdateConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v1/conversations/{id}: replaces the metadata.
   */
  updateConversation(argument: _svc_conversations_v1_UpdateConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  updateConversation(argument: _svc_conversations_v1_UpdateConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  updateConversation(argument: _svc_conversations_v1_UpdateConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  updateConversation(argument: _svc_conversations_v1_UpdateConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * A queued (background) response reaches an ended state: output stored, status changed.
   */
  UpdateResponse(argument: _svc_conversations_v1_UpdateResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_UpdateResponseResponse__Output>): grpc.ClientUnaryCall;
  UpdateResponse(argument: _svc_conversations_v1_UpdateResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_UpdateResponseResponse__Output>): grpc.ClientUnaryCall;
  UpdateResponse(argument: _svc_conversations_v1_UpdateResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_UpdateResponseResponse__Output>): grpc.ClientUnaryCall;
  UpdateResponse(argument: _svc_conversations_v1_UpdateResponseRequest, callback: grpc.requestCallback<_svc_conversations_v1_UpdateResponseResponse__Output>): grpc.ClientUnaryCall;
  /**
   * A queued (background) response reaches an ended state: output stored, status changed.
   */
  updateResponse(argument: _svc_conversations_v1_UpdateResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_UpdateResponseResponse__Output>): grpc.ClientUnaryCall;
  updateResponse(argument: _svc_conversations_v1_UpdateResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_UpdateResponseResponse__Output>): grpc.ClientUnaryCall;
  updateResponse(argument: _svc_conversations_v1_UpdateResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_UpdateResponseResponse__Output>): grpc.ClientUnaryCall;
  updateResponse(argument: _svc_conversations_v1_UpdateResponseRequest, callback: grpc.requestCallback<_svc_conversations_v1_UpdateResponseResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * ConversationsService owns stored responses, conversations and their items (Postgres schema
 * "conversations"). Public objects travel as JSON strings in the spec's shapes (conversation
 * object, item shapes, response object) so the service renders them once and the edge passes
 * them through. Every request names its organization: another organization's ids are simply not
 * found. Everything a reply names an id for was committed to Postgres before the reply was sent,
 * so any replica reads it at once. Errors are spec codes in gRPC metadata (libs/errors).
 * 
 * Thread model (services/conversations/README.md, "Conversations storage"): a conversation is a
 * tree. Its nodes are the root (items stored without any turn before them) and its responses; a
 * response points at its parent response (none: the root). A thread is the chain of parents from
 * a response up to the root; continuing from an older response starts a new branch. Each item
 * belongs to one node: a turn's input and output items to its response, items added without a
 * turn (AddItems) to the conversation's latest response at the time (the root when it has
 * none), a compaction item to the thread head it was made for. A thread's history is the items
 * of its nodes, root first, each node's items in creation order, with every compaction item in
 * place of the items it replaced.
 */
export interface ConversationsServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * POST /v1/conversations/{id}/items: stored without a model turn, after the latest turn.
   */
  AddItems: grpc.handleUnaryCall<_svc_conversations_v1_AddItemsRequest__Output, _svc_conversations_v1_AddItemsResponse>;
  
  /**
   * A turn's history before the model call (read only; also for store false).
   */
  BuildHistory: grpc.handleUnaryCall<_svc_conversations_v1_BuildHistoryRequest__Output, _svc_conversations_v1_HistoryReply>;
  
  /**
   * The vendor-batch pool of batch-bound background responses (table response_pool; rows join
   * it through CompleteTurn's pool_json and leave it when UpdateResponse ends their response).
   * Claims, per (organization, vendor), up to max_lines waiting rows when that many wait or the
   * oldest waited max_age_ms; expired claims without a vendor batch go back to waiting first.
   */
  ClaimPool: grpc.handleUnaryCall<_svc_conversations_v1_ClaimPoolRequest__Output, _svc_conversations_v1_ClaimPoolResponse>;
  
  /**
   * Sent rows whose poll lease has expired, leased to `claim_id` for lease_ms: one replica polls
   * each row's vendor batch at a time; any replica resumes after a crash.
   */
  ClaimPoolResults: grpc.handleUnaryCall<_svc_conversations_v1_ClaimPoolResultsRequest__Output, _svc_conversations_v1_ClaimPoolResponse>;
  
  /**
   * A finished (or queued background) turn: input items, output items and the response in one
   * transaction; creates the conversation when the turn has none; restarts the retention clock.
   */
  CompleteTurn: grpc.handleUnaryCall<_svc_conversations_v1_CompleteTurnRequest__Output, _svc_conversations_v1_CompleteTurnResponse>;
  
  /**
   * POST /v1/conversations: metadata, initial items (on the root), retention.
   */
  CreateConversation: grpc.handleUnaryCall<_svc_conversations_v1_CreateConversationRequest__Output, _svc_conversations_v1_ConversationReply>;
  
  /**
   * Immediate and permanent: the conversation, its responses and items.
   */
  DeleteConversation: grpc.handleUnaryCall<_svc_conversations_v1_GetConversationRequest__Output, _svc_conversations_v1_DeleteConversationResponse>;
  
  /**
   * DELETE /v1/responses/{id}: the turn and every turn after it on its threads (descendants).
   */
  DeleteResponse: grpc.handleUnaryCall<_svc_conversations_v1_GetResponseRequest__Output, _svc_conversations_v1_DeleteResponseResponse>;
  
  GetConversation: grpc.handleUnaryCall<_svc_conversations_v1_GetConversationRequest__Output, _svc_conversations_v1_ConversationReply>;
  
  /**
   * GET /v1/responses/{id}.
   */
  GetResponse: grpc.handleUnaryCall<_svc_conversations_v1_GetResponseRequest__Output, _svc_conversations_v1_ResponseReply>;
  
  /**
   * GET /v1/conversations/{id}/items: every thread, in creation order, compaction items included.
   */
  ListItems: grpc.handleUnaryCall<_svc_conversations_v1_ListItemsRequest__Output, _svc_conversations_v1_ListItemsResponse>;
  
  /**
   * Claimed rows of `claim_id` are inside a vendor batch now (state sent, with its handle).
   */
  MarkPoolSent: grpc.handleUnaryCall<_svc_conversations_v1_MarkPoolSentRequest__Output, _svc_conversations_v1_MarkPoolSentResponse>;
  
  /**
   * Claimed rows of `claim_id` go back to waiting (the batch could not be sent).
   */
  ReleasePoolClaim: grpc.handleUnaryCall<_svc_conversations_v1_ReleasePoolClaimRequest__Output, _svc_conversations_v1_MarkPoolSentResponse>;
  
  /**
   * A compaction summary replacing a contiguous run of a thread's history.
   */
  StoreCompaction: grpc.handleUnaryCall<_svc_conversations_v1_StoreCompactionRequest__Output, _svc_conversations_v1_StoreCompactionResponse>;
  
  /**
   * POST /v1/conversations/{id}: replaces the metadata.
   */
  UpdateConversation: grpc.handleUnaryCall<_svc_conversations_v1_UpdateConversationRequest__Output, _svc_conversations_v1_ConversationReply>;
  
  /**
   * A queued (background) response reaches an ended state: output stored, status changed.
   */
  UpdateResponse: grpc.handleUnaryCall<_svc_conversations_v1_UpdateResponseRequest__Output, _svc_conversations_v1_UpdateResponseResponse>;
  
}

export interface ConversationsServiceDefinition extends grpc.ServiceDefinition {
  AddItems: MethodDefinition<_svc_conversations_v1_AddItemsRequest, _svc_conversations_v1_AddItemsResponse, _svc_conversations_v1_AddItemsRequest__Output, _svc_conversations_v1_AddItemsResponse__Output>
  BuildHistory: MethodDefinition<_svc_conversations_v1_BuildHistoryRequest, _svc_conversations_v1_HistoryReply, _svc_conversations_v1_BuildHistoryRequest__Output, _svc_conversations_v1_HistoryReply__Output>
  ClaimPool: MethodDefinition<_svc_conversations_v1_ClaimPoolRequest, _svc_conversations_v1_ClaimPoolResponse, _svc_conversations_v1_ClaimPoolRequest__Output, _svc_conversations_v1_ClaimPoolResponse__Output>
  ClaimPoolResults: MethodDefinition<_svc_conversations_v1_ClaimPoolResultsRequest, _svc_conversations_v1_ClaimPoolResponse, _svc_conversations_v1_ClaimPoolResultsRequest__Output, _svc_conversations_v1_ClaimPoolResponse__Output>
  CompleteTurn: MethodDefinition<_svc_conversations_v1_CompleteTurnRequest, _svc_conversations_v1_CompleteTurnResponse, _svc_conversations_v1_CompleteTurnRequest__Output, _svc_conversations_v1_CompleteTurnResponse__Output>
  CreateConversation: MethodDefinition<_svc_conversations_v1_CreateConversationRequest, _svc_conversations_v1_ConversationReply, _svc_conversations_v1_CreateConversationRequest__Output, _svc_conversations_v1_ConversationReply__Output>
  DeleteConversation: MethodDefinition<_svc_conversations_v1_GetConversationRequest, _svc_conversations_v1_DeleteConversationResponse, _svc_conversations_v1_GetConversationRequest__Output, _svc_conversations_v1_DeleteConversationResponse__Output>
  DeleteResponse: MethodDefinition<_svc_conversations_v1_GetResponseRequest, _svc_conversations_v1_DeleteResponseResponse, _svc_conversations_v1_GetResponseRequest__Output, _svc_conversations_v1_DeleteResponseResponse__Output>
  GetConversation: MethodDefinition<_svc_conversations_v1_GetConversationRequest, _svc_conversations_v1_ConversationReply, _svc_conversations_v1_GetConversationRequest__Output, _svc_conversations_v1_ConversationReply__Output>
  GetResponse: MethodDefinition<_svc_conversations_v1_GetResponseRequest, _svc_conversations_v1_ResponseReply, _svc_conversations_v1_GetResponseRequest__Output, _svc_conversations_v1_ResponseReply__Output>
  ListItems: MethodDefinition<_svc_conversations_v1_ListItemsRequest, _svc_conversations_v1_ListItemsResponse, _svc_conversations_v1_ListItemsRequest__Output, _svc_conversations_v1_ListItemsResponse__Output>
  MarkPoolSent: MethodDefinition<_svc_conversations_v1_MarkPoolSentRequest, _svc_conversations_v1_MarkPoolSentResponse, _svc_conversations_v1_MarkPoolSentRequest__Output, _svc_conversations_v1_MarkPoolSentResponse__Output>
  ReleasePoolClaim: MethodDefinition<_svc_conversations_v1_ReleasePoolClaimRequest, _svc_conversations_v1_MarkPoolSentResponse, _svc_conversations_v1_ReleasePoolClaimRequest__Output, _svc_conversations_v1_MarkPoolSentResponse__Output>
  StoreCompaction: MethodDefinition<_svc_conversations_v1_StoreCompactionRequest, _svc_conversations_v1_StoreCompactionResponse, _svc_conversations_v1_StoreCompactionRequest__Output, _svc_conversations_v1_StoreCompactionResponse__Output>
  UpdateConversation: MethodDefinition<_svc_conversations_v1_UpdateConversationRequest, _svc_conversations_v1_ConversationReply, _svc_conversations_v1_UpdateConversationRequest__Output, _svc_conversations_v1_ConversationReply__Output>
  UpdateResponse: MethodDefinition<_svc_conversations_v1_UpdateResponseRequest, _svc_conversations_v1_UpdateResponseResponse, _svc_conversations_v1_UpdateResponseRequest__Output, _svc_conversations_v1_UpdateResponseResponse__Output>
}
