import OpenAI from 'openai';
import { fleetState } from '../support/fleet-state';

const weatherTool: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['city', 'unit'], additionalProperties: false },
  },
};

describe.each([
  ['OpenAI protocol', 'vendor-1/orion-mini-5'],
  ['Anthropic protocol', 'vendor-2/lyric-haiku-4.5'],
  ['Gemini protocol', 'vendor-3/lumen-2.5-flash'],
])('tools and structured output through the SDK (%s)', (_protocol, model) => {
  const state = fleetState();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: state.apiKey, maxRetries: 0 });

  it('returns a tool call with JSON-string arguments valid for the schema and content null', async () => {
    const completion = await client.chat.completions.create({ model, tools: [weatherTool], tool_choice: 'required', messages: [{ role: 'user', content: 'weather in Paris?' }] });
    const choice = completion.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(call.type).toBe('function');
    expect(call.function.name).toBe('get_weather');
    const args = JSON.parse(call.function.arguments);
    expect(typeof args.city).toBe('string');
    expect(['c', 'f']).toContain(args.unit);
  });

  it('streams a tool call: id, type and name first, then argument fragments', async () => {
    const stream = await client.chat.completions.create({ model, stream: true, tools: [weatherTool], tool_choice: 'required', messages: [{ role: 'user', content: 'weather in Paris?' }] });
    const calls: Array<{ id?: string; name?: string; arguments: string }> = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        for (const delta of choice.delta.tool_calls ?? []) {
          calls[delta.index] ??= { arguments: '' };
          if (delta.id) calls[delta.index].id = delta.id;
          if (delta.function?.name) calls[delta.index].name = delta.function.name;
          calls[delta.index].arguments += delta.function?.arguments ?? '';
        }
        finish = choice.finish_reason ?? finish;
      }
    }
    expect(finish).toBe('tool_calls');
    expect(calls[0].name).toBe('get_weather');
    expect(calls[0].id).toBeTruthy();
    expect(JSON.parse(calls[0].arguments).city).toEqual(expect.any(String));
  });

  it('answers a tool result turn with text', async () => {
    const completion = await client.chat.completions.create({
      model,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      ],
    });
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(typeof completion.choices[0].message.content).toBe('string');
  });

  it('returns JSON valid for a json_schema response format', async () => {
    const completion = await client.chat.completions.create({
      model,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'person', strict: true, schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } }, required: ['name', 'age'], additionalProperties: false } },
      },
      messages: [{ role: 'user', content: 'make up a person' }],
    });
    const parsed = JSON.parse(completion.choices[0].message.content!);
    expect(typeof parsed.name).toBe('string');
    expect(Number.isInteger(parsed.age)).toBe(true);
  });

  it('takes a json_schema with no name (the spec requires only the schema)', async () => {
    const completion = await client.chat.completions.create({
      model,
      response_format: { type: 'json_schema', json_schema: { schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } } } as never,
      messages: [{ role: 'user', content: 'name a city' }],
    });
    expect(typeof JSON.parse(completion.choices[0].message.content!).city).toBe('string');
  });
});
