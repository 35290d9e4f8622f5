import { fleetState } from '../support/fleet-state';

async function chat(payload: Record<string, unknown>) {
  const state = fleetState();
  const response = await fetch(`${state.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${state.apiKey}` },
    body: JSON.stringify(payload),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('parameter handling (spec: Parameter handling, request fields)', () => {
  it('drops sampling parameters the model does not take, naming them in svc and x-svc-dropped-params', async () => {
    const result = await chat({ model: 'vendor-1/orion-mini-5', temperature: 0.3, top_p: 0.9, messages: [{ role: 'user', content: 'hi' }] });
    expect(result.status).toBe(200);
    expect(result.body.svc.dropped_parameters).toEqual(['temperature', 'top_p']);
    expect(result.headers.get('x-svc-dropped-params')).toBe('temperature,top_p');
  });

  it('keeps sampling parameters a model takes (no dropped_parameters, no header)', async () => {
    const result = await chat({ model: 'vendor-1/orion-4.1', temperature: 0.3, messages: [{ role: 'user', content: 'hi' }] });
    expect(result.body.svc.dropped_parameters).toBeUndefined();
    expect(result.headers.get('x-svc-dropped-params')).toBeNull();
  });

  it('lists accepted-and-ignored parameters when they are not the default', async () => {
    const result = await chat({ model: 'vendor-1/orion-4.1', seed: 7, presence_penalty: 0.5, frequency_penalty: 0, logit_bias: {}, store: true, user: 'u1', metadata: { team: 'a' }, messages: [{ role: 'user', content: 'hi' }] });
    expect(result.status).toBe(200);
    expect(result.body.svc.ignored_parameters).toEqual(['seed', 'presence_penalty']);
  });

  it('lists fields it does not read at all, such as the legacy functions, so a client learns they had no effect', async () => {
    const result = await chat({ model: 'vendor-1/orion-4.1', functions: [{ name: 'lookup', parameters: { type: 'object', properties: {} } }], function_call: 'auto', messages: [{ role: 'user', content: 'hi' }] });
    expect(result.status).toBe(200);
    expect(result.body.svc.ignored_parameters).toEqual(['functions', 'function_call']);
  });

  it('cuts the answer at the first stop sequence where the vendor has no stop support', async () => {
    const result = await chat({ model: 'vendor-7/vega-4', stop: ['STOP', 'END'], messages: [{ role: 'user', content: '[echo] alpha beta END gamma STOP delta' }] });
    expect(result.status).toBe(200);
    expect(result.body.choices[0].message.content).toBe('[echo] alpha beta ');
    expect(result.body.choices[0].finish_reason).toBe('stop');
  });

  it('lowers max_tokens above the model maximum instead of refusing it', async () => {
    const result = await chat({ model: 'vendor-1/orion-4.1', max_tokens: 10_000_000, messages: [{ role: 'user', content: 'hi' }] });
    expect(result.status).toBe(200);
  });

  it('merges system and developer messages and answers', async () => {
    const result = await chat({ model: 'vendor-1/orion-4.1', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'developer', content: 'Use English.' }, { role: 'user', content: 'hi' }] });
    expect(result.status).toBe(200);
    expect(result.body.object).toBe('chat.completion');
  });
});
