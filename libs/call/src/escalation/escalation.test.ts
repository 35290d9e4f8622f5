import type { AnswerEvent, StreamSummary } from '../attempts';
import { HIDDEN_TOOL, answerCheck, hideCalls, holdUntilDecided, offersHiddenTool, withoutHiddenCalls } from './escalation';
import { schemaMismatch } from './schema-check';

const tools = [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'], additionalProperties: false } }];
const text = (content: string | null, finishReason = 'stop') => ({ content, toolCalls: [], finishReason: finishReason as 'stop' });
const called = (name: string, args: string) => ({ content: null, toolCalls: [{ id: 'c1', name, arguments: args }], finishReason: 'tool_calls' as const });

describe('the answer check', () => {
  it.each([
    ['an empty answer', {}, text(''), 'empty'],
    ['whitespace only', {}, text('  \n'), 'empty'],
    ['null content and no calls', {}, text(null), 'empty'],
    ['a text answer', {}, text('Hello.'), undefined],
    ['cut by the output cap (length) is not checked', {}, text('', 'length'), undefined],
    ['a content filter stop is not checked', {}, text('', 'content_filter'), undefined],
    ['a call of an unknown tool', { tools }, called('get_time', '{}'), 'unknown_tool'],
    ['arguments that are not JSON', { tools }, called('get_weather', '{city:'), 'tool_arguments'],
    ['arguments missing a required property', { tools }, called('get_weather', '{"days":2}'), 'tool_arguments'],
    ['arguments of the wrong type', { tools }, called('get_weather', '{"city":"Oslo","days":"two"}'), 'tool_arguments'],
    ['arguments with an extra property under additionalProperties false', { tools }, called('get_weather', '{"city":"Oslo","x":1}'), 'tool_arguments'],
    ['valid arguments', { tools }, called('get_weather', '{"city":"Oslo","days":2}'), undefined],
    ['tool_choice required without a call', { tools, toolChoice: 'required' as const }, text('Sunny.'), 'tool_choice'],
    ['a named tool_choice with a call of it', { tools, toolChoice: { name: 'get_weather' } }, called('get_weather', '{"city":"Oslo"}'), undefined],
    ['json_object that is not JSON', { responseFormat: { type: 'json_object' as const } }, text('Sure: {"a":1}'), 'invalid_json'],
    ['json_object that is an array', { responseFormat: { type: 'json_object' as const } }, text('[1]'), 'invalid_json'],
    ['json_object', { responseFormat: { type: 'json_object' as const } }, text('{"a":1}'), undefined],
    ['json_schema mismatch', { responseFormat: { type: 'json_schema' as const, name: 'x', schema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] } } }, text('{"a":"1"}'), 'json_schema'],
    ['json_schema match', { responseFormat: { type: 'json_schema' as const, name: 'x', schema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] } } }, text('{"a":1.5}'), undefined],
  ])('%s', (_name, input, result, expected) => {
    expect(answerCheck(input as never, result as never)).toBe(expected);
  });

  it("a call of the hidden tool's name is the service's only where it offered the tool: a client's own svc_escalate call passes", () => {
    const own = [{ name: HIDDEN_TOOL, parameters: { type: 'object', properties: {} } }];
    expect(answerCheck({ tools: own } as never, called(HIDDEN_TOOL, '{}') as never, false)).toBeUndefined();
    expect(answerCheck({ tools: own } as never, called(HIDDEN_TOOL, '{}') as never, true)).toBe('empty');
  });
});

