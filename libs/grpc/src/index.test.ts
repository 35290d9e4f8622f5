import { ServiceError } from '@svc/errors';
import { createLogger } from '@svc/logger';
import { loadRouterProto, type RouterServiceClient, type RouteRequest, type RouteResponse__Output } from '@svc/protos';
import { startGrpcServer, unary, callUnary, insecure, CLIENT_OPTIONS, type GrpcServer } from './index';

const logger = createLogger({ service: 'test', silent: true });
const proto = loadRouterProto();

describe('gRPC server and client helpers (real sockets)', () => {
  let server: GrpcServer;
  let client: RouterServiceClient;
  let behaviour: (request: RouteRequest) => Promise<unknown>;

  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [
        {
          definition: proto.RouterService.service,
          implementation: { Route: unary(logger, 'Route', (request: RouteRequest) => behaviour(request)) } as never,
          name: 'svc.router.v1.RouterService',
        },
      ],
    });
    client = new proto.RouterService(`127.0.0.1:${server.port}`, insecure(), CLIENT_OPTIONS) as unknown as RouterServiceClient;
  });

  afterAll(async () => {
    (client as unknown as { close(): void }).close();
    await server.shutdown(1000);
  });

  const call = (deadlineMs = 2000) => callUnary<RouteRequest, RouteResponse__Output>(client.Route, client as never, { model: 'm' }, { deadlineMs }, 'no_provider_available');

  it('returns the handler answer with proto defaults filled', async () => {
    behaviour = async (request) => ({ candidates: [{ model: request.model, vendor: 'vendor-1' }] });
    const response = await call();
    expect(response.candidates).toEqual([{ model: 'm', vendor: 'vendor-1' }]);
    expect(response.auto).toBe(false);
  });

  it('carries a spec error code, param and status across the wire', async () => {
    behaviour = async () => {
      throw new ServiceError('model_not_found', 'no such model', { param: 'model' });
    };
    await expect(call()).rejects.toMatchObject({ code: 'model_not_found', status: 404, param: 'model', message: 'no such model' });
  });

  it('sends an unexpected failure as internal_error without its cause', async () => {
    behaviour = async () => {
      throw new Error('secret detail');
    };
    const error = (await call().catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe('internal_error');
    expect(error.message).not.toContain('secret');
  });

  it('turns a missed deadline into the dependency 503', async () => {
    behaviour = () => new Promise((resolve) => setTimeout(() => resolve({}), 500));
    await expect(call(50)).rejects.toMatchObject({ code: 'no_provider_available', status: 503 });
  });

  it('a peer that is down is the dependency 503', async () => {
    const dead = new proto.RouterService('127.0.0.1:1', insecure(), CLIENT_OPTIONS) as unknown as RouterServiceClient;
    await expect(callUnary(dead.Route, dead as never, {}, { deadlineMs: 500 }, 'auth_unavailable')).rejects.toMatchObject({ code: 'auth_unavailable', status: 503 });
    (dead as unknown as { close(): void }).close();
  });
});

describe('unary with a dependency outage rule', () => {
  it('answers the service 503 for an outage and logs one throttled warning, not an error', async () => {
    const lines: Array<{ level: string; message: string; meta: Record<string, unknown> }> = [];
    const recording = {
      ...logger,
      warn: (message: string, meta: Record<string, unknown> = {}) => lines.push({ level: 'warn', message, meta }),
      error: (message: string, meta: Record<string, unknown> = {}) => lines.push({ level: 'error', message, meta }),
    } as unknown as typeof logger;
    let failure: unknown = new Error('Connection terminated due to connection timeout');
    const outage = { is: (error: unknown) => error instanceof Error && /connection timeout/.test(error.message), code: 'conversations_unavailable' as const, message: 'Stored conversations are unavailable right now.' };
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [
        {
          definition: proto.RouterService.service,
          implementation: {
            Route: unary(recording, 'Route', async () => {
              throw failure;
            }, outage),
          } as never,
          name: 'svc.router.v1.RouterService',
        },
      ],
    });
    const client = new proto.RouterService(`127.0.0.1:${server.port}`, insecure(), CLIENT_OPTIONS) as unknown as RouterServiceClient;
    const call = () => callUnary<RouteRequest, RouteResponse__Output>(client.Route, client as never, { model: 'm' }, { deadlineMs: 2000 }, 'no_provider_available');
    try {
      await expect(call()).rejects.toMatchObject({ code: 'conversations_unavailable', status: 503, message: 'Stored conversations are unavailable right now.' });
      await expect(call()).rejects.toMatchObject({ code: 'conversations_unavailable' });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 'warn', message: 'rpc failed: Stored conversations are unavailable right now.', meta: { method: 'Route', code: 'conversations_unavailable' } });
      // A spec error is passed through as it is, and anything else is still an internal error.
      failure = new ServiceError('conversation_not_found', 'No such conversation.');
      await expect(call()).rejects.toMatchObject({ code: 'conversation_not_found', status: 404 });
      failure = new Error('a bug');
      await expect(call()).rejects.toMatchObject({ code: 'internal_error' });
      expect(lines.map((line) => line.level)).toEqual(['warn', 'error']);
    } finally {
      (client as unknown as { close(): void }).close();
      await server.shutdown(1000);
    }
  });
});
