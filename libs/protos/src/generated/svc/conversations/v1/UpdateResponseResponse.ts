// Original file: protos/svc/conversations/v1/conversations_service.proto

import type { StoredId as _svc_conversations_v1_StoredId, StoredId__Output as _svc_conversations_v1_StoredId__Output } from '../../../svc/conversations/v1/StoredId';

export interface UpdateResponseResponse {
  /**
   * false: the response had already ended; response_json is the stored one, unchanged.
   */
  'updated'?: (boolean);
  'response_json'?: (string);
  'output_ids'?: (_svc_conversations_v1_StoredId)[];
  'delete_after_response'?: (boolean);
}

export interface UpdateResponseResponse__Output {
  /**
   * false: the response had already ended; response_json is the stored one, unchanged.
   */
  'updated': (boolean);
  'response_json': (string);
  'output_ids': (_svc_conversations_v1_StoredId__Output)[];
  'delete_after_response': (boolean);
}
