// Original file: protos/svc/batch/v1/batch_service.proto


export interface GetFileRequest {
  'organization_id'?: (string);
  'file_id'?: (string);
}

export interface GetFileRequest__Output {
  'organization_id': (string);
  'file_id': (string);
}
