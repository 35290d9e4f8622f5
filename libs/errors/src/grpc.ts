import { Metadata, status as GrpcStatus, type ServiceError as GrpcServiceError } from '@grpc/grpc-js';
import { ServiceError, internalError } from './service-error';
import { isErrorCode, type ErrorCode } from './table';

/**
 * Spec error codes cross process boundaries as strings in gRPC metadata, because
 * `instanceof` does not survive a process hop. The gRPC status is chosen for humans and
 * proxies; the string code in `svc-error-code` is what the edge renders.
 */
const METADATA_CODE = 'svc-error-code';
const METADATA_PARAM = 'svc-error-param';
const METADATA_STATUS = 'svc-error-status';
const METADATA_HEADERS = 'svc-error-headers';

export function grpcStatusFor(httpStatus: number): GrpcStatus {
  if (httpStatus === 400 || httpStatus === 413) return GrpcStatus.INVALID_ARGUMENT;
  if (httpStatus === 401) return GrpcStatus.UNAUTHENTICATED;
  if (httpStatus === 402) return GrpcStatus.FAILED_PRECONDITION;
  if (httpStatus === 403) return GrpcStatus.PERMISSION_DENIED;
  if (httpStatus === 404) return GrpcStatus.NOT_FOUND;
  if (httpStatus === 409) return GrpcStatus.ABORTED;
  if (httpStatus === 429) return GrpcStatus.RESOURCE_EXHAUSTED;
  if (httpStatus === 503 || httpStatus === 502) return GrpcStatus.UNAVAILABLE;
  if (httpStatus === 504) return GrpcStatus.DEADLINE_EXCEEDED;
  return GrpcStatus.INTERNAL;
}

export interface GrpcErrorPayload {
  code: GrpcStatus;
  details: string;
  metadata: Metadata;
}

/** Server side: a thrown error as the object a gRPC handler's callback takes. */
export function toGrpcError(error: unknown): GrpcErrorPayload {
  const serviceError = error instanceof ServiceError ? error : internalError(error);
  const metadata = new Metadata();
  metadata.set(METADATA_CODE, serviceError.code);
  metadata.set(METADATA_STATUS, String(serviceError.status));
  if (serviceError.param) metadata.set(METADATA_PARAM, serviceError.param);
  if (Object.keys(serviceError.headers).length > 0) metadata.set(METADATA_HEADERS, JSON.stringify(serviceError.headers));
  return { code: grpcStatusFor(serviceError.status), details: serviceError.message, metadata };
}

function first(metadata: Metadata | undefined, name: string): string | undefined {
  const value = metadata?.get(name)[0];
  return value === undefined ? undefined : String(value);
}

/**
 * Client side: a failed call as a ServiceError. A call that carries no spec code (the
 * peer is down, a deadline passed) becomes `unavailableCode`, the dependency's own 503.
 */
export function fromGrpcError(error: unknown, unavailableCode: ErrorCode): ServiceError {
  const grpcError = error as Partial<GrpcServiceError>;
  const code = first(grpcError.metadata, METADATA_CODE);
  if (code && isErrorCode(code)) {
    const statusText = first(grpcError.metadata, METADATA_STATUS);
    const headersText = first(grpcError.metadata, METADATA_HEADERS);
    return new ServiceError(code, grpcError.details ?? 'Request failed.', {
      param: first(grpcError.metadata, METADATA_PARAM) ?? null,
      status: statusText ? Number(statusText) : undefined,
      headers: headersText ? (JSON.parse(headersText) as Record<string, string>) : undefined,
    });
  }
  return new ServiceError(unavailableCode, 'A dependency of the service is temporarily unavailable. Please retry.', { cause: error });
}
