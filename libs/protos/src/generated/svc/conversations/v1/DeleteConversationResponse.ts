// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface DeleteConversationResponse {
  'id'?: (string);
  'deleted'?: (boolean);
}

export interface DeleteConversationResponse__Output {
  'id': (string);
  'deleted': (boolean);
}
