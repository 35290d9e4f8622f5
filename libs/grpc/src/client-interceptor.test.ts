import { inMemoryMetrics, type InMemoryMetrics } from '@svc/telemetry';
import { createLogger } from '@svc/logger';
import { ServiceError } from '@svc/errors';
import { loadRouterProto, type RouterServiceClient, type RouteRequest } from '@svc/protos';
import { startGrpcServer, unary, insecure, callUnary, CLIENT_OPTIONS, clientInterceptor, clientInterceptorProviders, grpc, type GrpcServer } from './index';

const logger = createLogger({ service: 'test', silent: true });
const proto = loadRouterProto();

describe('clientInterceptor (real sockets)', () => {
  let server: GrpcServer;
  let client: RouterServiceClient;
  // A second client whose default deadline no loaded machine can hit, so the counting test's
  // answered calls are never counted as deadline misses.
  let patient: RouterServiceClient;
  let recorded: InMemoryMetrics;
  let behaviour: (request: RouteRequest) => Promise<unknown>;

  beforeAll(async () => {
    recorded = inMemoryMetrics();
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [{ definition: proto.RouterService.service, implementation: { Route: unary(logger, 'Route', (request: RouteRequest) => behaviour(request)) } as never, name: 'svc.router.v1.RouterService' }],
    });
    client = new proto.RouterService(`127.0.0.1:${server.port}`, insecure(), { ...CLIENT_OPTIONS, interceptors: [clientInterceptor({ defaultDeadlineMs: 150 })] }) as unknown as RouterServiceClient;
    patient = new proto.RouterService(`127.0.0.1:${server.port}`, insecure(), { ...CLIENT_OPTIONS, interceptors: [clientInterceptor({ defaultDeadlineMs: 30_000 })] }) as unknown as RouterServiceClient;
  });

  afterAll(async () => {
    (client as unknown as { close(): void }).close();
    (patient as unknown as { close(): void }).close();
    await server.shutdown(500);
    await recorded.stop();
  });

  const call = (through: RouterServiceClient = client) =>
    new Promise<{ code: number }>((resolve) => {
      // No deadline on purpose: the interceptor supplies one.
      through.Route({ model: 'm' }, (error) => resolve({ code: error ? (error as grpc.ServiceError).code : grpc.status.OK }));
    });

  it('gives a call without a deadline the default one', async () => {
    behaviour = () => new Promise((resolve) => setTimeout(() => resolve({}), 1000));
    const started = Date.now();
    expect((await call()).code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('counts and times calls by method and status code', async () => {
    behaviour = async () => ({ candidates: [] });
    expect((await call(patient)).code).toBe(grpc.status.OK);
    behaviour = async () => {
      throw new ServiceError('model_not_found', 'no');
    };
    expect((await call(patient)).code).toBe(grpc.status.NOT_FOUND);
    const method = '/svc.router.v1.RouterService/Route';
    expect(await recorded.sum('svc.grpc.client.calls', { method, code: 'OK' })).toBe(1);
    expect(await recorded.sum('svc.grpc.client.calls', { method, code: 'NOT_FOUND' })).toBe(1);
    expect(await recorded.sum('svc.grpc.client.calls', { method, code: 'DEADLINE_EXCEEDED' })).toBe(1);
    expect((await recorded.histogram('svc.grpc.client.duration', { method, code: 'OK' }))?.count).toBe(1);
  });

  it('callUnary counts and times unary calls itself, with no intercepting layer', async () => {
    const plain = new proto.RouterService(`127.0.0.1:${server.port}`, insecure(), { ...CLIENT_OPTIONS, interceptor_providers: clientInterceptorProviders({ defaultDeadlineMs: 30_000 }) }) as unknown as RouterServiceClient & grpc.Client;
    try {
      behaviour = async () => ({ candidates: [] });
      await callUnary(plain.Route as never, plain, { model: 'm' }, { deadlineMs: 30_000 }, 'no_provider_available');
      behaviour = async () => {
        throw new ServiceError('model_not_found', 'no');
      };
      await expect(callUnary(plain.Route as never, plain, { model: 'm' }, { deadlineMs: 30_000 }, 'no_provider_available')).rejects.toMatchObject({ code: 'model_not_found' });
      const method = '/svc.router.v1.RouterService/Route';
      // The two calls of the test above, and these two: each counted once (no interceptor counted them again).
      expect(await recorded.sum('svc.grpc.client.calls', { method, code: 'OK' })).toBe(2);
      expect(await recorded.sum('svc.grpc.client.calls', { method, code: 'NOT_FOUND' })).toBe(2);
      expect((await recorded.histogram('svc.grpc.client.duration', { method, code: 'OK' }))?.count).toBe(2);
    } finally {
      plain.close();
    }
  });
});

describe('clientInterceptorProviders', () => {
  const definition = (requestStream: boolean, responseStream: boolean) => ({ path: '/p/M', requestStream, responseStream }) as unknown as grpc.ClientMethodDefinition<unknown, unknown>;
  const [provider] = clientInterceptorProviders({ defaultDeadlineMs: 1000 });

  it('intercepts streaming methods only (callUnary covers the unary ones)', () => {
    expect(provider!(definition(false, false))).toBeUndefined();
    expect(typeof provider!(definition(true, false))).toBe('function');
    expect(typeof provider!(definition(false, true))).toBe('function');
    expect(typeof provider!(definition(true, true))).toBe('function');
  });
});
