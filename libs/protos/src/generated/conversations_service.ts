import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AddItemsRequest as _svc_conversations_v1_AddItemsRequest, AddItemsRequest__Output as _svc_conversations_v1_AddItemsRequest__Output } from './svc/conversations/v1/AddItemsRequest';
import type { AddItemsResponse as _svc_conversations_v1_AddItemsResponse, AddItemsResponse__Output as _svc_conversations_v1_AddItemsResponse__Output } from './svc/conversations/v1/AddItemsResponse';
import type { BuildHistoryRequest as _svc_conversations_v1_BuildHistoryRequest, BuildHistoryRequest__Output as _svc_conversations_v1_BuildHistoryRequest__Output } from './svc/conversations/v1/BuildHistoryRequest';
import type { ClaimPoolRequest as _svc_conversations_v1_ClaimPoolRequest, ClaimPoolRequest__Output as _svc_conversations_v1_ClaimPoolRequest__Output } from './svc/conversations/v1/ClaimPoolRequest';
import type { ClaimPoolResponse as _svc_conversations_v1_ClaimPoolResponse, ClaimPoolResponse__Output as _svc_conversations_v1_ClaimPoolResponse__Output } from './svc/conversations/v1/ClaimPoolResponse';
import type { ClaimPoolResultsRequest as _svc_conversations_v1_ClaimPoolResultsRequest, ClaimPoolResultsRequest__Output as _svc_conversations_v1_ClaimPoolResultsRequest__Output } from './svc/conversations/v1/ClaimPoolResultsRequest';
import type { CompleteTurnRequest as _svc_conversations_v1_CompleteTurnRequest, CompleteTurnRequest__Output as _svc_conversations_v1_CompleteTurnRequest__Output } from './svc/conversations/v1/CompleteTurnRequest';
import type { CompleteTurnResponse as _svc_conversations_v1_CompleteTurnResponse, CompleteTurnResponse__Output as _svc_conversations_v1_CompleteTurnResponse__Output } from './svc/conversations/v1/CompleteTurnResponse';
import type { ConversationReply as _svc_conversations_v1_ConversationReply, ConversationReply__Output as _svc_conversations_v1_ConversationReply__Output } from './svc/conversations/v1/ConversationReply';
import type { ConversationsServiceClient as _svc_conversations_v1_ConversationsServiceClient, ConversationsServiceDefinition as _svc_conversations_v1_ConversationsServiceDefinition } from './svc/conversations/v1/ConversationsService';
import type { CreateConversationRequest as _svc_conversations_v1_CreateConversationRequest, CreateConversationRequest__Output as _svc_conversations_v1_CreateConversationRequest__Output } from './svc/conversations/v1/CreateConversationRequest';
import type { DeleteConversationResponse as _svc_conversations_v1_DeleteConversationResponse, DeleteConversationResponse__Output as _svc_conversations_v1_DeleteConversationResponse__Output } from './svc/conversations/v1/DeleteConversationResponse';
import type { DeleteResponseResponse as _svc_conversations_v1_DeleteResponseResponse, DeleteResponseResponse__Output as _svc_conversations_v1_DeleteResponseResponse__Output } from './svc/conversations/v1/DeleteResponseResponse';
import type { GetConversationRequest as _svc_conversations_v1_GetConversationRequest, GetConversationRequest__Output as _svc_conversations_v1_GetConversationRequest__Output } from './svc/conversations/v1/GetConversationRequest';
import type { GetResponseRequest as _svc_conversations_v1_GetResponseRequest, GetResponseRequest__Output as _svc_conversations_v1_GetResponseRequest__Output } from './svc/conversations/v1/GetResponseRequest';
import type { HistoryReply as _svc_conversations_v1_HistoryReply, HistoryReply__Output as _svc_conversations_v1_HistoryReply__Output } from './svc/conversations/v1/HistoryReply';
import type { ListItemsRequest as _svc_conversations_v1_ListItemsRequest, ListItemsRequest__Output as _svc_conversations_v1_ListItemsRequest__Output } from './svc/conversations/v1/ListItemsRequest';
import type { ListItemsResponse as _svc_conversations_v1_ListItemsResponse, ListItemsResponse__Output as _svc_conversations_v1_ListItemsResponse__Output } from './svc/conversations/v1/ListItemsResponse';
import type { MarkPoolSentRequest as _svc_conversations_v1_MarkPoolSentRequest, MarkPoolSentRequest__Output as _svc_conversations_v1_MarkPoolSentRequest__Output } from './svc/conversations/v1/MarkPoolSentRequest';
import type { MarkPoolSentResponse as _svc_conversations_v1_MarkPoolSentResponse, MarkPoolSentResponse__Output as _svc_conversations_v1_MarkPoolSentResponse__Output } from './svc/conversations/v1/MarkPoolSentResponse';
import type { PoolGroup as _svc_conversations_v1_PoolGroup, PoolGroup__Output as _svc_conversations_v1_PoolGroup__Output } from './svc/conversations/v1/PoolGroup';
import type { PoolRow as _svc_conversations_v1_PoolRow, PoolRow__Output as _svc_conversations_v1_PoolRow__Output } from './svc/conversations/v1/PoolRow';
import type { ReleasePoolClaimRequest as _svc_conversations_v1_ReleasePoolClaimRequest, ReleasePoolClaimRequest__Output as _svc_conversations_v1_ReleasePoolClaimRequest__Output } from './svc/conversations/v1/ReleasePoolClaimRequest';
import type { ResponseReply as _svc_conversations_v1_ResponseReply, ResponseReply__Output as _svc_conversations_v1_ResponseReply__Output } from './svc/conversations/v1/ResponseReply';
import type { StoreCompactionRequest as _svc_conversations_v1_StoreCompactionRequest, StoreCompactionRequest__Output as _svc_conversations_v1_StoreCompactionRequest__Output } from './svc/conversations/v1/StoreCompactionRequest';
import type { StoreCompactionResponse as _svc_conversations_v1_StoreCompactionResponse, StoreCompactionResponse__Output as _svc_conversations_v1_StoreCompactionResponse__Output } from './svc/conversations/v1/StoreCompactionResponse';
import type { StoredId as _svc_conversations_v1_StoredId, StoredId__Output as _svc_conversations_v1_StoredId__Output } from './svc/conversations/v1/StoredId';
import type { UpdateConversationRequest as _svc_conversations_v1_UpdateConversationRequest, UpdateConversationRequest__Output as _svc_conversations_v1_UpdateConversationRequest__Output } from './svc/conversations/v1/UpdateConversationRequest';
import type { UpdateResponseRequest as _svc_conversations_v1_UpdateResponseRequest, UpdateResponseRequest__Output as _svc_conversations_v1_UpdateResponseRequest__Output } from './svc/conversations/v1/UpdateResponseRequest';
import type { UpdateResponseResponse as _svc_conversations_v1_UpdateResponseResponse, UpdateResponseResponse__Output as _svc_conversations_v1_UpdateResponseResponse__Output } from './svc/conversations/v1/UpdateResponseResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  svc: {
    conversations: {
      v1: {
        AddItemsRequest: MessageTypeDefinition<_svc_conversations_v1_AddItemsRequest, _svc_conversations_v1_AddItemsRequest__Output>
        AddItemsResponse: MessageTypeDefinition<_svc_conversations_v1_AddItemsResponse, _svc_conversations_v1_AddItemsResponse__Output>
        BuildHistoryRequest: MessageTypeDefinition<_svc_conversations_v1_BuildHistoryRequest, _svc_conversations_v1_BuildHistoryRequest__Output>
        ClaimPoolRequest: MessageTypeDefinition<_svc_conversations_v1_ClaimPoolRequest, _svc_conversations_v1_ClaimPoolRequest__Output>
        ClaimPoolResponse: MessageTypeDefinition<_svc_conversations_v1_ClaimPoolResponse, _svc_conversations_v1_ClaimPoolResponse__Output>
        ClaimPoolResultsRequest: MessageTypeDefinition<_svc_conversations_v1_ClaimPoolResultsRequest, _svc_conversations_v1_ClaimPoolResultsRequest__Output>
        CompleteTurnRequest: MessageTypeDefinition<_svc_conversations_v1_CompleteTurnRequest, _svc_conversations_v1_CompleteTurnRequest__Output>
        CompleteTurnResponse: MessageTypeDefinition<_svc_conversations_v1_CompleteTurnResponse, _svc_conversations_v1_CompleteTurnResponse__Output>
        ConversationReply: MessageTypeDefinition<_svc_conversations_v1_ConversationReply, _svc_conversations_v1_ConversationReply__Output>
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
        ConversationsService: SubtypeConstructor<typeof grpc.Client, _svc_conversations_v1_ConversationsServiceClient> & { service: _svc_conversations_v1_ConversationsServiceDefinition }
        CreateConversationRequest: MessageTypeDefinition<_svc_conversations_v1_CreateConversationRequest, _svc_conversations_v1_CreateConversationRequest__Output>
        DeleteConversationResponse: MessageTypeDefinition<_svc_conversations_v1_DeleteConversationResponse, _svc_conversations_v1_DeleteConversationResponse__Output>
        DeleteResponseResponse: MessageTypeDefinition<_svc_conversations_v1_DeleteResponseResponse, _svc_conversations_v1_DeleteResponseResponse__Output>
        GetConversationRequest: MessageTypeDefinition<_svc_conversations_v1_GetConversationRequest, _svc_conversations_v1_GetConversationRequest__Output>
        GetResponseRequest: MessageTypeDefinition<_svc_conversations_v1_GetResponseRequest, _svc_conversations_v1_GetResponseRequest__Output>
        HistoryReply: MessageTypeDefinition<_svc_conversations_v1_HistoryReply, _svc_conversations_v1_HistoryReply__Output>
        ListItemsRequest: MessageTypeDefinition<_svc_conversations_v1_ListItemsRequest, _svc_conversations_v1_ListItemsRequest__Output>
        ListItemsResponse: MessageTypeDefinition<_svc_conversations_v1_ListItemsResponse, _svc_conversations_v1_ListItemsResponse__Output>
        MarkPoolSentRequest: MessageTypeDefinition<_svc_conversations_v1_MarkPoolSentRequest, _svc_conversations_v1_MarkPoolSentRequest__Output>
        MarkPoolSentResponse: MessageTypeDefinition<_svc_conversations_v1_MarkPoolSentResponse, _svc_conversations_v1_MarkPoolSentResponse__Output>
        PoolGroup: MessageTypeDefinition<_svc_conversations_v1_PoolGroup, _svc_conversations_v1_PoolGroup__Output>
        PoolRow: MessageTypeDefinition<_svc_conversations_v1_PoolRow, _svc_conversations_v1_PoolRow__Output>
        ReleasePoolClaimRequest: MessageTypeDefinition<_svc_conversations_v1_ReleasePoolClaimRequest, _svc_conversations_v1_ReleasePoolClaimRequest__Output>
        ResponseReply: MessageTypeDefinition<_svc_conversations_v1_ResponseReply, _svc_conversations_v1_ResponseReply__Output>
        StoreCompactionRequest: MessageTypeDefinition<_svc_conversations_v1_StoreCompactionRequest, _svc_conversations_v1_StoreCompactionRequest__Output>
        StoreCompactionResponse: MessageTypeDefinition<_svc_conversations_v1_StoreCompactionResponse, _svc_conversations_v1_StoreCompactionResponse__Output>
        StoredId: MessageTypeDefinition<_svc_conversations_v1_StoredId, _svc_conversations_v1_StoredId__Output>
        UpdateConversationRequest: MessageTypeDefinition<_svc_conversations_v1_UpdateConversationRequest, _svc_conversations_v1_UpdateConversationRequest__Output>
        UpdateResponseRequest: MessageTypeDefinition<_svc_conversations_v1_UpdateResponseRequest, _svc_conversations_v1_UpdateResponseRequest__Output>
        UpdateResponseResponse: MessageTypeDefinition<_svc_conversations_v1_UpdateResponseResponse, _svc_conversations_v1_UpdateResponseResponse__Output>
      }
    }
  }
}

