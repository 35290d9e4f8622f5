// Original file: /work/main/protos/svc/batch/v1/batch_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BatchReply as _svc_batch_v1_BatchReply, BatchReply__Output as _svc_batch_v1_BatchReply__Output } from '../../../svc/batch/v1/BatchReply';
import type { FileReply as _svc_batch_v1_FileReply, FileReply__Output as _svc_batch_v1_FileReply__Output } from '../../../svc/batch/v1/FileReply';
import type { GetBatchRequest as _svc_batch_v1_GetBatchRequest, GetBatchRequest__Output as _svc_batch_v1_GetBatchRequest__Output } from '../../../svc/batch/v1/GetBatchRequest';
import type { GetFileRequest as _svc_batch_v1_GetFileRequest, GetFileRequest__Output as _svc_batch_v1_GetFileRequest__Output } from '../../../svc/batch/v1/GetFileRequest';
import type { ListFilesRequest as _svc_batch_v1_ListFilesRequest, ListFilesRequest__Output as _svc_batch_v1_ListFilesRequest__Output } from '../../../svc/batch/v1/ListFilesRequest';
import type { ListFilesResponse as _svc_batch_v1_ListFilesResponse, ListFilesResponse__Output as _svc_batch_v1_ListFilesResponse__Output } from '../../../svc/batch/v1/ListFilesResponse';

/**
 * BatchService owns uploaded files and batches. Public objects travel as JSON strings in the
 * spec's shapes (file object, batch object).
 */
export interface BatchServiceClient extends grpc.Client {
  GetBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  GetBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  GetBatch(argument: _svc_batch_v1_GetBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  GetBatch(argument: _svc_batch_v1_GetBatchRequest, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  getBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  getBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  getBatch(argument: _svc_batch_v1_GetBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  getBatch(argument: _svc_batch_v1_GetBatchRequest, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  
  GetFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  GetFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  GetFile(argument: _svc_batch_v1_GetFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  GetFile(argument: _svc_batch_v1_GetFileRequest, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  getFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  getFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  getFile(argument: _svc_batch_v1_GetFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  getFile(argument: _svc_batch_v1_GetFileRequest, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  
  ListFiles(argument: _svc_batch_v1_ListFilesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  ListFiles(argument: _svc_batch_v1_ListFilesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  ListFiles(argument: _svc_batch_v1_ListFilesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  ListFiles(argument: _svc_batch_v1_ListFilesRequest, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  listFiles(argument: _svc_batch_v1_ListFilesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  listFiles(argument: _svc_batch_v1_ListFilesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  listFiles(argument: _svc_batch_v1_ListFilesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  listFiles(argument: _svc_batch_v1_ListFilesRequest, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * BatchService owns uploaded files and batches. Public objects travel as JSON strings in the
 * spec's shapes (file object, batch object).
 */
export interface BatchServiceHandlers extends grpc.UntypedServiceImplementation {
  GetBatch: grpc.handleUnaryCall<_svc_batch_v1_GetBatchRequest__Output, _svc_batch_v1_BatchReply>;
  
  GetFile: grpc.handleUnaryCall<_svc_batch_v1_GetFileRequest__Output, _svc_batch_v1_FileReply>;
  
  ListFiles: grpc.handleUnaryCall<_svc_batch_v1_ListFilesRequest__Output, _svc_batch_v1_ListFilesResponse>;
  
}

export interface BatchServiceDefinition extends grpc.ServiceDefinition {
  GetBatch: MethodDefinition<_svc_batch_v1_GetBatchRequest, _svc_batch_v1_BatchReply, _svc_batch_v1_GetBatchRequest__Output, _svc_batch_v1_BatchReply__Output>
  GetFile: MethodDefinition<_svc_batch_v1_GetFileRequest, _svc_batch_v1_FileReply, _svc_batch_v1_GetFileRequest__Output, _svc_batch_v1_FileReply__Output>
  ListFiles: MethodDefinition<_svc_batch_v1_ListFilesRequest, _svc_batch_v1_ListFilesResponse, _svc_batch_v1_ListFilesRequest__Output, _svc_batch_v1_ListFilesResponse__Output>
}
