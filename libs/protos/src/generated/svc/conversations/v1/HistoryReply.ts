// Original file: protos/svc/conversations/v1/conversations_service.proto

import type { Long } from '@grpc/proto-loader';

export interface HistoryReply {
  /**
   * "" when neither a previous response nor a conversation was given.
   */
  'conversation_id'?: (string);
  /**
   * The thread head the new turn continues from: previous_response_id, or the conversation's
   * latest response (the most recently completed or incomplete one); "" = the root.
   */
  'parent_response_id'?: (string);
  /**
   * JSON array of the history items in thread order, compaction items in place.
   */
  'items_json'?: (string);
  /**
   * Stored entries and estimated tokens of the thread (every item on it, the replaced ones
   * and compaction items included): what the 4000 / 2,000,000 limits count.
   */
  'thread_entries'?: (number);
  'thread_token_estimate'?: (number);
  /**
   * Estimated tokens of items_json (what the model is given).
   */
  'history_token_estimate'?: (number);
  /**
   * The conversation's own retention; absent when the organization's applies.
   */
  'retention_days'?: (number);
  'history_entries'?: (number);
  /**
   * Characters of items_json under the token rule (history_token_estimate = ceil(characters / 4)):
   * a caller that extends this history with a turn it stored computes the next head's estimate
   * exactly (libs/backends historyAfterTurn).
   */
  'history_characters'?: (number | string | Long);
  /**
   * When the conversation expires (RFC 3339): a caller keeping this history must not use it after.
   */
  'expires_at'?: (string);
  '_retention_days'?: "retention_days";
}

export interface HistoryReply__Output {
  /**
   * "" when neither a previous response nor a conversation was given.
   */
  'conversation_id': (string);
  /**
   * The thread head the new turn continues from: previous_response_id, or the conversation's
   * latest response (the most recently completed or incomplete one); "" = the root.
   */
  'parent_response_id': (string);
  /**
   * JSON array of the history items in thread order, compaction items in place.
   */
  'items_json': (string);
  /**
   * Stored entries and estimated tokens of the thread (every item on it, the replaced ones
   * and compaction items included): what the 4000 / 2,000,000 limits count.
   */
  'thread_entries': (number);
  'thread_token_estimate': (number);
  /**
   * Estimated tokens of items_json (what the model is given).
   */
  'history_token_estimate': (number);
  /**
   * The conversation's own retention; absent when the organization's applies.
   */
  'retention_days'?: (number);
  'history_entries': (number);
  /**
   * Characters of items_json under the token rule (history_token_estimate = ceil(characters / 4)):
   * a caller that extends this history with a turn it stored computes the next head's estimate
   * exactly (libs/backends historyAfterTurn).
   */
  'history_characters': (number);
  /**
   * When the conversation expires (RFC 3339): a caller keeping this history must not use it after.
   */
  'expires_at': (string);
  '_retention_days'?: "retention_days";
}
