// Original file: /work/main/protos/svc/conversations/v1/conversations_service.proto


export interface CreateConversationRequest {
  'organization_id'?: (string);
  /**
   * JSON object of string pairs (up to 16 keys).
   */
  'metadata_json'?: (string);
  /**
   * -1 when not given: the organization's retention applies.
   */
  'retention_days'?: (number);
  'organization_retention_days'?: (number);
}

export interface CreateConversationRequest__Output {
  'organization_id': (string);
  /**
   * JSON object of string pairs (up to 16 keys).
   */
  'metadata_json': (string);
  /**
   * -1 when not given: the organization's retention applies.
   */
  'retention_days': (number);
  'organization_retention_days': (number);
}
