// Original file: protos/svc/conversations/v1/conversations_service.proto

import type { StoredId as _svc_conversations_v1_StoredId, StoredId__Output as _svc_conversations_v1_StoredId__Output } from '../../../svc/conversations/v1/StoredId';
import type { Long } from '@grpc/proto-loader';

export interface CompleteTurnResponse {
  /**
   * The response object as stored: output ids replaced, conversation {id} set.
   */
  'response_json'?: (string);
  'conversation_id'?: (string);
  'output_ids'?: (_svc_conversations_v1_StoredId)[];
  /**
   * Stored ids of the input items, in order.
   */
  'input_item_ids'?: (string)[];
  /**
   * The conversation's retention is 0: it reads as gone from now on; the caller deletes it
   * (DeleteConversation) once the response was written.
   */
  'delete_after_response'?: (boolean);
  /**
   * The thread after this turn.
   */
  'thread_entries'?: (number);
  'thread_token_estimate'?: (number);
  /**
   * RFC 3339.
   */
  'expires_at'?: (string);
  /**
   * JSON array of the turn's input items as stored (with their ids), in order.
   */
  'input_items_json'?: (string);
  /**
   * What this turn added to the thread (and to the history of a turn continuing from it): its
   * input and output items and their characters under the token rule.
   */
  'turn_entries'?: (number);
  'turn_characters'?: (number | string | Long);
}

export interface CompleteTurnResponse__Output {
  /**
   * The response object as stored: output ids replaced, conversation {id} set.
   */
  'response_json': (string);
  'conversation_id': (string);
  'output_ids': (_svc_conversations_v1_StoredId__Output)[];
  /**
   * Stored ids of the input items, in order.
   */
  'input_item_ids': (string)[];
  /**
   * The conversation's retention is 0: it reads as gone from now on; the caller deletes it
   * (DeleteConversation) once the response was written.
   */
  'delete_after_response': (boolean);
  /**
   * The thread after this turn.
   */
  'thread_entries': (number);
  'thread_token_estimate': (number);
  /**
   * RFC 3339.
   */
  'expires_at': (string);
  /**
   * JSON array of the turn's input items as stored (with their ids), in order.
   */
  'input_items_json': (string);
  /**
   * What this turn added to the thread (and to the history of a turn continuing from it): its
   * input and output items and their characters under the token rule.
   */
  'turn_entries': (number);
  'turn_characters': (number);
}
