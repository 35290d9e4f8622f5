import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { ServiceError } from '@svc/errors';
import { inMemoryMetrics, type InMemoryMetrics } from '@svc/telemetry';
import { errorHandler, notFound } from './errors';
import { httpMetrics, routeLabel, UNMATCHED_ROUTE } from './metrics';

const logger = { error: () => undefined } as never;

/** The edge's shape: metrics first, a /v1 router with a key check before its routes, the error handler last. */
function app(): express.Express {
  const application = express();
  application.use(httpMetrics);
  const v1 = express.Router();
  v1.use((req, _res, next) => next(req.headers.authorization === 'Bearer good' ? undefined : new ServiceError('invalid_api_key', 'Incorrect API key provided.')));
  v1.post('/chat/completions', (_req, res) => void res.json({ ok: true }));
  v1.get('/models/*id', (_req, _res, next) => next(new ServiceError('model_not_found', 'No such model.')));
  // A route the path table does not know: its label can only come from the match.
  v1.get('/things/:id', (_req, _res, next) => next(new ServiceError('model_not_found', 'No such thing.')));
  application.use('/v1', v1);
  application.use(notFound);
  application.use(errorHandler(logger));
  return application;
}

describe('httpMetrics', () => {
  let memory: InMemoryMetrics;
  let server: Server;
  let base: string;
  const call = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, init).then(async (response) => (await response.arrayBuffer(), response.status));
  const good = { authorization: 'Bearer good' };

  beforeAll(async () => {
    memory = inMemoryMetrics();
    server = app().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await memory.stop();
  });

  // 'finish' fires after the client has its response: wait until the count is in.
  async function settled(name: string, attributes: Record<string, string>, count: number): Promise<number> {
    for (let i = 0; i < 50; i += 1) {
      const value = await memory.sum(name, attributes);
      if (value >= count) return value;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return memory.sum(name, attributes);
  }

  it('labels a served request with its matched route, not the URL', async () => {
    expect(await call('/v1/chat/completions?x=1', { method: 'POST', headers: good })).toBe(200);
    expect(await settled('svc.http.requests', { route: '/v1/chat/completions', method: 'POST', status_code: '200' }, 1)).toBe(1);
    const histogram = await memory.histogram('svc.http.request.duration_ms', { route: '/v1/chat/completions', status_code: '200' });
    expect(histogram?.count).toBe(1);
    expect(histogram?.boundaries[0]).toBe(1);
    expect(await memory.sum('svc.http.errors')).toBe(0);
  });

  it('keeps the mounted route of a matched request that failed (the error left the router)', async () => {
    expect(await call('/v1/models/vendor-1/some-model', { headers: good })).toBe(404);
    expect(await settled('svc.http.errors', { route: '/v1/models/*id', code: 'model_not_found' }, 1)).toBe(1);
    expect(await memory.sum('svc.http.requests', { route: '/v1/models/*id', status_code: '404' })).toBe(1);
    expect(await call('/v1/things/42', { headers: good })).toBe(404);
    expect(await settled('svc.http.errors', { route: '/v1/things/:id', code: 'model_not_found' }, 1)).toBe(1);
  });

  it('labels a request refused before routing (bad key) with the endpoint it asked for', async () => {
    expect(await call('/v1/chat/completions', { method: 'POST', headers: { authorization: 'Bearer bad' } })).toBe(401);
    expect(await settled('svc.http.errors', { route: '/v1/chat/completions', code: 'invalid_api_key' }, 1)).toBe(1);
    expect(await memory.sum('svc.http.requests', { route: '/v1/chat/completions', method: 'POST', status_code: '401' })).toBe(1);
    expect(await memory.histogram('svc.http.request.duration_ms', { route: '/v1/chat/completions', status_code: '401' })).toMatchObject({ count: 1 });
  });

  it('puts unknown paths under one label', async () => {
    expect(await call('/nope/12345')).toBe(404);
    expect(await call('/v1/unknown-thing', { headers: good })).toBe(404);
    expect(await settled('svc.http.errors', { route: UNMATCHED_ROUTE, code: 'not_found' }, 2)).toBe(2);
    const routes = new Set((await memory.points('svc.http.requests')).map((point) => point.attributes.route));
    expect([...routes].sort()).toEqual(['/v1/chat/completions', '/v1/models/*id', '/v1/things/:id', UNMATCHED_ROUTE]);
  });

  it('maps paths onto the public route labels', () => {
    expect(routeLabel('/v1/chat/completions')).toBe('/v1/chat/completions');
    expect(routeLabel('/v1/chat/completions/')).toBe('/v1/chat/completions');
    expect(routeLabel('/v1/embeddings')).toBe('/v1/embeddings');
    expect(routeLabel('/v1/models')).toBe('/v1/models');
    expect(routeLabel('/v1/models/vendor-2/model-x')).toBe('/v1/models/*id');
    expect(routeLabel('/v1/public/auto-models')).toBe('/v1/public/auto-models');
    expect(routeLabel('/v1/public/catalog-export')).toBe('/v1/public/catalog-export');
    expect(routeLabel('/v1/chat/completions/extra')).toBe(UNMATCHED_ROUTE);
    expect(routeLabel('/admin')).toBe(UNMATCHED_ROUTE);
  });
});
