import OpenAI from 'openai';
import { Client } from 'pg';
import { fleetState, newOrganization } from '../support/fleet-state';

const ORION = 'vendor-1/orion-embed-3-small';
const BREEZE = 'vendor-5/breeze-embed';
const LUMEN = 'vendor-3/lumen-embedding-1';
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests', 'x-ratelimit-limit-tokens', 'x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens'];

/** Little-endian float32 values of a base64 embedding, read straight from the bytes. */
function decodeLe(text: string): number[] {
  const view = new DataView(new Uint8Array(Buffer.from(text, 'base64')).buffer);
  return Array.from({ length: view.byteLength / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

describe('POST /v1/embeddings through the whole fleet', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });
  const embed = async (payload: unknown, apiKey = state.apiKey, headers: Record<string, string> = {}) => {
    const response = await fetch(`${state.baseUrl}/embeddings`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, ...headers }, body: JSON.stringify(payload) });
    return { response, body: (await response.json()) as Record<string, any> };
  };
  const expectError = (result: { response: Response; body: Record<string, any> }, status: number, code: string, param?: string) => {
    expect(result.response.status).toBe(status);
    expect(result.body).toEqual({ error: { message: expect.any(String), type: expect.any(String), param: param ?? null, code } });
  };

  it('answers floats: list of embeddings in input order, the served model, equal usage fields, svc and headers', async () => {
    const { response, body } = await embed({ model: ORION, input: ['first text', 'second text'] });
    expect(response.status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['data', 'model', 'object', 'svc', 'usage']);
    expect(body.object).toBe('list');
    expect(body.model).toBe(ORION);
    expect(body.data.map((item: { object: string; index: number }) => [item.object, item.index])).toEqual([
      ['embedding', 0],
      ['embedding', 1],
    ]);
    for (const item of body.data) {
      expect(Array.isArray(item.embedding)).toBe(true);
      expect(item.embedding.every((value: unknown) => typeof value === 'number')).toBe(true);
    }
    expect(body.data[0].embedding).not.toEqual(body.data[1].embedding);
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens);
    expect(body.svc).toEqual({ call_id: expect.stringMatching(/^call_[0-9a-f]{32}$/), vendor: 'vendor-1', model_served: ORION, cost_micros: expect.any(Number), tokens_estimated: false });
    expect(Number.isInteger(body.svc.cost_micros)).toBe(true);
    expect(response.headers.get('x-svc-vendor')).toBe('vendor-1');
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(Number(response.headers.get('x-svc-balance-micros'))).toBeGreaterThan(0);
    for (const name of RATE_LIMIT_HEADERS) expect(response.headers.get(name)).not.toBeNull();
  });

  it('encodes base64 as little-endian float32 equal to the float answer', async () => {
    const floats = await embed({ model: ORION, input: 'the same input', encoding_format: 'float' });
    const encoded = await embed({ model: ORION, input: 'the same input', encoding_format: 'base64' });
    expect(encoded.response.status).toBe(200);
    expect(typeof encoded.body.data[0].embedding).toBe('string');
    expect(decodeLe(encoded.body.data[0].embedding)).toEqual(floats.body.data[0].embedding);
    expect(encoded.body.usage).toEqual(floats.body.usage);
  });

  it('works with the official SDK: its default (base64, decoded) equals the float answer', async () => {
    const input = ['sdk input one', 'sdk input two'];
    const viaSdk = await client.embeddings.create({ model: ORION, input });
    const floats = await embed({ model: ORION, input });
    expect(viaSdk.object).toBe('list');
    expect(viaSdk.model).toBe(ORION);
    expect(viaSdk.data.map((item) => item.embedding)).toEqual(floats.body.data.map((item: { embedding: number[] }) => item.embedding));
    expect(viaSdk.usage).toEqual({ prompt_tokens: floats.body.usage.prompt_tokens, total_tokens: floats.body.usage.prompt_tokens });
    const explicitFloat = await client.embeddings.create({ model: ORION, input, encoding_format: 'float' });
    expect(explicitFloat.data[1].embedding).toEqual(floats.body.data[1].embedding);
  });

  it('honours dimensions (vector length)', async () => {
    const native = await embed({ model: ORION, input: 'wide' });
    expect(native.body.data[0].embedding.length).toBeGreaterThan(256);
    const short = await client.embeddings.create({ model: ORION, input: 'wide', dimensions: 256, encoding_format: 'float' });
    expect(short.data[0].embedding).toHaveLength(256);
    const viaSdk = await client.embeddings.create({ model: ORION, input: 'wide', dimensions: 64 });
    expect(viaSdk.data[0].embedding).toHaveLength(64);
  });

  it('estimates tokens (one per four characters) for the vendor that reports none: tokens_estimated true', async () => {
    const input = ['a'.repeat(10), 'b'.repeat(7)];
    const { response, body } = await embed({ model: BREEZE, input });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-svc-vendor')).toBe('vendor-5');
    expect(body.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 });
    expect(body.svc).toMatchObject({ vendor: 'vendor-5', model_served: BREEZE, tokens_estimated: true });
    expect(body.model).toBe(BREEZE);
  });

  it('settles every answered call into the ledger as kind embeddings, at the billed cost', async () => {
    const { body } = await embed({ model: BREEZE, input: 'x'.repeat(4000) });
    expect(body.usage.prompt_tokens).toBe(1000);
    expect(body.svc.cost_micros).toBeGreaterThan(0);
    const db = new Client({ connectionString: state.env.DATABASE_URL });
    await db.connect();
    try {
      let rows: Array<Record<string, string | number>> = [];
      for (let i = 0; i < 50 && rows.length === 0; i += 1) {
        rows = (await db.query('SELECT kind, vendor, model, input_tokens, output_tokens, cost_micros, call_fee_micros, organization_id FROM billing.ledger_entry WHERE call_id = $1', [body.svc.call_id])).rows;
        if (rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(rows).toHaveLength(1);
      expect({ ...rows[0], cost_micros: Number(rows[0].cost_micros), call_fee_micros: Number(rows[0].call_fee_micros) }).toEqual({
        kind: 'embeddings',
        vendor: 'vendor-5',
        model: BREEZE,
        input_tokens: 1000,
        output_tokens: 0,
        cost_micros: body.svc.cost_micros,
        call_fee_micros: 0,
        organization_id: state.organizationId,
      });
    } finally {
      await db.end();
    }
  });

  it('400 missing_model when the model is absent', async () => {
    expectError(await embed({ input: 'x' }), 400, 'missing_model', 'model');
  });

  it('404 model_not_found for a chat model and for virtual ids', async () => {
    expectError(await embed({ model: 'vendor-1/orion-mini-5', input: 'x' }), 404, 'model_not_found', 'model');
    expectError(await embed({ model: 'auto', input: 'x' }), 404, 'model_not_found', 'model');
    expectError(await embed({ model: 'auto/cheap', input: 'x' }), 404, 'model_not_found', 'model');
    await expect(client.embeddings.create({ model: 'auto', input: 'x' })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('404 model_not_found for an embedding model outside the key allow list', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--models', 'vendor-1/orion-mini-5'] });
    expectError(await embed({ model: ORION, input: 'x' }, apiKey), 404, 'model_not_found', 'model');
  });

  it('400 invalid_value for 2049 inputs, an empty input and a bad encoding_format', async () => {
    expectError(await embed({ model: ORION, input: Array.from({ length: 2049 }, (_, i) => `item ${i}`) }), 400, 'invalid_value', 'input');
    expectError(await embed({ model: ORION, input: [] }), 400, 'invalid_value', 'input');
    expectError(await embed({ model: ORION, input: 'x', encoding_format: 'binary' }), 400, 'invalid_value', 'encoding_format');
    expectError(await embed({ model: ORION, input: 'x', dimensions: 0 }), 400, 'invalid_value', 'dimensions');
  });

  it('503 no_provider_available with Retry-After 5 for the model whose provider is not configured', async () => {
    const result = await embed({ model: LUMEN, input: 'x' });
    expectError(result, 503, 'no_provider_available');
    expect(result.body.error.type).toBe('server_error');
    expect(result.response.headers.get('retry-after')).toBe('5');
  });

  it('403 insufficient_scope for a key without the embeddings scope', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--scopes', 'chat'] });
    const result = await embed({ model: ORION, input: 'x' }, apiKey);
    expectError(result, 403, 'insufficient_scope');
    expect(result.body.error.type).toBe('permission_error');
  });

  it('charges the key token bucket and refunds to the real count; refusals carry the headers too (RULINGS 6)', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--tpm', '1000'] });
    const { response, body } = await embed({ model: ORION, input: 'x'.repeat(400) }, apiKey);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('600');
    expect(response.headers.get('x-ratelimit-limit-tokens')).toBe('1000');
    const remaining = Number(response.headers.get('x-ratelimit-remaining-tokens'));
    expect(remaining).toBeGreaterThanOrEqual(1000 - body.usage.total_tokens);
    expect(remaining).toBeLessThanOrEqual(1000 - body.usage.total_tokens + 3);
    const refused = await embed({ model: ORION, input: [] }, apiKey);
    expect(refused.response.status).toBe(400);
    for (const name of RATE_LIMIT_HEADERS) expect(refused.response.headers.get(name)).not.toBeNull();
    const unconfigured = await embed({ model: LUMEN, input: 'x' }, apiKey);
    expect(unconfigured.response.headers.get('x-ratelimit-limit-tokens')).toBe('1000');
  });

  it('refuses 429 rate_limit_exceeded when the estimate does not fit the token bucket', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--tpm', '100'] });
    const refused = await embed({ model: ORION, input: 'x'.repeat(2000) }, apiKey);
    expectError(refused, 429, 'rate_limit_exceeded');
    expect(refused.response.headers.get('x-ratelimit-limit-tokens')).toBe('100');
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
