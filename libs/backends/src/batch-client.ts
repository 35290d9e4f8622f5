import { once } from 'node:events';
import type { FileObject } from '@svc/messages';
export type { FileObject };
import { grpc, callUnary, clientOptions, grpcTarget, insecure } from '@svc/grpc';
import { fromGrpcError, type ServiceError } from '@svc/errors';
import { loadBatchProto, type BatchServiceClient, type FileContentChunk__Output, type FileReply__Output, type UploadFileRequest } from '@svc/protos';

/**
 * The batch service's gRPC client (svc.batch.v1) for files: promises with deadlines and spec
 * errors (ServiceError; `files_unavailable` when the service cannot be reached), uploads and
 * content as streams with backpressure both ways. The wire carries file objects as JSON strings.
 */


export interface FileList {
  object: 'list';
  data: FileObject[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/** One upload in flight (UploadFile, a client stream). */
export interface FileUpload {
  /**
   * Sends the next bytes of the file; resolves when the stream takes more (or once the service
   * has answered: then the bytes are dropped, and `result` says why).
   */
  write(data: Buffer): Promise<void>;
  /** The form fields, which end the upload; resolves with the file or rejects with the refusal. */
  finish(fields: { purpose: string; expires_after_seconds?: number }): Promise<FileObject>;
  /** Gives up: the service removes what it wrote. */
  cancel(): void;
  /** Settles as soon as the service answers, which may be before finish (invalid_file, file_too_large). */
  readonly result: Promise<FileObject>;
  /** True once the service has answered. */
  readonly answered: boolean;
}

export interface FileContent {
  filename: string;
  bytes: number;
  /** The plaintext in order; throws a ServiceError if the service fails midway. */
  body: AsyncIterable<Buffer>;
  /** Stops reading (the client went away). */
  cancel(): void;
}

export interface BatchClient {
  uploadFile(start: { organization_id: string; filename: string; organization_retention_days: number }): FileUpload;
  getFile(query: { organization_id: string; file_id: string }): Promise<FileObject>;
  listFiles(query: { organization_id: string; limit?: number; after?: string; purpose?: string }): Promise<FileList>;
  deleteFile(query: { organization_id: string; file_id: string }): Promise<{ id: string; object: 'file'; deleted: true }>;
  fileContent(query: { organization_id: string; file_id: string }): Promise<FileContent>;
  /** Batches (spec: Batch endpoints); objects as the service rendered them. */
  createBatch(input: { organization_id: string; key_id: string; input_file_id: string; endpoint: string; completion_window: string; metadata: Record<string, string> | null; allow_standard_price: boolean; organization_retention_days: number }): Promise<BatchObject>;
  getBatch(query: { organization_id: string; batch_id: string }): Promise<BatchObject>;
  listBatches(query: { organization_id: string; limit?: number; after?: string }): Promise<{ object: 'list'; data: BatchObject[]; first_id: string | null; last_id: string | null; has_more: boolean }>;
  cancelBatch(query: { organization_id: string; batch_id: string }): Promise<BatchObject>;
  /** The workers' side (services/batch/src/batches/store.ts): JSON in, JSON out. */
  batchWork<T>(method: 'FailBatch' | 'StartBatch' | 'PendingLines' | 'CommitLines', payload: unknown): Promise<T>;
  close(): void;
}

/** Spec (Batch object), as rendered by the batch service. */
export type BatchObject = { id: string; object: 'batch'; status: string; input_file_id: string; request_counts: { total: number; completed: number; failed: number } } & Record<string, unknown>;

const UNAVAILABLE = 'files_unavailable';
const BATCHES_UNAVAILABLE = 'batches_unavailable';

/**
 * `address`: host:port, a comma-separated list of replicas, or any grpc target. Unary calls use
 * `deadlineMs`; an upload or a content stream may run for `streamDeadlineMs` (default one hour:
 * the edge cancels them sooner when its client goes away).
 */
export function createBatchClient(options: { address: string; deadlineMs: number; streamDeadlineMs?: number; protosDir?: string }): BatchClient {
  const proto = loadBatchProto(options.protosDir);
  const channelOptions = clientOptions(options.deadlineMs);
  const client = new proto.BatchService(grpcTarget(options.address), insecure(), channelOptions) as unknown as BatchServiceClient;
  const unary = { deadlineMs: options.deadlineMs };
  const streamDeadline = () => Date.now() + (options.streamDeadlineMs ?? 3_600_000);
  const file = (reply: FileReply__Output) => JSON.parse(reply.file_json) as FileObject;

  return {
    uploadFile(start) {
      let answered = false;
      let settle!: { resolve: (value: FileObject) => void; reject: (error: ServiceError) => void };
      const result = new Promise<FileObject>((resolve, reject) => (settle = { resolve, reject }));
      // Nobody may be awaiting result yet when a refusal arrives.
      result.catch(() => undefined);
      const call = client.UploadFile(new grpc.Metadata(), { deadline: streamDeadline() }, (error, reply) => {
        answered = true;
        if (error || !reply) settle.reject(fromGrpcError(error, UNAVAILABLE));
        else settle.resolve(file(reply));
      });
      // Write failures after the answer (or a dead peer) arrive through the callback above.
      call.on('error', () => undefined);
      const send = (message: UploadFileRequest) => (answered ? true : call.write(message));
      send({ start });
      return {
        get answered() {
          return answered;
        },
        result,
        async write(data) {
          if (send({ data })) return;
          await Promise.race([once(call, 'drain'), result.then(() => undefined, () => undefined)]);
        },
        finish(fields) {
          if (!answered) {
            call.write({ finish: fields });
            call.end();
          }
          return result;
        },
        cancel() {
          if (!answered) call.cancel();
        },
      };
    },
    async getFile(query) {
      return file(await callUnary(client.GetFile as never, client as unknown as grpc.Client, query, unary, UNAVAILABLE));
    },
    async listFiles(query) {
      const reply = await callUnary<object, { files_json: string[]; has_more: boolean }>(client.ListFiles as never, client as unknown as grpc.Client, { organization_id: query.organization_id, limit: query.limit ?? 0, after: query.after ?? '', purpose: query.purpose ?? '' }, unary, UNAVAILABLE);
      const data = (reply.files_json ?? []).map((text) => JSON.parse(text) as FileObject);
      return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: reply.has_more };
    },
    async deleteFile(query) {
      const reply = await callUnary<object, { id: string }>(client.DeleteFile as never, client as unknown as grpc.Client, query, unary, UNAVAILABLE);
      return { id: reply.id, object: 'file', deleted: true };
    },
    async fileContent(query) {
      const stream = client.GetFileContent(query, { deadline: streamDeadline() });
      const messages = (stream as AsyncIterable<FileContentChunk__Output>)[Symbol.asyncIterator]();
      let first: IteratorResult<FileContentChunk__Output>;
      try {
        first = await messages.next();
      } catch (error) {
        throw fromGrpcError(error, UNAVAILABLE);
      }
      const head = first.done ? undefined : first.value.head;
      if (!head) {
        stream.cancel();
        throw fromGrpcError(new Error('the content stream began without its head'), UNAVAILABLE);
      }
      async function* body(): AsyncGenerator<Buffer> {
        try {
          for (;;) {
            const next = await messages.next();
            if (next.done) return;
            if (next.value.data) yield next.value.data;
          }
        } catch (error) {
          throw fromGrpcError(error, UNAVAILABLE);
        }
      }
      return { filename: head.filename, bytes: Number(head.bytes), body: body(), cancel: () => stream.cancel() };
    },
    async createBatch(input) {
      const { metadata, ...rest } = input;
      const reply = await callUnary<object, { batch_json: string }>(client.CreateBatch as never, client as unknown as grpc.Client, { ...rest, metadata_json: metadata ? JSON.stringify(metadata) : '' }, unary, BATCHES_UNAVAILABLE);
      return JSON.parse(reply.batch_json) as BatchObject;
    },
    async getBatch(query) {
      const reply = await callUnary<object, { batch_json: string }>(client.GetBatch as never, client as unknown as grpc.Client, query, unary, BATCHES_UNAVAILABLE);
      return JSON.parse(reply.batch_json) as BatchObject;
    },
    async listBatches(query) {
      const reply = await callUnary<object, { batches_json: string[]; has_more: boolean }>(client.ListBatches as never, client as unknown as grpc.Client, { organization_id: query.organization_id, limit: query.limit ?? 0, after: query.after ?? '' }, unary, BATCHES_UNAVAILABLE);
      const data = (reply.batches_json ?? []).map((text) => JSON.parse(text) as BatchObject);
      return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: reply.has_more };
    },
    async cancelBatch(query) {
      const reply = await callUnary<object, { batch_json: string }>(client.CancelBatch as never, client as unknown as grpc.Client, query, unary, BATCHES_UNAVAILABLE);
      return JSON.parse(reply.batch_json) as BatchObject;
    },
    async batchWork<T>(method: 'FailBatch' | 'StartBatch' | 'PendingLines' | 'CommitLines', payload: unknown): Promise<T> {
      const reply = await callUnary<object, { json?: string; batch_json?: string }>((client as unknown as Record<string, unknown>)[method] as never, client as unknown as grpc.Client, { json: JSON.stringify(payload) }, { deadlineMs: Math.max(options.deadlineMs, 30_000) }, BATCHES_UNAVAILABLE);
      return JSON.parse(reply.json ?? reply.batch_json ?? 'null') as T;
    },
    close: () => (client as unknown as grpc.Client).close(),
  };
}
