// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface DeleteResponseResponse {
  'id'?: (string);
  'deleted'?: (boolean);
  /**
   * Responses removed: this one and its descendants.
   */
  'responses_deleted'?: (number);
}

export interface DeleteResponseResponse__Output {
  'id': (string);
  'deleted': (boolean);
  /**
   * Responses removed: this one and its descendants.
   */
  'responses_deleted': (number);
}
