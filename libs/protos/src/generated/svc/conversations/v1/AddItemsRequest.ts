// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface AddItemsRequest {
  'organization_id'?: (string);
  'conversation_id'?: (string);
  /**
   * JSON array of input items, at least one.
   */
  'items_json'?: (string);
}

export interface AddItemsRequest__Output {
  'organization_id': (string);
  'conversation_id': (string);
  /**
   * JSON array of input items, at least one.
   */
  'items_json': (string);
}
