// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface MarkPoolSentResponse {
  /**
   * Rows changed (rows whose claim was lost to another replica are left alone).
   */
  'rows'?: (number);
}

export interface MarkPoolSentResponse__Output {
  /**
   * Rows changed (rows whose claim was lost to another replica are left alone).
   */
  'rows': (number);
}
