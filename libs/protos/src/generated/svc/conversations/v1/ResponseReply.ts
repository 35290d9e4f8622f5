// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface ResponseReply {
  /**
   * The response object as GET /v1/responses/{id} shows it (max_output_tokens null, tools [],
   * tool_choice auto, parallel_tool_calls true).
   */
  'response_json'?: (string);
  /**
   * What CompleteTurn / UpdateResponse stored as stream_json; "" = none.
   */
  'stream_json'?: (string);
  'conversation_id'?: (string);
  'parent_response_id'?: (string);
  'status'?: (string);
  'background'?: (boolean);
  /**
   * The response object exactly as stored (the last CompleteTurn / UpdateResponse reply).
   */
  'stored_json'?: (string);
}

export interface ResponseReply__Output {
  /**
   * The response object as GET /v1/responses/{id} shows it (max_output_tokens null, tools [],
   * tool_choice auto, parallel_tool_calls true).
   */
  'response_json': (string);
  /**
   * What CompleteTurn / UpdateResponse stored as stream_json; "" = none.
   */
  'stream_json': (string);
  'conversation_id': (string);
  'parent_response_id': (string);
  'status': (string);
  'background': (boolean);
  /**
   * The response object exactly as stored (the last CompleteTurn / UpdateResponse reply).
   */
  'stored_json': (string);
}
