import { json, startSim, type RunningSim } from '../testkit';
import { decisionUsage, distribution, optionKeys, parseDecisionRequest, type DecisionRequest } from './decision';

let sim: RunningSim;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());

const auth = { authorization: 'Bearer sk-test', 'content-type': 'application/json' };
const decide = (body: unknown, headers: Record<string, string> = {}) => fetch(`${sim.url}/v1/decisions`, { method: 'POST', headers: { ...auth, ...headers }, body: JSON.stringify(body) });

const ticket: DecisionRequest = {
  model: 'decision-1.13.0',
  instructions: 'Triage the ticket.',
  messages: [{ role: 'user', content: 'My order never arrived.' }],
  questions: [
    { name: 'sentiment', type: 'choice', options: ['positive', 'neutral', 'negative'] },
    { name: 'urgent', type: 'boolean' },
    { name: 'quality', type: 'score', min: 1, max: 5 },
  ],
};

const sum = (probabilities: Record<string, number>) => Math.round(Object.values(probabilities).reduce((total, p) => total + p, 0) * 10_000);

describe('POST /v1/decisions', () => {
  it('answers each question in order with a well-formed distribution, the same way twice', async () => {
    const first = await json(decide(ticket));
    const second = await json(decide(ticket));
    expect(first).toMatchObject({ object: 'decision', model: 'decision-1.13.0', usage: decisionUsage(ticket) });
    expect(first.id).toMatch(/^dec_[A-Za-z0-9]{24}$/);
    expect(first.answers.map((answer: { name: string }) => answer.name)).toEqual(['sentiment', 'urgent', 'quality']);
    expect(Object.keys(first.answers[0].probabilities)).toEqual(['positive', 'neutral', 'negative']);
    expect(Object.keys(first.answers[1].probabilities)).toEqual(['true', 'false']);
    expect(Object.keys(first.answers[2].probabilities)).toEqual(['1', '2', '3', '4', '5']);
    for (const answer of first.answers) {
      expect(sum(answer.probabilities)).toBe(10_000);
      for (const p of Object.values(answer.probabilities) as number[]) {
        expect(p).toBeGreaterThanOrEqual(0);
        expect(Number.isInteger(Math.round(p * 10_000)) && Math.abs(p * 10_000 - Math.round(p * 10_000)) < 1e-6).toBe(true);
      }
    }
    expect(second.answers).toEqual(first.answers);
  });

  it('gives the distribution the exported function computes (tests elsewhere can predict it)', async () => {
    const body = await json(decide(ticket));
    expect(body.answers[0].probabilities).toEqual(distribution(ticket, ticket.questions[0]));
    expect(body.answers[2].probabilities).toEqual(distribution(ticket, ticket.questions[2]));
  });

  it('changes with the prompt', async () => {
    const other = { ...ticket, messages: [{ role: 'user' as const, content: 'Thanks, all good now.' }] };
    const differs = ticket.questions.some((question) => JSON.stringify(distribution(ticket, question)) !== JSON.stringify(distribution(other, question)));
    expect(differs).toBe(true);
  });

  it('bills the text it read and one output token per question', () => {
    expect(decisionUsage(ticket).output_tokens).toBe(3);
    expect(decisionUsage(ticket).input_tokens).toBeGreaterThan(10);
  });

  it('scores fall off around one level (unimodal)', () => {
    for (let i = 0; i < 20; i++) {
      const question = { name: `q${i}`, type: 'score' as const, min: 0, max: 10 };
      const p = optionKeys(question).map((key) => distribution(ticket, question)[key]);
      const top = p.indexOf(Math.max(...p));
      for (let level = 1; level <= top; level++) expect(p[level]).toBeGreaterThanOrEqual(p[level - 1] - 0.05);
      for (let level = top + 1; level < p.length; level++) expect(p[level]).toBeLessThanOrEqual(p[level - 1] + 0.05);
    }
  });

  it.each([
    ['no questions', { ...ticket, questions: [] }, 'questions'],
    ['a one-option choice', { ...ticket, questions: [{ name: 'a', type: 'choice', options: ['x'] }] }, 'questions[0].options'],
    ['a score of 12 levels', { ...ticket, questions: [{ name: 'a', type: 'score', min: 0, max: 11 }] }, 'questions[0]'],
    ['an unknown type', { ...ticket, questions: [{ name: 'a', type: 'text' }] }, 'questions[0].type'],
    ['a question asked twice', { ...ticket, questions: [{ name: 'a', type: 'boolean' }, { name: 'a', type: 'boolean' }] }, 'questions[1].name'],
    ['a tool message', { ...ticket, messages: [{ role: 'tool', content: '{}' }] }, 'messages[0].role'],
    ['a chat model', { ...ticket, model: 'gpt-sim' }, 'model'],
  ])('refuses %s with an OpenAI-style 400', async (_name, body, param) => {
    const res = await decide(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('refuses unknown fields (stream included) as OpenAI does', async () => {
    const res = await decide({ ...ticket, stream: true });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe('Unrecognized request argument supplied: stream');
    expect(() => parseDecisionRequest({ ...ticket, temperature: 0 })).toThrow(/temperature/);
  });

  it('takes faults like every endpoint', async () => {
    expect((await decide(ticket, { 'x-sim-fault': 'status:500' })).status).toBe(500);
    expect((await decide(ticket, { 'x-sim-fault': '429:3' })).headers.get('retry-after')).toBe('3');
    expect((await decide(ticket, { authorization: 'Bearer sim-bad-key' })).status).toBe(401);
  });
});
