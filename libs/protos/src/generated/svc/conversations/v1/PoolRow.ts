// Original file: protos/svc/conversations/v1/conversations_service.proto

import type { Long } from '@grpc/proto-loader';

export interface PoolRow {
  'response_id'?: (string);
  'organization_id'?: (string);
  'vendor'?: (string);
  'model'?: (string);
  /**
   * The turn as CompleteTurn's pool_json.job gave it.
   */
  'job_json'?: (string);
  /**
   * Unix ms.
   */
  'enqueued_at_ms'?: (number | string | Long);
  /**
   * "" until sent.
   */
  'vendor_batch_id'?: (string);
  'vendor_batch_json'?: (string);
}

export interface PoolRow__Output {
  'response_id': (string);
  'organization_id': (string);
  'vendor': (string);
  'model': (string);
  /**
   * The turn as CompleteTurn's pool_json.job gave it.
   */
  'job_json': (string);
  /**
   * Unix ms.
   */
  'enqueued_at_ms': (number);
  /**
   * "" until sent.
   */
  'vendor_batch_id': (string);
  'vendor_batch_json': (string);
}
