import { randomBytes } from 'node:crypto';
import { catalog } from '@svc/catalog';
import { listPriceMicros } from '@svc/pricing';
import { fleetState } from '../support/fleet-state';

// Spec, Caching rules 1–5, through the whole fleet: the edge decides the cache markers, the
// vendor simulator accounts reads and writes the way the vendors do, the edge prices them.

/** vendor-2 (explicit markers), minimum cacheable prefix 512 tokens. */
const EXPLICIT = 'vendor-2/lyric-mini-3';
/** vendor-1 (automatic from 1024 tokens, no write charge). */
const AUTOMATIC = 'vendor-1/orion-mini-5';
/** The simulator's minimum for the explicit vendor defaults to 1024; match the model's 512. */
const SIM_MIN_PREFIX = { 'x-sim-min-cache-prefix': '512' };

interface SvcCache {
  read_tokens: number;
  write_tokens: number;
  ttl_applied: string;
}
interface Completion {
  usage: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } };
  svc: { model_served: string; cache: SvcCache; cost_micros: number; cost: { vendor_micros: number }; session_id?: string };
}

/** A system prompt of about 2,000 tokens (over 1,024 by the characters / 4 estimate too), unique to the test. */
function longSystem(): string {
  const nonce = randomBytes(8).toString('hex');
  const lines = Array.from({ length: 150 }, (_, i) => `Rule ${i + 1} of ${nonce}: the quick brown fox jumps over the lazy dog ${i * 7}.`);
  return `You follow the house style.\n${lines.join('\n')}`;
}

