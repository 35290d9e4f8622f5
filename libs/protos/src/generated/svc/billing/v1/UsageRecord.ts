// Original file: protos/svc/billing/v1/billing_service.proto

import type { Long } from '@grpc/proto-loader';

/**
 * One billed call; amounts in micros.
 */
export interface UsageRecord {
  'call_id'?: (string);
  'organization_id'?: (string);
  'key_id'?: (string);
  /**
   * chat or embeddings
   */
  'kind'?: (string);
  'vendor'?: (string);
  'model'?: (string);
  'line'?: (string);
  'input_tokens'?: (number);
  'output_tokens'?: (number);
  'cached_tokens'?: (number);
  'cache_write_tokens'?: (number);
  'reasoning_tokens'?: (number);
  'vendor_micros'?: (number | string | Long);
  'service_fee_micros'?: (number | string | Long);
  'call_fee_micros'?: (number | string | Long);
  'cost_micros'?: (number | string | Long);
  'direct_micros'?: (number | string | Long);
  'byok'?: (boolean);
  'occurred_at_ms'?: (number | string | Long);
  /**
   * Amount reserved at admission, released on settlement.
   */
  'reserved_micros'?: (number | string | Long);
  /**
   * "free" when served under the Free limits (not charged to the balance), else "".
   */
  'plan'?: (string);
  /**
   * The key's spend period at admission (day, week, month, life) or "".
   */
  'spend_period'?: (string);
  /**
   * Account id of the member whose monthly quota the call counts against.
   */
  'member_id'?: (string);
  /**
   * The key's baseline was pending: the call saves nothing.
   */
  'baseline_pending'?: (boolean);
}

/**
 * One billed call; amounts in micros.
 */
export interface UsageRecord__Output {
  'call_id': (string);
  'organization_id': (string);
  'key_id': (string);
  /**
   * chat or embeddings
   */
  'kind': (string);
  'vendor': (string);
  'model': (string);
  'line': (string);
  'input_tokens': (number);
  'output_tokens': (number);
  'cached_tokens': (number);
  'cache_write_tokens': (number);
  'reasoning_tokens': (number);
  'vendor_micros': (number);
  'service_fee_micros': (number);
  'call_fee_micros': (number);
  'cost_micros': (number);
  'direct_micros': (number);
  'byok': (boolean);
  'occurred_at_ms': (number);
  /**
   * Amount reserved at admission, released on settlement.
   */
  'reserved_micros': (number);
  /**
   * "free" when served under the Free limits (not charged to the balance), else "".
   */
  'plan': (string);
  /**
   * The key's spend period at admission (day, week, month, life) or "".
   */
  'spend_period': (string);
  /**
   * Account id of the member whose monthly quota the call counts against.
   */
  'member_id': (string);
  /**
   * The key's baseline was pending: the call saves nothing.
   */
  'baseline_pending': (boolean);
}
