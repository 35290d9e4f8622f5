import { isUtf8 } from 'node:buffer';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { ServiceError, internalError } from '@svc/errors';
import { VendorError } from '@svc/vendors';
import { ids } from '@svc/ids';
import type { Logger } from '@svc/logger';
import { trace, SpanStatusCode } from '@svc/telemetry';
import { ipGateOf } from '../limits/ip-limit';

/**
 * Failures before a handler in the spec's terms: 413 payload_too_large, 400 invalid_json for a
 * body that cannot be read (not JSON, a bad charset, a gzip/deflate/br body that does not
 * decompress, an unknown content encoding), 404 not_found for a path that is not valid URL
 * encoding (it names nothing that exists).
 */
function fromRequestError(error: { type?: string; status?: number; statusCode?: number; expose?: boolean; name?: string; limit?: number }): ServiceError | undefined {
  if (error.type === 'entity.too.large') return tooLarge(error.limit ?? 32_000_000);
  if (error.type === 'entity.parse.failed' || error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
    return new ServiceError('invalid_json', 'The request body is not valid JSON.');
  }
  if (error.type === 'entity.verify.failed') return new ServiceError('invalid_json', 'The request body is not valid UTF-8 (JSON is UTF-8).');
  if (error.type === 'request.aborted' || error.type === 'request.size.invalid' || error.type === 'stream.encoding.set') {
    return new ServiceError('invalid_json', 'The request body could not be read.');
  }
  if (error instanceof URIError || (error.status === 400 && error.name === 'URIError')) return new ServiceError('not_found', 'The path is not valid URL encoding.');
  // body-parser's other client errors (a compressed body that does not decompress, ...).
  const status = error.status ?? error.statusCode;
  if (error.expose === true && typeof status === 'number' && status >= 400 && status < 500) return new ServiceError('invalid_json', 'The request body could not be read.');
  return undefined;
}

/**
 * body-parser's `verify` for JSON bodies: bytes that are not UTF-8 make the body not JSON (RFC
 * 8259 §8.1), so they are refused (400 invalid_json) rather than decoded with U+FFFD in their place
 * and stored or sent on, damaged (files refuse them the same way).
 */
export function verifyUtf8(req: { headers: Record<string, string | string[] | undefined> }, _res: unknown, body: Buffer): void {
  // A body declared in another charset body-parser decodes (UTF-16, UTF-32) is that charset's.
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(String(req.headers['content-type'] ?? ''))?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return;
  if (!isUtf8(body)) throw new Error('the request body is not valid UTF-8');
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
  const render = (error: unknown, req: Request, res: Response): void => {
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

  // A request whose per-address check runs beside it (ip-limit.ts, IpGate) answers nothing before
  // the check has: its refusal is then the answer, with the headers set before the check only.
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const gate = ipGateOf(res);
    if (!gate || res.headersSent) return render(error, req, res);
    gate.refusal.then(
      (refusal) => {
        if (refusal && !res.headersSent) {
          for (const name of res.getHeaderNames()) if (!gate.headersBefore.includes(name)) res.removeHeader(name);
          return render(refusal, req, res);
        }
        render(error, req, res);
      },
      () => render(error, req, res),
    );
  };
}

/** How long a refused body may go without a byte before its connection is closed. */
const REFUSED_BODY_IDLE_MS = 10_000;
/** How much of a refused body is read (and dropped) so the client gets to read the 413. */
const REFUSED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;

/** The spec's limits are decimal megabytes (32 MB, the analyzer's 1 MB). */
function tooLarge(limitBytes: number): ServiceError {
  const megabytes = limitBytes / 1_000_000;
  return new ServiceError('payload_too_large', `The request body is larger than ${Number.isInteger(megabytes) ? megabytes : megabytes.toFixed(1)} MB.`);
}

/**
 * Closes the request's connection after `idleMs` without a byte; the returned function takes the
 * timeout off again. The listener it added goes with it: a keep-alive connection carries many
 * requests, and a listener left on its socket per request would keep every one of them (their
 * request, response and span objects) for as long as the connection lives.
 */
export function idleTimeout(req: Pick<IncomingMessage, 'socket'>, idleMs: number): () => void {
  const socket = req.socket;
  const onIdle = () => socket.destroy();
  socket.setTimeout(idleMs, onIdle);
  let cleared = false;
  return () => {
    if (cleared) return;
    cleared = true;
    // setTimeout(0, listener) stops the timer and removes that listener.
    socket.setTimeout(0, onIdle);
  };
}

/**
 * A body whose Content-Length is over the limit: 413 payload_too_large without parsing a byte of
 * it. A client that sends its whole body before reading the answer (most do) would see a reset
 * if the connection closed under it, so the body is read and dropped — up to 64 MB past the
 * limit, answered at its end — and the connection closed after the answer (the error handler
 * sets `connection: close` on 413). A body declared and not sent no longer holds the connection:
 * 10 s without a byte closes it; a body beyond the drain allowance is answered at once.
 */
