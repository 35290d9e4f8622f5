// Original file: protos/svc/conversations/v1/conversations_service.proto

import type { PoolGroup as _svc_conversations_v1_PoolGroup, PoolGroup__Output as _svc_conversations_v1_PoolGroup__Output } from '../../../svc/conversations/v1/PoolGroup';

export interface ClaimPoolResponse {
  'groups'?: (_svc_conversations_v1_PoolGroup)[];
}

export interface ClaimPoolResponse__Output {
  'groups': (_svc_conversations_v1_PoolGroup__Output)[];
}
