import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import type { CallContext, ChatRequest, VendorMessage } from '../types';
import { anthropicAdapter } from './anthropic-chat-model';
import { DEFAULT_THINKING_OUTPUT_CAP, convertToAnthropicMessages, thinkingTokens } from './convert-to-anthropic-messages';

const BASE = 'https://api.anthropic.com';
const context: CallContext = { baseUrl: BASE, apiKey: 'sk-ant-test-key' };
const MODEL = 'claude-sonnet-4-5-20250929';
const answer = JSON.parse(readFileSync(join(__dirname, '__fixtures__', 'message-text.json'), 'utf8'));

/** Sends the request through the adapter and returns the JSON body nock's body matcher saw. */
async function sentBody(request: ChatRequest, headers?: Record<string, string>): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> | undefined;
  nock(BASE, headers ? { reqheaders: headers } : undefined)
    .post('/v1/messages', (received: Record<string, unknown>) => {
      body = received;
      return true;
    })
    .reply(200, answer);
  await anthropicAdapter.generate(request, context);
  return body!;
}

const user = (text: string): VendorMessage => ({ role: 'user', content: [{ type: 'text', text }] });

/** A three-turn agent conversation: question, tool call, tool result, answer, follow-up. */
const agentConversation: VendorMessage[] = [
  user('What is the weather in Paris?'),
  { role: 'assistant', content: null, toolCalls: [{ id: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', name: 'get_weather', arguments: '{"location":"Paris"}' }] },
  { role: 'tool', toolCallId: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', content: '{"temperature_c":18,"sky":"cloudy"}' },
  { role: 'assistant', content: 'It is 18 °C and cloudy in Paris.' },
  user('And tomorrow?'),
];

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});
afterAll(() => nock.enableNetConnect());

describe('Anthropic request translation', () => {
  it('puts the system prompt at the top level as text blocks, with sampling, stops and the end-user id', async () => {
    const body = await sentBody({
      model: MODEL,
      system: 'You are terse.',
      messages: [user('Hi')],
      maxTokens: 300,
      temperature: 0.2,
      stop: ['\n\nHuman:'],
      user: 'user-42',
      metadata: { team: 'search' },
    });
    expect(body).toEqual({
      model: MODEL,
      max_tokens: 300,
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      temperature: 0.2,
      stop_sequences: ['\n\nHuman:'],
      metadata: { user_id: 'user-42' },
    });
  });

  it('places 5-minute cache markers on the system prompt, the last tool, the last message and the previous user turn', async () => {
    const body = await sentBody({
      model: MODEL,
      system: 'You are a weather assistant.',
      messages: agentConversation,
      tools: [{ name: 'get_time', parameters: {} }, weatherTool],
      maxTokens: 1000,
      cache: { ttl: '5m' },
    });
    const marker = { type: 'ephemeral' };
    expect(body).toEqual({
      model: MODEL,
      max_tokens: 1000,
      system: [{ type: 'text', text: 'You are a weather assistant.', cache_control: marker }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', name: 'get_weather', input: { location: 'Paris' } }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_01D7FLrfh4GYq7yT1ULFeyMV', content: '{"temperature_c":18,"sky":"cloudy"}', cache_control: marker }],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'It is 18 °C and cloudy in Paris.' }] },
        { role: 'user', content: [{ type: 'text', text: 'And tomorrow?', cache_control: marker }] },
      ],
      tools: [
        { name: 'get_time', input_schema: { type: 'object', properties: {} } },
        { name: 'get_weather', description: 'Current weather for a city', input_schema: weatherTool.parameters, cache_control: marker },
      ],
    });
  });

  it('writes 1-hour markers with ttl 1h and the extended-ttl flag', async () => {
    const body = await sentBody(
      { model: MODEL, system: 'Long reference text.', messages: [user('Question one?')], maxTokens: 500, cache: { ttl: '1h' } },
      { 'anthropic-beta': 'extended-cache-ttl-2025-04-11' },
    );
    expect(body.system).toEqual([{ type: 'text', text: 'Long reference text.', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    // A single user turn has no previous user turn: two markers only.
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Question one?', cache_control: { type: 'ephemeral', ttl: '1h' } }] }]);
  });

  it.each([[{ ttl: 'none' as const }], [undefined]])('places no marker with cache %p', async (cache) => {
    const body = await sentBody({ model: MODEL, system: 'S', messages: agentConversation, tools: [weatherTool], maxTokens: 500, cache });
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });

  it('never places more than four markers', async () => {
    const body = await sentBody({ model: MODEL, system: 'S', messages: agentConversation, tools: [weatherTool], maxTokens: 500, cache: { ttl: '5m' } });
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(4);
  });

  it('merges tool results into one user turn, results first, and parses tool arguments', async () => {
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    const body = await sentBody({
      model: MODEL,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Compare these:' }, { type: 'image', mediaType: 'image/png', data: image }] },
        {
          role: 'assistant',
          content: 'Looking both up.',
          toolCalls: [
            { id: 'toolu_01', name: 'lookup', arguments: '{"q":"a"}' },
            { id: 'toolu_02', name: 'lookup', arguments: 'not json' },
          ],
        },
        { role: 'tool', toolCallId: 'toolu_01', content: 'result a' },
        { role: 'tool', toolCallId: 'toolu_02', content: '' },
        user('Be brief.'),
      ],
      maxTokens: 200,
    });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these:' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: image.toString('base64') } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking both up.' },
          { type: 'tool_use', id: 'toolu_01', name: 'lookup', input: { q: 'a' } },
          { type: 'tool_use', id: 'toolu_02', name: 'lookup', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01', content: 'result a' },
          { type: 'tool_result', tool_use_id: 'toolu_02' },
          { type: 'text', text: 'Be brief.' },
        ],
      },
    ]);
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
    [{ name: 'get_weather' }, { type: 'tool', name: 'get_weather' }],
  ] as const)('maps tool_choice %p', async (toolChoice, expected) => {
    const body = await sentBody({ model: MODEL, messages: [user('Weather?')], tools: [weatherTool], toolChoice, maxTokens: 100 });
    expect(body.tool_choice).toEqual(expected);
  });

  it('turns parallel_tool_calls false into disable_parallel_tool_use', async () => {
    const body = await sentBody({ model: MODEL, messages: [user('Weather?')], tools: [weatherTool], parallelToolCalls: false, maxTokens: 100 });
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
  });

  it('sends no tool_choice without tools', async () => {
    const body = await sentBody({ model: MODEL, messages: [user('Hi')], toolChoice: 'none', maxTokens: 100 });
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('tools');
  });

  it('turns a thinking budget into thinking, raising max_tokens by the budget and dropping temperature', async () => {
    const body = await sentBody({
      model: MODEL,
      messages: [user('Prove it.')],
      maxTokens: 4096,
      maxOutputTokens: 64_000,
      temperature: 0.7,
      reasoning: { kind: 'budget', tokens: 8192 },
    });
    expect(body).toEqual({
      model: MODEL,
      max_tokens: 4096 + 8192,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Prove it.' }] }],
      thinking: { type: 'enabled', budget_tokens: 8192 },
    });
  });

  it('caps the raised max_tokens at the model maximum and fits the budget under it', async () => {
    const body = await sentBody({ model: MODEL, messages: [user('Prove it.')], maxTokens: 16_000, maxOutputTokens: 32_000, reasoning: { kind: 'budget', tokens: 32_768 } });
    expect(body.max_tokens).toBe(32_000);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 31_999 });
  });

  it.each([
    ['a zero budget', { kind: 'budget', tokens: 0 }],
    ['toggle off', { kind: 'toggle', on: false }],
    ['an effort level', { kind: 'effort', level: 'high' }],
  ] as const)('sends no thinking for %s', async (_name, reasoning) => {
    const body = await sentBody({ model: MODEL, messages: [user('Hi')], maxTokens: 100, temperature: 0.5, reasoning });
    expect(body).not.toHaveProperty('thinking');
    expect(body.max_tokens).toBe(100);
    expect(body.temperature).toBe(0.5);
  });

  it('thinks with the minimum budget for toggle on', async () => {
    const body = await sentBody({ model: MODEL, messages: [user('Hi')], maxTokens: 2000, maxOutputTokens: 64_000, reasoning: { kind: 'toggle', on: true } });
    expect(body).toMatchObject({ max_tokens: 3024, thinking: { type: 'enabled', budget_tokens: 1024 } });
  });

  it('leaves thinking out when the tool choice forces a tool', async () => {
    const body = await sentBody({ model: MODEL, messages: [user('Weather?')], tools: [weatherTool], toolChoice: 'required', maxTokens: 100, reasoning: { kind: 'budget', tokens: 2048 } });
    expect(body).not.toHaveProperty('thinking');
    expect(body.max_tokens).toBe(100);
  });

  it('leaves thinking out in the middle of a tool loop (the signed thinking blocks are not carried)', async () => {
    const body = await sentBody({ model: MODEL, messages: agentConversation.slice(0, 3), tools: [weatherTool], maxTokens: 100, reasoning: { kind: 'budget', tokens: 2048 } });
    expect(body).not.toHaveProperty('thinking');
  });

  it('prompts for a JSON schema at the end of the system prompt', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const body = await sentBody({ model: MODEL, system: 'Extract the city.', messages: [user('I live in Lyon.')], maxTokens: 100, responseFormat: { type: 'json_schema', name: 'city', schema, strict: true } });
    expect(body.system).toEqual([
      { type: 'text', text: `Extract the city.\n\nRespond with only a JSON object matching this JSON schema: ${JSON.stringify(schema)}` },
    ]);
    expect(body).not.toHaveProperty('response_format');
  });

  it('prompts for a JSON object without a system prompt', async () => {
    const body = await sentBody({ model: MODEL, messages: [user('List two colours.')], maxTokens: 100, responseFormat: { type: 'json_object' } });
    expect(body.system).toEqual([{ type: 'text', text: 'Respond with only a JSON object.' }]);
  });

  it('clamps temperature to 0..1 and sends temperature rather than both samplers', async () => {
    const body = await sentBody({ model: MODEL, messages: [user('Hi')], maxTokens: 100, temperature: 1.6, topP: 0.9 });
    expect(body.temperature).toBe(1);
    expect(body).not.toHaveProperty('top_p');
    const topOnly = await sentBody({ model: MODEL, messages: [user('Hi')], maxTokens: 100, topP: 0.9 });
    expect(topOnly.top_p).toBe(0.9);
  });
});

