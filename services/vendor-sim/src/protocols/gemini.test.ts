import { validateInstance } from '../schema';
import { json, parseSse, startSim, type RunningSim } from '../testkit';
import { countTokens } from '../tokens';

let sim: RunningSim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());

const key = { 'x-goog-api-key': 'AIza-test', 'content-type': 'application/json' };

function generate(model: string, body: unknown, extra: Record<string, string> = {}, action = 'generateContent', query = '') {
  return fetch(`${sim.url}/v1beta/models/${model}:${action}${query}`, { method: 'POST', headers: { ...key, ...extra }, body: JSON.stringify(body) });
}

const hello = { systemInstruction: { parts: [{ text: 'Be brief.' }] }, contents: [{ role: 'user', parts: [{ text: 'Hello there' }] }] };
const weather = {
  functionDeclarations: [
    { name: 'get_weather', description: 'Weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' }, unit: { type: 'STRING', enum: ['C', 'F'] } }, required: ['city', 'unit'] } },
  ],
};

describe('Gemini generateContent', () => {
  it('answers with a candidate and usageMetadata', async () => {
    const body = await json(generate('gemini-sim', hello));
    expect(body.candidates).toEqual([{ content: { role: 'model', parts: [{ text: expect.any(String) }] }, finishReason: 'STOP', index: 0 }]);
    expect(body.usageMetadata).toMatchObject({ promptTokenCount: 5, candidatesTokenCount: expect.any(Number) });
    expect(body.usageMetadata.totalTokenCount).toBe(5 + body.usageMetadata.candidatesTokenCount);
    expect(body.usageMetadata.cachedContentTokenCount).toBeUndefined();
    expect(body.modelVersion).toBe('gemini-sim');
  });

  it('streams with alt=sse, the last chunk carrying finishReason and full usage', async () => {
    const unary = await json(generate('gemini-sim', hello));
    const res = await generate('gemini-sim', hello, {}, 'streamGenerateContent', '?alt=sse');
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const chunks = parseSse(await res.text()).map((e) => JSON.parse(e.data));
    const text = chunks.map((c) => c.candidates[0].content?.parts?.map((p: { text?: string }) => p.text ?? '').join('') ?? '').join('');
    expect(text).toBe(unary.candidates[0].content.parts[0].text);
    expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP');
    expect(chunks.at(-1).usageMetadata).toEqual(unary.usageMetadata);
    expect(chunks.slice(0, -1).every((c) => c.candidates[0].finishReason === undefined)).toBe(true);
  });

  it('streams a JSON array without alt=sse', async () => {
    const res = await generate('gemini-sim', hello, {}, 'streamGenerateContent');
    const list = JSON.parse(await res.text());
    expect(Array.isArray(list)).toBe(true);
    expect(list.at(-1).candidates[0].finishReason).toBe('STOP');
  });

  it('calls a function with schema-valid args, and answers a functionResponse with text', async () => {
    const body = await json(generate('gemini-sim', { ...hello, tools: [weather], toolConfig: { functionCallingConfig: { mode: 'ANY' } } }));
    const part = body.candidates[0].content.parts[0];
    expect(part.functionCall.name).toBe('get_weather');
    expect(validateInstance(weather.functionDeclarations[0]?.parameters, part.functionCall.args)).toEqual([]);
    expect(body.candidates[0].finishReason).toBe('STOP');

    const after = await json(generate('gemini-sim', {
        ...hello,
        tools: [weather],
        contents: [...hello.contents, { role: 'model', parts: [part] }, { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 20 } } }] }],
      }));
    expect(after.candidates[0].content.parts[0].text).toEqual(expect.any(String));
  });

  it('returns JSON valid against responseSchema', async () => {
    const schema = { type: 'OBJECT', properties: { name: { type: 'STRING' }, n: { type: 'INTEGER', minimum: 1, maximum: 3 } }, required: ['name', 'n'] };
    const body = await json(generate('gemini-sim', { ...hello, generationConfig: { responseMimeType: 'application/json', responseSchema: schema } }));
    expect(validateInstance(schema, JSON.parse(body.candidates[0].content.parts[0].text))).toEqual([]);
  });

  it('reports thoughtsTokenCount, and MAX_TOKENS with no parts under x-sim-think-all', async () => {
    const thought = await json(generate('gemini-sim', { ...hello, generationConfig: { thinkingConfig: { thinkingBudget: 200 } } }));
    expect(thought.usageMetadata.thoughtsTokenCount).toBeGreaterThan(0);
    expect(thought.usageMetadata.thoughtsTokenCount).toBeLessThanOrEqual(200);
    const burnt = await json(generate('gemini-sim', { ...hello, generationConfig: { maxOutputTokens: 100, thinkingConfig: { thinkingBudget: 1000 } } }, { 'x-sim-think-all': '1' }));
    expect(burnt.candidates[0]).toEqual({ content: { role: 'model' }, finishReason: 'MAX_TOKENS', index: 0 });
    expect(burnt.usageMetadata).toMatchObject({ thoughtsTokenCount: 100, totalTokenCount: 105 });
    expect(burnt.usageMetadata.candidatesTokenCount).toBeUndefined();
  });

  it('includes thought parts when includeThoughts is set', async () => {
    const body = await json(generate('gemini-sim', { ...hello, generationConfig: { thinkingConfig: { thinkingBudget: 100, includeThoughts: true } } }));
    expect(body.candidates[0].content.parts[0]).toMatchObject({ thought: true, text: expect.any(String) });
  });

  it('reports implicit cache hits from 4096 tokens', async () => {
    const long = { ...hello, systemInstruction: { parts: [{ text: 'fact '.repeat(4200) }] } };
    const first = await json(generate('gemini-cache', long));
    expect(first.usageMetadata.cachedContentTokenCount).toBeUndefined();
    const second = await json(generate('gemini-cache', { ...long, contents: [{ role: 'user', parts: [{ text: 'Other' }] }] }));
    const shared = countTokens('fact '.repeat(4200));
    expect(second.usageMetadata.cachedContentTokenCount).toBe(4096 + Math.floor((shared - 4096) / 128) * 128);
    expect(second.usageMetadata.promptTokenCount).toBeGreaterThan(second.usageMetadata.cachedContentTokenCount);
  });

  it('rejects unknown fields, missing contents and bad JSON with Google error bodies', async () => {
    const unknown = await generate('gemini-sim', { ...hello, generation_config: { max_tokens: 5 } });
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('max_tokens') });
    const empty = await generate('gemini-sim', { contents: [] });
    expect((await json(empty)).error.message).toContain('contents is not specified');
    const bad = await fetch(`${sim.url}/v1beta/models/gemini-sim:generateContent`, { method: 'POST', headers: key, body: '{' });
    expect((await json(bad)).error.status).toBe('INVALID_ARGUMENT');
  });

  it('answers a missing key with 403 and a bad key with 400 API_KEY_INVALID, as upstream does', async () => {
    const missing = await fetch(`${sim.url}/v1beta/models/gemini-sim:generateContent`, { method: 'POST', body: JSON.stringify(hello) });
    expect(missing.status).toBe(403);
    expect((await json(missing)).error.status).toBe('PERMISSION_DENIED');
    const bad = await generate('gemini-sim', hello, { 'x-goog-api-key': 'sim-bad-key' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.details[0].reason).toBe('API_KEY_INVALID');
    const query = await fetch(`${sim.url}/v1beta/models/gemini-sim:generateContent?key=abc`, { method: 'POST', body: JSON.stringify(hello) });
    expect(query.status).toBe(200);
  });
});

