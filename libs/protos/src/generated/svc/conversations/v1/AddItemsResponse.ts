// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface AddItemsResponse {
  /**
   * JSON array of the stored items, with their ids.
   */
  'items_json'?: (string);
}

export interface AddItemsResponse__Output {
  /**
   * JSON array of the stored items, with their ids.
   */
  'items_json': (string);
}
