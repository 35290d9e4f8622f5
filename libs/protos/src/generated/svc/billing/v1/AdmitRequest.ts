// Original file: /work/main/protos/svc/billing/v1/billing_service.proto

import type { Long } from '@grpc/proto-loader';

export interface AdmitRequest {
  'call_id'?: (string);
  'organization_id'?: (string);
  'key_id'?: (string);
  /**
   * Estimated cost of the call in micros (reserved until settled).
   */
  'estimated_micros'?: (number | string | Long);
  /**
   * A named model served fully on the organization's own vendor keys skips the credit check.
   */
  'byok'?: (boolean);
  'auto'?: (boolean);
}

export interface AdmitRequest__Output {
  'call_id': (string);
  'organization_id': (string);
  'key_id': (string);
  /**
   * Estimated cost of the call in micros (reserved until settled).
   */
  'estimated_micros': (number);
  /**
   * A named model served fully on the organization's own vendor keys skips the credit check.
   */
  'byok': (boolean);
  'auto': (boolean);
}
