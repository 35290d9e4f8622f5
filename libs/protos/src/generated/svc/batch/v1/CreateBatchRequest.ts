// Original file: protos/svc/batch/v1/batch_service.proto


export interface CreateBatchRequest {
  'organization_id'?: (string);
  'key_id'?: (string);
  'input_file_id'?: (string);
  'endpoint'?: (string);
  'completion_window'?: (string);
  /**
   * The metadata object as JSON ("" = none), already checked by the edge.
   */
  'metadata_json'?: (string);
  'allow_standard_price'?: (boolean);
  /**
   * The organization's retention in days: the output and error files are kept that long.
   */
  'organization_retention_days'?: (number);
}

export interface CreateBatchRequest__Output {
  'organization_id': (string);
  'key_id': (string);
  'input_file_id': (string);
  'endpoint': (string);
  'completion_window': (string);
  /**
   * The metadata object as JSON ("" = none), already checked by the edge.
   */
  'metadata_json': (string);
  'allow_standard_price': (boolean);
  /**
   * The organization's retention in days: the output and error files are kept that long.
   */
  'organization_retention_days': (number);
}
