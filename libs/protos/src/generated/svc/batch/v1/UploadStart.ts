// Original file: protos/svc/batch/v1/batch_service.proto


export interface UploadStart {
  'organization_id'?: (string);
  /**
   * The file part's filename, as uploaded.
   */
  'filename'?: (string);
  /**
   * The organization's retention in days: expires_at is at most this long after created_at.
   * Required (absent is a caller bug, answered internal_error).
   */
  'organization_retention_days'?: (number);
  '_organization_retention_days'?: "organization_retention_days";
}

export interface UploadStart__Output {
  'organization_id': (string);
  /**
   * The file part's filename, as uploaded.
   */
  'filename': (string);
  /**
   * The organization's retention in days: expires_at is at most this long after created_at.
   * Required (absent is a caller bug, answered internal_error).
   */
  'organization_retention_days'?: (number);
  '_organization_retention_days'?: "organization_retention_days";
}
