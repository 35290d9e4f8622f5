// Original file: protos/svc/batch/v1/batch_service.proto


export interface GetBatchRequest {
  'organization_id'?: (string);
  'batch_id'?: (string);
}

export interface GetBatchRequest__Output {
  'organization_id': (string);
  'batch_id': (string);
}
