// Original file: protos/svc/conversations/v1/conversations_service.proto

import type { Long } from '@grpc/proto-loader';

export interface ClaimPoolResultsRequest {
  'claim_id'?: (string);
  'lease_ms'?: (number | string | Long);
  /**
   * At most this many vendor batches per call (0 = 16).
   */
  'max_batches'?: (number);
}

export interface ClaimPoolResultsRequest__Output {
  'claim_id': (string);
  'lease_ms': (number);
  /**
   * At most this many vendor batches per call (0 = 16).
   */
  'max_batches': (number);
}
