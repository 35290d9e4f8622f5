// Original file: protos/svc/batch/v1/batch_service.proto


export interface ListBatchesResponse {
  'batches_json'?: (string)[];
  'has_more'?: (boolean);
}

export interface ListBatchesResponse__Output {
  'batches_json': (string)[];
  'has_more': (boolean);
}
