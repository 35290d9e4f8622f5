import type { NextFunction, Request, Response } from 'express';
import { ServiceError, internalError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import { trace, SpanStatusCode } from '@svc/telemetry';

/** Body-parser failures in the spec's terms: 413 payload_too_large, 400 invalid_json. */
function fromBodyParser(error: { type?: string; status?: number }): ServiceError | undefined {
  if (error.type === 'entity.too.large') return new ServiceError('payload_too_large', 'The request body is larger than 32 MB.');
  if (error.type === 'entity.parse.failed' || error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
    return new ServiceError('invalid_json', 'The request body is not valid JSON.');
  }
  if (error.type === 'request.aborted' || error.type === 'request.size.invalid' || error.type === 'stream.encoding.set') {
    return new ServiceError('invalid_json', 'The request body could not be read.');
  }
  return undefined;
}

/** Renders every failure as the envelope; a 500 never carries its cause. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const serviceError = error instanceof ServiceError ? error : (fromBodyParser(error as { type?: string }) ?? internalError(error));
    res.locals.errorCode = serviceError.code;
    trace.getActiveSpan()?.setAttribute('svc.error_code', serviceError.code).setStatus({ code: SpanStatusCode.ERROR, message: serviceError.code });
    if (serviceError.code === 'internal_error') logger.error('request failed', { request_id: res.locals.requestId, path: req.path, err: error });
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [name, value] of Object.entries(serviceError.headers)) res.setHeader(name, value);
    if (serviceError.status === 413) res.setHeader('connection', 'close');
    res.status(serviceError.status).json(serviceError.toBody());
  };
}

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new ServiceError('not_found', `Unknown route: ${req.method} ${req.path}`));
}
