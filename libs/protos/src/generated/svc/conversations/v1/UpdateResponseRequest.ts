// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface UpdateResponseRequest {
  'organization_id'?: (string);
  'response_id'?: (string);
  /**
   * The ended response object (status completed, incomplete, failed or cancelled; output[]
   * whose ids are replaced by stored ids).
   */
  'response_json'?: (string);
  /**
   * Required: the organization's retention, for a conversation without its own.
   */
  'organization_retention_days'?: (number);
  'stream_json'?: (string);
  /**
   * A cancel (POST /v1/responses/{id}/cancel): refused with 409 not_cancellable when the
   * response's pool row is claimed (lease not expired) or sent inside a vendor batch. Ending the
   * response removes its pool row in the same transaction either way.
   */
  'cancel'?: (boolean);
  '_organization_retention_days'?: "organization_retention_days";
}

export interface UpdateResponseRequest__Output {
  'organization_id': (string);
  'response_id': (string);
  /**
   * The ended response object (status completed, incomplete, failed or cancelled; output[]
   * whose ids are replaced by stored ids).
   */
  'response_json': (string);
  /**
   * Required: the organization's retention, for a conversation without its own.
   */
  'organization_retention_days'?: (number);
  'stream_json': (string);
  /**
   * A cancel (POST /v1/responses/{id}/cancel): refused with 409 not_cancellable when the
   * response's pool row is claimed (lease not expired) or sent inside a vendor batch. Ending the
   * response removes its pool row in the same transaction either way.
   */
  'cancel': (boolean);
  '_organization_retention_days'?: "organization_retention_days";
}
