import type { DecisionQuestion } from '@svc/vendors';
import { readDecision } from './answer';

const questions: DecisionQuestion[] = [
  { name: 'sentiment', type: 'choice', options: ['positive', 'neutral', 'negative'] },
  { name: 'urgent', type: 'boolean' },
  { name: 'quality', type: 'score', min: 1, max: 5 },
];

describe('readDecision (spec: svc.decision)', () => {
  it('gives one entry per property in schema order, and the JSON answer', () => {
    const reading = readDecision(questions, [
      { name: 'sentiment', probabilities: { positive: 0.7125, neutral: 0.2, negative: 0.0875 } },
      { name: 'urgent', probabilities: { true: 0.5, false: 0.5 } },
      { name: 'quality', probabilities: { '1': 0.05, '2': 0.1, '3': 0.15, '4': 0.4, '5': 0.3 } },
    ]);
    expect(Object.keys(reading.svc)).toEqual(['sentiment', 'urgent', 'quality']);
    expect(reading.svc).toEqual({
      sentiment: { type: 'choice', probabilities: { positive: 0.7125, neutral: 0.2, negative: 0.0875 }, confidence: 0.7125 },
      urgent: { type: 'noul', probability: 0.5 },
      // 1(0.05) + 2(0.1) + 3(0.15) + 4(0.4) + 5(0.3) = 3.8: the answer is level 4 with probability 0.4.
      quality: { type: 'score', value: 3.8, probabilities: { '1': 0.05, '2': 0.1, '3': 0.15, '4': 0.4, '5': 0.3 }, confidence: 0.4 },
    });
    // true at 0.5 and above.
    expect(reading.answer).toEqual({ sentiment: 'positive', urgent: true, quality: 4 });
    expect(reading.content).toBe('{"sentiment":"positive","urgent":true,"quality":4}');
  });

  it('a yes below 0.5 is false; a tie among options goes to the first in enum order', () => {
    const reading = readDecision(questions.slice(0, 2), [
      { name: 'sentiment', probabilities: { positive: 0.1, neutral: 0.45, negative: 0.45 } },
      { name: 'urgent', probabilities: { true: 0.4999, false: 0.5001 } },
    ]);
    expect(reading.answer).toEqual({ sentiment: 'neutral', urgent: false });
    expect(reading.svc.sentiment.confidence).toBe(0.45);
  });

  it('rounds the weighted level half up for the answer and keeps 4 decimals in value', () => {
    const score: DecisionQuestion[] = [{ name: 'q', type: 'score', min: 0, max: 3 }];
    // 0(0.25) + 1(0.25) + 2(0.25) + 3(0.25) = 1.5 → 2.
    expect(readDecision(score, [{ name: 'q', probabilities: { '0': 0.25, '1': 0.25, '2': 0.25, '3': 0.25 } }])).toMatchObject({ answer: { q: 2 }, svc: { q: { value: 1.5, confidence: 0.25 } } });
    // 1/3 each on 0..2: value 1 (floating sums rounded to 4 decimals).
    const third = 0.3333;
    expect(readDecision([{ name: 'q', type: 'score', min: 0, max: 2 }], [{ name: 'q', probabilities: { '0': third, '1': third, '2': 0.3334 } }]).svc.q.value).toBe(1.0001);
  });
});
