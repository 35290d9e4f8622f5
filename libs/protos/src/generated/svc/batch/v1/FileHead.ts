// Original file: protos/svc/batch/v1/batch_service.proto

import type { Long } from '@grpc/proto-loader';

export interface FileHead {
  'filename'?: (string);
  'bytes'?: (number | string | Long);
}

export interface FileHead__Output {
  'filename': (string);
  'bytes': (number);
}
