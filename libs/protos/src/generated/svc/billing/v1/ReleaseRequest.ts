// Original file: protos/svc/billing/v1/billing_service.proto


export interface ReleaseRequest {
  'call_id'?: (string);
  'organization_id'?: (string);
}

export interface ReleaseRequest__Output {
  'call_id': (string);
  'organization_id': (string);
}
