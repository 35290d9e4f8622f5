// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface ConversationReply {
  /**
   * The conversation object as JSON.
   */
  'conversation_json'?: (string);
  /**
   * The conversation's retention is 0: it reads as gone from now on (its expires_at has
   * passed); the caller deletes it (DeleteConversation) once the reply was written.
   */
  'delete_after_response'?: (boolean);
}

export interface ConversationReply__Output {
  /**
   * The conversation object as JSON.
   */
  'conversation_json': (string);
  /**
   * The conversation's retention is 0: it reads as gone from now on (its expires_at has
   * passed); the caller deletes it (DeleteConversation) once the reply was written.
   */
  'delete_after_response': (boolean);
}
