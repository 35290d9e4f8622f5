// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface UpdateConversationRequest {
  'organization_id'?: (string);
  'conversation_id'?: (string);
  /**
   * JSON object of string pairs (up to 16 keys); replaces the stored metadata.
   */
  'metadata_json'?: (string);
}

export interface UpdateConversationRequest__Output {
  'organization_id': (string);
  'conversation_id': (string);
  /**
   * JSON object of string pairs (up to 16 keys); replaces the stored metadata.
   */
  'metadata_json': (string);
}
