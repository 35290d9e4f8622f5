// Original file: protos/svc/conversations/v1/conversations_service.proto

import type { Long } from '@grpc/proto-loader';

export interface ClaimPoolRequest {
  /**
   * Chosen by the caller (a fresh one per claim).
   */
  'claim_id'?: (string);
  'max_lines'?: (number);
  'max_age_ms'?: (number | string | Long);
  'lease_ms'?: (number | string | Long);
  /**
   * At most this many groups per call (0 = 16).
   */
  'max_groups'?: (number);
}

export interface ClaimPoolRequest__Output {
  /**
   * Chosen by the caller (a fresh one per claim).
   */
  'claim_id': (string);
  'max_lines': (number);
  'max_age_ms': (number);
  'lease_ms': (number);
  /**
   * At most this many groups per call (0 = 16).
   */
  'max_groups': (number);
}
