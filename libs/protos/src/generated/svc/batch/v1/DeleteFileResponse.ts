// Original file: protos/svc/batch/v1/batch_service.proto


export interface DeleteFileResponse {
  'id'?: (string);
}

export interface DeleteFileResponse__Output {
  'id': (string);
}
