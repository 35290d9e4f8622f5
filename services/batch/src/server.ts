import { once } from 'node:events';
import { ServiceError, internalError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import { isDependencyOutage } from '@svc/db';
import { grpc, rpcFailure, unary, type ServiceRegistration, type UnavailableWhen } from '@svc/grpc';
import { loadBatchProto, type BatchServiceHandlers, type FileContentChunk, type UploadFileRequest__Output } from '@svc/protos';
import { deleteFile, getFile, listFiles, readContent, type FilesDeps } from './files/store';
import { uploadFile, type UploadPart } from './files/upload';
import { cancelBatch, commitLines, createBatch, failBatch, getBatch, listBatches, pendingLines, startBatch, type BatchesDeps } from './batches/store';

export interface BatchDeps {
  files: FilesDeps;
  /** The batches store (the files store's deps, and the completion window). */
  batches?: BatchesDeps;
  /** Called when a commit settled a batch's last line (the ticker ends it at once). */
  onLastLine?: (batchId: string) => void;
  logger: Logger;
  protosDir?: string;
}

/** The wire's oneof as the domain's UploadPart. */
function uploadPart(message: UploadFileRequest__Output): UploadPart {
  if (message.part === 'start' && message.start) {
    return { start: { organization_id: message.start.organization_id, filename: message.start.filename, ...(message.start.organization_retention_days === undefined || message.start.organization_retention_days === null ? {} : { organization_retention_days: message.start.organization_retention_days }) } };
  }
  if (message.part === 'data') return { data: message.data ?? Buffer.alloc(0) };
  if (message.part === 'finish' && message.finish) {
    return { finish: { purpose: message.finish.purpose, ...(message.finish.expires_after_seconds === undefined || message.finish.expires_after_seconds === null ? {} : { expires_after_seconds: message.finish.expires_after_seconds }) } };
  }
  throw internalError(new Error('an upload message with no part'));
}

/**
 * Postgres out of reach or out of connections is this service's 503 (files_unavailable for the
 * file RPCs, batches_unavailable for the batch ones), not a bug: a throttled warning, as in the
 * conversations service.
 */
const FILES_UNAVAILABLE: UnavailableWhen = { is: isDependencyOutage, code: 'files_unavailable', message: 'Files are unavailable right now; please try again shortly.' };
const BATCHES_UNAVAILABLE: UnavailableWhen = { is: isDependencyOutage, code: 'batches_unavailable', message: 'Batches are unavailable right now; please try again shortly.' };

/**
 * The BatchService registration (nothing at import time). Files: upload as a client stream,
 * content as a server stream, the rest unary; the rules live in ./files and ./batches.
 */
export function batchService(deps: BatchDeps): ServiceRegistration {
  const proto = loadBatchProto(deps.protosDir);
  const log = deps.logger;
  const batches = deps.batches ?? deps.files;
  const uploadFailure = rpcFailure(log, 'UploadFile', FILES_UNAVAILABLE);
  const contentFailure = rpcFailure(log, 'GetFileContent', FILES_UNAVAILABLE);
  const fileRpc = <Req, Res>(method: string, fn: (request: Req) => Promise<Res>) => unary<Req, Res>(log, method, fn, FILES_UNAVAILABLE);
  const batchRpc = <Req, Res>(method: string, fn: (request: Req) => Promise<Res>) => unary<Req, Res>(log, method, fn, BATCHES_UNAVAILABLE);
  const handlers: Partial<BatchServiceHandlers> = {
    UploadFile: (call, callback) => {
      // A cancelled call (the edge gave up: a refusal of its own, the client went away) ends the
      // read with an error, so the upload removes what it wrote.
      call.on('cancelled', () => call.destroy(new ServiceError('invalid_multipart', 'The upload was cancelled.')));
      async function* parts(): AsyncGenerator<UploadPart> {
        for await (const message of call as AsyncIterable<UploadFileRequest__Output>) yield uploadPart(message);
      }
      uploadFile(deps.files, parts()).then(
        (file) => callback(null, { file_json: JSON.stringify(file) }),
        (error: unknown) => {
          if (call.cancelled) return;
          callback(uploadFailure(error));
        },
      );
    },
    GetFile: fileRpc('GetFile', async (request) => ({ file_json: JSON.stringify(await getFile(deps.files, request.organization_id, request.file_id)) })),
    ListFiles: fileRpc('ListFiles', async (request) => {
      const list = await listFiles(deps.files, { organization_id: request.organization_id, limit: request.limit, after: request.after, purpose: request.purpose });
      return { files_json: list.data.map((file) => JSON.stringify(file)), has_more: list.has_more };
    }),
    DeleteFile: fileRpc('DeleteFile', (request) => deleteFile(deps.files, request.organization_id, request.file_id)),
    GetFileContent: (call) => {
      let stopped = false;
      call.on('cancelled', () => (stopped = true));
      const write = async (message: FileContentChunk) => {
        if (!call.write(message)) await Promise.race([once(call, 'drain'), once(call, 'cancelled')]);
      };
      (async () => {
        const content = await readContent(deps.files, call.request.organization_id, call.request.file_id);
        await write({ head: content.head });
        for await (const chunk of content.chunks) {
          if (stopped) return;
          await write({ data: chunk });
        }
        call.end();
      })().catch((error: unknown) => {
        if (stopped) return;
        call.emit('error', contentFailure(error));
      });
    },
    GetBatch: batchRpc('GetBatch', async (request) => ({ batch_json: JSON.stringify(await getBatch(batches, request.organization_id, request.batch_id)) })),
    CreateBatch: batchRpc('CreateBatch', async (request) => {
      const batch = await createBatch(batches, {
        organization_id: request.organization_id,
        key_id: request.key_id,
        input_file_id: request.input_file_id,
        endpoint: request.endpoint,
        completion_window: request.completion_window,
        metadata: request.metadata_json ? (JSON.parse(request.metadata_json) as Record<string, string>) : null,
        allow_standard_price: request.allow_standard_price,
        organization_retention_days: request.organization_retention_days || 30,
      });
      return { batch_json: JSON.stringify(batch) };
    }),
    ListBatches: batchRpc('ListBatches', async (request) => {
      const list = await listBatches(batches, { organization_id: request.organization_id, limit: request.limit, after: request.after });
      return { batches_json: list.data.map((batch) => JSON.stringify(batch)), has_more: list.has_more };
    }),
    CancelBatch: batchRpc('CancelBatch', async (request) => {
      const batch = await cancelBatch(batches, request.organization_id, request.batch_id);
      deps.onLastLine?.(request.batch_id);
      return { batch_json: JSON.stringify(batch) };
    }),
    FailBatch: batchRpc('FailBatch', async (request) => ({ batch_json: JSON.stringify(await failBatch(batches, JSON.parse(request.json))) })),
    StartBatch: batchRpc('StartBatch', async (request) => ({ batch_json: JSON.stringify(await startBatch(batches, JSON.parse(request.json))) })),
    PendingLines: batchRpc('PendingLines', async (request) => ({ json: JSON.stringify(await pendingLines(batches, JSON.parse(request.json))) })),
    CommitLines: batchRpc('CommitLines', async (request) => {
      const input = JSON.parse(request.json) as Parameters<typeof commitLines>[1];
      const result = await commitLines(batches, input);
      if (result.remaining === 0) deps.onLastLine?.(input.batch_id);
      return { json: JSON.stringify(result) };
    }),
  };
  return { definition: proto.BatchService.service, implementation: handlers as grpc.UntypedServiceImplementation, name: 'svc.batch.v1.BatchService' };
}
