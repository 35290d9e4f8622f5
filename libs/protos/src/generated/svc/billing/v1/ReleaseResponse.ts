// Original file: protos/svc/billing/v1/billing_service.proto


export interface ReleaseResponse {
  'released'?: (boolean);
}

export interface ReleaseResponse__Output {
  'released': (boolean);
}
