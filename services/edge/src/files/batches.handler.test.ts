import express, { type NextFunction, type Request, type Response } from 'express';
import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import { errorHandler } from '../middleware/errors';
import { listenLocal, type LocalServer } from '../listen.test-support';
import { batchHandlers, parseCreateBatch, type BatchesDeps } from './batches.handler';

const ok = { input_file_id: 'file_1', endpoint: '/v1/chat/completions' };
const refusal = (body: unknown) => {
  try {
    parseCreateBatch(body);
  } catch (error) {
    return { code: (error as ServiceError).code, param: (error as ServiceError).param };
  }
  return undefined;
};

describe('parseCreateBatch (spec: Batch endpoints, POST /v1/batches)', () => {
  it('takes the fields with completion_window 24h by default', () => {
    expect(parseCreateBatch({ ...ok, metadata: { a: 'b' }, svc: { allow_standard_price: true } })).toEqual({ ...ok, completion_window: '24h', metadata: { a: 'b' }, allow_standard_price: true });
    expect(parseCreateBatch(ok).allow_standard_price).toBe(false);
  });

  it.each([
    [{ endpoint: ok.endpoint }, 'missing_field', 'input_file_id'],
    [{ input_file_id: 'file_1' }, 'missing_field', 'endpoint'],
    [{ ...ok, endpoint: '/v1/embeddings' }, 'invalid_value', 'endpoint'],
    [{ ...ok, completion_window: '1h' }, 'invalid_value', 'completion_window'],
    [{ ...ok, metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, 'invalid_value', 'metadata'],
    [{ ...ok, metadata: { ['k'.repeat(65)]: 'v' } }, 'invalid_value', 'metadata'],
    [{ ...ok, metadata: { k: 'v'.repeat(513) } }, 'invalid_value', 'metadata'],
    [{ ...ok, metadata: { k: 1 } }, 'invalid_value', 'metadata'],
    [{ ...ok, svc: { allow_standard_price: 'true' } }, 'invalid_value', 'svc.allow_standard_price'],
    [[1], 'invalid_json', null],
  ])('%j → %s', (body, code, param) => {
    expect(refusal(body)).toEqual({ code, param });
  });

  it('accepts the limits themselves: 16 pairs, 64-character keys, 512-character values', () => {
    const metadata = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`${'k'.repeat(62)}${String(i).padStart(2, '0')}`, 'v'.repeat(512)]));
    expect(parseCreateBatch({ ...ok, metadata }).metadata).toEqual(metadata);
  });
});

describe('batch routes', () => {
  const errors: Array<{ message: string; meta: any }> = [];
  const logger = { error: (message: string, meta: unknown) => errors.push({ message, meta }), warn: () => undefined, info: () => undefined, debug: () => undefined } as unknown as Logger;
  const work: Array<{ method: string; payload: any }> = [];
  const started: unknown[] = [];
  let publishFails = false;
  const batch = { id: 'batch_1', object: 'batch', status: 'validating', input_file_id: 'file_1', request_counts: { total: 1, completed: 0, failed: 0 } };
  const deps: BatchesDeps = {
    batch: {
      createBatch: async () => batch,
      getBatch: async () => batch,
      listBatches: async (query) => ({ object: 'list', data: [], first_id: null, last_id: null, has_more: false, query }) as never,
      cancelBatch: async () => ({ ...batch, status: 'cancelling' }),
      batchWork: async (method, payload) => void work.push({ method, payload: payload as never }) as never,
    },
    start: async (job) => {
      if (publishFails) throw new Error('broker away');
      started.push(job);
    },
    retentionDays: 30,
    logger,
  };
  let local: LocalServer;
  let base = '';

  beforeAll(async () => {
    const app = express();
    app.use((_req: Request, res: Response, next: NextFunction) => {
      res.locals.key = { organization_id: 'org_1', key_id: 'key_1', scopes: ['chat'] };
      res.locals.requestId = 'req_test';
      next();
    });
    app.use(express.json());
    const handlers = batchHandlers(deps);
    const handle = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => void fn(req, res).catch(next);
    app.post('/v1/batches', handle(handlers.create));
    app.get('/v1/batches', handle(handlers.list));
    app.use(errorHandler(logger));
    local = await listenLocal(app);
    base = local.base;
  });

  afterAll(() => local.close());

  const post = (body: unknown) => fetch(`${base}/v1/batches`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer svc_live_x' }, body: JSON.stringify(body) });

  it('creates the batch and publishes batch.start with the key record and the key hash', async () => {
    const response = await post(ok);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 'batch_1', status: 'validating' });
    expect(started[0]).toMatchObject({ batch_id: 'batch_1', organization_id: 'org_1', key: { key_id: 'key_1' }, key_hash: expect.stringMatching(/^[0-9a-f]{64}$/), allow_standard_price: false });
  });

  it('a batch.start the broker does not take fails the batch at once and answers 503 batches_unavailable with an error line', async () => {
    publishFails = true;
    try {
      const response = await post(ok);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: { message: expect.any(String), type: 'server_error', param: null, code: 'batches_unavailable' } });
      expect(work).toEqual([{ method: 'FailBatch', payload: expect.objectContaining({ batch_id: 'batch_1', errors: [expect.objectContaining({ code: 'batches_unavailable' })] }) }]);
      expect(errors.some((entry) => entry.message.startsWith('batch created but batch.start could not be published'))).toBe(true);
    } finally {
      publishFails = false;
    }
  });

  it('list: limit 1 to 100', async () => {
    for (const limit of ['0', '101', 'x']) {
      const response = await fetch(`${base}/v1/batches?limit=${limit}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_value', param: 'limit' } });
    }
    expect((await fetch(`${base}/v1/batches?limit=100`)).status).toBe(200);
  });
});
