// Original file: protos/svc/billing/v1/billing_service.proto


export interface SettleResponse {
  /**
   * Records newly written (a repeated call_id is not written again).
   */
  'written'?: (number);
}

export interface SettleResponse__Output {
  /**
   * Records newly written (a repeated call_id is not written again).
   */
  'written': (number);
}
