// Original file: protos/svc/batch/v1/batch_service.proto


export interface FileReply {
  /**
   * The file object as JSON.
   */
  'file_json'?: (string);
}

export interface FileReply__Output {
  /**
   * The file object as JSON.
   */
  'file_json': (string);
}
