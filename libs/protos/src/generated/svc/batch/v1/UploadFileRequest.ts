// Original file: protos/svc/batch/v1/batch_service.proto

import type { UploadStart as _svc_batch_v1_UploadStart, UploadStart__Output as _svc_batch_v1_UploadStart__Output } from '../../../svc/batch/v1/UploadStart';
import type { UploadFinish as _svc_batch_v1_UploadFinish, UploadFinish__Output as _svc_batch_v1_UploadFinish__Output } from '../../../svc/batch/v1/UploadFinish';

export interface UploadFileRequest {
  'start'?: (_svc_batch_v1_UploadStart | null);
  'data'?: (Buffer | Uint8Array | string);
  'finish'?: (_svc_batch_v1_UploadFinish | null);
  'part'?: "start"|"data"|"finish";
}

export interface UploadFileRequest__Output {
  'start'?: (_svc_batch_v1_UploadStart__Output | null);
  'data'?: (Buffer);
  'finish'?: (_svc_batch_v1_UploadFinish__Output | null);
  'part'?: "start"|"data"|"finish";
}
