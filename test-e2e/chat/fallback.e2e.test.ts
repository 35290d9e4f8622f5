import { fleetState, spawnEdge } from '../support/fleet-state';

const MODEL = 'vendor-1/orion-mini-5';
const UPSTREAM = 'orion-mini-5';

async function call(baseUrl: string, headers: Record<string, string>, payload: Record<string, unknown> = {}) {
  const state = fleetState();
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${state.apiKey}`, ...headers },
    body: JSON.stringify({ model: MODEL, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }], ...payload }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: JSON.parse(text) };
}

describe('fallback policies (svc.fallback / x-svc-fallback)', () => {
  const state = fleetState();

  it('same_vendor tries another model of the same vendor and class', async () => {
    const result = await call(state.baseUrl, { 'x-sim-fault': 'status:500', 'x-sim-fault-model': UPSTREAM, 'x-svc-fallback': 'same_vendor' });
    expect(result.status).toBe(200);
    expect(result.json.svc.attempts).toBe(2);
    expect(result.json.svc.vendor).toBe('vendor-1');
    expect(result.json.svc.model_served).not.toBe(MODEL);
  });

  it('cross_vendor tries any model of the same class', async () => {
    const result = await call(state.baseUrl, { 'x-sim-fault': 'status:500', 'x-sim-fault-model': UPSTREAM }, { svc: { fallback: 'cross_vendor' } });
    expect(result.status).toBe(200);
    expect(result.json.svc.attempts).toBe(2);
  });

  it('svc.vendors restricts the fallback set', async () => {
    const result = await call(state.baseUrl, { 'x-sim-fault': 'status:500', 'x-sim-fault-model': UPSTREAM }, { svc: { fallback: 'cross_vendor', vendors: ['vendor-1'] } });
    expect(result.status).toBe(200);
    expect(result.json.svc.vendor).toBe('vendor-1');
  });

  it.each(['none', 'cross_vendor'])('the decision model (named only, no fallbacks) with tools is 400 unsupported_for_model naming the field (fallback %s)', async (fallback) => {
    const result = await call(state.baseUrl, { 'x-svc-fallback': fallback }, { model: 'vendor-8/decision-1.13.0', tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] });
    expect(result.status).toBe(400);
    expect(result.json.error).toMatchObject({ code: 'unsupported_for_model', type: 'invalid_request_error', param: 'tools' });
  });

  describe('a named model that fails a capability check (vendor-4/atlas-3.1-8b takes no tools)', () => {
    const NO_TOOLS = 'vendor-4/atlas-3.1-8b';
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }];

    it.each([
      ['same_vendor', ['vendor-4']],
      ['cross_vendor', undefined],
    ] as const)('fallback %s: served by a model of its class that takes tools', async (fallback, vendors) => {
      const result = await call(state.baseUrl, { 'x-svc-fallback': fallback }, { model: NO_TOOLS, tools });
      expect(result.status).toBe(200);
      expect(result.json.svc.model_served).not.toBe(NO_TOOLS);
      expect(result.json.model).toBe(result.json.svc.model_served);
      if (vendors) expect(vendors).toContain(result.json.svc.vendor);
    });

    it('fallback none: 400 unsupported_parameter naming tools', async () => {
      const result = await call(state.baseUrl, { 'x-svc-fallback': 'none' }, { model: NO_TOOLS, tools });
      expect(result.status).toBe(400);
      expect(result.json.error).toMatchObject({ code: 'unsupported_parameter', type: 'invalid_request_error', param: 'tools' });
    });

    it('an image with fallback none: 400 unsupported_for_model naming messages', async () => {
      const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' } };
      const result = await call(state.baseUrl, { 'x-svc-fallback': 'none' }, { model: NO_TOOLS, messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] }] });
      expect(result.status).toBe(400);
      expect(result.json.error).toMatchObject({ code: 'unsupported_for_model', param: 'messages' });
    });
  });

  it('svc.vendors never takes away the named model itself', async () => {
    const result = await call(state.baseUrl, {}, { svc: { vendors: ['vendor-7'] } });
    expect(result.status).toBe(200);
    expect(result.json.svc).toMatchObject({ vendor: 'vendor-1', model_served: MODEL });
  });

  it('at most 3 attempts, then the vendor error', async () => {
    const result = await call(state.baseUrl, { 'x-sim-fault': 'status:500', 'x-svc-fallback': 'cross_vendor' });
    expect(result.status).toBe(502);
    expect(result.json.error.code).toBe('upstream_error');
  });
});

describe('vendor errors once every option is exhausted (spec: Errors)', () => {
  const state = fleetState();
  const none = { 'x-svc-fallback': 'none' };

  it.each([
    ['status:500', 502, 'upstream_error', '5'],
    ['status:503', 503, 'vendor_unavailable', '5'],
    ['429:7', 429, 'upstream_rate_limited', '7'],
    ['invalid', 400, 'upstream_invalid_request', null],
  ])('%s → %d %s', async (fault, status, code, retryAfter) => {
    const result = await call(state.baseUrl, { ...none, 'x-sim-fault': fault });
    expect(result.status).toBe(status);
    expect(result.json).toEqual({ error: { message: expect.any(String), type: status === 429 ? 'rate_limit_error' : status === 400 ? 'invalid_request_error' : 'server_error', param: null, code } });
    expect(result.headers.get('x-svc-vendor')).toBe('vendor-1');
    expect(result.headers.get('retry-after')).toBe(retryAfter);
    // The vendor's own error body never reaches the client.
    expect(result.text).not.toMatch(/"type":"error"|invalid_request_error","param":"|sim/i);
  });

  it('upstream_invalid_request carries the vendor reason in its message', async () => {
    const result = await call(state.baseUrl, { ...none, 'x-sim-fault': 'invalid' });
    expect(result.json.error.message).toMatch(/^The vendor rejected the request: .+/);
  });

  it('a vendor that does not answer in time is 504 upstream_timeout', async () => {
    const edge = await spawnEdge({ ATTEMPT_TIMEOUT_MS: '400', ATTEMPT_TIMEOUT_LONG_MS: '400' });
    try {
      const result = await call(edge.baseUrl, { ...none, 'x-sim-fault': 'timeout' });
      expect(result.status).toBe(504);
      expect(result.json.error).toMatchObject({ code: 'upstream_timeout', type: 'server_error' });
      expect(result.headers.get('retry-after')).toBe('5');
    } finally {
      await edge.stop();
    }
  });

  it('refused content is a normal response with finish_reason content_filter', async () => {
    const result = await call(state.baseUrl, { ...none, 'x-sim-fault': 'refuse' });
    expect(result.status).toBe(200);
    expect(result.json.choices[0].finish_reason).toBe('content_filter');
  });

  /** A streamed call on MODEL with fallback none and a simulated vendor fault. */
  const streamed = (fault: string, content: string) =>
    fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, ...none, 'x-sim-fault': fault },
      body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content }] }),
    });

  it('a stream cut after its first chunk ends with one error event and [DONE]', async () => {
    const response = await streamed('cut:2', 'tell me a longer story please');
    expect(response.status).toBe(200);
    const data = (await response.text()).split('\n\n').filter((event) => event.startsWith('data: '));
    expect(data[data.length - 1]).toBe('data: [DONE]');
    const error = JSON.parse(data[data.length - 2].slice(6));
    expect(error).toEqual({ error: { message: expect.any(String), type: 'server_error', code: 'upstream_error' } });
  });

  it('a stream the vendor answered and closed before any content is 502 upstream_error (an unreadable response, not an unavailable vendor)', async () => {
    const response = await streamed('cut:0', 'tell me a story');
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: { message: expect.any(String), type: 'server_error', param: null, code: 'upstream_error' } });
    expect(response.headers.get('x-svc-vendor')).toBe('vendor-1');
  });
});
