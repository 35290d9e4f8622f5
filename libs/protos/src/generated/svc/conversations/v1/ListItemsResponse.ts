// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface ListItemsResponse {
  /**
   * JSON array of items.
   */
  'data_json'?: (string);
  'has_more'?: (boolean);
  /**
   * "" when data is empty.
   */
  'first_id'?: (string);
  'last_id'?: (string);
}

export interface ListItemsResponse__Output {
  /**
   * JSON array of items.
   */
  'data_json': (string);
  'has_more': (boolean);
  /**
   * "" when data is empty.
   */
  'first_id': (string);
  'last_id': (string);
}