describe('schema check', () => {
  it('reads $ref, anyOf, enum, items and nullable types', () => {
    const schema = {
      type: 'object',
      $defs: { tag: { type: 'string', enum: ['a', 'b'] } },
      properties: { tags: { type: 'array', items: { $ref: '#/$defs/tag' }, maxItems: 2 }, note: { type: ['string', 'null'] }, n: { anyOf: [{ type: 'integer' }, { const: 'many' }] } },
    };
    expect(schemaMismatch(schema, { tags: ['a', 'b'], note: null, n: 'many' })).toBeUndefined();
    expect(schemaMismatch(schema, { tags: ['c'] })).toMatch(/#\/tags\/0/);
    expect(schemaMismatch(schema, { tags: ['a', 'b', 'a'] })).toMatch(/#\/tags/);
    expect(schemaMismatch(schema, { n: 1.5 })).toMatch(/#\/n/);
    expect(schemaMismatch({ type: 'object', required: ['city'] }, {})).toMatch(/city/);
    expect(schemaMismatch({ type: 'object', additionalProperties: false, properties: { a: {} } }, { b: 1 })).toBeDefined();
  });

  it('never runs a tenant\'s regular expression, and never fails an answer on a schema it cannot read', () => {
    // A pattern that backtracks catastrophically on this input is not run.
    expect(schemaMismatch({ type: 'string', pattern: '^(a+)+$' }, `${'a'.repeat(50_000)}!`)).toBeUndefined();
    expect(schemaMismatch({ type: 'object', patternProperties: { '^x_': { type: 'string' } }, additionalProperties: false }, { x_a: 'v' })).toBeUndefined();
    expect(schemaMismatch({ $ref: 'https://example.com/remote.json' }, 1)).toBeUndefined();
    expect(schemaMismatch({ enum: [{ pattern: 'kept' }] }, { pattern: 'kept' })).toBeUndefined();
    expect(schemaMismatch(undefined, 1)).toBeUndefined();
  });
});

describe('the hidden tool', () => {
  const route = { candidates: [], escalation: [{ model: 'm', vendor: 'v' }] };
  it('is offered under auto with tool_choice auto or absent, when the policy allows and a stronger model exists', () => {
    expect(offersHiddenTool({}, { escalation: true }, true, route)).toBe(true);
    expect(offersHiddenTool({ toolChoice: 'auto' }, { escalation: true }, true, route)).toBe(true);
    expect(offersHiddenTool({ toolChoice: 'none' }, { escalation: true }, true, route)).toBe(false);
    expect(offersHiddenTool({ toolChoice: 'required' }, { escalation: true }, true, route)).toBe(false);
    expect(offersHiddenTool({ toolChoice: { name: 'f' } }, { escalation: true }, true, route)).toBe(false);
    expect(offersHiddenTool({}, { escalation: false }, true, route)).toBe(false);
    expect(offersHiddenTool({}, { escalation: true }, false, route)).toBe(false);
    expect(offersHiddenTool({}, { escalation: true }, true, { candidates: [], escalation: [] })).toBe(false);
    expect(offersHiddenTool({ tools: [{ name: HIDDEN_TOOL, parameters: {} }] }, { escalation: true }, true, route)).toBe(false);
  });

  it('a hidden call is removed from a unary answer; tool_calls becomes stop when nothing is left', () => {
    const result = { content: 'x', toolCalls: [{ id: 'a', name: HIDDEN_TOOL, arguments: '{}' }], finishReason: 'tool_calls' as const, vendorStopReason: '', usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0 } };
    expect(withoutHiddenCalls(result)).toMatchObject({ toolCalls: [], finishReason: 'stop' });
  });
});

const summary: StreamSummary = { finishReason: 'tool_calls', vendorStopReason: '', usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0 }, sawContent: false, toolCalls: 2 };
async function* source(events: AnswerEvent[]): AsyncGenerator<AnswerEvent, StreamSummary> {
  for (const event of events) yield event;
  return summary;
}
async function drain(generator: AsyncGenerator<AnswerEvent, StreamSummary>): Promise<{ events: AnswerEvent[]; summary: StreamSummary }> {
  const events: AnswerEvent[] = [];
  let step = await generator.next();
  while (!step.done) {
    events.push(step.value);
    step = await generator.next();
  }
  return { events, summary: step.value };
}

describe('held streams', () => {
  it('a first hidden call is read to its end and reported, with nothing held', async () => {
    const held = await holdUntilDecided(source([{ type: 'text', delta: '' }, { type: 'tool_call_start', index: 0, id: 'a', name: HIDDEN_TOOL }, { type: 'tool_call_delta', index: 0, arguments: '{}' }]));
    expect(held).toEqual({ hidden: true, summary });
  });

  it('text first: held events are given back and the rest follows', async () => {
    const held = await holdUntilDecided(source([{ type: 'text', delta: '' }, { type: 'text', delta: 'Hi' }, { type: 'text', delta: '!' }]));
    if (held.hidden) throw new Error('expected not hidden');
    expect(held.buffered).toEqual([{ type: 'text', delta: '' }, { type: 'text', delta: 'Hi' }]);
    expect((await drain(held.reader)).events).toEqual([{ type: 'text', delta: '!' }]);
  });

  it('hideCalls leaves a later hidden call out and renumbers the other calls', async () => {
    const { events, summary: seen } = await drain(
      hideCalls(
        source([
          { type: 'tool_call_start', index: 0, id: 'h', name: HIDDEN_TOOL },
          { type: 'tool_call_delta', index: 0, arguments: '{}' },
          { type: 'tool_call_start', index: 1, id: 'b', name: 'lookup' },
          { type: 'tool_call_delta', index: 1, arguments: '{"q":1}' },
        ]),
      ),
    );
    expect(events).toEqual([
      { type: 'tool_call_start', index: 0, id: 'b', name: 'lookup' },
      { type: 'tool_call_delta', index: 0, arguments: '{"q":1}' },
    ]);
    expect(seen).toMatchObject({ toolCalls: 1, finishReason: 'tool_calls' });
  });
});
