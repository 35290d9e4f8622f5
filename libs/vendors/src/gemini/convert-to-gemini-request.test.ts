import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import type { CallContext, ChatRequest, VendorMessage } from '../types';
import { geminiAdapter } from './gemini-chat-model';
import { UNKNOWN_THOUGHT_SIGNATURE, sanitizeGeminiSchema } from './convert-to-gemini-request';

const BASE = 'https://generativelanguage.googleapis.com';
const MODEL = 'gemini-2.5-flash';
const context: CallContext = { baseUrl: BASE, apiKey: 'AIzaSy-test-key' };
const answer = JSON.parse(readFileSync(join(__dirname, '__fixtures__', 'response-text.json'), 'utf8'));

/** Sends the request through the adapter and returns the JSON body nock's body matcher saw. */
async function sentBody(request: ChatRequest): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> | undefined;
  nock(BASE)
    .post(`/v1beta/models/${request.model}:generateContent`, (received: Record<string, unknown>) => {
      body = received;
      return true;
    })
    .reply(200, answer);
  await geminiAdapter.generate(request, context);
  return body!;
}

const user = (text: string): VendorMessage => ({ role: 'user', content: [{ type: 'text', text }] });

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { location: { type: 'string', format: 'city' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['location'],
    additionalProperties: false,
  },
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(() => nock.enableNetConnect());

describe('Gemini request translation', () => {
  it('sends the system prompt as systemInstruction and the sampling as generationConfig', async () => {
    const body = await sentBody({ model: MODEL, system: 'You are terse.', messages: [user('Hi')], maxTokens: 300, temperature: 1.4, topP: 0.9, stop: ['END'] });
    expect(body).toEqual({
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      generationConfig: { maxOutputTokens: 300, temperature: 1.4, topP: 0.9, stopSequences: ['END'] },
    });
  });

  it('converts tool calls and results, naming each result after its call, with images inline', async () => {
    const image = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
    const body = await sentBody({
      model: MODEL,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather and time where this photo was taken?' }, { type: 'image', mediaType: 'image/jpeg', data: image }] },
        {
          role: 'assistant',
          content: 'Looking it up.',
          toolCalls: [
            { id: 'call_a', name: 'get_weather', arguments: '{"location":"Paris"}' },
            { id: 'call_b', name: 'get_time', arguments: '' },
          ],
        },
        { role: 'tool', toolCallId: 'call_a', content: '{"temperature_c":18}' },
        { role: 'tool', toolCallId: 'call_b', content: '14:05' },
        { role: 'assistant', content: 'It is 18 °C at 14:05.' },
        user('Thanks'),
      ],
      tools: [weatherTool, { name: 'get_time', parameters: { type: 'object', properties: {} } }],
      toolChoice: 'auto',
      maxTokens: 500,
    });
    expect(body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Weather and time where this photo was taken?' }, { inlineData: { mimeType: 'image/jpeg', data: image.toString('base64') } }] },
        {
          role: 'model',
          parts: [
            { text: 'Looking it up.' },
            { functionCall: { name: 'get_weather', args: { location: 'Paris' } }, thoughtSignature: UNKNOWN_THOUGHT_SIGNATURE },
            { functionCall: { name: 'get_time', args: {} }, thoughtSignature: UNKNOWN_THOUGHT_SIGNATURE },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { content: '{"temperature_c":18}' } } },
            { functionResponse: { name: 'get_time', response: { content: '14:05' } } },
          ],
        },
        { role: 'model', parts: [{ text: 'It is 18 °C at 14:05.' }] },
        { role: 'user', parts: [{ text: 'Thanks' }] },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Current weather for a city',
              // $schema, additionalProperties and the unknown format are gone.
              parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['location'] },
            },
            // No properties: no parameters (Gemini refuses an empty object schema).
            { name: 'get_time' },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: { maxOutputTokens: 500 },
    });
  });

  it('names a tool result after the latest earlier call with its id', async () => {
    const body = await sentBody({
      model: MODEL,
      messages: [
        user('Go'),
        { role: 'assistant', content: null, toolCalls: [{ id: 'call_0', name: 'first', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'call_0', content: 'one' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'call_0', name: 'second', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'call_0', content: 'two' },
      ],
      maxTokens: 100,
    });
    const contents = body.contents as Array<{ parts: Array<Record<string, { name?: string }>> }>;
    expect(contents[2]!.parts[0]!.functionResponse!.name).toBe('first');
    expect(contents[4]!.parts[0]!.functionResponse!.name).toBe('second');
  });

  it.each([
    ['required', { functionCallingConfig: { mode: 'ANY' } }],
    ['none', { functionCallingConfig: { mode: 'NONE' } }],
    [{ name: 'get_weather' }, { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } }],
  ] as const)('maps tool_choice %p', async (toolChoice, expected) => {
    const body = await sentBody({ model: MODEL, messages: [user('Weather?')], tools: [weatherTool], toolChoice, maxTokens: 100 });
    expect(body.toolConfig).toEqual(expected);
  });

  it('asks for JSON with a cleaned response schema for json_schema', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { city: { type: 'string' }, population: { type: ['integer', 'null'] } },
      required: ['city', 'population'],
      additionalProperties: false,
    };
    const body = await sentBody({ model: MODEL, messages: [user('Lyon?')], maxTokens: 100, responseFormat: { type: 'json_schema', name: 'city', schema, strict: true } });
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 100,
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', properties: { city: { type: 'string' }, population: { type: 'integer', nullable: true } }, required: ['city', 'population'] },
    });
  });

  it('asks for JSON without a schema for json_object', async () => {
    const body = await sentBody({ model: MODEL, messages: [user('Colours?')], maxTokens: 100, responseFormat: { type: 'json_object' } });
    expect(body.generationConfig).toEqual({ maxOutputTokens: 100, responseMimeType: 'application/json' });
  });

  it.each([
    ['a budget', { kind: 'budget', tokens: 8192 }, { thinkingBudget: 8192 }],
    ['a zero budget', { kind: 'budget', tokens: 0 }, { thinkingBudget: 0 }],
    ['toggle off', { kind: 'toggle', on: false }, { thinkingBudget: 0 }],
    ['toggle on', { kind: 'toggle', on: true }, { thinkingBudget: -1 }],
    ['an effort level', { kind: 'effort', level: 'low' }, { thinkingLevel: 'low' }],
  ] as const)('maps %s to thinkingConfig', async (_name, reasoning, expected) => {
    const body = await sentBody({ model: MODEL, messages: [user('Hi')], maxTokens: 100, reasoning });
    expect(body.generationConfig).toEqual({ maxOutputTokens: 100, thinkingConfig: expected });
  });

  it('sends no thinkingConfig without reasoning', async () => {
    const body = await sentBody({ model: MODEL, messages: [user('Hi')], maxTokens: 100 });
    expect(body.generationConfig).toEqual({ maxOutputTokens: 100 });
  });
});

