// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface BuildHistoryRequest {
  'organization_id'?: (string);
  /**
   * "" when not sent.
   */
  'previous_response_id'?: (string);
  /**
   * "" when not sent.
   */
  'conversation_id'?: (string);
}

export interface BuildHistoryRequest__Output {
  'organization_id': (string);
  /**
   * "" when not sent.
   */
  'previous_response_id': (string);
  /**
   * "" when not sent.
   */
  'conversation_id': (string);
}
