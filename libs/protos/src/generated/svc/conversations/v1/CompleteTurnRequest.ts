// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface CompleteTurnRequest {
  'organization_id'?: (string);
  /**
   * resp_ + 32 hex, chosen by the caller (the stream showed it before the turn ended).
   */
  'response_id'?: (string);
  /**
   * An existing conversation; "" = this turn creates one.
   */
  'conversation_id'?: (string);
  /**
   * The id of the conversation this turn creates (conv_ + 32 hex); "" = the service picks.
   */
  'new_conversation_id'?: (string);
  /**
   * The thread head from BuildHistory; "" = the conversation's root.
   */
  'parent_response_id'?: (string);
  /**
   * Retention of a conversation this turn creates (0 to 365); ignored when it exists.
   */
  'retention_days'?: (number);
  /**
   * Required: the organization's retention, for a conversation without its own.
   */
  'organization_retention_days'?: (number);
  /**
   * JSON array of the turn's input items (instructions as a developer message included), in
   * the request shapes or the stored shapes; a JSON string is one user message.
   */
  'input_items_json'?: (string);
  /**
   * The response object as the caller rendered it: status, background, output[] (whose ids are
   * replaced by stored ids), usage, ...; conversation is set by the service.
   */
  'response_json'?: (string);
  /**
   * Opaque JSON the caller keeps to replay the stream later (GET ?stream=true); "" = none.
   */
  'stream_json'?: (string);
  /**
   * A batch-bound background turn: {vendor, model, job} (job: the turn as the workers run it).
   * The response joins the vendor-batch pool (state waiting) in the same transaction. "" = none.
   */
  'pool_json'?: (string);
  '_retention_days'?: "retention_days";
  '_organization_retention_days'?: "organization_retention_days";
}

export interface CompleteTurnRequest__Output {
  'organization_id': (string);
  /**
   * resp_ + 32 hex, chosen by the caller (the stream showed it before the turn ended).
   */
  'response_id': (string);
  /**
   * An existing conversation; "" = this turn creates one.
   */
  'conversation_id': (string);
  /**
   * The id of the conversation this turn creates (conv_ + 32 hex); "" = the service picks.
   */
  'new_conversation_id': (string);
  /**
   * The thread head from BuildHistory; "" = the conversation's root.
   */
  'parent_response_id': (string);
  /**
   * Retention of a conversation this turn creates (0 to 365); ignored when it exists.
   */
  'retention_days'?: (number);
  /**
   * Required: the organization's retention, for a conversation without its own.
   */
  'organization_retention_days'?: (number);
  /**
   * JSON array of the turn's input items (instructions as a developer message included), in
   * the request shapes or the stored shapes; a JSON string is one user message.
   */
  'input_items_json': (string);
  /**
   * The response object as the caller rendered it: status, background, output[] (whose ids are
   * replaced by stored ids), usage, ...; conversation is set by the service.
   */
  'response_json': (string);
  /**
   * Opaque JSON the caller keeps to replay the stream later (GET ?stream=true); "" = none.
   */
  'stream_json': (string);
  /**
   * A batch-bound background turn: {vendor, model, job} (job: the turn as the workers run it).
   * The response joins the vendor-batch pool (state waiting) in the same transaction. "" = none.
   */
  'pool_json': (string);
  '_retention_days'?: "retention_days";
  '_organization_retention_days'?: "organization_retention_days";
}
