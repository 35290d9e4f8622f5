// Original file: protos/svc/batch/v1/batch_service.proto


export interface UploadFinish {
  /**
   * Only "batch" is accepted (checked again here).
   */
  'purpose'?: (string);
  /**
   * expires_after[seconds] (anchor created_at), 3600 to 2592000; absent: retention only.
   */
  'expires_after_seconds'?: (number);
  '_expires_after_seconds'?: "expires_after_seconds";
}

export interface UploadFinish__Output {
  /**
   * Only "batch" is accepted (checked again here).
   */
  'purpose': (string);
  /**
   * expires_after[seconds] (anchor created_at), 3600 to 2592000; absent: retention only.
   */
  'expires_after_seconds'?: (number);
  '_expires_after_seconds'?: "expires_after_seconds";
}
