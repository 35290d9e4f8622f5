// Original file: /work/main/protos/svc/batch/v1/batch_service.proto


export interface ListFilesResponse {
  'files_json'?: (string)[];
  'has_more'?: (boolean);
}

export interface ListFilesResponse__Output {
  'files_json': (string)[];
  'has_more': (boolean);
}
