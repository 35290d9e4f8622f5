import type { IncomingMessage, ServerResponse } from 'node:http';
import Busboy from 'busboy';
import { ServiceError } from '@svc/errors';
import type { BatchClient, FileObject, FileUpload } from '@svc/backends';
import { idleTimeout } from '../middleware/errors';

/** Spec (File endpoints; Limits, Files; RULINGS 3). */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;
export const MIN_EXPIRES_AFTER_SECONDS = 3600;
export const MAX_EXPIRES_AFTER_SECONDS = 2_592_000;
/** After a refusal the rest of the body is read and dropped (so the client reads the answer), up to this much. */
export const REFUSED_UPLOAD_DRAIN_BYTES = 64 * 1024 * 1024;
/** An upload that sends nothing for this long is cut (its connection closed). */
export const UPLOAD_IDLE_MS = 60_000;
/** Form fields are short; one longer than this is refused as invalid_value. */
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_FILENAME_CHARACTERS = 255;

export interface UploadOptions {
  batch: Pick<BatchClient, 'uploadFile'>;
  organizationId: string;
  /** The organization's retention (days): expires_at is at most this long after upload. */
  retentionDays: number;
  idleMs?: number;
}

const invalidMultipart = (why: string) => new ServiceError('invalid_multipart', `The request body is not valid multipart/form-data: ${why}.`);
const tooLarge = () => new ServiceError('file_too_large', `The file is larger than 100 MiB (${MAX_FILE_BYTES} bytes).`, { param: 'file' });
const missing = (field: string) => new ServiceError('missing_field', `Missing required field '${field}'.`, { param: field });
const invalid = (field: string, message: string) => new ServiceError('invalid_value', message, { param: field });

/** A form field's problem as soon as its value is known (null: fine). */
function fieldProblem(name: string, value: string, truncated: boolean): ServiceError | null {
  if (name === 'purpose') {
    if (truncated || value !== 'batch') return invalid('purpose', "'purpose' must be 'batch' (the only purpose files are accepted for).");
  } else if (name === 'expires_after[anchor]') {
    if (truncated || value !== 'created_at') return invalid('expires_after[anchor]', "'expires_after[anchor]' must be 'created_at'.");
  } else if (name === 'expires_after[seconds]') {
    const seconds = Number(value);
    if (truncated || !/^\d+$/.test(value) || seconds < MIN_EXPIRES_AFTER_SECONDS || seconds > MAX_EXPIRES_AFTER_SECONDS) {
      return invalid('expires_after[seconds]', `'expires_after[seconds]' must be an integer from ${MIN_EXPIRES_AFTER_SECONDS} to ${MAX_EXPIRES_AFTER_SECONDS}.`);
    }
  }
  return null;
}

/**
 * POST /v1/files: reads the multipart body as a stream and hands the file's bytes to the batch
 * service as they arrive, never holding the file (RULINGS 3). Backpressure runs end to end: the
 * batch service reads one message at a time, the upload stream waits for it, the file part waits
 * for the upload, busboy and the socket wait for the file part.
 *
 * Refusals, in the order they are known: a body that is not multipart (400 invalid_multipart), a
 * field with a bad value as soon as it arrives (400 invalid_value: purpose other than `batch`,
 * expires_after outside the rules), the batch service's own refusals while the file streams
 * (400 invalid_file naming the line; 413 file_too_large), the file past 100 MiB (413
 * file_too_large), and at the end what is missing (400 missing_field: file, purpose, one half of
 * expires_after). After a refusal the rest of the body is read and dropped, up to 64 MiB more, so
 * the client reads the answer rather than a reset; beyond that the answer goes out at once and
 * the connection is closed. The form fields may come before or after the file (the official
 * clients send them first); the upload is committed only when the whole body was read and every
 * field is right.
 */