describe('convertToAnthropicMessages', () => {
  it('drops empty turns and merges the user turns around them', () => {
    expect(
      convertToAnthropicMessages([user('One'), { role: 'assistant', content: '' }, user('Two'), { role: 'user', content: [{ type: 'text', text: '' }] }]),
    ).toEqual([{ role: 'user', content: [{ type: 'text', text: 'One' }, { type: 'text', text: 'Two' }] }]);
  });

  it('trims trailing whitespace from a final assistant prefill', () => {
    expect(convertToAnthropicMessages([user('Start a list'), { role: 'assistant', content: '1. ' }])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Start a list' }] },
      { role: 'assistant', content: [{ type: 'text', text: '1.' }] },
    ]);
  });
});

describe('thinkingTokens', () => {
  it('raises max_tokens by the budget under the cap', () => {
    expect(thinkingTokens(1000, 2048, 64_000)).toEqual({ maxTokens: 3048, budget: 2048 });
  });

  it('uses the default cap when the model maximum is unknown', () => {
    expect(thinkingTokens(30_000, 8192, undefined)).toEqual({ maxTokens: DEFAULT_THINKING_OUTPUT_CAP, budget: 8192 });
  });

  it('never lowers the requested max_tokens', () => {
    expect(thinkingTokens(40_000, 8192, undefined)).toEqual({ maxTokens: 40_000, budget: 8192 });
  });

  it('leaves thinking out when no minimum budget fits', () => {
    expect(thinkingTokens(1000, 1024, 1000)).toEqual({ maxTokens: 1000 });
  });
});
