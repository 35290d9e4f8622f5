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