export function refuseDeclaredOverLimit(limitBytes: number, idleMs = REFUSED_BODY_IDLE_MS) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const declared = Number(req.headers['content-length']);
    if (!Number.isFinite(declared) || declared <= limitBytes) {
      next();
      return;
    }
    const refusal = tooLarge(limitBytes);
    if (declared > limitBytes + REFUSED_BODY_DRAIN_BYTES) {
      next(refusal);
      return;
    }
    let answered = false;
    const clearIdle = idleTimeout(req, idleMs);
    const answer = () => {
      if (answered) return;
      answered = true;
      clearIdle();
      next(refusal);
    };
    req.once('end', answer);
    req.once('error', () => req.socket.destroy());
    req.resume();
  };
}

/** How long a request body may go without a byte while it is being read. */
export const BODY_IDLE_MS = 60_000;

/**
 * A request whose body stops arriving does not hold its connection for ever: while the body is
 * being read, `idleMs` without a byte closes the connection (there is no one to answer — the
 * client is not sending). Once the body has arrived the socket has no timeout again, so a long
 * call (up to 600 s of vendor time) is never cut by it.
 */
export function bodyReadIdle(idleMs = BODY_IDLE_MS) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const length = req.headers['content-length'];
    const hasBody = length === undefined ? req.headers['transfer-encoding'] !== undefined : Number(length) > 0;
    if (!hasBody || req.readableEnded) {
      next();
      return;
    }
    const clear = idleTimeout(req, idleMs);
    req.once('end', clear);
    req.once('close', clear);
    next();
  };
}

/**
 * A call's body must be a JSON document: an empty one (no bytes) is 400 invalid_json, not `{}`
 * (body-parser's reading). The routes whose body the spec lets be empty (POST /v1/conversations)
 * do not use this.
 */
export function requireBody(req: Request, _res: Response, next: NextFunction): void {
  const length = req.headers['content-length'];
  const empty = length === undefined ? req.headers['transfer-encoding'] === undefined : Number(length) === 0;
  next(empty ? new ServiceError('invalid_json', 'The request body is empty; send a JSON object.') : undefined);
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
 * No route takes OPTIONS: it is an unknown method like any other (404 not_found, before any key
 * check, public routes included), not express's automatic `Allow` answer in text/plain.
 */
export function optionsNotFound(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'OPTIONS') notFound(req, res, next);
  else next();
}

/**
 * Node's answer to a request it cannot parse (bad header bytes, both Content-Length and
 * Transfer-Encoding, headers over the limit, ...) is a bare status line. This one answers in the
 * envelope with an x-request-id: 400 invalid_json ("unreadable"), then closes the connection.
 *
 * Unless the bad bytes came pipelined behind a request that is still being answered: HTTP/1.1
 * answers requests in order, so a 400 written now would reach the client as the answer to that
 * earlier request (which may well be a billed call) and its real answer would be lost. That
 * answer goes out first, untouched; the connection is closed after it.
 */
export function clientErrorHandler(logger: Pick<Logger, 'warn'>) {
  // Node calls this again for every later chunk on a connection whose parser failed.
  const handled = new WeakSet<Socket>();
  return (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void => {
    if (handled.has(socket)) return;
    handled.add(socket);
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight && !inFlight.writableFinished) {
      if (inFlight.req?.complete) {
        logger.warn('malformed request behind one still being answered: closing the connection after that answer', { code: error.code });
        if (!inFlight.headersSent) inFlight.setHeader('connection', 'close');
        inFlight.once('finish', () => socket.end());
        return;
      }
      // The failure is in the request being answered (its body): answer it, unless its answer has begun.
      if (inFlight.headersSent) {
        socket.destroy();
        return;
      }
    }
    const requestId = ids.requestId();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    logger.warn('malformed request refused', { request_id: requestId, code: error.code });
    answerAndClose(socket, requestId, new ServiceError('invalid_json', tooLarge ? 'The request headers are too large.' : 'The request could not be read: it is not valid HTTP.'));
  };
}

/**
 * CONNECT (a request for a proxy tunnel; nothing here is a proxy). Node drops such a connection
 * without a word when no one listens for it; it is answered 404 not_found in the envelope.
 */
export function connectRefusal(logger: Pick<Logger, 'warn'>) {
  return (_req: IncomingMessage, socket: Socket): void => {
    const requestId = ids.requestId();
    logger.warn('CONNECT refused', { request_id: requestId });
    answerAndClose(socket, requestId, new ServiceError('not_found', 'Unknown route: CONNECT (this is not a proxy).'));
  };
}

/** Writes an envelope answer straight to the socket (no response object exists) and closes it. */
function answerAndClose(socket: Socket, requestId: string, failure: ServiceError): void {
  const body = JSON.stringify(failure.toBody());
  const reason = STATUS_CODES[failure.status] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${failure.status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
  );
}
