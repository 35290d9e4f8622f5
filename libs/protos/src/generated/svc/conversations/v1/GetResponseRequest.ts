// Original file: protos/svc/conversations/v1/conversations_service.proto


export interface GetResponseRequest {
  'organization_id'?: (string);
  'response_id'?: (string);
}

export interface GetResponseRequest__Output {
  'organization_id': (string);
  'response_id': (string);
}
