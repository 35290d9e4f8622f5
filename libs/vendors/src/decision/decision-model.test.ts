import nock from 'nock';
import { failure, fixtures, useNock } from '../adapter-testkit.test-support';
import type { CallContext, ChatRequest, DecisionQuestion } from '../types';
import { decisionAdapter, optionKeys } from './decision-model';

const BASE = 'https://api.vendor-8.example';
const context: CallContext = { baseUrl: `${BASE}/v1`, apiKey: 'v8-test-key' };
const questions: DecisionQuestion[] = [
  { name: 'sentiment', type: 'choice', options: ['positive', 'neutral', 'negative'], description: 'How the customer feels' },
  { name: 'urgent', type: 'boolean' },
  { name: 'quality', type: 'score', min: 1, max: 5 },
];
const request: ChatRequest = {
  model: 'decision-1.13.0',
  system: 'You triage support tickets.',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'My order ' }, { type: 'text', text: 'never arrived.' }] },
    { role: 'assistant', content: 'Sorry to hear that.' },
    { role: 'user', content: [{ type: 'text', text: 'Please refund me today.' }] },
  ],
  maxTokens: 1024,
  temperature: 0.2,
  decision: questions,
};

const { json } = fixtures(__dirname);
const decide = () => nock(BASE, { reqheaders: { authorization: 'Bearer v8-test-key', 'content-type': 'application/json' } }).post('/v1/decisions');

useNock();

describe('decisionAdapter.generate', () => {
  it('sends instructions, the text turns and the typed questions, and returns the checked distributions', async () => {
    let sent: unknown;
    decide().reply(200, (_uri, body) => {
      sent = body;
      return json('decision-three.json');
    });
    const result = await decisionAdapter.generate(request, context);
    expect(sent).toEqual({
      model: 'decision-1.13.0',
      instructions: 'You triage support tickets.',
      messages: [
        { role: 'user', content: 'My order never arrived.' },
        { role: 'assistant', content: 'Sorry to hear that.' },
        { role: 'user', content: 'Please refund me today.' },
      ],
      questions: [
        { name: 'sentiment', type: 'choice', options: ['positive', 'neutral', 'negative'], description: 'How the customer feels' },
        { name: 'urgent', type: 'boolean' },
        { name: 'quality', type: 'score', min: 1, max: 5 },
      ],
    });
    expect(result).toEqual({
      content: '',
      toolCalls: [],
      finishReason: 'stop',
      vendorStopReason: '',
      usage: { inputTokens: 57, outputTokens: 3, cachedTokens: 0, cacheWriteTokens: 0 },
      decision: [
        { name: 'sentiment', probabilities: { positive: 0.7125, neutral: 0.2, negative: 0.0875 } },
        { name: 'urgent', probabilities: { true: 0.5, false: 0.5 } },
        { name: 'quality', probabilities: { '1': 0.05, '2': 0.1, '3': 0.15, '4': 0.4, '5': 0.3 } },
      ],
    });
  });

  it('leaves instructions out when there is no system prompt', async () => {
    let sent: Record<string, unknown> = {};
    decide().reply(200, (_uri, body) => {
      sent = body as Record<string, unknown>;
      return json('decision-three.json');
    });
    await decisionAdapter.generate({ ...request, system: undefined }, context);
    expect(sent).not.toHaveProperty('instructions');
  });

  it.each([
    ['a missing answer', (body: any) => ({ ...body, answers: body.answers.slice(0, 2) }), /answers 2 of 3/],
    ['answers out of order', (body: any) => ({ ...body, answers: [body.answers[1], body.answers[0], body.answers[2]] }), /does not answer 'sentiment'/],
    ['an option without a probability', (body: any) => ({ ...body, answers: [{ name: 'sentiment', probabilities: { positive: 0.8, neutral: 0.2 } }, ...body.answers.slice(1)] }), /one probability per option/],
    ['an unknown option', (body: any) => ({ ...body, answers: [{ name: 'sentiment', probabilities: { positive: 0.8, neutral: 0.1, angry: 0.1 } }, ...body.answers.slice(1)] }), /no valid probability for 'negative'/],
    ['a negative probability', (body: any) => ({ ...body, answers: [body.answers[0], { name: 'urgent', probabilities: { true: 1.2, false: -0.2 } }, body.answers[2]] }), /no valid probability for 'true'/],
    ['probabilities that do not sum to 1', (body: any) => ({ ...body, answers: [body.answers[0], { name: 'urgent', probabilities: { true: 0.6, false: 0.6 } }, body.answers[2]] }), /sum to 1.2/],
    ['no answers at all', () => ({ id: 'dec_x' }), /no answers/],
  ])('refuses %s as a bad response (retryable)', async (_name, mutate, message) => {
    decide().reply(200, mutate(json('decision-three.json')));
    const error = await failure(decisionAdapter.generate(request, context));
    expect(error.kind).toBe('bad_response');
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(message);
  });

  it('classifies the vendor error with its reason (OpenAI-compatible error body)', async () => {
    decide().reply(400, json('error-400.json'));
    const error = await failure(decisionAdapter.generate(request, context));
    expect(error.kind).toBe('invalid_request');
    expect(error.retryable).toBe(false);
    expect(error.options.reason).toBe("Invalid 'questions[0].options': expected at least 2 options.");
  });

  it('is a retryable server error on 500', async () => {
    decide().reply(500, { error: { message: 'boom', type: 'server_error', param: null, code: null } });
    const error = await failure(decisionAdapter.generate(request, context));
    expect(error.kind).toBe('server');
    expect(error.retryable).toBe(true);
  });

  it('takes no tool results, tool calls or images, and needs questions (the service refuses these before any call)', async () => {
    await expect(decisionAdapter.generate({ ...request, messages: [{ role: 'tool', toolCallId: 'c', content: '{}' }] }, context)).rejects.toThrow(/no tool results/);
    await expect(decisionAdapter.generate({ ...request, messages: [{ role: 'assistant', content: null, toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }] }] }, context)).rejects.toThrow(/no tool calls/);
    await expect(decisionAdapter.generate({ ...request, messages: [{ role: 'user', content: [{ type: 'image', mediaType: 'image/png', data: Buffer.from('x') }] }] }, context)).rejects.toThrow(/no images/);
    await expect(decisionAdapter.generate({ ...request, decision: [] }, context)).rejects.toThrow(/at least one question/);
  });

  it('does not stream', async () => {
    const iterator = decisionAdapter.stream(request, context)[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toThrow(/does not stream/);
  });
});

describe('optionKeys', () => {
  it('lists the options, true/false, or every level of a score', () => {
    expect(optionKeys(questions[0])).toEqual(['positive', 'neutral', 'negative']);
    expect(optionKeys(questions[1])).toEqual(['true', 'false']);
    expect(optionKeys({ name: 'q', type: 'score', min: 0, max: 3 })).toEqual(['0', '1', '2', '3']);
  });
});
