// Original file: /work/main/protos/svc/conversations/v1/conversations_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ConversationReply as _svc_conversations_v1_ConversationReply, ConversationReply__Output as _svc_conversations_v1_ConversationReply__Output } from '../../../svc/conversations/v1/ConversationReply';
import type { CreateConversationRequest as _svc_conversations_v1_CreateConversationRequest, CreateConversationRequest__Output as _svc_conversations_v1_CreateConversationRequest__Output } from '../../../svc/conversations/v1/CreateConversationRequest';
import type { DeleteConversationResponse as _svc_conversations_v1_DeleteConversationResponse, DeleteConversationResponse__Output as _svc_conversations_v1_DeleteConversationResponse__Output } from '../../../svc/conversations/v1/DeleteConversationResponse';
import type { GetConversationRequest as _svc_conversations_v1_GetConversationRequest, GetConversationRequest__Output as _svc_conversations_v1_GetConversationRequest__Output } from '../../../svc/conversations/v1/GetConversationRequest';

/**
 * ConversationsService owns stored responses, conversations and items. Bodies are JSON in
 * the spec's shapes (conversation object, item shapes), carried as strings so the service and
 * the edge share one renderer of the public objects.
 */
export interface ConversationsServiceClient extends grpc.Client {
  CreateConversation(argument: _svc_conversations_v1_CreateConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  CreateConversation(argument: _svc_conversations_v1_CreateConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  CreateConversation(argument: _svc_conversations_v1_CreateConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  CreateConversation(argument: _svc_conversations_v1_CreateConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  createConversation(argument: _svc_conversations_v1_CreateConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  createConversation(argument: _svc_conversations_v1_CreateConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  createConversation(argument: _svc_conversations_v1_CreateConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  createConversation(argument: _svc_conversations_v1_CreateConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  
  DeleteConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  DeleteConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  DeleteConversation(argument: _svc_conversations_v1_GetConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  DeleteConversation(argument: _svc_conversations_v1_GetConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  deleteConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  deleteConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  deleteConversation(argument: _svc_conversations_v1_GetConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  deleteConversation(argument: _svc_conversations_v1_GetConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_DeleteConversationResponse__Output>): grpc.ClientUnaryCall;
  
  GetConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  GetConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  GetConversation(argument: _svc_conversations_v1_GetConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  GetConversation(argument: _svc_conversations_v1_GetConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  getConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  getConversation(argument: _svc_conversations_v1_GetConversationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  getConversation(argument: _svc_conversations_v1_GetConversationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  getConversation(argument: _svc_conversations_v1_GetConversationRequest, callback: grpc.requestCallback<_svc_conversations_v1_ConversationReply__Output>): grpc.ClientUnaryCall;
  
}

/**
 * ConversationsService owns stored responses, conversations and items. Bodies are JSON in
 * the spec's shapes (conversation object, item shapes), carried as strings so the service and
 * the edge share one renderer of the public objects.
 */
export interface ConversationsServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateConversation: grpc.handleUnaryCall<_svc_conversations_v1_CreateConversationRequest__Output, _svc_conversations_v1_ConversationReply>;
  
  DeleteConversation: grpc.handleUnaryCall<_svc_conversations_v1_GetConversationRequest__Output, _svc_conversations_v1_DeleteConversationResponse>;
  
  GetConversation: grpc.handleUnaryCall<_svc_conversations_v1_GetConversationRequest__Output, _svc_conversations_v1_ConversationReply>;
  
}

export interface ConversationsServiceDefinition extends grpc.ServiceDefinition {
  CreateConversation: MethodDefinition<_svc_conversations_v1_CreateConversationRequest, _svc_conversations_v1_ConversationReply, _svc_conversations_v1_CreateConversationRequest__Output, _svc_conversations_v1_ConversationReply__Output>
  DeleteConversation: MethodDefinition<_svc_conversations_v1_GetConversationRequest, _svc_conversations_v1_DeleteConversationResponse, _svc_conversations_v1_GetConversationRequest__Output, _svc_conversations_v1_DeleteConversationResponse__Output>
  GetConversation: MethodDefinition<_svc_conversations_v1_GetConversationRequest, _svc_conversations_v1_ConversationReply, _svc_conversations_v1_GetConversationRequest__Output, _svc_conversations_v1_ConversationReply__Output>
}
