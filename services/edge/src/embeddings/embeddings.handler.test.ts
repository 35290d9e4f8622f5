import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { Catalog, catalog } from '@svc/catalog';
import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import type { AdmitResponse__Output, KeyRecord__Output } from '@svc/protos';
import type { Backends } from '../clients/clients';
import type { KeyLimiter } from '../limits/key-limits';
import type { UsageRecordInput } from '@svc/backends';
import { errorHandler } from '../middleware/errors';
import { embeddingsHandler, type EmbeddingsDeps } from './embeddings.handler';
import { decodeFloat32LeBase64 } from '@svc/call';

const ORION = 'vendor-1/orion-embed-3-small';
const BREEZE = 'vendor-5/breeze-embed';
const LUMEN = 'vendor-3/lumen-embedding-1';
const HEADERS = { 'x-ratelimit-limit-requests': '600', 'x-ratelimit-remaining-requests': '599', 'x-ratelimit-reset-requests': '100ms', 'x-ratelimit-limit-tokens': '200000', 'x-ratelimit-remaining-tokens': '199990', 'x-ratelimit-reset-tokens': '3ms' };
const PEEKED = { ...HEADERS, 'x-ratelimit-remaining-requests': '600', 'x-ratelimit-remaining-tokens': '200000' };

/** What the fake vendor answers: vectors derived from the text, and its token count unless told otherwise. */
interface VendorBehaviour {
  status?: number;
  omitUsage?: boolean;
  promptTokens?: number;
  dropOne?: boolean;
}

let vendorServer: Server;
let vendorUrl = '';
let behaviour: VendorBehaviour = {};
const vendorRequests: Array<Record<string, unknown>> = [];

const vectorOf = (text: string, width: number) => Array.from({ length: width }, (_, i) => Math.fround(((text.length + 1) * (i + 1)) / 1000));

beforeAll(async () => {
  vendorServer = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; input: string[]; dimensions?: number };
      vendorRequests.push({ url: req.url, authorization: req.headers.authorization, simFault: req.headers['x-sim-fault'], ...body });
      if (behaviour.status) {
        res.writeHead(behaviour.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'vendor says no', type: 'invalid_request_error' } }));
        return;
      }
      const inputs = behaviour.dropOne ? body.input.slice(1) : body.input;
      const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text, body.dimensions ?? 8) }));
      const answer: Record<string, unknown> = { object: 'list', data, model: body.model };
      if (!behaviour.omitUsage) answer.usage = { prompt_tokens: behaviour.promptTokens ?? 3 * body.input.length, total_tokens: behaviour.promptTokens ?? 3 * body.input.length };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => vendorServer.listen(0, '127.0.0.1', resolve));
  vendorUrl = `http://127.0.0.1:${(vendorServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  vendorServer.closeAllConnections();
  await new Promise((resolve) => vendorServer.close(resolve));
});

const keyRecord = (overrides: Partial<KeyRecord__Output> = {}): KeyRecord__Output =>
  ({
    key_id: 'key_1',
    organization_id: 'org_1',
    scopes: ['chat', 'embeddings', 'conversations'],
    allowed_models: [],
    account_disabled_models: [],
    organization_disabled_models: [],
    project_disabled_models: [],
    plan: 'paid',
    rpm_limit: 0,
    tpm_limit: 0,
    ...overrides,
  }) as KeyRecord__Output;

function fakes() {
  const keyLimiter = {
    check: jest.fn(async (_keyId: string, _limits: unknown, tokens: number) => ({ headers: { ...HEADERS }, charged: tokens })),
    refund: jest.fn(async () => ({ ...HEADERS, 'x-ratelimit-remaining-tokens': '199997' })),
    peek: jest.fn(async () => ({ ...PEEKED })),
  } satisfies KeyLimiter;
  const admit = jest.fn(async (): Promise<AdmitResponse__Output> => ({ headers: { 'x-svc-balance-micros': '5000' } }) as unknown as AdmitResponse__Output);
  const release = jest.fn(async () => ({ released: true }));
  const records: UsageRecordInput[] = [];
  const deps: EmbeddingsDeps = {
    catalog,
    backends: { admit, release } as unknown as Backends,
    ownKeys: { forOrganization: async () => ({}), invalidate: () => undefined },
    usage: { record: async (record) => void records.push(record) },
    keyLimiter,
    logger: { warn: jest.fn(), error: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger,
    simUrl: vendorUrl,
    vendorKeys: {},
    forwardSimHeaders: true,
    attemptTimeoutMs: 5_000,
  };
  return { deps, keyLimiter, admit, release, records };
}

type Fakes = ReturnType<typeof fakes>;

/** POSTs a body to the handler mounted as app.ts mounts it (JSON body, key on res.locals, the error envelope). */
async function call(body: unknown, options: { key?: KeyRecord__Output; fakes?: Fakes; headers?: Record<string, string> } = {}) {
  const f = options.fakes ?? fakes();
  const app = express();
  app.post(
    '/v1/embeddings',
    express.json({ type: () => true, strict: false }),
    (_req: Request, res: Response, next: NextFunction) => {
      res.locals.key = options.key ?? keyRecord();
      next();
    },
    (req: Request, res: Response, next: NextFunction) => void embeddingsHandler(f.deps)(req, res).catch(next),
  );
  app.use(errorHandler(f.deps.logger));
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`, { method: 'POST', headers: options.headers, body: JSON.stringify(body) });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any>, ...f };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