describe('prompt caching through the whole fleet', () => {
  const state = fleetState();

  async function chat(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Completion> {
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ max_tokens: 8, ...body }),
    });
    const json = (await response.json()) as Completion;
    expect({ status: response.status, body: response.status === 200 ? undefined : json }).toEqual({ status: 200, body: undefined });
    expect(Object.keys(json.svc.cache).sort()).toEqual(['read_tokens', 'ttl_applied', 'write_tokens']);
    return json;
  }

  const ask = (model: string, system: string, extra: Record<string, unknown> = {}, question = 'Which rule comes first?') => ({
    model,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: question },
    ],
    ...extra,
  });

  /** svc.cost.vendor_micros is the model's list price of the usage with the cache prices applied. */
  function expectCachePricing(completion: Completion): void {
    const price = catalog.chatModel(completion.svc.model_served)!.pricing;
    const { cache } = completion.svc;
    const usage = { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens };
    expect(completion.svc.cost.vendor_micros).toBe(
      listPriceMicros(price, { ...usage, cachedTokens: cache.read_tokens, cacheWriteTokens: cache.write_tokens, cacheTtl: cache.ttl_applied as '5m' | '1h' | '' }),
    );
  }
  const uncachedMicros = (completion: Completion) =>
    listPriceMicros(catalog.chatModel(completion.svc.model_served)!.pricing, { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens, cachedTokens: 0, cacheWriteTokens: 0 });

  it('writes a long prompt on its second appearance, reads it on the third, and prices both', async () => {
    const body = ask(EXPLICIT, longSystem());
    const first = await chat(body, SIM_MIN_PREFIX);
    expect(first.svc.model_served).toBe(EXPLICIT);
    expect(first.usage.prompt_tokens).toBeGreaterThan(1024);
    expect(first.svc.cache).toEqual({ read_tokens: 0, write_tokens: 0, ttl_applied: '' });
    expect(first.usage.prompt_tokens_details).toBeUndefined();
    expect(first.svc.cost.vendor_micros).toBe(uncachedMicros(first));

    const second = await chat(body, SIM_MIN_PREFIX);
    expect(second.svc.cache.write_tokens).toBeGreaterThan(512);
    expect(second.svc.cache).toMatchObject({ read_tokens: 0, ttl_applied: '5m' });
    expectCachePricing(second);
    // 5m writes cost 1.25 times input.
    expect(second.svc.cost.vendor_micros).toBeGreaterThan(uncachedMicros(second));

    const third = await chat(body, SIM_MIN_PREFIX);
    expect(third.svc.cache.read_tokens).toBeGreaterThan(512);
    expect(third.svc.cache).toMatchObject({ write_tokens: 0, ttl_applied: '5m' });
    expect(third.usage.prompt_tokens_details?.cached_tokens).toBe(third.svc.cache.read_tokens);
    expect(third.usage.prompt_tokens).toBe(first.usage.prompt_tokens);
    expectCachePricing(third);
    expect(third.svc.cost.vendor_micros).toBeLessThan(uncachedMicros(third));
    expect(third.svc.cost_micros).toBeLessThan(first.svc.cost_micros);
  });

  it('writes a long system prompt on its second call even when the question changes', async () => {
    const system = longSystem();
    expect((await chat(ask(EXPLICIT, system, {}, 'First question?'), SIM_MIN_PREFIX)).svc.cache.write_tokens).toBe(0);
    expect((await chat(ask(EXPLICIT, system, {}, 'Second question?'), SIM_MIN_PREFIX)).svc.cache.write_tokens).toBeGreaterThan(0);
    const third = await chat(ask(EXPLICIT, system, {}, 'Third question?'), SIM_MIN_PREFIX);
    expect(third.svc.cache.read_tokens).toBeGreaterThan(512);
  });

  it('writes at once in a session, and reads on the next turn', async () => {
    const body = ask(EXPLICIT, longSystem(), { svc: { session_id: `cache-e2e-${randomBytes(6).toString('hex')}` } });
    const first = await chat(body, SIM_MIN_PREFIX);
    expect(first.svc.cache.write_tokens).toBeGreaterThan(512);
    expect(first.svc.cache).toMatchObject({ read_tokens: 0, ttl_applied: '5m' });
    expectCachePricing(first);
    const second = await chat(body, SIM_MIN_PREFIX);
    expect(second.svc.cache.read_tokens).toBeGreaterThan(512);
    expect(second.svc.cache.ttl_applied).toBe('5m');
  });

  it('writes at once a request with earlier turns', async () => {
    const body = {
      model: EXPLICIT,
      messages: [
        { role: 'system', content: longSystem() },
        { role: 'user', content: 'Which rule comes first?' },
        { role: 'assistant', content: 'Rule 1.' },
        { role: 'user', content: 'And the last?' },
      ],
    };
    expect((await chat(body, SIM_MIN_PREFIX)).svc.cache.write_tokens).toBeGreaterThan(512);
  });

  it('writes at once at 1h when the request sets ttl 1h, priced at 2 times input', async () => {
    const first = await chat(ask(EXPLICIT, longSystem()), { ...SIM_MIN_PREFIX, 'x-svc-cache-ttl': '1h' });
    expect(first.svc.cache.write_tokens).toBeGreaterThan(512);
    expect(first.svc.cache.ttl_applied).toBe('1h');
    expectCachePricing(first);
    const price = catalog.chatModel(EXPLICIT)!.pricing;
    const { prompt_tokens: input, completion_tokens: output } = first.usage;
    const written = first.svc.cache.write_tokens;
    // (input - written) at the input price, written at 2x input, output at the output price, in
    // pico-USD per token, rounded half up to micros.
    const pico = (usdPerMillion: number) => BigInt(Math.round(usdPerMillion * 1_000_000));
    const total = BigInt(input - written) * pico(price.input) + BigInt(written) * 2n * pico(price.input) + BigInt(output) * pico(price.output);
    expect(first.svc.cost.vendor_micros).toBe(Number((total + 500_000n) / 1_000_000n));
  });

  it('reads and writes nothing with ttl none or breakpoints none, even in a session', async () => {
    for (const cache of [{ ttl: 'none' }, { breakpoints: 'none' }]) {
      const body = ask(EXPLICIT, longSystem(), { svc: { session_id: `cache-e2e-${randomBytes(6).toString('hex')}`, cache } });
      for (let i = 0; i < 3; i += 1) {
        const completion = await chat(body, SIM_MIN_PREFIX);
        expect(completion.svc.cache).toEqual({ read_tokens: 0, write_tokens: 0, ttl_applied: '' });
        expect(completion.svc.cost.vendor_micros).toBe(uncachedMicros(completion));
      }
    }
  });

  it('reports 0 for a prompt under the model minimum', async () => {
    const short = `Short house style ${randomBytes(6).toString('hex')}. ${'Be brief. '.repeat(40)}`;
    const body = ask(EXPLICIT, short, { svc: { session_id: `cache-e2e-${randomBytes(6).toString('hex')}` } });
    for (let i = 0; i < 2; i += 1) expect((await chat(body, SIM_MIN_PREFIX)).svc.cache).toEqual({ read_tokens: 0, write_tokens: 0, ttl_applied: '' });
  });

  it('reports the read in the usage chunk of a stream', async () => {
    const body = ask(EXPLICIT, longSystem(), { svc: { session_id: `cache-e2e-${randomBytes(6).toString('hex')}` } });
    await chat(body, SIM_MIN_PREFIX);
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json', ...SIM_MIN_PREFIX },
      body: JSON.stringify({ ...body, max_tokens: 8, stream: true }),
    });
    expect(response.status).toBe(200);
    const events = (await response.text()).split('\n\n').filter((event) => event.startsWith('data: {'));
    const last = JSON.parse(events[events.length - 1]!.slice('data: '.length)) as Completion;
    expect(last.svc.cache.read_tokens).toBeGreaterThan(512);
    expect(last.svc.cache).toMatchObject({ write_tokens: 0, ttl_applied: '5m' });
    expect(last.usage.prompt_tokens_details?.cached_tokens).toBe(last.svc.cache.read_tokens);
  });

  it('reads a repeated long prompt on an automatic-cache vendor with no write, whatever ttl says', async () => {
    const body = ask(AUTOMATIC, longSystem());
    const first = await chat(body);
    expect(first.svc.model_served).toBe(AUTOMATIC);
    expect(first.svc.cache).toEqual({ read_tokens: 0, write_tokens: 0, ttl_applied: '' });
    const second = await chat(body);
    expect(second.svc.cache.read_tokens).toBeGreaterThanOrEqual(1024);
    expect(second.svc.cache).toMatchObject({ write_tokens: 0, ttl_applied: '5m' });
    expect(second.usage.prompt_tokens_details?.cached_tokens).toBe(second.svc.cache.read_tokens);
    expectCachePricing(second);
    expect(second.svc.cost.vendor_micros).toBeLessThan(uncachedMicros(second));
    // Spec rule 3: "There `ttl` and `breakpoints` are accepted and ignored."
    const ignored = await chat({ ...body, svc: { cache: { ttl: 'none' } } });
    expect(ignored.svc.cache.read_tokens).toBeGreaterThanOrEqual(1024);
    expect(ignored.svc.cache.write_tokens).toBe(0);
  });
});
