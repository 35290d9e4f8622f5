// Original file: protos/svc/batch/v1/batch_service.proto

import type { FileHead as _svc_batch_v1_FileHead, FileHead__Output as _svc_batch_v1_FileHead__Output } from '../../../svc/batch/v1/FileHead';

export interface FileContentChunk {
  'head'?: (_svc_batch_v1_FileHead | null);
  'data'?: (Buffer | Uint8Array | string);
  'part'?: "head"|"data";
}

export interface FileContentChunk__Output {
  'head'?: (_svc_batch_v1_FileHead__Output | null);
  'data'?: (Buffer);
  'part'?: "head"|"data";
}
