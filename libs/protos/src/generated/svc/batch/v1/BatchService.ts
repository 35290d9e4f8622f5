// Original file: protos/svc/batch/v1/batch_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BatchReply as _svc_batch_v1_BatchReply, BatchReply__Output as _svc_batch_v1_BatchReply__Output } from '../../../svc/batch/v1/BatchReply';
import type { BatchWork as _svc_batch_v1_BatchWork, BatchWork__Output as _svc_batch_v1_BatchWork__Output } from '../../../svc/batch/v1/BatchWork';
import type { CreateBatchRequest as _svc_batch_v1_CreateBatchRequest, CreateBatchRequest__Output as _svc_batch_v1_CreateBatchRequest__Output } from '../../../svc/batch/v1/CreateBatchRequest';
import type { DeleteFileResponse as _svc_batch_v1_DeleteFileResponse, DeleteFileResponse__Output as _svc_batch_v1_DeleteFileResponse__Output } from '../../../svc/batch/v1/DeleteFileResponse';
import type { FileContentChunk as _svc_batch_v1_FileContentChunk, FileContentChunk__Output as _svc_batch_v1_FileContentChunk__Output } from '../../../svc/batch/v1/FileContentChunk';
import type { FileReply as _svc_batch_v1_FileReply, FileReply__Output as _svc_batch_v1_FileReply__Output } from '../../../svc/batch/v1/FileReply';
import type { GetBatchRequest as _svc_batch_v1_GetBatchRequest, GetBatchRequest__Output as _svc_batch_v1_GetBatchRequest__Output } from '../../../svc/batch/v1/GetBatchRequest';
import type { GetFileRequest as _svc_batch_v1_GetFileRequest, GetFileRequest__Output as _svc_batch_v1_GetFileRequest__Output } from '../../../svc/batch/v1/GetFileRequest';
import type { ListBatchesRequest as _svc_batch_v1_ListBatchesRequest, ListBatchesRequest__Output as _svc_batch_v1_ListBatchesRequest__Output } from '../../../svc/batch/v1/ListBatchesRequest';
import type { ListBatchesResponse as _svc_batch_v1_ListBatchesResponse, ListBatchesResponse__Output as _svc_batch_v1_ListBatchesResponse__Output } from '../../../svc/batch/v1/ListBatchesResponse';
import type { ListFilesRequest as _svc_batch_v1_ListFilesRequest, ListFilesRequest__Output as _svc_batch_v1_ListFilesRequest__Output } from '../../../svc/batch/v1/ListFilesRequest';
import type { ListFilesResponse as _svc_batch_v1_ListFilesResponse, ListFilesResponse__Output as _svc_batch_v1_ListFilesResponse__Output } from '../../../svc/batch/v1/ListFilesResponse';
import type { UploadFileRequest as _svc_batch_v1_UploadFileRequest, UploadFileRequest__Output as _svc_batch_v1_UploadFileRequest__Output } from '../../../svc/batch/v1/UploadFileRequest';

/**
 * BatchService owns uploaded files and batches (Postgres schema "batch"). Public objects travel
 * as JSON strings in the spec's shapes (file object, batch object), rendered once here. Every
 * request names its organization: another organization's ids are simply not found. Errors are
 * spec codes in gRPC metadata (libs/errors). Storage: services/batch/README.md.
 */
