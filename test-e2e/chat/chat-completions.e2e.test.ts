import OpenAI from 'openai';
import { Client } from 'pg';
import { fleetState } from '../support/fleet-state';

const MODEL = 'vendor-1/orion-mini-5';

describe('POST /v1/chat/completions through the whole fleet', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });

  it('answers a named model with a chat.completion whose call id shares the completion hex', async () => {
    const completion = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(completion.model).toBe(MODEL);
    expect(completion.system_fingerprint).toBeNull();
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0]).toMatchObject({ index: 0, logprobs: null, finish_reason: 'stop', message: { role: 'assistant' } });
    expect(typeof completion.choices[0].message.content).toBe('string');
    const usage = completion.usage!;
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    const svc = (completion as unknown as { svc: Record<string, unknown> }).svc;
    expect(svc.call_id).toBe(`call_${completion.id.slice('chatcmpl-'.length)}`);
    expect(svc).toMatchObject({ vendor: 'vendor-1', model_served: MODEL, attempts: 1, tier: { requested: 'standard', applied: 'standard' } });
    expect(svc.cache).toEqual({ read_tokens: 0, write_tokens: 0, ttl_applied: '' });
    expect(Number.isInteger(svc.cost_micros)).toBe(true);
    expect(svc.cost_micros as number).toBeGreaterThan(0);
    const cost = svc.cost as Record<string, number>;
    expect(cost.vendor_micros + cost.service_fee_micros + cost.call_fee_micros).toBe(svc.cost_micros);
    expect(cost).toMatchObject({ call_fee_micros: 0, savings_fee_micros: 0, classifier_micros: 0 });
  });

  it('streams chunks in the spec order and ends with data: [DONE]', async () => {
    const stream = await client.chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const chunks: Array<Record<string, any>> = [];
    for await (const chunk of stream) chunks.push(chunk as unknown as Record<string, any>);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    const ids = new Set(chunks.map((chunk) => chunk.id));
    expect(ids.size).toBe(1);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model: MODEL, system_fingerprint: null });
      for (const choice of chunk.choices) expect(choice.logprobs).toBeNull();
    }
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    const usageChunk = chunks[chunks.length - 1];
    const finishChunk = chunks[chunks.length - 2];
    expect(finishChunk.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.total_tokens).toBeGreaterThan(0);
    expect(usageChunk.svc.call_id).toBe(`call_${usageChunk.id.slice('chatcmpl-'.length)}`);
    const text = chunks.slice(1, -2).map((chunk) => chunk.choices[0].delta.content ?? '').join('');
    expect(text.length).toBeGreaterThan(0);
  });

  it('sends the raw event stream with data lines and a final [DONE]', async () => {
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}` },
      body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(response.headers.get('x-svc-vendor')).toBe('vendor-1');
    const body = await response.text();
    const events = body.split('\n\n').filter(Boolean);
    expect(events.every((event) => event.startsWith('data: '))).toBe(true);
    expect(events[events.length - 1]).toBe('data: [DONE]');
  });

  it('accepts a body sent as curl -d does (no JSON content type) and sets the response headers', async () => {
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'req_client_sent' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(Number(response.headers.get('x-svc-balance-micros'))).toBeGreaterThan(0);
  });

  it('settles every answered call into the ledger exactly once', async () => {
    const completion = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'ledger check' }] });
    const callId = (completion as unknown as { svc: { call_id: string; cost_micros: number } }).svc.call_id;
    const db = new Client({ connectionString: state.env.DATABASE_URL });
    await db.connect();
    try {
      let rows: Array<{ cost_micros: string; organization_id: string }> = [];
      for (let i = 0; i < 50 && rows.length === 0; i += 1) {
        rows = (await db.query('SELECT cost_micros, organization_id FROM billing.ledger_entry WHERE call_id = $1', [callId])).rows;
        if (rows.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(rows).toHaveLength(1);
      expect(Number(rows[0].cost_micros)).toBe((completion as unknown as { svc: { cost_micros: number } }).svc.cost_micros);
      expect(rows[0].organization_id).toBe(state.organizationId);
    } finally {
      await db.end();
    }
  });

  it('falls back to another model of the same class when the first vendor fails', async () => {
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, 'x-sim-fault': 'status:500', 'x-sim-fault-model': 'orion-mini-5' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.svc.attempts).toBe(2);
    expect(body.svc.model_served).not.toBe(MODEL);
  });

  it('refuses an unknown key with the envelope and no body leak', async () => {
    const response = await fetch(`${state.baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer svc_live_' + 'x'.repeat(43) }, body: '{}' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
  });
});
