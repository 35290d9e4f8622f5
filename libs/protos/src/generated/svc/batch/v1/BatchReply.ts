// Original file: protos/svc/batch/v1/batch_service.proto


export interface BatchReply {
  'batch_json'?: (string);
}

export interface BatchReply__Output {
  'batch_json': (string);
}