describe('Gemini faults', () => {
  it('refuse gives finishReason SAFETY without content', async () => {
    const body = await json(generate('gemini-sim', hello, { 'x-sim-fault': 'refuse' }));
    expect(body.candidates[0]).toMatchObject({ finishReason: 'SAFETY' });
    expect(body.candidates[0].content).toBeUndefined();
  });

  it('status and 429 use google.rpc status names, 429 with RetryInfo', async () => {
    const unavailable = await generate('gemini-sim', hello, { 'x-sim-fault': 'status:503' });
    expect(await json(unavailable)).toEqual({ error: { code: 503, message: expect.any(String), status: 'UNAVAILABLE' } });
    const limited = await generate('gemini-sim', hello, { 'x-sim-fault': '429:4' });
    expect(limited.headers.get('retry-after')).toBe('4');
    const body = await json(limited);
    expect(body.error.status).toBe('RESOURCE_EXHAUSTED');
    expect(body.error.details).toContainEqual({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '4s' });
  });

  it('targets the model named in the path', async () => {
    const headers = { 'x-sim-fault': 'status:500', 'x-sim-fault-model': 'gemini-primary' };
    expect((await generate('gemini-primary', hello, headers)).status).toBe(500);
    expect((await generate('gemini-backup', hello, headers)).status).toBe(200);
  });

  it('cut breaks an SSE stream', async () => {
    const res = await generate('gemini-sim', hello, { 'x-sim-fault': 'cut:1' }, 'streamGenerateContent', '?alt=sse');
    await expect(res.text()).rejects.toThrow();
  });
});
