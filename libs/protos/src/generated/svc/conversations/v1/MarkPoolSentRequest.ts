// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface MarkPoolSentRequest {
  'claim_id'?: (string);
  'response_ids'?: (string)[];
  'vendor_batch_id'?: (string);
  'vendor_batch_json'?: (string);
}

export interface MarkPoolSentRequest__Output {
  'claim_id': (string);
  'response_ids': (string)[];
  'vendor_batch_id': (string);
  'vendor_batch_json': (string);
}
