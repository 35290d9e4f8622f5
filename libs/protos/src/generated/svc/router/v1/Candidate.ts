// Original file: protos/svc/router/v1/router_service.proto


export interface Candidate {
  'model'?: (string);
  'vendor'?: (string);
}

export interface Candidate__Output {
  'model': (string);
  'vendor': (string);
}