export interface BatchServiceClient extends grpc.Client {
  /**
   * POST /v1/batches/{id}/cancel: `cancelling`; 400 batch_not_cancellable once ended.
   */
  CancelBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  CancelBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  CancelBatch(argument: _svc_batch_v1_GetBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  CancelBatch(argument: _svc_batch_v1_GetBatchRequest, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v1/batches/{id}/cancel: `cancelling`; 400 batch_not_cancellable once ended.
   */
  cancelBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  cancelBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  cancelBatch(argument: _svc_batch_v1_GetBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  cancelBatch(argument: _svc_batch_v1_GetBatchRequest, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Lines' outcomes committed, each with its usage record (billing.usage_outbox) in the same
   * transaction, idempotent on (batch, line): a line committed twice counts and bills once.
   */
  CommitLines(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  CommitLines(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  CommitLines(argument: _svc_batch_v1_BatchWork, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  CommitLines(argument: _svc_batch_v1_BatchWork, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  /**
   * Lines' outcomes committed, each with its usage record (billing.usage_outbox) in the same
   * transaction, idempotent on (batch, line): a line committed twice counts and bills once.
   */
  commitLines(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  commitLines(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  commitLines(argument: _svc_batch_v1_BatchWork, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  commitLines(argument: _svc_batch_v1_BatchWork, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v1/batches after the edge checked the body: the input file (404 not_found; a file that
   * is not a processed batch upload: invalid_value; over 50,000 lines: batch_too_large), the
   * organization's open batches (429 too_many_open_batches at 20, under a per-organization lock),
   * then the batch row, status `validating`.
   */
  CreateBatch(argument: _svc_batch_v1_CreateBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  CreateBatch(argument: _svc_batch_v1_CreateBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  CreateBatch(argument: _svc_batch_v1_CreateBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  CreateBatch(argument: _svc_batch_v1_CreateBatchRequest, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v1/batches after the edge checked the body: the input file (404 not_found; a file that
   * is not a processed batch upload: invalid_value; over 50,000 lines: batch_too_large), the
   * organization's open batches (429 too_many_open_batches at 20, under a per-organization lock),
   * then the batch row, status `validating`.
   */
  createBatch(argument: _svc_batch_v1_CreateBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  createBatch(argument: _svc_batch_v1_CreateBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  createBatch(argument: _svc_batch_v1_CreateBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  createBatch(argument: _svc_batch_v1_CreateBatchRequest, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * DELETE /v1/files/{id}: immediate; 409 file_in_use while a batch that is not ended uses it.
   */
  DeleteFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_DeleteFileResponse__Output>): grpc.ClientUnaryCall;
  DeleteFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_DeleteFileResponse__Output>): grpc.ClientUnaryCall;
  DeleteFile(argument: _svc_batch_v1_GetFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_DeleteFileResponse__Output>): grpc.ClientUnaryCall;
  DeleteFile(argument: _svc_batch_v1_GetFileRequest, callback: grpc.requestCallback<_svc_batch_v1_DeleteFileResponse__Output>): grpc.ClientUnaryCall;
  /**
   * DELETE /v1/files/{id}: immediate; 409 file_in_use while a batch that is not ended uses it.
   */
  deleteFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_DeleteFileResponse__Output>): grpc.ClientUnaryCall;
  deleteFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_DeleteFileResponse__Output>): grpc.ClientUnaryCall;
  deleteFile(argument: _svc_batch_v1_GetFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_DeleteFileResponse__Output>): grpc.ClientUnaryCall;
  deleteFile(argument: _svc_batch_v1_GetFileRequest, callback: grpc.requestCallback<_svc_batch_v1_DeleteFileResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The workers' side of a batch (services/batch/src/batches/lines.ts). Payloads are JSON.
   * validating → failed with the errors list (nothing was billed).
   */
  FailBatch(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  FailBatch(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  FailBatch(argument: _svc_batch_v1_BatchWork, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  FailBatch(argument: _svc_batch_v1_BatchWork, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  /**
   * The workers' side of a batch (services/batch/src/batches/lines.ts). Payloads are JSON.
   * validating → failed with the errors list (nothing was billed).
   */
  failBatch(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  failBatch(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  failBatch(argument: _svc_batch_v1_BatchWork, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  failBatch(argument: _svc_batch_v1_BatchWork, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v1/batches/{id}: 404 not_found when unknown or another organization's.
   */
  GetBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  GetBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  GetBatch(argument: _svc_batch_v1_GetBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  GetBatch(argument: _svc_batch_v1_GetBatchRequest, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v1/batches/{id}: 404 not_found when unknown or another organization's.
   */
  getBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  getBatch(argument: _svc_batch_v1_GetBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  getBatch(argument: _svc_batch_v1_GetBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  getBatch(argument: _svc_batch_v1_GetBatchRequest, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v1/files/{id}: 404 not_found when unknown, another organization's, deleted or expired.
   */
  GetFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  GetFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  GetFile(argument: _svc_batch_v1_GetFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  GetFile(argument: _svc_batch_v1_GetFileRequest, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v1/files/{id}: 404 not_found when unknown, another organization's, deleted or expired.
   */
  getFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  getFile(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  getFile(argument: _svc_batch_v1_GetFileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  getFile(argument: _svc_batch_v1_GetFileRequest, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v1/files/{id}/content: `head` first (or the error before any message), then the
   * plaintext in order as `data` messages.
   */
  GetFileContent(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_svc_batch_v1_FileContentChunk__Output>;
  GetFileContent(argument: _svc_batch_v1_GetFileRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_svc_batch_v1_FileContentChunk__Output>;
  /**
   * GET /v1/files/{id}/content: `head` first (or the error before any message), then the
   * plaintext in order as `data` messages.
   */
  getFileContent(argument: _svc_batch_v1_GetFileRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_svc_batch_v1_FileContentChunk__Output>;
  getFileContent(argument: _svc_batch_v1_GetFileRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_svc_batch_v1_FileContentChunk__Output>;
  
  /**
   * GET /v1/batches: newest first.
   */
  ListBatches(argument: _svc_batch_v1_ListBatchesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListBatchesResponse__Output>): grpc.ClientUnaryCall;
  ListBatches(argument: _svc_batch_v1_ListBatchesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_ListBatchesResponse__Output>): grpc.ClientUnaryCall;
  ListBatches(argument: _svc_batch_v1_ListBatchesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListBatchesResponse__Output>): grpc.ClientUnaryCall;
  ListBatches(argument: _svc_batch_v1_ListBatchesRequest, callback: grpc.requestCallback<_svc_batch_v1_ListBatchesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v1/batches: newest first.
   */
  listBatches(argument: _svc_batch_v1_ListBatchesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListBatchesResponse__Output>): grpc.ClientUnaryCall;
  listBatches(argument: _svc_batch_v1_ListBatchesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_ListBatchesResponse__Output>): grpc.ClientUnaryCall;
  listBatches(argument: _svc_batch_v1_ListBatchesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListBatchesResponse__Output>): grpc.ClientUnaryCall;
  listBatches(argument: _svc_batch_v1_ListBatchesRequest, callback: grpc.requestCallback<_svc_batch_v1_ListBatchesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * GET /v1/files: newest first.
   */
  ListFiles(argument: _svc_batch_v1_ListFilesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  ListFiles(argument: _svc_batch_v1_ListFilesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  ListFiles(argument: _svc_batch_v1_ListFilesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  ListFiles(argument: _svc_batch_v1_ListFilesRequest, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * GET /v1/files: newest first.
   */
  listFiles(argument: _svc_batch_v1_ListFilesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  listFiles(argument: _svc_batch_v1_ListFilesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  listFiles(argument: _svc_batch_v1_ListFilesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  listFiles(argument: _svc_batch_v1_ListFilesRequest, callback: grpc.requestCallback<_svc_batch_v1_ListFilesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Which of these lines are still to run, and the batch's status (a chunk's first step).
   */
  PendingLines(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  PendingLines(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  PendingLines(argument: _svc_batch_v1_BatchWork, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  PendingLines(argument: _svc_batch_v1_BatchWork, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  /**
   * Which of these lines are still to run, and the batch's status (a chunk's first step).
   */
  pendingLines(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  pendingLines(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  pendingLines(argument: _svc_batch_v1_BatchWork, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  pendingLines(argument: _svc_batch_v1_BatchWork, callback: grpc.requestCallback<_svc_batch_v1_BatchWork__Output>): grpc.ClientUnaryCall;
  
  /**
   * validating → in_progress: the line rows (index, custom_id) written in one transaction.
   */
  StartBatch(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  StartBatch(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  StartBatch(argument: _svc_batch_v1_BatchWork, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  StartBatch(argument: _svc_batch_v1_BatchWork, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  /**
   * validating → in_progress: the line rows (index, custom_id) written in one transaction.
   */
  startBatch(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  startBatch(argument: _svc_batch_v1_BatchWork, metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  startBatch(argument: _svc_batch_v1_BatchWork, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  startBatch(argument: _svc_batch_v1_BatchWork, callback: grpc.requestCallback<_svc_batch_v1_BatchReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * POST /v1/files. A client stream: `start` first, then the file's bytes as `data` messages in
   * order, then `finish` (the form fields, which may come after the file in a multipart body).
   * The service checks the batch JSONL while the bytes arrive and answers invalid_file (naming
   * the 1-based line) or file_too_large as soon as it knows, without waiting for the rest; the
   * caller stops sending then. Nothing is visible until `finish` is committed; a stream that
   * ends or is cancelled without `finish` leaves nothing behind.
   */
  UploadFile(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientWritableStream<_svc_batch_v1_UploadFileRequest>;
  UploadFile(metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientWritableStream<_svc_batch_v1_UploadFileRequest>;
  UploadFile(options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientWritableStream<_svc_batch_v1_UploadFileRequest>;
  UploadFile(callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientWritableStream<_svc_batch_v1_UploadFileRequest>;
  /**
   * POST /v1/files. A client stream: `start` first, then the file's bytes as `data` messages in
   * order, then `finish` (the form fields, which may come after the file in a multipart body).
   * The service checks the batch JSONL while the bytes arrive and answers invalid_file (naming
   * the 1-based line) or file_too_large as soon as it knows, without waiting for the rest; the
   * caller stops sending then. Nothing is visible until `finish` is committed; a stream that
   * ends or is cancelled without `finish` leaves nothing behind.
   */
  uploadFile(metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientWritableStream<_svc_batch_v1_UploadFileRequest>;
  uploadFile(metadata: grpc.Metadata, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientWritableStream<_svc_batch_v1_UploadFileRequest>;
  uploadFile(options: grpc.CallOptions, callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientWritableStream<_svc_batch_v1_UploadFileRequest>;
  uploadFile(callback: grpc.requestCallback<_svc_batch_v1_FileReply__Output>): grpc.ClientWritableStream<_svc_batch_v1_UploadFileRequest>;
  
}

/**
 * BatchService owns uploaded files and batches (Postgres schema "batch"). Public objects travel
 * as JSON strings in the spec's shapes (file object, batch object), rendered once here. Every
 * request names its organization: another organization's ids are simply not found. Errors are
 * spec codes in gRPC metadata (libs/errors). Storage: services/batch/README.md.
 */
export interface BatchServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * POST /v1/batches/{id}/cancel: `cancelling`; 400 batch_not_cancellable once ended.
   */
  CancelBatch: grpc.handleUnaryCall<_svc_batch_v1_GetBatchRequest__Output, _svc_batch_v1_BatchReply>;
  
  /**
   * Lines' outcomes committed, each with its usage record (billing.usage_outbox) in the same
   * transaction, idempotent on (batch, line): a line committed twice counts and bills once.
   */
  CommitLines: grpc.handleUnaryCall<_svc_batch_v1_BatchWork__Output, _svc_batch_v1_BatchWork>;
  
  /**
   * POST /v1/batches after the edge checked the body: the input file (404 not_found; a file that
   * is not a processed batch upload: invalid_value; over 50,000 lines: batch_too_large), the
   * organization's open batches (429 too_many_open_batches at 20, under a per-organization lock),
   * then the batch row, status `validating`.
   */
  CreateBatch: grpc.handleUnaryCall<_svc_batch_v1_CreateBatchRequest__Output, _svc_batch_v1_BatchReply>;
  
  /**
   * DELETE /v1/files/{id}: immediate; 409 file_in_use while a batch that is not ended uses it.
   */
  DeleteFile: grpc.handleUnaryCall<_svc_batch_v1_GetFileRequest__Output, _svc_batch_v1_DeleteFileResponse>;
  
  /**
   * The workers' side of a batch (services/batch/src/batches/lines.ts). Payloads are JSON.
   * validating → failed with the errors list (nothing was billed).
   */
  FailBatch: grpc.handleUnaryCall<_svc_batch_v1_BatchWork__Output, _svc_batch_v1_BatchReply>;
  
  /**
   * GET /v1/batches/{id}: 404 not_found when unknown or another organization's.
   */
  GetBatch: grpc.handleUnaryCall<_svc_batch_v1_GetBatchRequest__Output, _svc_batch_v1_BatchReply>;
  
  /**
   * GET /v1/files/{id}: 404 not_found when unknown, another organization's, deleted or expired.
   */
  GetFile: grpc.handleUnaryCall<_svc_batch_v1_GetFileRequest__Output, _svc_batch_v1_FileReply>;
  
  /**
   * GET /v1/files/{id}/content: `head` first (or the error before any message), then the
   * plaintext in order as `data` messages.
   */
  GetFileContent: grpc.handleServerStreamingCall<_svc_batch_v1_GetFileRequest__Output, _svc_batch_v1_FileContentChunk>;
  
  /**
   * GET /v1/batches: newest first.
   */
  ListBatches: grpc.handleUnaryCall<_svc_batch_v1_ListBatchesRequest__Output, _svc_batch_v1_ListBatchesResponse>;
  
  /**
   * GET /v1/files: newest first.
   */
  ListFiles: grpc.handleUnaryCall<_svc_batch_v1_ListFilesRequest__Output, _svc_batch_v1_ListFilesResponse>;
  
  /**
   * Which of these lines are still to run, and the batch's status (a chunk's first step).
   */
  PendingLines: grpc.handleUnaryCall<_svc_batch_v1_BatchWork__Output, _svc_batch_v1_BatchWork>;
  
  /**
   * validating → in_progress: the line rows (index, custom_id) written in one transaction.
   */
  StartBatch: grpc.handleUnaryCall<_svc_batch_v1_BatchWork__Output, _svc_batch_v1_BatchReply>;
  
  /**
   * POST /v1/files. A client stream: `start` first, then the file's bytes as `data` messages in
   * order, then `finish` (the form fields, which may come after the file in a multipart body).
   * The service checks the batch JSONL while the bytes arrive and answers invalid_file (naming
   * the 1-based line) or file_too_large as soon as it knows, without waiting for the rest; the
   * caller stops sending then. Nothing is visible until `finish` is committed; a stream that
   * ends or is cancelled without `finish` leaves nothing behind.
   */
  UploadFile: grpc.handleClientStreamingCall<_svc_batch_v1_UploadFileRequest__Output, _svc_batch_v1_FileReply>;
  
}

export interface BatchServiceDefinition extends grpc.ServiceDefinition {
  CancelBatch: MethodDefinition<_svc_batch_v1_GetBatchRequest, _svc_batch_v1_BatchReply, _svc_batch_v1_GetBatchRequest__Output, _svc_batch_v1_BatchReply__Output>
  CommitLines: MethodDefinition<_svc_batch_v1_BatchWork, _svc_batch_v1_BatchWork, _svc_batch_v1_BatchWork__Output, _svc_batch_v1_BatchWork__Output>
  CreateBatch: MethodDefinition<_svc_batch_v1_CreateBatchRequest, _svc_batch_v1_BatchReply, _svc_batch_v1_CreateBatchRequest__Output, _svc_batch_v1_BatchReply__Output>
  DeleteFile: MethodDefinition<_svc_batch_v1_GetFileRequest, _svc_batch_v1_DeleteFileResponse, _svc_batch_v1_GetFileRequest__Output, _svc_batch_v1_DeleteFileResponse__Output>
  FailBatch: MethodDefinition<_svc_batch_v1_BatchWork, _svc_batch_v1_BatchReply, _svc_batch_v1_BatchWork__Output, _svc_batch_v1_BatchReply__Output>
  GetBatch: MethodDefinition<_svc_batch_v1_GetBatchRequest, _svc_batch_v1_BatchReply, _svc_batch_v1_GetBatchRequest__Output, _svc_batch_v1_BatchReply__Output>
  GetFile: MethodDefinition<_svc_batch_v1_GetFileRequest, _svc_batch_v1_FileReply, _svc_batch_v1_GetFileRequest__Output, _svc_batch_v1_FileReply__Output>
  GetFileContent: MethodDefinition<_svc_batch_v1_GetFileRequest, _svc_batch_v1_FileContentChunk, _svc_batch_v1_GetFileRequest__Output, _svc_batch_v1_FileContentChunk__Output>
  ListBatches: MethodDefinition<_svc_batch_v1_ListBatchesRequest, _svc_batch_v1_ListBatchesResponse, _svc_batch_v1_ListBatchesRequest__Output, _svc_batch_v1_ListBatchesResponse__Output>
  ListFiles: MethodDefinition<_svc_batch_v1_ListFilesRequest, _svc_batch_v1_ListFilesResponse, _svc_batch_v1_ListFilesRequest__Output, _svc_batch_v1_ListFilesResponse__Output>
  PendingLines: MethodDefinition<_svc_batch_v1_BatchWork, _svc_batch_v1_BatchWork, _svc_batch_v1_BatchWork__Output, _svc_batch_v1_BatchWork__Output>
  StartBatch: MethodDefinition<_svc_batch_v1_BatchWork, _svc_batch_v1_BatchReply, _svc_batch_v1_BatchWork__Output, _svc_batch_v1_BatchReply__Output>
  UploadFile: MethodDefinition<_svc_batch_v1_UploadFileRequest, _svc_batch_v1_FileReply, _svc_batch_v1_UploadFileRequest__Output, _svc_batch_v1_FileReply__Output>
}
