// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface StoredId {
  /**
   * Position in the response's output[].
   */
  'index'?: (number);
  /**
   * The id the caller sent for it (a stream id msg_<resp>_<i>, or "").
   */
  'previous_id'?: (string);
  /**
   * The stored id (msg_, fc_).
   */
  'id'?: (string);
}

export interface StoredId__Output {
  /**
   * Position in the response's output[].
   */
  'index': (number);
  /**
   * The id the caller sent for it (a stream id msg_<resp>_<i>, or "").
   */
  'previous_id': (string);
  /**
   * The stored id (msg_, fc_).
   */
  'id': (string);
}