export function receiveUpload(req: IncomingMessage, res: ServerResponse, options: UploadOptions): Promise<FileObject> {
  return new Promise<FileObject>((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_FILE_BYTES + REFUSED_UPLOAD_DRAIN_BYTES) {
      res.setHeader('connection', 'close');
      reject(tooLarge());
      return;
    }
    let busboy: Busboy.Busboy;
    try {
      busboy = Busboy({
        headers: req.headers,
        // Filenames as UTF-8 (busboy's default reads them as latin1).
        defParamCharset: 'utf8',
        // busboy signals 'limit' when a file reaches fileSize: one byte past the largest allowed.
        limits: { fileSize: MAX_FILE_BYTES + 1, fieldSize: MAX_FIELD_BYTES, fields: 64, files: 16, parts: 128, fieldNameSize: 256, headerPairs: 64 },
      });
    } catch {
      reject(invalidMultipart("the content type must be multipart/form-data with a boundary"));
      req.resume();
      return;
    }

    const idleMs = options.idleMs ?? UPLOAD_IDLE_MS;
    const fields = new Map<string, string>();
    let upload: FileUpload | undefined;
    let pumping: Promise<void> = Promise.resolve();
    let failure: ServiceError | undefined;
    let settled = false;
    let received = 0;
    let receivedAtFailure = 0;

    const clearIdle = idleTimeout(req, idleMs);
    const done = (error: ServiceError | undefined, file?: FileObject) => {
      if (settled) return;
      settled = true;
      clearIdle();
      if (error) {
        upload?.cancel();
        reject(error);
      } else {
        resolve(file!);
      }
    };
    /** The answer once the body was read (or the allowance ran out). */
    const answerFailure = () => {
      if (!failure || settled) return;
      if (req.complete || req.readableEnded) {
        done(failure);
        return;
      }
      if (received - receivedAtFailure > REFUSED_UPLOAD_DRAIN_BYTES) {
        res.setHeader('connection', 'close');
        done(failure);
        return;
      }
      req.unpipe(busboy);
      req.once('end', () => done(failure));
      req.resume();
    };
    const fail = (error: ServiceError) => {
      if (failure) return;
      failure = error;
      receivedAtFailure = received;
      upload?.cancel();
    };

    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (failure && received - receivedAtFailure > REFUSED_UPLOAD_DRAIN_BYTES) answerFailure();
    });
    // The client went away: nothing to answer; the upload is given up.
    req.once('close', () => {
      if (!req.complete) {
        fail(invalidMultipart('the body ended early'));
        done(failure);
      }
    });

    busboy.on('field', (name, value, info) => {
      if (failure) return;
      if (fields.has(name)) return;
      fields.set(name, value);
      const problem = fieldProblem(name, value, info.valueTruncated || info.nameTruncated);
      if (problem) fail(problem);
    });

    busboy.on('file', (name, stream, info) => {
      if (failure || name !== 'file') {
        stream.resume();
        return;
      }
      if (upload) {
        stream.resume();
        fail(invalidMultipart("more than one 'file' part"));
        return;
      }
      const filename = info.filename ?? 'file';
      if ([...filename].length > MAX_FILENAME_CHARACTERS) {
        stream.resume();
        fail(invalid('file', `The filename is longer than ${MAX_FILENAME_CHARACTERS} characters.`));
        return;
      }
      const current = options.batch.uploadFile({ organization_id: options.organizationId, filename: filename === '' ? 'file' : filename, organization_retention_days: options.retentionDays });
      upload = current;
      // The batch service may refuse before the end (invalid_file naming the line, file_too_large).
      current.result.catch((error: ServiceError) => fail(error));
      stream.on('limit', () => fail(tooLarge()));
      pumping = (async () => {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          if (failure || current.answered) continue;
          await current.write(chunk);
        }
      })().catch(() => {
        // The part ended badly; busboy reports it ('error').
      });
    });

    busboy.on('error', () => {
      fail(invalidMultipart('it could not be read (malformed or cut short)'));
      answerFailure();
    });

    busboy.on('close', () => {
      void pumping.then(async () => {
        if (!failure) {
          const purpose = fields.get('purpose');
          const anchor = fields.get('expires_after[anchor]');
          const seconds = fields.get('expires_after[seconds]');
          if (!upload) fail(missing('file'));
          else if (purpose === undefined) fail(missing('purpose'));
          else if (anchor !== undefined && seconds === undefined) fail(missing('expires_after[seconds]'));
          else if (seconds !== undefined && anchor === undefined) fail(missing('expires_after[anchor]'));
        }
        if (failure) {
          answerFailure();
          return;
        }
        const seconds = fields.get('expires_after[seconds]');
        try {
          const file = await upload!.finish({ purpose: fields.get('purpose')!, ...(seconds === undefined ? {} : { expires_after_seconds: Number(seconds) }) });
          done(undefined, file);
        } catch (error) {
          done(error as ServiceError);
        }
      });
    });

    req.pipe(busboy);
  });
}
