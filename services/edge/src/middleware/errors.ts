import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { ServiceError, internalError } from '@svc/errors';
import { VendorError } from '@svc/vendors';
import { ids } from '@svc/ids';
import type { Logger } from '@svc/logger';
import { trace, SpanStatusCode } from '@svc/telemetry';

/**
 * Failures before a handler in the spec's terms: 413 payload_too_large, 400 invalid_json for a
 * body that cannot be read (not JSON, a bad charset, a gzip/deflate/br body that does not
 * decompress, an unknown content encoding), 404 not_found for a path that is not valid URL
 * encoding (it names nothing that exists).
 */
function fromRequestError(error: { type?: string; status?: number; statusCode?: number; expose?: boolean; name?: string }): ServiceError | undefined {
  if (error.type === 'entity.too.large') return new ServiceError('payload_too_large', 'The request body is larger than 32 MB.');
  if (error.type === 'entity.parse.failed' || error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
    return new ServiceError('invalid_json', 'The request body is not valid JSON.');
  }
  if (error.type === 'request.aborted' || error.type === 'request.size.invalid' || error.type === 'stream.encoding.set') {
    return new ServiceError('invalid_json', 'The request body could not be read.');
  }
  if (error instanceof URIError || (error.status === 400 && error.name === 'URIError')) return new ServiceError('not_found', 'The path is not valid URL encoding.');
  // body-parser's other client errors (a compressed body that does not decompress, ...).
  const status = error.status ?? error.statusCode;
  if (error.expose === true && typeof status === 'number' && status >= 400 && status < 500) return new ServiceError('invalid_json', 'The request body could not be read.');
  return undefined;
}

/** Where a failure happened, without the raw path (which may carry anything a client sent). */
function routeOf(req: Request): string {
  return `${req.method} ${req.baseUrl}${typeof req.route?.path === 'string' ? req.route.path : ''}`;
}

/**
 * The client closed its connection before the answer and the failure is that call being
 * cancelled (spec: Long calls 6, a disconnect cancels the vendor call): nothing failed here and
 * no one is left to answer. Not a 5xx (the request metric records 499).
 */
function abandonedByClient(error: unknown, req: Request, res: Response): boolean {
  const cancelled = (error instanceof VendorError && error.kind === 'aborted') || (error as { name?: unknown } | undefined)?.name === 'AbortError';
  return cancelled && !res.writableFinished && (res.destroyed || req.socket.destroyed);
}

/**
 * Renders every failure as the envelope; a 500 never carries its cause. Every 5xx is logged at
 * error level with the request id and code, so on-call staff can find it from the client's
 * x-request-id. A call the client abandoned is neither rendered nor logged as a failure.
 */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (abandonedByClient(error, req, res)) {
      logger.info('client closed the connection before the answer; call cancelled', { request_id: res.locals.requestId, route: routeOf(req) });
      res.end();
      return;
    }
    const serviceError = error instanceof ServiceError ? error : (fromRequestError((error ?? {}) as { type?: string }) ?? internalError(error));
    res.locals.errorCode = serviceError.code;
    trace.getActiveSpan()?.setAttribute('svc.error_code', serviceError.code).setStatus({ code: SpanStatusCode.ERROR, message: serviceError.code });
    if (serviceError.status >= 500) {
      logger.error('request failed', { request_id: res.locals.requestId, code: serviceError.code, status: serviceError.status, route: routeOf(req), ...(serviceError.code === 'internal_error' || serviceError.cause ? { err: serviceError.code === 'internal_error' ? error : serviceError.cause } : {}) });
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [name, value] of Object.entries(serviceError.headers)) res.setHeader(name, value);
    if (serviceError.status === 413) res.setHeader('connection', 'close');
    res.status(serviceError.status).json(serviceError.toBody());
  };
}

/** HTTP/1.1 requires a Host header (RFC 9112 3.2); the server lets it through so it is refused here, in the envelope. */
export function hostRequired(req: Request, res: Response, next: NextFunction): void {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
    res.setHeader('connection', 'close');
    next(new ServiceError('invalid_json', 'The request could not be read: HTTP/1.1 needs a Host header.'));
    return;
  }
  next();
}

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new ServiceError('not_found', `Unknown route: ${req.method} ${req.path}`));
}

/**
 * Node's answer to a request it cannot parse (bad header bytes, both Content-Length and
 * Transfer-Encoding, headers over the limit, ...) is a bare status line. This one answers in the
 * envelope with an x-request-id: 400 invalid_json ("unreadable"), then closes the connection.
 */
export function clientErrorHandler(logger: Pick<Logger, 'warn'>) {
  return (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const requestId = ids.requestId();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const failure = new ServiceError('invalid_json', tooLarge ? 'The request headers are too large.' : 'The request could not be read: it is not valid HTTP.');
    const body = JSON.stringify(failure.toBody());
    logger.warn('malformed request refused', { request_id: requestId, code: error.code });
    socket.end(
      `HTTP/1.1 ${failure.status} Bad Request\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    );
  };
}
