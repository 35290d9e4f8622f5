// Original file: /work/main/protos/svc/conversations/v1/conversations_service.proto


export interface ConversationReply {
  /**
   * The conversation object as JSON.
   */
  'conversation_json'?: (string);
}

export interface ConversationReply__Output {
  /**
   * The conversation object as JSON.
   */
  'conversation_json': (string);
}
