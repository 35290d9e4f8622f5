// Original file: protos/svc/conversations/v1/conversations_service.proto

import type { HistoryReply as _svc_conversations_v1_HistoryReply, HistoryReply__Output as _svc_conversations_v1_HistoryReply__Output } from '../../../svc/conversations/v1/HistoryReply';

export interface StoreCompactionResponse {
  /**
   * The compaction item {type compaction, id cmp_..., summary}.
   */
  'item_json'?: (string);
  /**
   * The head's history with the compaction in place.
   */
  'history'?: (_svc_conversations_v1_HistoryReply | null);
}

export interface StoreCompactionResponse__Output {
  /**
   * The compaction item {type compaction, id cmp_..., summary}.
   */
  'item_json': (string);
  /**
   * The head's history with the compaction in place.
   */
  'history': (_svc_conversations_v1_HistoryReply__Output | null);
}
