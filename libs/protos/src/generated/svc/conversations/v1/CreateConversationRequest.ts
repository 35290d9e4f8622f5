// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface CreateConversationRequest {
  'organization_id'?: (string);
  /**
   * JSON object of string pairs (up to 16 keys); "" = {}.
   */
  'metadata_json'?: (string);
  /**
   * The conversation's own retention (0 to 365); absent: the organization's applies.
   */
  'retention_days'?: (number);
  /**
   * The organization's retention in days (0 to 365), used when retention_days is absent.
   * Required (absent is a caller bug, answered internal_error: 0 would delete at once).
   */
  'organization_retention_days'?: (number);
  /**
   * JSON array of input items (the request shapes of POST /v1/responses input); "" = none.
   */
  'items_json'?: (string);
  '_retention_days'?: "retention_days";
  '_organization_retention_days'?: "organization_retention_days";
}

export interface CreateConversationRequest__Output {
  'organization_id': (string);
  /**
   * JSON object of string pairs (up to 16 keys); "" = {}.
   */
  'metadata_json': (string);
  /**
   * The conversation's own retention (0 to 365); absent: the organization's applies.
   */
  'retention_days'?: (number);
  /**
   * The organization's retention in days (0 to 365), used when retention_days is absent.
   * Required (absent is a caller bug, answered internal_error: 0 would delete at once).
   */
  'organization_retention_days'?: (number);
  /**
   * JSON array of input items (the request shapes of POST /v1/responses input); "" = none.
   */
  'items_json': (string);
  '_retention_days'?: "retention_days";
  '_organization_retention_days'?: "organization_retention_days";
}
