// Original file: protos/svc/batch/v1/batch_service.proto


export interface ListBatchesRequest {
  'organization_id'?: (string);
  /**
   * 1 to 100; 0 = 20.
   */
  'limit'?: (number);
  /**
   * A batch id: the page starts after it ("" = from the newest).
   */
  'after'?: (string);
}

export interface ListBatchesRequest__Output {
  'organization_id': (string);
  /**
   * 1 to 100; 0 = 20.
   */
  'limit': (number);
  /**
   * A batch id: the page starts after it ("" = from the newest).
   */
  'after': (string);
}
