// Original file: protos/svc/billing/v1/billing_service.proto


export interface VendorKeysRequest {
  'organization_id'?: (string);
}

export interface VendorKeysRequest__Output {
  'organization_id': (string);
}
