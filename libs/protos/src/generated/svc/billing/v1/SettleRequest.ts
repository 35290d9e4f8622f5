// Original file: protos/svc/billing/v1/billing_service.proto

import type { UsageRecord as _svc_billing_v1_UsageRecord, UsageRecord__Output as _svc_billing_v1_UsageRecord__Output } from '../../../svc/billing/v1/UsageRecord';

export interface SettleRequest {
  'records'?: (_svc_billing_v1_UsageRecord)[];
}

export interface SettleRequest__Output {
  'records': (_svc_billing_v1_UsageRecord__Output)[];
}
