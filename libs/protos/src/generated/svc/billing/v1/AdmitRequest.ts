// Original file: protos/svc/billing/v1/billing_service.proto

import type { KeyRecord as _svc_billing_v1_KeyRecord, KeyRecord__Output as _svc_billing_v1_KeyRecord__Output } from '../../../svc/billing/v1/KeyRecord';
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
  /**
   * The caller's key record (limits, plan, member); the edge already holds it.
   */
  'key'?: (_svc_billing_v1_KeyRecord | null);
  /**
   * Input token estimate and the explicit max_tokens (0 when not sent), for the Free limits.
   */
  'input_tokens'?: (number);
  'max_tokens'?: (number);
  /**
   * Estimated list price in micros (what the Free plan's daily fair-use limit counts).
   */
  'estimated_list_micros'?: (number | string | Long);
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
  /**
   * The caller's key record (limits, plan, member); the edge already holds it.
   */
  'key': (_svc_billing_v1_KeyRecord__Output | null);
  /**
   * Input token estimate and the explicit max_tokens (0 when not sent), for the Free limits.
   */
  'input_tokens': (number);
  'max_tokens': (number);
  /**
   * Estimated list price in micros (what the Free plan's daily fair-use limit counts).
   */
  'estimated_list_micros': (number);
}
