// Original file: /work/main/protos/svc/billing/v1/billing_service.proto

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
}