beforeEach(() => {
  behaviour = {};
  vendorRequests.length = 0;
});

describe('POST /v1/embeddings handler', () => {
  it('answers floats with the served model, equal usage fields, svc and the headers', async () => {
    const result = await call({ model: ORION, input: ['hello', 'world!'], user: 'u-1', svc: { session_id: 'ignored' } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: vectorOf('hello', 8) },
        { object: 'embedding', index: 1, embedding: vectorOf('world!', 8) },
      ],
      model: ORION,
      usage: { prompt_tokens: 6, total_tokens: 6 },
      svc: { call_id: expect.stringMatching(/^call_[0-9a-f]{32}$/), vendor: 'vendor-1', model_served: ORION, cost_micros: expect.any(Number), tokens_estimated: false },
    });
    expect(result.headers.get('x-svc-vendor')).toBe('vendor-1');
    expect(result.headers.get('x-svc-balance-micros')).toBe('5000');
    expect(result.headers.get('x-ratelimit-limit-requests')).toBe('600');
    expect(result.headers.get('x-ratelimit-remaining-tokens')).toBe('199997');
    expect(vendorRequests).toEqual([{ url: '/v1/embeddings', authorization: 'Bearer sim', simFault: undefined, model: 'orion-embed-3-small', input: ['hello', 'world!'], encoding_format: 'float' }]);
  });

  it('charges the estimate (one token per four characters) at admission and refunds to the vendor count', async () => {
    const result = await call({ model: ORION, input: ['a'.repeat(10), 'b'.repeat(7)] });
    expect(result.keyLimiter.check).toHaveBeenCalledWith('key_1', { requestsPerMinute: 600, tokensPerMinute: 200_000 }, 5);
    expect(result.keyLimiter.refund).toHaveBeenCalledWith('key_1', { requestsPerMinute: 600, tokensPerMinute: 200_000 }, 5, 6);
    expect(result.admit).toHaveBeenCalledWith({
      call_id: result.body.svc.call_id,
      organization_id: 'org_1',
      key_id: 'key_1',
      key: expect.objectContaining({ key_id: 'key_1', organization_id: 'org_1' }),
      // 5 tokens at 0.02 USD per million: 0.1 micro, rounded half up to 0.
      estimated_micros: 0,
      estimated_list_micros: 0,
      byok: false,
      auto: false,
      input_tokens: 5,
    });
  });

  it('encodes base64 as little-endian float32 that decodes to the float answer', async () => {
    const floats = await call({ model: ORION, input: ['same text'] });
    const encoded = await call({ model: ORION, input: ['same text'], encoding_format: 'base64' });
    expect(typeof encoded.body.data[0].embedding).toBe('string');
    expect(decodeFloat32LeBase64(encoded.body.data[0].embedding)).toEqual(floats.body.data[0].embedding);
    // The vendor is always asked for floats; the encoding is the service's.
    expect(vendorRequests.map((request) => request.encoding_format)).toEqual(['float', 'float']);
  });

  it('passes dimensions to the vendor', async () => {
    const result = await call({ model: ORION, input: 'x', dimensions: 3 });
    expect(vendorRequests[0].dimensions).toBe(3);
    expect(result.body.data[0].embedding).toHaveLength(3);
  });

  it('estimates and bills ceil(characters / 4) for the vendor that reports no counts, whatever it sends', async () => {
    behaviour = { promptTokens: 999 };
    const result = await call({ model: BREEZE, input: ['abcde', 'fgh'] });
    expect(result.status).toBe(200);
    expect(result.body.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
    expect(result.body.svc).toMatchObject({ vendor: 'vendor-5', model_served: BREEZE, tokens_estimated: true });
    expect(result.records[0]).toMatchObject({ model: BREEZE, input_tokens: 2 });
    expect(result.keyLimiter.refund).toHaveBeenCalledWith('key_1', expect.anything(), 2, 2);
  });

  it('estimates when a reporting vendor leaves its count out', async () => {
    behaviour = { omitUsage: true };
    const result = await call({ model: ORION, input: 'abcdefghi' });
    expect(result.body.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    expect(result.body.svc.tokens_estimated).toBe(true);
  });

  it('prices input tokens at list price plus the plan fee, no call fee, and settles kind embeddings', async () => {
    behaviour = { promptTokens: 1_000_000 };
    const paid = await call({ model: ORION, input: 'x' });
    // 0.02 USD per million tokens = 20000 micros; the paid plan's fee on top.
    const fee = catalog.data.plans.paid.service_fee_percent;
    const feeMicros = Math.round((20_000 * fee) / 100);
    expect(paid.body.svc.cost_micros).toBe(20_000 + feeMicros);
    expect(paid.records).toEqual([
      {
        call_id: paid.body.svc.call_id,
        organization_id: 'org_1',
        key_id: 'key_1',
        kind: 'embeddings',
        vendor: 'vendor-1',
        model: ORION,
        line: '',
        input_tokens: 1_000_000,
        output_tokens: 0,
        cached_tokens: 0,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
        vendor_micros: 20_000,
        service_fee_micros: feeMicros,
        call_fee_micros: 0,
        cost_micros: 20_000 + feeMicros,
        direct_micros: 20_000,
        byok: false,
        occurred_at_ms: expect.any(Number),
        reserved_micros: 0,
        plan: '',
        spend_period: '',
        member_id: '',
        baseline_pending: false,
      },
    ]);
    const free = await call({ model: ORION, input: 'x' }, { key: keyRecord({ plan: 'free' }) });
    const freeFee = Math.round((20_000 * catalog.data.plans.free.service_fee_percent) / 100);
    expect(free.body.svc.cost_micros).toBe(20_000 + freeFee);
  });

  it('503 no_provider_available with Retry-After 5 when the vendor has no embeddings, before admission', async () => {
    const result = await call({ model: LUMEN, input: 'x' });
    expect(result.status).toBe(503);
    expect(result.body.error).toMatchObject({ code: 'no_provider_available', type: 'server_error' });
    expect(result.headers.get('retry-after')).toBe('5');
    expect(result.headers.get('x-ratelimit-remaining-requests')).toBe('600');
    expect(result.admit).not.toHaveBeenCalled();
    expect(result.keyLimiter.check).not.toHaveBeenCalled();
    expect(vendorRequests).toHaveLength(0);
  });

  it('503 no_provider_available when the vendor has a base URL but no key configured', async () => {
    const f = fakes();
    const withUpstream = new Catalog({
      ...catalog.data,
      vendors: catalog.data.vendors.map((vendor) => (vendor.id === 'vendor-1' ? { ...vendor, base_url: 'https://vendor-1.invalid/v1' } : vendor)),
    });
    f.deps.catalog = withUpstream;
    const result = await call({ model: ORION, input: 'x' }, { fakes: f });
    expect([result.status, result.body.error.code]).toEqual([503, 'no_provider_available']);
  });

  it.each([
    ['a chat model', 'vendor-1/orion-mini-5'],
    ['auto', 'auto'],
    ['auto/cheap', 'auto/cheap'],
    ['an unknown id', 'vendor-1/nothing'],
  ])('404 model_not_found for %s, with the rate-limit headers', async (_name, model) => {
    const result = await call({ model, input: 'x' });
    expect(result.status).toBe(404);
    expect(result.body.error).toMatchObject({ code: 'model_not_found', type: 'invalid_request_error', param: 'model' });
    expect(result.headers.get('x-ratelimit-limit-tokens')).toBe('200000');
    expect(result.admit).not.toHaveBeenCalled();
  });

  it('404 model_not_found when model access forbids the model', async () => {
    const result = await call({ model: ORION, input: 'x' }, { key: keyRecord({ organization_disabled_models: [ORION] }) });
    expect([result.status, result.body.error.code]).toEqual([404, 'model_not_found']);
  });

  it('400 missing_model and invalid_value refusals carry the peeked headers and charge nothing', async () => {
    const missing = await call({ input: 'x' });
    expect([missing.status, missing.body.error.code, missing.body.error.param]).toEqual([400, 'missing_model', 'model']);
    expect(missing.headers.get('x-ratelimit-remaining-requests')).toBe('600');
    const tooMany = await call({ model: ORION, input: Array.from({ length: 2049 }, () => 'x') });
    expect([tooMany.status, tooMany.body.error.code, tooMany.body.error.param]).toEqual([400, 'invalid_value', 'input']);
    const format = await call({ model: ORION, input: 'x', encoding_format: 'double' });
    expect([format.status, format.body.error.code, format.body.error.param]).toEqual([400, 'invalid_value', 'encoding_format']);
    for (const result of [missing, tooMany, format]) expect(result.keyLimiter.check).not.toHaveBeenCalled();
  });

  it('403 insufficient_scope without the embeddings scope', async () => {
    const result = await call({ model: ORION, input: 'x' }, { key: keyRecord({ scopes: ['chat'] }) });
    expect(result.status).toBe(403);
    expect(result.body.error).toMatchObject({ code: 'insufficient_scope', type: 'permission_error' });
    expect(result.headers.get('x-ratelimit-limit-requests')).toBe('600');
  });

  it('passes 402 insufficient_credits through and gives the token charge back', async () => {
    const f = fakes();
    f.admit.mockRejectedValueOnce(new ServiceError('insufficient_credits', 'No credit.', { headers: { 'x-svc-balance-micros': '0' } }));
    const result = await call({ model: ORION, input: 'abcdefgh' }, { fakes: f });
    expect(result.status).toBe(402);
    expect(result.body.error).toMatchObject({ code: 'insufficient_credits', type: 'billing_error' });
    expect(result.headers.get('x-svc-balance-micros')).toBe('0');
    expect(result.headers.get('x-ratelimit-limit-requests')).toBe('600');
    expect(f.keyLimiter.refund).toHaveBeenCalledWith('key_1', expect.anything(), 2, 0);
    expect(vendorRequests).toHaveLength(0);
    expect(result.records).toHaveLength(0);
  });

  it('passes the key limiter 429 through', async () => {
    const f = fakes();
    f.keyLimiter.check.mockRejectedValueOnce(new ServiceError('rate_limit_exceeded', 'Rate limit reached.', { headers: { ...HEADERS, 'retry-after': '2' } }));
    const result = await call({ model: ORION, input: 'x' }, { fakes: f });
    expect([result.status, result.body.error.code, result.headers.get('retry-after')]).toEqual([429, 'rate_limit_exceeded', '2']);
    expect(vendorRequests).toHaveLength(0);
  });

  it('maps vendor failures like chat, names the vendor, bills nothing and refunds the charge', async () => {
    behaviour = { status: 500 };
    const server = await call({ model: ORION, input: 'abcd' });
    expect([server.status, server.body.error.code, server.headers.get('x-svc-vendor'), server.headers.get('retry-after')]).toEqual([502, 'upstream_error', 'vendor-1', '5']);
    expect(server.records).toHaveLength(0);
    expect(server.keyLimiter.refund).toHaveBeenCalledWith('key_1', expect.anything(), 1, 0);
    behaviour = { status: 400 };
    const rejected = await call({ model: ORION, input: 'abcd' });
    expect([rejected.status, rejected.body.error.code]).toEqual([400, 'upstream_invalid_request']);
    expect(rejected.body.error.message).toMatch(/vendor says no/);
    behaviour = { status: 429 };
    expect((await call({ model: ORION, input: 'abcd' })).body.error.code).toBe('upstream_rate_limited');
  });

  it('502 upstream_error when the vendor answers a different number of vectors', async () => {
    behaviour = { dropOne: true };
    const result = await call({ model: ORION, input: ['a', 'b'] });
    expect([result.status, result.body.error.code]).toEqual([502, 'upstream_error']);
    expect(result.records).toHaveLength(0);
  });

  it('forwards x-sim-* headers to the simulator when allowed', async () => {
    await call({ model: ORION, input: 'x' }, { headers: { 'x-sim-fault': 'none' } });
    expect(vendorRequests[0].simFault).toBe('none');
  });
});
