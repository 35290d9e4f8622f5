// Original file: protos/svc/conversations/v1/conversations_service.proto

import type { PoolRow as _svc_conversations_v1_PoolRow, PoolRow__Output as _svc_conversations_v1_PoolRow__Output } from '../../../svc/conversations/v1/PoolRow';

export interface PoolGroup {
  'organization_id'?: (string);
  'vendor'?: (string);
  'rows'?: (_svc_conversations_v1_PoolRow)[];
}

export interface PoolGroup__Output {
  'organization_id': (string);
  'vendor': (string);
  'rows': (_svc_conversations_v1_PoolRow__Output)[];
}
