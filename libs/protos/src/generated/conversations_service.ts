import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ConversationReply as _svc_conversations_v1_ConversationReply, ConversationReply__Output as _svc_conversations_v1_ConversationReply__Output } from './svc/conversations/v1/ConversationReply';
import type { ConversationsServiceClient as _svc_conversations_v1_ConversationsServiceClient, ConversationsServiceDefinition as _svc_conversations_v1_ConversationsServiceDefinition } from './svc/conversations/v1/ConversationsService';
import type { CreateConversationRequest as _svc_conversations_v1_CreateConversationRequest, CreateConversationRequest__Output as _svc_conversations_v1_CreateConversationRequest__Output } from './svc/conversations/v1/CreateConversationRequest';
import type { DeleteConversationResponse as _svc_conversations_v1_DeleteConversationResponse, DeleteConversationResponse__Output as _svc_conversations_v1_DeleteConversationResponse__Output } from './svc/conversations/v1/DeleteConversationResponse';
import type { GetConversationRequest as _svc_conversations_v1_GetConversationRequest, GetConversationRequest__Output as _svc_conversations_v1_GetConversationRequest__Output } from './svc/conversations/v1/GetConversationRequest';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  svc: {
    conversations: {
      v1: {
        ConversationReply: MessageTypeDefinition<_svc_conversations_v1_ConversationReply, _svc_conversations_v1_ConversationReply__Output>
        /**
         * ConversationsService owns stored responses, conversations and items. Bodies are JSON in
         * the spec's shapes (conversation object, item shapes), carried as strings so the service and
         * the edge share one renderer of the public objects.
         */
        ConversationsService: SubtypeConstructor<typeof grpc.Client, _svc_conversations_v1_ConversationsServiceClient> & { service: _svc_conversations_v1_ConversationsServiceDefinition }
        CreateConversationRequest: MessageTypeDefinition<_svc_conversations_v1_CreateConversationRequest, _svc_conversations_v1_CreateConversationRequest__Output>
        DeleteConversationResponse: MessageTypeDefinition<_svc_conversations_v1_DeleteConversationResponse, _svc_conversations_v1_DeleteConversationResponse__Output>
        GetConversationRequest: MessageTypeDefinition<_svc_conversations_v1_GetConversationRequest, _svc_conversations_v1_GetConversationRequest__Output>
      }
    }
  }
}

