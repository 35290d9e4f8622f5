import type { DecisionAnswer, DecisionQuestion } from '@svc/vendors';

/**
 * The decision model's distributions as the service answers them (spec: svc.decision): one entry
 * per schema property, in schema order, and the JSON answer the message carries.
 *
 * - choice: {type `choice`, probabilities {value: p}, confidence}; the answer is the most probable
 *   option (the first in enum order on a tie); confidence is its probability.
 * - yes/no: {type `noul`, probability} with p the probability of yes; the answer is true at 0.5
 *   and above.
 * - score: {type `score`, value, probabilities {level: p}, confidence}; value is the
 *   probability-weighted level (4 decimals); the answer is the value rounded half up, an integer
 *   level within the schema's bounds; confidence is that level's probability.
 */
export interface DecisionReading {
  /** The JSON answer, properties in schema order. */
  answer: Record<string, string | boolean | number>;
  /** The message content: the answer as JSON text. */
  content: string;
  /** svc.decision */
  svc: Record<string, Record<string, unknown>>;
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

export function readDecision(questions: readonly DecisionQuestion[], answers: readonly DecisionAnswer[]): DecisionReading {
  const answer: DecisionReading['answer'] = {};
  const svc: DecisionReading['svc'] = {};
  questions.forEach((question, index) => {
    const probabilities = answers[index]?.probabilities ?? {};
    if (question.type === 'boolean') {
      const p = probabilities.true ?? 0;
      answer[question.name] = p >= 0.5;
      svc[question.name] = { type: 'noul', probability: p };
      return;
    }
    if (question.type === 'choice') {
      let best = question.options[0];
      for (const option of question.options) if ((probabilities[option] ?? 0) > (probabilities[best] ?? 0)) best = option;
      answer[question.name] = best;
      svc[question.name] = { type: 'choice', probabilities: Object.fromEntries(question.options.map((option) => [option, probabilities[option] ?? 0])), confidence: probabilities[best] ?? 0 };
      return;
    }
    let weighted = 0;
    const levels: Record<string, number> = {};
    for (let level = question.min; level <= question.max; level += 1) {
      const p = probabilities[String(level)] ?? 0;
      levels[String(level)] = p;
      weighted += level * p;
    }
    const value = round4(weighted);
    const level = Math.min(question.max, Math.max(question.min, Math.floor(value + 0.5)));
    answer[question.name] = level;
    svc[question.name] = { type: 'score', value, probabilities: levels, confidence: levels[String(level)] ?? 0 };
  });
  return { answer, content: JSON.stringify(answer), svc };
}
