// Original file: protos/svc/batch/v1/batch_service.proto


export interface ListFilesResponse {
  /**
   * File objects as JSON, newest first.
   */
  'files_json'?: (string)[];
  'has_more'?: (boolean);
}

export interface ListFilesResponse__Output {
  /**
   * File objects as JSON, newest first.
   */
  'files_json': (string)[];
  'has_more': (boolean);
}
