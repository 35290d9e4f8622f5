import { ERROR_TABLE, type ErrorCode, type ErrorType } from './table';

export interface ServiceErrorOptions {
  param?: string | null;
  /** Overrides the table's status where the spec allows two (free_tier_limit: 403 or 429). */
  status?: number;
  /** Response headers that belong to this error (Retry-After, x-svc-free-limit, ...). */
  headers?: Record<string, string>;
  /** Internal cause: logged, never rendered. */
  cause?: unknown;
}

/** An error the client is meant to see: a spec code with a client-facing English message. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly type: ErrorType;
  readonly param: string | null;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const spec = ERROR_TABLE[code];
    this.code = code;
    this.status = options.status ?? spec.status;
    this.type = spec.type;
    this.param = options.param ?? null;
    this.headers = { ...(options.headers ?? {}) };
    if ('retryAfter' in spec && spec.retryAfter && this.headers['retry-after'] === undefined) {
      this.headers['retry-after'] = String(spec.retryAfter);
    }
  }

  /** The envelope: {error: {message, type, param, code}}. */
  toBody(): ErrorEnvelope {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

export interface ErrorEnvelope {
  error: { message: string; type: ErrorType; param: string | null; code: string };
}

/** What an unexpected failure renders as: 500 internal_error, the cause never in the body. */
export function internalError(cause?: unknown): ServiceError {
  return new ServiceError('internal_error', 'The server had an error while processing your request.', { cause });
}

/** Any thrown value as a ServiceError (unknown failures become internal_error). */
export function toServiceError(error: unknown): ServiceError {
  return error instanceof ServiceError ? error : internalError(error);
}
