// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface StoreCompactionRequest {
  'organization_id'?: (string);
  'conversation_id'?: (string);
  /**
   * The thread head the compaction was made for; "" = the root.
   */
  'head_response_id'?: (string);
  /**
   * Ids of the items it replaces: a contiguous run of the head's current history, in order
   * (earlier compaction items may be among them).
   */
  'replaces'?: (string)[];
  'summary'?: (string);
}

export interface StoreCompactionRequest__Output {
  'organization_id': (string);
  'conversation_id': (string);
  /**
   * The thread head the compaction was made for; "" = the root.
   */
  'head_response_id': (string);
  /**
   * Ids of the items it replaces: a contiguous run of the head's current history, in order
   * (earlier compaction items may be among them).
   */
  'replaces': (string)[];
  'summary': (string);
}