describe('sanitizeGeminiSchema', () => {
  it('inlines local refs and rewrites oneOf, const and single allOf', () => {
    const schema = {
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string', minLength: 1 } }, required: ['street', 'zip'], additionalProperties: false } },
      properties: {
        home: { $ref: '#/$defs/address' },
        kind: { const: 'person' },
        contact: { oneOf: [{ type: 'string', format: 'email' }, { type: 'integer', format: 'int64' }] },
        when: { allOf: [{ type: 'string', format: 'date-time' }], description: 'A time' },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        extra: { type: 'object', properties: {}, patternProperties: { '^x-': {} } },
      },
    };
    expect(sanitizeGeminiSchema(schema)).toEqual({
      type: 'object',
      properties: {
        home: { type: 'object', properties: { street: { type: 'string', minLength: 1 } }, required: ['street'] },
        kind: { enum: ['person'] },
        contact: { anyOf: [{ type: 'string' }, { type: 'integer', format: 'int64' }] },
        when: { type: 'string', format: 'date-time', description: 'A time' },
        tags: { type: 'array', items: { type: 'string' } },
        extra: { type: 'object' },
      },
    });
  });

  it('ends a recursive ref as a bare object', () => {
    const schema = { $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } }, $ref: '#/$defs/node' };
    const out = JSON.stringify(sanitizeGeminiSchema(schema));
    expect(out).not.toContain('$ref');
    expect(out.match(/"next"/g)!.length).toBeLessThanOrEqual(9);
  });

  it('turns a multi-type into anyOf', () => {
    expect(sanitizeGeminiSchema({ type: ['string', 'number', 'null'] })).toEqual({ nullable: true, anyOf: [{ type: 'string' }, { type: 'number' }] });
  });
});
