import { parseChatRequest } from '../request/chat-request';
import { decisionParam, decisionProblem, decisionRefusal, questionOf, typedQuestions, type DecisionProblem } from './questions';

const format = (properties: Record<string, unknown>) => ({ type: 'json_schema' as const, name: 'ticket', schema: { type: 'object', properties } });
const THREE = { sentiment: { type: 'string', enum: ['positive', 'neutral', 'negative'], description: 'How the customer feels' }, urgent: { type: 'boolean' }, quality: { type: 'integer', minimum: 1, maximum: 5 } };

describe('typed questions (json_schema properties the decision model answers)', () => {
  it('maps a choice, a yes/no and a score in schema order', () => {
    expect(typedQuestions(format(THREE))).toEqual({
      questions: [
        { name: 'sentiment', type: 'choice', options: ['positive', 'neutral', 'negative'], description: 'How the customer feels' },
        { name: 'urgent', type: 'boolean' },
        { name: 'quality', type: 'score', min: 1, max: 5 },
      ],
    });
  });

  it('takes an enum without type, and scores of 0–10', () => {
    expect(questionOf('tag', { enum: ['a', 'b'] })).toEqual({ name: 'tag', type: 'choice', options: ['a', 'b'] });
    expect(questionOf('nps', { type: 'integer', minimum: 0, maximum: 10 })).toEqual({ name: 'nps', type: 'score', min: 0, max: 10 });
  });

  it.each([
    ['free text', { type: 'string' }, /free text/],
    ['a number', { type: 'number' }, /free text or a number/],
    ['an integer without bounds', { type: 'integer' }, /without integer minimum and maximum/],
    ['an integer with one bound', { type: 'integer', minimum: 1 }, /without integer minimum and maximum/],
    ['a score of 12 levels', { type: 'integer', minimum: 0, maximum: 11 }, /2 to 11 levels/],
    ['a score below 0', { type: 'integer', minimum: -2, maximum: 2 }, /from 0 up/],
    ['a nested object', { type: 'object', properties: { a: { type: 'boolean' } } }, /nested/],
    ['an array', { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, /nested/],
    ['several types', { type: ['string', 'null'], enum: ['a', 'b'] }, /several types/],
    ['a combinator', { anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['a', 'b'] }] }, /anyOf/],
    ['a one-option enum', { enum: ['a'] }, /1 options/],
    ['an enum of numbers', { enum: [1, 2] }, /other than strings/],
    ['a repeated option', { enum: ['a', 'a'] }, /twice/],
    ['no schema', true, /no schema/],
  ])('refuses %s', (_name, schema, message) => {
    const question = questionOf('field', schema);
    expect(question).toEqual({ problem: expect.stringMatching(message) });
  });

  it('refuses a property named like an array index (its place in JSON objects would move)', () => {
    expect(questionOf('7', { type: 'boolean' })).toEqual({ problem: expect.stringMatching(/array index/) });
  });

  it('needs a json_schema with at least one property', () => {
    expect(typedQuestions(undefined)).toEqual({ problem: expect.objectContaining({ kind: 'no_json_schema' }) });
    expect(typedQuestions({ type: 'json_object' })).toEqual({ problem: expect.objectContaining({ kind: 'no_json_schema' }) });
    expect(typedQuestions(format({}))).toEqual({ problem: expect.objectContaining({ kind: 'no_questions' }) });
    expect(typedQuestions({ type: 'json_schema', name: 'x', schema: { type: 'array', items: {} } })).toEqual({ problem: expect.objectContaining({ kind: 'no_questions' }) });
  });

  it('names the first property that is not a question', () => {
    expect(typedQuestions(format({ ...THREE, note: { type: 'string' }, other: { type: 'object' } }))).toEqual({ problem: { kind: 'property', property: 'note', message: expect.any(String) } });
  });
});

describe('the decision model refusals (spec: unsupported_for_model, param names the field)', () => {
  const base = { model: 'vendor-8/decision-1.13.0', messages: [{ role: 'user', content: 'Rate this ticket.' }], response_format: { type: 'json_schema', json_schema: { name: 't', schema: { type: 'object', properties: THREE } } } };
  const refusal = (body: Record<string, unknown>, api: 'chat' | 'responses' = 'chat') => decisionRefusal(parseChatRequest({ ...base, ...body }, {}), api);

  it('answers a request of typed questions', () => {
    expect(refusal({})).toBeUndefined();
  });

  it.each([
    ['no json_schema', { response_format: undefined }, 'response_format', 'text.format'],
    ['json_object', { response_format: { type: 'json_object' } }, 'response_format', 'text.format'],
    ['a schema without properties', { response_format: { type: 'json_schema', json_schema: { name: 't', schema: { type: 'object' } } } }, 'response_format.json_schema.schema', 'text.format.schema'],
    ['a free-text property', { response_format: { type: 'json_schema', json_schema: { name: 't', schema: { type: 'object', properties: { ...THREE, note: { type: 'string' } } } } } }, 'response_format.json_schema.schema.properties.note', 'text.format.schema.properties.note'],
    ['a nested property', { response_format: { type: 'json_schema', json_schema: { name: 't', schema: { type: 'object', properties: { who: { type: 'object', properties: {} } } } } } }, 'response_format.json_schema.schema.properties.who', 'text.format.schema.properties.who'],
    ['tools', { tools: [{ type: 'function', function: { name: 'f' } }] }, 'tools', 'tools'],
    ['images', { messages: [{ role: 'user', content: [{ type: 'text', text: 'Rate this' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }] }, 'messages', 'input'],
    [
      'tool results',
      { messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c1', content: '{}' }] },
      'messages',
      'input',
    ],
    ['stream true', { stream: true }, 'stream', 'stream'],
  ])('%s → 400 unsupported_for_model', (_name, body, chatParam, responsesParam) => {
    const chat = refusal(body);
    expect(chat).toMatchObject({ code: 'unsupported_for_model', param: chatParam });
    expect(chat?.message).toEqual(expect.any(String));
    expect(refusal(body, 'responses')).toMatchObject({ code: 'unsupported_for_model', param: responsesParam });
  });

  it('checks tools, then tool results, images and stream, then the schema', () => {
    const problem = (body: Record<string, unknown>) => decisionProblem(parseChatRequest({ ...base, ...body }, {}))?.kind;
    expect(problem({ tools: [{ type: 'function', function: { name: 'f' } }], stream: true, response_format: undefined })).toBe('tools');
    expect(problem({ stream: true, response_format: undefined })).toBe('stream');
  });

  it('names every kind of problem', () => {
    const kinds: DecisionProblem[] = [
      { kind: 'tools', message: '' },
      { kind: 'tool_results', message: '' },
      { kind: 'images', message: '' },
      { kind: 'stream', message: '' },
      { kind: 'no_json_schema', message: '' },
      { kind: 'no_questions', message: '' },
      { kind: 'property', property: 'p', message: '' },
    ];
    expect(kinds.map((problem) => decisionParam(problem, 'chat'))).toEqual(['tools', 'messages', 'messages', 'stream', 'response_format', 'response_format.json_schema.schema', 'response_format.json_schema.schema.properties.p']);
  });
});
