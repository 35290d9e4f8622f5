// Original file: /work/main/protos/svc/batch/v1/batch_service.proto


export interface ListFilesRequest {
  'organization_id'?: (string);
  'limit'?: (number);
  'after'?: (string);
  'purpose'?: (string);
}

export interface ListFilesRequest__Output {
  'organization_id': (string);
  'limit': (number);
  'after': (string);
  'purpose': (string);
}
