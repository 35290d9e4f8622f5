import OpenAI from 'openai';
import { catalog } from '@svc/catalog';
import { fleetState } from '../support/fleet-state';

/**
 * svc.deadline / x-svc-deadline and the vendors' flex tier through the whole fleet (spec:
 * Deadline and flex rules, svc.tier, svc.cost): vendor-sim serves flex on the OpenAI protocol
 * (`service_tier: flex`) and on Gemini's (`serviceTier: FLEX`), and refuses flex for capacity on
 * `x-sim-fault: capacity`.
 */
type Svc = { tier: Record<string, string>; cost: Record<string, number>; cost_micros: number; model_served: string; attempts: number; routing?: Record<string, unknown> };

describe('deadlines and flex (svc.tier)', () => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });
  // A long prompt so the half price shows in whole micro-dollars.
  const messages = [{ role: 'user' as const, content: `Summarize the following notes. ${'The quarterly numbers went up again this month. '.repeat(200)}` }];

  async function chat(model: string, options: { deadline?: string; header?: string; fault?: string; stream?: boolean } = {}): Promise<Svc> {
    const headers: Record<string, string> = {};
    if (options.header) headers['x-svc-deadline'] = options.header;
    if (options.fault) headers['x-sim-fault'] = options.fault;
    const body = { model, max_tokens: 40, messages, ...(options.deadline ? { svc: { deadline: options.deadline } } : {}) };
    const completion = await client.chat.completions.create(body as never, { headers });
    return (completion as unknown as { svc: Svc }).svc;
  }

  it('no deadline: standard asked and served', async () => {
    expect((await chat('vendor-1/orion-mini-5')).tier).toEqual({ requested: 'standard', applied: 'standard' });
  });

  it('a deadline under 15 minutes changes nothing', async () => {
    expect((await chat('vendor-1/orion-mini-5', { deadline: '899s' })).tier).toEqual({ requested: 'standard', applied: 'standard' });
  });

  it.each([
    ['vendor-1/orion-mini-5', 'OpenAI protocol'],
    ['vendor-3/lumen-2.5-flash', 'Gemini protocol'],
  ])('from 15 minutes %s (%s) is served at flex, at half the vendor price of the same call at standard', async (model) => {
    const standard = await chat(model);
    const flex = await chat(model, { header: '15m' });
    expect(flex.tier).toEqual({ requested: 'flex', applied: 'flex' });
    expect(flex.model_served).toBe(model);
    expect(Math.abs(flex.cost.vendor_micros - standard.cost.vendor_micros / 2)).toBeLessThanOrEqual(1);
    // A named model's direct price is the provider's own price at the tier that served.
    expect(flex.cost.direct_micros).toBe(flex.cost.vendor_micros);
  });

  it('the header wins over the body option', async () => {
    expect((await chat('vendor-1/orion-mini-5', { deadline: '1h', header: '10m' })).tier).toEqual({ requested: 'standard', applied: 'standard' });
  });

  it('flex refused for capacity: the same model at standard at once, billed at standard (fallback capacity)', async () => {
    const standard = await chat('vendor-1/orion-mini-5');
    const refused = await chat('vendor-1/orion-mini-5', { deadline: '30m', fault: 'capacity' });
    expect(refused.tier).toEqual({ requested: 'flex', applied: 'standard', fallback: 'capacity' });
    expect(refused.model_served).toBe('vendor-1/orion-mini-5');
    expect(refused.attempts).toBe(1);
    expect(refused.cost.vendor_micros).toBe(standard.cost.vendor_micros);
  });

  it('a model without a flex tier: flex requested, standard applied', async () => {
    expect((await chat('vendor-1/orion-4.1', { deadline: '2h' })).tier).toEqual({ requested: 'flex', applied: 'standard' });
  });

  it('24 hours or more asks for batch; a synchronous call is served at flex with fallback synchronous', async () => {
    expect((await chat('vendor-1/orion-mini-5', { deadline: '24h' })).tier).toEqual({ requested: 'batch', applied: 'flex', fallback: 'synchronous' });
    expect((await chat('vendor-1/orion-4.1', { deadline: '168h' })).tier).toEqual({ requested: 'batch', applied: 'standard', fallback: 'synchronous' });
  });

  it('a stream reports the tier in its final svc object', async () => {
    const stream = await client.chat.completions.create({ model: 'vendor-1/orion-mini-5', max_tokens: 20, messages, stream: true, stream_options: { include_usage: true }, svc: { deadline: '45m' } } as never, {});
    let svc: Svc | undefined;
    for await (const chunk of stream as unknown as AsyncIterable<{ svc?: Svc }>) if (chunk.svc) svc = chunk.svc;
    expect(svc?.tier).toEqual({ requested: 'flex', applied: 'flex' });
  });

  it('auto under a flex deadline: the pick is served at flex where it has a flex tier', async () => {
    const svc = await chat('auto', { deadline: '20m' });
    expect(svc.tier.requested).toBe('flex');
    expect(svc.tier.applied).toBe(catalog.chatModel(svc.model_served)?.flex ? 'flex' : 'standard');
  });

  it.each(['15', '0m', '169h', '1d', 'soon', '-5m'])('svc.deadline %p is 400 invalid_value naming svc.deadline', async (deadline) => {
    const response = await fetch(`${state.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${state.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: 'hi' }], svc: { deadline } }),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_value', param: 'svc.deadline' });
  });

  it('Responses API: svc.deadline gives the turn the same tier', async () => {
    const response = await client.responses.create({ model: 'vendor-1/orion-mini-5', input: 'Say hello.', max_output_tokens: 20, svc: { deadline: '20m' } } as never);
    expect((response as unknown as { svc: Svc }).svc.tier).toEqual({ requested: 'flex', applied: 'flex' });
  });
});
