import { createRng } from './hash';
import { json, startSim, type RunningSim } from './testkit';

const openaiHeaders = { authorization: 'Bearer k', 'content-type': 'application/json' };
const hello = { model: 'gpt-sim', messages: [{ role: 'user', content: 'Hello' }] };

describe('app', () => {
  let sim: RunningSim;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim.close());

  const chat = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', headers: { ...openaiHeaders, ...headers }, body: JSON.stringify(body), signal });

  it('GET /healthz', async () => {
    const res = await fetch(`${sim.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: 'ok' });
  });

  it('answers unknown routes with 404 in the shape of the vendor the path belongs to', async () => {
    expect((await json(fetch(`${sim.url}/v1/nothing`))).error.type).toBe('invalid_request_error');
    expect((await json(fetch(`${sim.url}/v1beta/models/x:embedContent`, { method: 'POST' }))).error.status).toBe('NOT_FOUND');
    expect((await json(fetch(`${sim.url}/v1/messages/batches`))).error.type).toBe('not_found_error');
  });

  it('garbage answers 200 with an unparseable body, unary and streamed', async () => {
    const unary = await chat(hello, { 'x-sim-fault': 'garbage' });
    expect(unary.status).toBe(200);
    await expect(json(unary)).rejects.toThrow();
    const stream = await chat({ ...hello, stream: true }, { 'x-sim-fault': 'garbage' });
    expect(stream.status).toBe(200);
    const text = await stream.text();
    expect(() => JSON.parse(text.split('\n')[0]?.slice(6) ?? '')).toThrow();
  });

  it('timeout never answers; the client gives up', async () => {
    const started = Date.now();
    await expect(chat(hello, { 'x-sim-fault': 'timeout' }, AbortSignal.timeout(300))).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await chat(hello)).status).toBe(200);
  });

  it('hang:<ms> delays, then answers', async () => {
    const started = Date.now();
    const res = await chat(hello, { 'x-sim-fault': 'hang:200' });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('hang combines with another fault', async () => {
    const started = Date.now();
    const res = await chat(hello, { 'x-sim-fault': 'hang:150,status:502' });
    expect(res.status).toBe(502);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('applies x-sim-ttft-ms before the first content and x-sim-tps across the stream', async () => {
    const started = Date.now();
    const res = await chat({ ...hello, stream: true, max_tokens: 10 }, { 'x-sim-ttft-ms': '150', 'x-sim-tps': '100' });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    let firstContentAt = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (!firstContentAt && text.includes('"content":"') && /"content":"[^"]/.test(text)) firstContentAt = Date.now();
    }
    const total = Date.now() - started;
    expect(firstContentAt - started).toBeGreaterThanOrEqual(140);
    // 10 tokens at 100/s after the first: about 90 ms more.
    expect(total).toBeGreaterThanOrEqual(220);
  });

  it('delays a unary answer by ttft plus tokens / tps', async () => {
    const started = Date.now();
    await json(chat({ ...hello, max_tokens: 5 }, { 'x-sim-ttft-ms': '100', 'x-sim-tps': '50' }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('survives arbitrary JSON on every endpoint', async () => {
    const rng = createRng(99);
    const values = (depth: number): unknown => {
      const pick = rng.int(0, depth > 2 ? 4 : 6);
      if (pick === 0) return null;
      if (pick === 1) return rng.next() < 0.5;
      if (pick === 2) return rng.int(-5, 5);
      if (pick === 3) return rng.pick(['', 'x', 'user', 'function', 'ephemeral', 'OBJECT']);
      if (pick === 4) return [];
      if (pick === 5) return Array.from({ length: rng.int(1, 3) }, () => values(depth + 1));
      const keys = ['model', 'messages', 'content', 'role', 'tools', 'type', 'function', 'parameters', 'contents', 'parts', 'text', 'max_tokens', 'stream', 'input', 'system', 'cache_control', 'tool_choice', 'response_format', 'generationConfig', 'thinking'];
      return Object.fromEntries(Array.from({ length: rng.int(1, 5) }, () => [rng.pick(keys), values(depth + 1)]));
    };
    const targets: Array<[string, Record<string, string>]> = [
      ['/v1/chat/completions', openaiHeaders],
      ['/v1/embeddings', openaiHeaders],
      ['/v1/messages', { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }],
      ['/v1beta/models/g:generateContent', { 'x-goog-api-key': 'k' }],
    ];
    for (let i = 0; i < 200; i++) {
      const [path, headers] = targets[i % targets.length] as [string, Record<string, string>];
      const res = await fetch(`${sim.url}${path}`, { method: 'POST', headers, body: JSON.stringify(values(0)) });
      expect([200, 400]).toContain(res.status);
      await res.text();
    }
    expect((await fetch(`${sim.url}/healthz`)).status).toBe(200);
  });

  it('answers a too-large body with the vendor error', async () => {
    const small = await startSim({ bodyLimit: '1kb' });
    try {
      const res = await fetch(`${small.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'k' }, body: 'x'.repeat(5000) });
      expect(res.status).toBe(413);
      expect((await json(res)).error.type).toBe('request_too_large');
    } finally {
      await small.close();
    }
  });
});

describe('configured defaults', () => {
  it('SIM_FAULT applies to requests without x-sim-fault; the header overrides it', async () => {
    const sim = await startSim({ fault: 'status:503' });
    try {
      expect((await fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', headers: openaiHeaders, body: JSON.stringify(hello) })).status).toBe(503);
      const overridden = await fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', headers: { ...openaiHeaders, 'x-sim-fault': 'status:500' }, body: JSON.stringify(hello) });
      expect(overridden.status).toBe(500);
      expect((await fetch(`${sim.url}/healthz`)).status).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it('default latency applies without headers', async () => {
    const sim = await startSim({ latency: { ttftMs: 120 } });
    try {
      const started = Date.now();
      await fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', headers: openaiHeaders, body: JSON.stringify(hello) });
      expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    } finally {
      await sim.close();
    }
  });
});
