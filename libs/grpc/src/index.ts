import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { ServiceError, toGrpcError, fromGrpcError, type ErrorCode } from '@svc/errors';
import { throttledWarning, type Logger } from '@svc/logger';
import { clientInterceptorProviders, recordClientCall } from './client-interceptor';

export { grpc };
export { clientInterceptor, clientInterceptorProviders, recordClientCall } from './client-interceptor';

type UnaryFn<Req, Res> = (request: Req, call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res>;

/**
 * How a service tells its own dependency's outage (Postgres unreachable, its pool out of
 * connections, Redis down) from a bug: such a failure is the service's 503 `code`, logged as a
 * warning at most every 10 s per method with the count in between, not an internal error.
 */
export interface UnavailableWhen {
  is: (error: unknown) => boolean;
  code: ErrorCode;
  message: string;
}

/**
 * What a failed handler sends, for one method: a spec error as its code (libs/errors); a
 * dependency outage (`unavailable`) as the service's 503 with a throttled warning; anything
 * unexpected as internal_error, its cause logged here. Unary handlers get it through `unary`;
 * streaming handlers call it themselves.
 */
export function rpcFailure(logger: Logger, method: string, unavailable?: UnavailableWhen): (error: unknown) => Partial<grpc.StatusObject> {
  const outageWarning = unavailable ? throttledWarning(logger, `rpc failed: ${unavailable.message}`) : undefined;
  return (error) => {
    if (unavailable && outageWarning && !(error instanceof ServiceError) && unavailable.is(error)) {
      outageWarning(error, { method, code: unavailable.code });
      return toGrpcError(new ServiceError(unavailable.code, unavailable.message));
    }
    const payload = toGrpcError(error);
    if (payload.code === grpc.status.INTERNAL) logger.error('rpc failed', { method, err: error instanceof ServiceError && error.cause !== undefined ? error.cause : error });
    return payload;
  };
}

/** Wraps an async domain function as a gRPC unary handler; a failure is sent as `rpcFailure` says. */
export function unary<Req, Res>(logger: Logger, method: string, fn: UnaryFn<Req, Res>, unavailable?: UnavailableWhen): grpc.handleUnaryCall<Req, Res> {
  const failure = rpcFailure(logger, method, unavailable);
  return (call, callback) => {
    fn(call.request, call).then(
      (response) => callback(null, response),
      (error: unknown) => callback(failure(error)),
    );
  };
}

export interface GrpcServer {
  server: grpc.Server;
  health: HealthImplementation;
  port: number;
  /** Stops taking calls, lets running ones finish up to `graceMs`, then cuts the rest. */
  shutdown(graceMs: number): Promise<void>;
}

export interface ServiceRegistration {
  definition: grpc.ServiceDefinition;
  implementation: grpc.UntypedServiceImplementation;
  /** Full service name for grpc.health.v1 (e.g. svc.router.v1.RouterService). */
  name: string;
}

/** Starts a gRPC server with grpc.health.v1 registered (overall and per service status SERVING). */
export async function startGrpcServer(options: { host: string; port: number; services: ServiceRegistration[] }): Promise<GrpcServer> {
  // Messages as large as the clients may send (a 32 MB request body becomes one AddItems or
  // CompleteTurn message): grpc's default receive limit is 4 MiB.
  const server = new grpc.Server({ 'grpc.keepalive_permit_without_calls': 1, 'grpc.max_receive_message_length': 64 * 1024 * 1024, 'grpc.max_send_message_length': 64 * 1024 * 1024 });
  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);
  for (const service of options.services) server.addService(service.definition, service.implementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host}:${options.port}`, grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  health.setStatus('', 'SERVING');
  for (const service of options.services) health.setStatus(service.name, 'SERVING');
  return {
    server,
    health,
    port,
    shutdown: (graceMs) =>
      new Promise<void>((resolve) => {
        health.setStatus('', 'NOT_SERVING');
        for (const service of options.services) health.setStatus(service.name, 'NOT_SERVING');
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

export interface CallOptions {
  deadlineMs: number;
  metadata?: grpc.Metadata;
}

type UnaryClientMethod<Req, Res> = ((request: Req, metadata: grpc.Metadata, options: grpc.CallOptions, callback: (error: grpc.ServiceError | null, response?: Res) => void) => grpc.ClientUnaryCall) & { path?: string };

/**
 * Calls a unary method with a deadline and returns a promise. A failure carrying a spec code
 * becomes that ServiceError; a dead peer or missed deadline becomes `unavailableCode` (503). The
 * call is counted and timed as the client interceptor counts streaming calls (svc.grpc.client.*).
 */
export function callUnary<Req, Res>(method: UnaryClientMethod<Req, Res>, self: grpc.Client, request: Req, options: CallOptions, unavailableCode: ErrorCode): Promise<Res> {
  const started = performance.now();
  return new Promise<Res>((resolve, reject) => {
    method.call(self, request, options.metadata ?? new grpc.Metadata(), { deadline: Date.now() + options.deadlineMs }, (error, response) => {
      recordClientCall(method.path ?? 'unknown', error ? error.code : grpc.status.OK, started);
      if (error) reject(fromGrpcError(error, unavailableCode));
      else resolve(response as Res);
    });
  });
}

/** Client channel options shared by every service-to-service client. */
export const CLIENT_OPTIONS: grpc.ChannelOptions = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.enable_retries': 1,
  'grpc.max_receive_message_length': 64 * 1024 * 1024,
  'grpc.max_send_message_length': 64 * 1024 * 1024,
  // Several addresses (`ipv4:10.0.0.1:50051,10.0.0.2:50051`, or a DNS name with several records
  // such as a headless Service) are used in turn rather than pinning one replica.
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
};

/**
 * The options of every service-to-service client channel: CLIENT_OPTIONS, and the client
 * interceptor on streaming methods (unary calls are timed and given their deadline by callUnary).
 */
export function clientOptions(defaultDeadlineMs: number): grpc.ClientOptions {
  return { ...CLIENT_OPTIONS, interceptor_providers: clientInterceptorProviders({ defaultDeadlineMs }) };
}

/**
 * A peer address as configured: `host:port`, a comma-separated list of `host:port` (one machine,
 * several replicas) turned into grpc's static `ipv4:` target, or any grpc target (`dns:///…`).
 */
export function grpcTarget(address: string): string {
  const parts = address.split(',').map((part) => part.trim()).filter(Boolean);
  if (parts.length <= 1) return address;
  return `ipv4:${parts.join(',')}`;
}

export function insecure(): grpc.ChannelCredentials {
  return grpc.credentials.createInsecure();
}
