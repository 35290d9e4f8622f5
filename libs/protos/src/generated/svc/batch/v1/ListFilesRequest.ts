// Original file: protos/svc/batch/v1/batch_service.proto


export interface ListFilesRequest {
  'organization_id'?: (string);
  /**
   * 1 to 10000; 0 = 10000.
   */
  'limit'?: (number);
  /**
   * A file id: the page starts after it ("" = from the newest).
   */
  'after'?: (string);
  /**
   * Only files of this purpose ("" = all).
   */
  'purpose'?: (string);
}

export interface ListFilesRequest__Output {
  'organization_id': (string);
  /**
   * 1 to 10000; 0 = 10000.
   */
  'limit': (number);
  /**
   * A file id: the page starts after it ("" = from the newest).
   */
  'after': (string);
  /**
   * Only files of this purpose ("" = all).
   */
  'purpose': (string);
}
