// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface ListItemsRequest {
  'organization_id'?: (string);
  'conversation_id'?: (string);
  /**
   * 1 to 100; 0 = the default 20.
   */
  'limit'?: (number);
  /**
   * An item id (msg_, fc_, fco_, cmp_) of this conversation; "" = from the start.
   */
  'after'?: (string);
  /**
   * "asc" (default when "") or "desc".
   */
  'order'?: (string);
}

export interface ListItemsRequest__Output {
  'organization_id': (string);
  'conversation_id': (string);
  /**
   * 1 to 100; 0 = the default 20.
   */
  'limit': (number);
  /**
   * An item id (msg_, fc_, fco_, cmp_) of this conversation; "" = from the start.
   */
  'after': (string);
  /**
   * "asc" (default when "") or "desc".
   */
  'order': (string);
}
