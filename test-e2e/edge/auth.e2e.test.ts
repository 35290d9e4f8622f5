import { admin, fleetState, newOrganization } from '../support/fleet-state';

const MODEL = 'vendor-1/orion-mini-5';
const body = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });

async function post(path: string, headers: Record<string, string>, payload: string | Uint8Array = body) {
  const state = fleetState();
  const response = await fetch(`${state.baseUrl}${path}`, { method: 'POST', headers, body: payload });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json };
}

const envelope = (code: string, type: string, param: string | null = null) => ({ error: { message: expect.any(String), type, param, code } });

describe('authentication (spec: Authentication 1–5)', () => {
  const state = fleetState();

  it('a missing key is 401 invalid_api_key with WWW-Authenticate and a message saying so', async () => {
    const result = await post('/chat/completions', {});
    expect(result.status).toBe(401);
    expect(result.json).toEqual(envelope('invalid_api_key', 'invalid_request_error'));
    expect(result.json.error.message).toMatch(/did not provide an API key/);
    expect(result.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
    // RULINGS 6: a 401 before the key is known carries no rate-limit headers.
    expect(result.headers.get('x-ratelimit-limit-requests')).toBeNull();
  });

  it('an incorrect key is 401 invalid_api_key saying it is incorrect, without WWW-Authenticate', async () => {
    const result = await post('/chat/completions', { authorization: `Bearer svc_live_${'Z'.repeat(43)}` });
    expect(result.status).toBe(401);
    expect(result.json).toEqual(envelope('invalid_api_key', 'invalid_request_error'));
    expect(result.json.error.message).toMatch(/Incorrect API key/);
    expect(result.headers.get('www-authenticate')).toBeNull();
  });

  it('reads the key from x-api-key when no Authorization header is sent', async () => {
    expect((await post('/chat/completions', { 'x-api-key': state.apiKey })).status).toBe(200);
  });

  it('prefers Authorization over x-api-key', async () => {
    expect((await post('/chat/completions', { authorization: `Bearer svc_live_${'Y'.repeat(43)}`, 'x-api-key': state.apiKey })).status).toBe(401);
  });

  it('a revoked key is refused within seconds, saying it was revoked', async () => {
    const { apiKey, keyId } = newOrganization();
    expect((await post('/chat/completions', { authorization: `Bearer ${apiKey}` })).status).toBe(200);
    admin('key', 'revoke', '--key', keyId);
    let result = await post('/chat/completions', { authorization: `Bearer ${apiKey}` });
    for (let i = 0; i < 30 && result.status === 200; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      result = await post('/chat/completions', { authorization: `Bearer ${apiKey}` });
    }
    expect(result.status).toBe(401);
    expect(result.json).toEqual(envelope('invalid_api_key', 'invalid_request_error'));
    expect(result.json.error.message).toMatch(/revoked/);
  });

  it('an expired key is 401 key_expired', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--expires', '2020-01-01T00:00:00Z'] });
    const result = await post('/chat/completions', { authorization: `Bearer ${apiKey}` });
    expect(result.status).toBe(401);
    expect(result.json).toEqual(envelope('key_expired', 'invalid_request_error'));
  });

  it('a suspended organization is 403 organization_suspended', async () => {
    const { apiKey, organizationId } = newOrganization();
    admin('org', 'suspend', '--org', organizationId);
    const result = await post('/chat/completions', { authorization: `Bearer ${apiKey}` });
    expect(result.status).toBe(403);
    expect(result.json).toEqual(envelope('organization_suspended', 'permission_error'));
    // The key is known: the refusal carries its rate-limit headers (RULINGS 6); elsewhere none are due.
    expect(result.headers.get('x-ratelimit-limit-requests')).toMatch(/^\d+$/);
    const models = await fetch(`${fleetState().baseUrl}/models`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(models.status).toBe(403);
    expect(models.headers.get('x-ratelimit-limit-requests')).toBeNull();
  });

  it('a key without the chat scope is 403 insufficient_scope on chat completions', async () => {
    const { apiKey } = newOrganization({ keyFlags: ['--scopes', 'embeddings'] });
    const result = await post('/chat/completions', { authorization: `Bearer ${apiKey}` });
    expect(result.status).toBe(403);
    expect(result.json).toEqual(envelope('insufficient_scope', 'permission_error'));
    // GET /v1/models needs any valid key, no scope.
    expect((await fetch(`${state.baseUrl}/models`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(200);
  });

  it('public routes need no key', async () => {
    expect((await fetch(`${state.baseUrl}/public/catalog-export`)).status).toBe(200);
  });
});

describe('bodies and request ids', () => {
  const state = fleetState();
  const auth = () => ({ authorization: `Bearer ${state.apiKey}` });

  it('invalid JSON is 400 invalid_json, with the key’s rate-limit headers (RULINGS 6)', async () => {
    for (const path of ['/chat/completions', '/embeddings', '/responses']) {
      const result = await post(path, auth(), '{"model":');
      expect(result.status).toBe(400);
      expect(result.json).toEqual(envelope('invalid_json', 'invalid_request_error'));
      expect(result.headers.get('x-ratelimit-limit-requests')).toMatch(/^\d+$/);
      expect(result.headers.get('x-ratelimit-remaining-tokens')).toMatch(/^\d+$/);
    }
    // An empty body is not a JSON document either (POST /v1/conversations may be empty: a conversation).
    for (const path of ['/chat/completions', '/embeddings', '/responses', '/batches']) {
      const empty = await post(path, { ...auth(), 'content-type': 'application/json' }, '');
      expect([path, empty.status, empty.json]).toEqual([path, 400, envelope('invalid_json', 'invalid_request_error')]);
    }
    const conversation = await post('/conversations', { ...auth(), 'content-type': 'application/json' }, '');
    expect(conversation.status).toBe(200);
    expect(conversation.json).toMatchObject({ object: 'conversation', id: expect.stringMatching(/^conv_/) });
    // Before the key is known, none.
    const anonymous = await post('/chat/completions', {}, '{"model":');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('x-ratelimit-limit-requests')).toBeNull();
  });

  it('a body over 32 MB (32,000,000 bytes) is 413 payload_too_large, and says so', async () => {
    const big = new Uint8Array(32_000_001).fill(0x20);
    const result = await post('/chat/completions', auth(), big);
    expect(result.status).toBe(413);
    expect(result.json).toEqual(envelope('payload_too_large', 'invalid_request_error'));
    expect((result.json as { error: { message: string } }).error.message).toBe('The request body is larger than 32 MB.');
    expect(result.headers.get('x-ratelimit-limit-requests')).toMatch(/^\d+$/);
  });

  it('every response carries a fresh x-request-id; a client-sent one is not reused', async () => {
    const seen = new Set<string>();
    for (const headers of [{}, auth(), { ...auth(), 'x-request-id': 'req_00000000000000000000000000000000' }]) {
      const result = await post('/chat/completions', headers);
      const id = result.headers.get('x-request-id')!;
      expect(id).toMatch(/^req_[0-9a-f]{32}$/);
      expect(id).not.toBe('req_00000000000000000000000000000000');
      seen.add(id);
    }
    expect(seen.size).toBe(3);
    const notFound = await fetch(`${state.baseUrl}/nowhere`, { headers: auth() });
    expect(notFound.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
