// Original file: /work/main/protos/svc/batch/v1/batch_service.proto


export interface FileReply {
  'file_json'?: (string);
}

export interface FileReply__Output {
  'file_json': (string);
}
