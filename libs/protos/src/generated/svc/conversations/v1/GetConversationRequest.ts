// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface GetConversationRequest {
  'organization_id'?: (string);
  'conversation_id'?: (string);
}

export interface GetConversationRequest__Output {
  'organization_id': (string);
  'conversation_id': (string);
}
