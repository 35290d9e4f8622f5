import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { BatchReply as _svc_batch_v1_BatchReply, BatchReply__Output as _svc_batch_v1_BatchReply__Output } from './svc/batch/v1/BatchReply';
import type { BatchServiceClient as _svc_batch_v1_BatchServiceClient, BatchServiceDefinition as _svc_batch_v1_BatchServiceDefinition } from './svc/batch/v1/BatchService';
import type { FileReply as _svc_batch_v1_FileReply, FileReply__Output as _svc_batch_v1_FileReply__Output } from './svc/batch/v1/FileReply';
import type { GetBatchRequest as _svc_batch_v1_GetBatchRequest, GetBatchRequest__Output as _svc_batch_v1_GetBatchRequest__Output } from './svc/batch/v1/GetBatchRequest';
import type { GetFileRequest as _svc_batch_v1_GetFileRequest, GetFileRequest__Output as _svc_batch_v1_GetFileRequest__Output } from './svc/batch/v1/GetFileRequest';
import type { ListFilesRequest as _svc_batch_v1_ListFilesRequest, ListFilesRequest__Output as _svc_batch_v1_ListFilesRequest__Output } from './svc/batch/v1/ListFilesRequest';
import type { ListFilesResponse as _svc_batch_v1_ListFilesResponse, ListFilesResponse__Output as _svc_batch_v1_ListFilesResponse__Output } from './svc/batch/v1/ListFilesResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  svc: {
    batch: {
      v1: {
        BatchReply: MessageTypeDefinition<_svc_batch_v1_BatchReply, _svc_batch_v1_BatchReply__Output>
        /**
         * BatchService owns uploaded files and batches. Public objects travel as JSON strings in the
         * spec's shapes (file object, batch object).
         */
        BatchService: SubtypeConstructor<typeof grpc.Client, _svc_batch_v1_BatchServiceClient> & { service: _svc_batch_v1_BatchServiceDefinition }
        FileReply: MessageTypeDefinition<_svc_batch_v1_FileReply, _svc_batch_v1_FileReply__Output>
        GetBatchRequest: MessageTypeDefinition<_svc_batch_v1_GetBatchRequest, _svc_batch_v1_GetBatchRequest__Output>
        GetFileRequest: MessageTypeDefinition<_svc_batch_v1_GetFileRequest, _svc_batch_v1_GetFileRequest__Output>
        ListFilesRequest: MessageTypeDefinition<_svc_batch_v1_ListFilesRequest, _svc_batch_v1_ListFilesRequest__Output>
        ListFilesResponse: MessageTypeDefinition<_svc_batch_v1_ListFilesResponse, _svc_batch_v1_ListFilesResponse__Output>
      }
    }
  }
}

