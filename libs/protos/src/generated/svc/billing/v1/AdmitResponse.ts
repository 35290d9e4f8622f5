// Original file: protos/svc/billing/v1/billing_service.proto

import type { Long } from '@grpc/proto-loader';

export interface AdmitResponse {
  /**
   * Organization balance in micros after the admission check.
   */
  'balance_micros'?: (number | string | Long);
  /**
   * Headers the edge adds to the response (quota, free plan).
   */
  'headers'?: ({[key: string]: string});
  /**
   * "free" when the call is served under the Free limits, else "".
   */
  'plan_tier'?: (string);
  /**
   * free_plan (never topped up) or zero_balance (paid organization at zero), with plan_tier free.
   */
  'plan_reason'?: (string);
  /**
   * The key's baseline model; "" while the baseline is pending.
   */
  'baseline_model'?: (string);
  /**
   * The key's successful calls so far (for baseline.calls while pending).
   */
  'baseline_calls'?: (number);
}

export interface AdmitResponse__Output {
  /**
   * Organization balance in micros after the admission check.
   */
  'balance_micros': (number);
  /**
   * Headers the edge adds to the response (quota, free plan).
   */
  'headers': ({[key: string]: string});
  /**
   * "free" when the call is served under the Free limits, else "".
   */
  'plan_tier': (string);
  /**
   * free_plan (never topped up) or zero_balance (paid organization at zero), with plan_tier free.
   */
  'plan_reason': (string);
  /**
   * The key's baseline model; "" while the baseline is pending.
   */
  'baseline_model': (string);
  /**
   * The key's successful calls so far (for baseline.calls while pending).
   */
  'baseline_calls': (number);
}
