// Original file: protos/svc/batch/v1/batch_service.proto


export interface BatchWork {
  'json'?: (string);
}

export interface BatchWork__Output {
  'json': (string);
}
