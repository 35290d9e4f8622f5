import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { BatchReply as _svc_batch_v1_BatchReply, BatchReply__Output as _svc_batch_v1_BatchReply__Output } from './svc/batch/v1/BatchReply';
import type { BatchServiceClient as _svc_batch_v1_BatchServiceClient, BatchServiceDefinition as _svc_batch_v1_BatchServiceDefinition } from './svc/batch/v1/BatchService';
import type { BatchWork as _svc_batch_v1_BatchWork, BatchWork__Output as _svc_batch_v1_BatchWork__Output } from './svc/batch/v1/BatchWork';
import type { CreateBatchRequest as _svc_batch_v1_CreateBatchRequest, CreateBatchRequest__Output as _svc_batch_v1_CreateBatchRequest__Output } from './svc/batch/v1/CreateBatchRequest';
import type { DeleteFileResponse as _svc_batch_v1_DeleteFileResponse, DeleteFileResponse__Output as _svc_batch_v1_DeleteFileResponse__Output } from './svc/batch/v1/DeleteFileResponse';
import type { FileContentChunk as _svc_batch_v1_FileContentChunk, FileContentChunk__Output as _svc_batch_v1_FileContentChunk__Output } from './svc/batch/v1/FileContentChunk';
import type { FileHead as _svc_batch_v1_FileHead, FileHead__Output as _svc_batch_v1_FileHead__Output } from './svc/batch/v1/FileHead';
import type { FileReply as _svc_batch_v1_FileReply, FileReply__Output as _svc_batch_v1_FileReply__Output } from './svc/batch/v1/FileReply';
import type { GetBatchRequest as _svc_batch_v1_GetBatchRequest, GetBatchRequest__Output as _svc_batch_v1_GetBatchRequest__Output } from './svc/batch/v1/GetBatchRequest';
import type { GetFileRequest as _svc_batch_v1_GetFileRequest, GetFileRequest__Output as _svc_batch_v1_GetFileRequest__Output } from './svc/batch/v1/GetFileRequest';
import type { ListBatchesRequest as _svc_batch_v1_ListBatchesRequest, ListBatchesRequest__Output as _svc_batch_v1_ListBatchesRequest__Output } from './svc/batch/v1/ListBatchesRequest';
import type { ListBatchesResponse as _svc_batch_v1_ListBatchesResponse, ListBatchesResponse__Output as _svc_batch_v1_ListBatchesResponse__Output } from './svc/batch/v1/ListBatchesResponse';
import type { ListFilesRequest as _svc_batch_v1_ListFilesRequest, ListFilesRequest__Output as _svc_batch_v1_ListFilesRequest__Output } from './svc/batch/v1/ListFilesRequest';
import type { ListFilesResponse as _svc_batch_v1_ListFilesResponse, ListFilesResponse__Output as _svc_batch_v1_ListFilesResponse__Output } from './svc/batch/v1/ListFilesResponse';
import type { UploadFileRequest as _svc_batch_v1_UploadFileRequest, UploadFileRequest__Output as _svc_batch_v1_UploadFileRequest__Output } from './svc/batch/v1/UploadFileRequest';
import type { UploadFinish as _svc_batch_v1_UploadFinish, UploadFinish__Output as _svc_batch_v1_UploadFinish__Output } from './svc/batch/v1/UploadFinish';
import type { UploadStart as _svc_batch_v1_UploadStart, UploadStart__Output as _svc_batch_v1_UploadStart__Output } from './svc/batch/v1/UploadStart';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  svc: {
    batch: {
      v1: {
        BatchReply: MessageTypeDefinition<_svc_batch_v1_BatchReply, _svc_batch_v1_BatchReply__Output>
        /**
         * BatchService owns uploaded files and batches (Postgres schema "batch"). Public objects travel
         * as JSON strings in the spec's shapes (file object, batch object), rendered once here. Every
         * request names its organization: another organization's ids are simply not found. Errors are
         * spec codes in gRPC metadata (libs/errors). Storage: services/batch/README.md.
         */
        BatchService: SubtypeConstructor<typeof grpc.Client, _svc_batch_v1_BatchServiceClient> & { service: _svc_batch_v1_BatchServiceDefinition }
        BatchWork: MessageTypeDefinition<_svc_batch_v1_BatchWork, _svc_batch_v1_BatchWork__Output>
        CreateBatchRequest: MessageTypeDefinition<_svc_batch_v1_CreateBatchRequest, _svc_batch_v1_CreateBatchRequest__Output>
        DeleteFileResponse: MessageTypeDefinition<_svc_batch_v1_DeleteFileResponse, _svc_batch_v1_DeleteFileResponse__Output>
        FileContentChunk: MessageTypeDefinition<_svc_batch_v1_FileContentChunk, _svc_batch_v1_FileContentChunk__Output>
        FileHead: MessageTypeDefinition<_svc_batch_v1_FileHead, _svc_batch_v1_FileHead__Output>
        FileReply: MessageTypeDefinition<_svc_batch_v1_FileReply, _svc_batch_v1_FileReply__Output>
        GetBatchRequest: MessageTypeDefinition<_svc_batch_v1_GetBatchRequest, _svc_batch_v1_GetBatchRequest__Output>
        GetFileRequest: MessageTypeDefinition<_svc_batch_v1_GetFileRequest, _svc_batch_v1_GetFileRequest__Output>
        ListBatchesRequest: MessageTypeDefinition<_svc_batch_v1_ListBatchesRequest, _svc_batch_v1_ListBatchesRequest__Output>
        ListBatchesResponse: MessageTypeDefinition<_svc_batch_v1_ListBatchesResponse, _svc_batch_v1_ListBatchesResponse__Output>
        ListFilesRequest: MessageTypeDefinition<_svc_batch_v1_ListFilesRequest, _svc_batch_v1_ListFilesRequest__Output>
        ListFilesResponse: MessageTypeDefinition<_svc_batch_v1_ListFilesResponse, _svc_batch_v1_ListFilesResponse__Output>
        UploadFileRequest: MessageTypeDefinition<_svc_batch_v1_UploadFileRequest, _svc_batch_v1_UploadFileRequest__Output>
        UploadFinish: MessageTypeDefinition<_svc_batch_v1_UploadFinish, _svc_batch_v1_UploadFinish__Output>
        UploadStart: MessageTypeDefinition<_svc_batch_v1_UploadStart, _svc_batch_v1_UploadStart__Output>
      }
    }
  }
}

