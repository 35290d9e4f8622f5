import { once } from 'node:events';
import type { Request, Response } from 'express';
import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import type { KeyRecord__Output } from '@svc/protos';
import type { BatchClient } from '@svc/backends';
import { requireScopes } from '../auth/authenticate';
import { receiveUpload } from './multipart-upload';

/** File endpoints (scope chat; spec: File endpoints). Storage is the batch service's. */
export interface FilesDeps {
  batch: BatchClient;
  /** The organization's retention (days): files are kept at most this long. */
  retentionDays: number;
  logger: Logger;
  /** Tests shorten how long a silent upload may hold its connection. */
  uploadIdleMs?: number;
}

/** Spec (Limits): GET /v1/files limit 1 to 10000. */
export const MAX_LIST_LIMIT = 10_000;

const invalid = (param: string, message: string) => new ServiceError('invalid_value', message, { param });

function organizationOf(res: Response): string {
  const key = res.locals.key as KeyRecord__Output;
  requireScopes(key, ['chat']);
  return key.organization_id;
}

/** One query parameter as a single string (a repeated one is refused). */
function queryValue(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(name, `'${name}' must be given once, as a string.`);
  return value;
}

/**
 * Content-Disposition naming the file: `attachment; filename="<ASCII stand-in>";
 * filename*=UTF-8''<percent-encoded>` (RFC 6266), so any filename — quotes, non-ASCII, control
 * characters — reads back exactly and never breaks the header.
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export function fileHandlers(deps: FilesDeps) {
  return {
    /** POST /v1/files (multipart, streamed). */
    upload: async (req: Request, res: Response): Promise<void> => {
      const organizationId = organizationOf(res);
      const file = await receiveUpload(req, res, { batch: deps.batch, organizationId, retentionDays: deps.retentionDays, ...(deps.uploadIdleMs ? { idleMs: deps.uploadIdleMs } : {}) });
      res.status(200).json(file);
    },
    /** GET /v1/files?purpose&limit&after: newest first. */
    list: async (req: Request, res: Response): Promise<void> => {
      const organizationId = organizationOf(res);
      const limitText = queryValue(req, 'limit');
      let limit = MAX_LIST_LIMIT;
      if (limitText !== undefined) {
        limit = Number(limitText);
        if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_LIST_LIMIT) throw invalid('limit', `'limit' must be an integer from 1 to ${MAX_LIST_LIMIT}.`);
      }
      const after = queryValue(req, 'after');
      const purpose = queryValue(req, 'purpose');
      res.status(200).json(await deps.batch.listFiles({ organization_id: organizationId, limit, ...(after ? { after } : {}), ...(purpose ? { purpose } : {}) }));
    },
    /** GET /v1/files/{id}. */
    get: async (req: Request, res: Response): Promise<void> => {
      res.status(200).json(await deps.batch.getFile({ organization_id: organizationOf(res), file_id: String(req.params.id ?? '') }));
    },
    /** DELETE /v1/files/{id}: immediate; 409 file_in_use while a batch that is not ended needs it. */
    delete: async (req: Request, res: Response): Promise<void> => {
      res.status(200).json(await deps.batch.deleteFile({ organization_id: organizationOf(res), file_id: String(req.params.id ?? '') }));
    },
    /**
     * GET /v1/files/{id}/content: the bytes as stored, streamed with backpressure, with
     * Content-Length and a Content-Disposition naming the file. A failure before the first byte is
     * an envelope; one after it cuts the connection (the client sees fewer bytes than announced)
     * and is logged at error level.
     */
    content: async (req: Request, res: Response): Promise<void> => {
      const fileId = String(req.params.id ?? '');
      const content = await deps.batch.fileContent({ organization_id: organizationOf(res), file_id: fileId });
      const gone = () => res.destroyed || (res.socket?.destroyed ?? false);
      res.once('close', () => {
        if (!res.writableFinished) content.cancel();
      });
      res.status(200);
      res.setHeader('content-type', 'application/octet-stream');
      res.setHeader('content-length', String(content.bytes));
      res.setHeader('content-disposition', contentDisposition(content.filename));
      try {
        for await (const chunk of content.body) {
          if (gone()) return;
          if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
        }
        res.end();
      } catch (error) {
        if (gone()) return;
        if (!res.headersSent) {
          // Nothing went out yet: the failure is answered in the envelope.
          for (const name of ['content-type', 'content-length', 'content-disposition']) res.removeHeader(name);
          throw error;
        }
        const failure = error instanceof ServiceError ? error : undefined;
        deps.logger.error('file content failed after its first byte; connection cut', { request_id: res.locals.requestId, file_id: fileId, code: failure?.code ?? 'internal_error', err: error });
        res.destroy();
      }
    },
  };
}
