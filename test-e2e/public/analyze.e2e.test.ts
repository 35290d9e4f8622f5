import { DEFAULT_SPLIT_SETTINGS } from '@svc/call';
import { catalog } from '@svc/catalog';
import { fleetState, newOrganization, spawnEdge } from '../support/fleet-state';
import { handbook, medicationProtocol } from '../split/source';

/**
 * POST /v1/public/analyze (spec: Analyzer response): no key, every field for a named and an auto
 * request, the 64 scenarios, the tips built for them, the limits and refusals.
 */
type Analysis = Record<string, any>;

describe('POST /v1/public/analyze', () => {
  const state = fleetState();

  async function analyze(body: unknown, baseUrl = state.baseUrl): Promise<{ status: number; body: Analysis }> {
    const response = await fetch(`${baseUrl}/public/analyze`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Analysis };
  }

  const codeRequest = {
    model: 'vendor-1/orion-mini-5',
    max_tokens: 4000,
    messages: [{ role: 'user', content: 'Write a Python function that parses an ISO 8601 date string and returns a datetime, with tests.' }],
  };

  it('a named request, without a key: every field', async () => {
    const { status, body } = await analyze({ request: codeRequest, calls_per_month: 10_000, unknown_field: true });
    expect(status).toBe(200);
    expect(body.job).toEqual({ task: expect.any(String), difficulty: expect.any(Number), stakes: expect.stringMatching(/^(normal|high)$/) });
    expect(body.job.difficulty).toBeGreaterThanOrEqual(1);
    expect(body.job.difficulty).toBeLessThanOrEqual(5);
    const chars = codeRequest.messages[0]!.content.length;
    expect(body.tokens).toMatchObject({ input: Math.ceil(chars / 4), output_basis: 'typical' });
    // today: the named model at list price.
    const model = catalog.chatModel('vendor-1/orion-mini-5')!;
    const expectedToday = Math.round(body.tokens.input * model.pricing.input + body.tokens.output * model.pricing.output) / 1_000_000;
    expect(body.today).toEqual({ model: 'vendor-1/orion-mini-5', vendor: 'vendor-1', usd: expect.any(Number) });
    expect(Math.abs(body.today.usd - expectedToday)).toBeLessThanOrEqual(0.000001);
    // One row per virtual model; total = provider + fee + call fee; saving against today.
    expect(body.lines.map((line: Analysis) => line.line)).toEqual(['auto/cheap', 'auto/balanced', 'auto/best', 'auto']);
    for (const line of body.lines) {
      expect(line).toEqual({ line: line.line, model: expect.any(String), vendor: expect.any(String), provider_usd: expect.any(Number), fee_usd: expect.any(Number), call_fee_usd: catalog.data.auto_call_fee_micros / 1_000_000, classifier_usd: 0, total_usd: expect.any(Number), saving_usd: expect.any(Number) });
      expect(Math.abs(line.total_usd - (line.provider_usd + line.fee_usd + line.call_fee_usd))).toBeLessThanOrEqual(0.000001);
      expect(Math.abs(line.saving_usd - (body.today.usd - line.total_usd))).toBeLessThanOrEqual(0.000001);
      expect(catalog.chatModel(line.model)?.vendor).toBe(line.vendor);
    }
    expect(body.switches).toEqual([
      // A short request with no source: the split gate's below_threshold.
      { id: 'split', applicable: false, default: true, status: 'active' },
      { id: 'cache', applicable: expect.any(Boolean), default: true, status: 'active' },
      { id: 'effort', applicable: expect.any(Boolean), default: true, status: 'active' },
      { id: 'jev', applicable: false, default: true, status: 'active' },
      { id: 'flex', applicable: expect.any(Boolean), default: false, status: 'active' },
      { id: 'batch', applicable: expect.any(Boolean), default: false, status: 'active' },
    ]);
    expect(body.monthly).toEqual({ calls: 10_000, today_usd: expect.any(Number), zabio_usd: expect.any(Number) });
    const plain = body.lines.find((line: Analysis) => line.line === 'auto');
    expect(Math.abs(body.monthly.zabio_usd - plain.total_usd * 10_000)).toBeLessThanOrEqual(0.00001);
    // max_tokens 4000 is at least 4 times the typical output and at least 1,000.
    expect(body.tips.find((tip: Analysis) => tip.id === 'max_tokens')).toEqual({ id: 'max_tokens', status: 'active', saving_usd: null, params: { max_tokens: 4000, typical_output: body.tokens.output } });
  });

  it('all 64 scenarios priced together: effort never changes a price, batch wins over flex, levers that do not apply change nothing', async () => {
    const { body } = await analyze({ request: codeRequest });
    const keys = Object.keys(body.scenarios);
    expect(keys).toHaveLength(64);
    expect(keys.every((key) => /^[01]{6}$/.test(key))).toBe(true);
    expect(keys).toEqual(expect.arrayContaining(['111100', '000000', '111111']));
    const price = (key: string) => body.scenarios[key].total_usd as number;
    const batchApplies = body.switches.find((entry: Analysis) => entry.id === 'batch').applicable;
    for (const key of keys) {
      const flipped = `${key.slice(0, 2)}${key[2] === '1' ? '0' : '1'}${key.slice(3)}`;
      expect(price(flipped)).toBe(price(key));
      // Both on: batch wins (where the pick has a batch tier; otherwise flex stands alone).
      expect(price(`${key.slice(0, 4)}11`)).toBe(price(batchApplies ? `${key.slice(0, 4)}01` : `${key.slice(0, 4)}10`));
      expect(Math.abs(body.scenarios[key].saving_usd - (body.today.usd - price(key)))).toBeLessThanOrEqual(0.000001);
    }
    const switches = Object.fromEntries(body.switches.map((entry: Analysis) => [entry.id, entry.applicable]));
    const plain = body.lines.find((line: Analysis) => line.line === 'auto');
    expect(price('000000')).toBe(plain.total_usd);
    if (switches.batch) expect(price('000001')).toBeLessThan(price('000000'));
    if (switches.flex) {
      expect(price('000010')).toBeLessThan(price('000000'));
      // The flex lever prices the pick made comparing candidates at flex prices (perhaps another
      // model than the plain pick), as a request with a deadline is served.
      const tip = body.tips.find((entry: Analysis) => entry.id === 'flex');
      expect(tip).toMatchObject({ status: 'active', params: { deadline: '15m', standard_usd: plain.total_usd, flex_usd: price('000010') } });
      expect(catalog.chatModel(tip.params.model)?.flex).toBe(true);
      expect(tip.saving_usd).toBeCloseTo(plain.total_usd - price('000010'), 6);
    }
    // split does not apply to a short request (no large source); jev does not apply to free-text output.
    expect(price('100000')).toBe(price('000000'));
    expect(price('000100')).toBe(price('000000'));
  });

  it('typed questions on a job the decision model can do: the jev switch applies, its tip, and the scenarios price it', async () => {
    const request = {
      model: 'auto',
      messages: [
        { role: 'system', content: 'Classify the review.' },
        { role: 'user', content: 'Is this review positive? "Great battery life, fast shipping, would buy again."' },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'review', strict: true, schema: { type: 'object', properties: { sentiment: { type: 'string', enum: ['positive', 'neutral', 'negative'] }, mentions_shipping: { type: 'boolean' }, stars: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['sentiment', 'mentions_shipping', 'stars'], additionalProperties: false } } },
    };
    const { status, body } = await analyze({ request });
    expect(status).toBe(200);
    expect(body.switches.find((entry: Analysis) => entry.id === 'jev')).toEqual({ id: 'jev', applicable: true, default: true, status: 'active' });
    const tip = body.tips.find((entry: Analysis) => entry.id === 'jev');
    expect(tip).toMatchObject({ status: 'active', params: { model: 'decision-1.13.0', fields: [{ name: 'sentiment', type: 'choice' }, { name: 'mentions_shipping', type: 'boolean' }, { name: 'stars', type: 'score' }], jev_usd: expect.any(Number), pick_model: expect.any(String), pick_usd: expect.any(Number) } });
    expect(tip.params.jev_usd).toBeLessThan(tip.params.pick_usd);
    expect(tip.saving_usd).toBeGreaterThan(0);
    expect(body.scenarios['000100'].total_usd).toBeLessThan(body.scenarios['000000'].total_usd);
    // Tips in the spec's order of ids.
    const order = ['line', 'max_tokens', 'cache', 'jev', 'split', 'flex', 'batch', 'effort'];
    const ids = body.tips.map((entry: Analysis) => entry.id);
    expect([...ids].sort((a: string, b: string) => order.indexOf(a) - order.indexOf(b))).toEqual(ids);
  });

  it('a large source with a question: the split lever uses the live path’s gate and prices (svc.split.estimate of the same request)', async () => {
    // A factual question on a pasted medication protocol: a question about the pasted text
    // (extraction, not whole-document work) and high stakes, so the auto pick's floor steps up and
    // the pick is dear enough that the split pays.
    const request = { model: 'auto', messages: [{ role: 'user', content: `${medicationProtocol()}\n\nWhat is the maximum daily dose of lithium on the nephrology ward?` }] };
    const { status, body } = await analyze({ request });
    expect(status).toBe(200);
    const live = (await (await fetch(`${state.baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${newOrganization().apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(request) })).json()) as { svc: Analysis };
    const split = live.svc.split;
    // Which kind the question reads as moves with the weights; it is no whole-document work.
    expect(live.svc.routing).toMatchObject({ stakes: 'high' });
    expect(DEFAULT_SPLIT_SETTINGS.wholeDocumentTasks).not.toContain(live.svc.routing.task_type);
    expect(body.job).toEqual({ task: live.svc.routing.task, difficulty: live.svc.routing.difficulty, stakes: 'high' });
    const lever = body.switches.find((entry: Analysis) => entry.id === 'split');
    expect(lever).toMatchObject({ id: 'split', default: true, status: 'active' });
    const plain = body.lines.find((line: Analysis) => line.line === 'auto');
    const tip = body.tips.find((entry: Analysis) => entry.id === 'split');
    // The live gate passed the price check, and the analyzer's lever applies: the same gate and prices.
    expect(split.estimate).toEqual({ unsplit_micros: expect.any(Number), split_micros: expect.any(Number) });
    expect(split.reason).toBeUndefined();
    expect(lever.applicable).toBe(true);
    expect(tip).toMatchObject({ status: 'active', params: { model: plain.model, extractor: expect.any(String), source_tokens: expect.any(Number), unsplit_usd: plain.total_usd, split_usd: expect.any(Number) } });
    expect(tip.params.source_tokens).toBeGreaterThan(4000);
    expect(tip.params.split_usd).toBeLessThan(tip.params.unsplit_usd);
    expect(tip.saving_usd).toBeCloseTo(tip.params.unsplit_usd - tip.params.split_usd, 6);
    expect(body.scenarios['100000'].total_usd).toBe(tip.params.split_usd);
    // A split is synchronous and standard: where the batch lever applies, split and batch together
    // price the request whole at the batch tier; where it does not, the split stands.
    const batch = body.switches.find((entry: Analysis) => entry.id === 'batch');
    expect(body.scenarios['100001'].total_usd).toBe(batch.applicable ? body.scenarios['000001'].total_usd : tip.params.split_usd);
  });

  it('whole-document work never splits: a translation of the same source', async () => {
    const request = { model: 'auto', messages: [{ role: 'user', content: `Translate the following handbook into French.\n\n${handbook()}` }] };
    const { body } = await analyze({ request });
    expect(body.tips.find((entry: Analysis) => entry.id === 'split')).toBeUndefined();
    expect(body.scenarios['100000'].total_usd).toBe(body.scenarios['000000'].total_usd);
  });

  it('an auto request: today is null and savings are against the plain auto pick', async () => {
    const { status, body } = await analyze({ request: { ...codeRequest, model: 'auto', max_tokens: undefined } });
    expect(status).toBe(200);
    expect(body.today).toBeNull();
    expect(body.monthly).toBeNull();
    const plain = body.lines.find((line: Analysis) => line.line === 'auto');
    expect(plain.saving_usd).toBe(0);
    for (const line of body.lines) expect(Math.abs(line.saving_usd - (plain.total_usd - line.total_usd))).toBeLessThanOrEqual(0.000001);
  });

  it('a long shared prefix on a caching pick: the cache tip and its saving', async () => {
    const system = `You are a support assistant for a large product catalogue. ${'The catalogue lists items with prices, sizes and stock. '.repeat(120)}`;
    const { body } = await analyze({ request: { model: 'auto', messages: [{ role: 'system', content: system }, { role: 'user', content: 'Is the blue jacket in stock?' }, { role: 'assistant', content: 'Yes.' }, { role: 'user', content: 'And in size M?' }] } });
    const cache = body.tips.find((tip: Analysis) => tip.id === 'cache');
    const applies = body.switches.find((entry: Analysis) => entry.id === 'cache').applicable;
    if (!applies) {
      expect(cache).toBeUndefined();
      return;
    }
    expect(cache).toMatchObject({ status: 'active', params: { ttl: '5m', prefix_tokens: expect.any(Number), min_prefix_tokens: expect.any(Number) } });
    expect(cache.params.prefix_tokens).toBeGreaterThanOrEqual(cache.params.min_prefix_tokens);
    expect(cache.saving_usd).toBeGreaterThan(0);
    expect(body.scenarios['010000'].total_usd).toBeLessThan(body.scenarios['000000'].total_usd);
  });

  it('refusals: 400 missing_parameter, invalid_value, the chat request’s own errors, 413 over 1 MB', async () => {
    expect(await analyze({})).toMatchObject({ status: 400, body: { error: { code: 'missing_parameter', param: 'request' } } });
    for (const body of ['null', '[]', '"hello"', '1', 'true']) expect(await analyze(body)).toMatchObject({ status: 400, body: { error: { code: 'invalid_json' } } });
    expect(await analyze({ request: codeRequest, calls_per_month: -1 })).toMatchObject({ status: 400, body: { error: { code: 'invalid_value', param: 'calls_per_month' } } });
    expect((await analyze({ request: { model: 'auto' } })).status).toBe(400);
    expect((await analyze({ request: { ...codeRequest, temperature: 9 } })).body.error).toMatchObject({ code: 'invalid_value', param: 'temperature' });
    const big = await analyze({ request: { model: 'auto', messages: [{ role: 'user', content: 'x'.repeat(1_100_000) }] } });
    expect(big).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
  });

  it('the daily allowance: 503 analyzer_daily_cap once it is used up', async () => {
    const edge = await spawnEdge({ ANALYZER_DAILY_CAP: '1' });
    try {
      await analyze({ request: codeRequest }, edge.baseUrl);
      const refused = await analyze({ request: codeRequest }, edge.baseUrl);
      expect(refused).toMatchObject({ status: 503, body: { error: { type: 'server_error', code: 'analyzer_daily_cap' } } });
    } finally {
      await edge.stop();
    }
  });

  it('routing unreachable: 503 analyzer_unavailable', async () => {
    const edge = await spawnEdge({ ROUTER_ADDR: '127.0.0.1:9', RPC_DEADLINE_MS: '500' });
    try {
      const refused = await analyze({ request: codeRequest }, edge.baseUrl);
      expect(refused).toMatchObject({ status: 503, body: { error: { code: 'analyzer_unavailable' } } });
    } finally {
      await edge.stop();
    }
  });
});
