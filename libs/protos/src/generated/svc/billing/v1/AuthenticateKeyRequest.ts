// Original file: protos/svc/billing/v1/billing_service.proto


export interface AuthenticateKeyRequest {
  'key_hash'?: (string);
}

export interface AuthenticateKeyRequest__Output {
  'key_hash': (string);
}
