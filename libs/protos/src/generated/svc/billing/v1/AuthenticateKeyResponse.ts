// Original file: protos/svc/billing/v1/billing_service.proto

import type { KeyRecord as _svc_billing_v1_KeyRecord, KeyRecord__Output as _svc_billing_v1_KeyRecord__Output } from '../../../svc/billing/v1/KeyRecord';

export interface AuthenticateKeyResponse {
  'key'?: (_svc_billing_v1_KeyRecord | null);
}

export interface AuthenticateKeyResponse__Output {
  'key': (_svc_billing_v1_KeyRecord__Output | null);
}
