// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface ReleasePoolClaimRequest {
  'claim_id'?: (string);
  'response_ids'?: (string)[];
}

export interface ReleasePoolClaimRequest__Output {
  'claim_id': (string);
  'response_ids': (string)[];
}
