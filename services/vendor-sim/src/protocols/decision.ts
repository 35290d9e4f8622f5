import type { Request } from 'express';
import type { Endpoint } from '../engine';
import { createRng, randomId, seedOf } from '../hash';
import { sendCutBody } from '../http';
import { InvalidRequest, isRecord } from '../request';
import { Pacer } from '../timing';
import { countTokens } from '../tokens';
import { openaiVendor } from './openai';
import { distillFault, distillProbability, distillStep } from '../distill';

/**
 * vendor-8's decision API (`POST /v1/decisions`), which serves the decision model: typed questions
 * in, one probability distribution per question out. Same key and error bodies as vendor-8's
 * OpenAI-compatible endpoints. The distributions are deterministic: each is seeded by a hash of
 * the model, the instructions, the messages and the question itself. README: "Decision API".
 */

export type SimQuestion =
  | { name: string; type: 'choice'; options: string[]; description?: string }
  | { name: string; type: 'boolean'; description?: string }
  | { name: string; type: 'score'; min: number; max: number; description?: string };

export interface DecisionRequest {
  model: string;
  instructions?: string;
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
  questions: SimQuestion[];
}

export const MAX_QUESTIONS = 64;
export const MAX_OPTIONS = 64;
export const MAX_LEVELS = 11;
/** Probabilities are given in steps of this (four decimals), summing to exactly 1 in those steps. */
const UNITS = 10_000;

const FIELDS = new Set(['model', 'instructions', 'messages', 'questions', 'user', 'metadata']);
const QUESTION_FIELDS = new Set(['name', 'type', 'options', 'min', 'max', 'description']);

function parseQuestion(raw: unknown, index: number, names: Set<string>): SimQuestion {
  const at = `questions[${index}]`;
  if (!isRecord(raw)) throw new InvalidRequest(`Invalid type for '${at}': expected an object.`, at, 'invalid_type');
  for (const field of Object.keys(raw)) if (!QUESTION_FIELDS.has(field)) throw new InvalidRequest(`Unrecognized request argument supplied: ${at}.${field}`, `${at}.${field}`, null);
  const { name, type, description } = raw;
  if (typeof name !== 'string' || name === '') throw new InvalidRequest(`Missing required parameter: '${at}.name'.`, `${at}.name`, 'missing_required_parameter');
  if (names.has(name)) throw new InvalidRequest(`Invalid '${at}.name': '${name}' is asked twice.`, `${at}.name`, 'invalid_value');
  names.add(name);
  if (description !== undefined && typeof description !== 'string') throw new InvalidRequest(`Invalid type for '${at}.description': expected a string.`, `${at}.description`, 'invalid_type');
  const described = typeof description === 'string' ? { description } : {};
  if (type === 'boolean') return { name, type, ...described };
  if (type === 'choice') {
    const options = raw.options;
    if (!Array.isArray(options) || !options.every((option) => typeof option === 'string')) throw new InvalidRequest(`Invalid type for '${at}.options': expected an array of strings.`, `${at}.options`, 'invalid_type');
    if (options.length < 2 || options.length > MAX_OPTIONS || new Set(options).size !== options.length) {
      throw new InvalidRequest(`Invalid '${at}.options': expected 2 to ${MAX_OPTIONS} distinct options.`, `${at}.options`, 'invalid_value');
    }
    return { name, type, options: options as string[], ...described };
  }
  if (type === 'score') {
    const { min, max } = raw;
    if (typeof min !== 'number' || typeof max !== 'number' || !Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max <= min || max - min + 1 > MAX_LEVELS) {
      throw new InvalidRequest(`Invalid '${at}': a score has integer levels min..max with 0 <= min < max and at most ${MAX_LEVELS} levels.`, at, 'invalid_value');
    }
    return { name, type, min, max, ...described };
  }
  throw new InvalidRequest(`Invalid value for '${at}.type': expected 'choice', 'boolean' or 'score'.`, `${at}.type`, 'invalid_value');
}

export function parseDecisionRequest(body: unknown): DecisionRequest {
  if (!isRecord(body)) throw new InvalidRequest('The request body must be a JSON object.', null, null);
  for (const field of Object.keys(body)) if (!FIELDS.has(field)) throw new InvalidRequest(`Unrecognized request argument supplied: ${field}`, null, null);
  if (typeof body.model !== 'string' || !body.model) throw new InvalidRequest('you must provide a model parameter', null, null);
  if (!body.model.startsWith('decision-')) throw new InvalidRequest(`The model '${body.model}' does not answer decisions.`, 'model', 'model_not_supported');
  if (body.instructions !== undefined && typeof body.instructions !== 'string') throw new InvalidRequest("Invalid type for 'instructions': expected a string.", 'instructions', 'invalid_type');
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw new InvalidRequest("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  const messages = body.messages.map((message, index) => {
    const at = `messages[${index}]`;
    if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant')) throw new InvalidRequest(`Invalid value for '${at}.role': expected 'user' or 'assistant'.`, `${at}.role`, 'invalid_value');
    if (typeof message.content !== 'string') throw new InvalidRequest(`Invalid type for '${at}.content': expected a string.`, `${at}.content`, 'invalid_type');
    return { role: message.role as 'user' | 'assistant', content: message.content };
  });
  if (!Array.isArray(body.questions) || body.questions.length === 0) throw new InvalidRequest("Missing required parameter: 'questions'.", 'questions', 'missing_required_parameter');
  if (body.questions.length > MAX_QUESTIONS) throw new InvalidRequest(`Invalid 'questions': at most ${MAX_QUESTIONS}.`, 'questions', 'array_above_max_length');
  const names = new Set<string>();
  const questions = body.questions.map((question, index) => parseQuestion(question, index, names));
  return { model: body.model, ...(typeof body.instructions === 'string' ? { instructions: body.instructions } : {}), messages, questions };
}

/** The answer keys of a question, in order: the options, `true`/`false`, or each level. */
export function optionKeys(question: SimQuestion): string[] {
  if (question.type === 'choice') return [...question.options];
  if (question.type === 'boolean') return ['true', 'false'];
  return Array.from({ length: question.max - question.min + 1 }, (_, index) => String(question.min + index));
}

/**
 * One question's distribution, seeded by the prompt and the question. One option is favoured;
 * a score's levels fall off around the favoured one (a unimodal distribution), a choice's other
 * options get small random weights. Probabilities are multiples of 0.0001 summing to 1.
 */
export function distribution(request: Pick<DecisionRequest, 'model' | 'instructions' | 'messages'>, question: SimQuestion): Record<string, number> {
  // The gateway's split-and-route questions and check steps (distill.ts): content-driven yes/no.
  const step = distillStep(request.instructions);
  const distilled = step && question.type === 'boolean' ? distillProbability(step, question.name, request.messages.map((message) => message.content).join('\n')) : undefined;
  if (distilled !== undefined) return { true: distilled, false: Math.round((1 - distilled) * UNITS) / UNITS };
  const rng = createRng(seedOf(JSON.stringify(['decision', request.model, request.instructions ?? '', request.messages, question])));
  const keys = optionKeys(question);
  const favourite = rng.int(0, keys.length - 1);
  const sharpness = 0.6 + rng.next() * 1.6;
  const weights = keys.map((_key, index) => {
    if (question.type === 'score') return Math.exp(-sharpness * Math.abs(index - favourite)) * (0.8 + 0.4 * rng.next());
    return index === favourite ? 1 + 2 * rng.next() : 0.05 + rng.next() * 0.6;
  });
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const units = weights.map((weight) => Math.floor((weight / total) * UNITS));
  units[favourite] += UNITS - units.reduce((sum, unit) => sum + unit, 0);
  return Object.fromEntries(keys.map((key, index) => [key, units[index] / UNITS]));
}

/** Tokens the decision API bills: the instructions, messages and questions read; one output token per question. */
export function decisionUsage(request: DecisionRequest): { input_tokens: number; output_tokens: number } {
  const read = [request.instructions ?? '', ...request.messages.map((message) => message.content), JSON.stringify(request.questions)];
  return { input_tokens: read.reduce((sum, text) => sum + countTokens(text), 0), output_tokens: request.questions.length };
}

export function decisionBody(request: DecisionRequest): Record<string, unknown> {
  return {
    id: `dec_${randomId(24)}`,
    object: 'decision',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    answers: request.questions.map((question) => ({ name: question.name, probabilities: distribution(request, question) })),
    usage: decisionUsage(request),
  };
}

/** The decisions endpoint in the shared flow (key, body, faults, latency); it does not stream. */
export const decisionEndpoint: Endpoint<DecisionRequest> = {
  vendor: openaiVendor,
  parse(body: unknown, _req: Request) {
    const request = parseDecisionRequest(body);
    return { model: request.model, stream: false, value: request };
  },
  contentFault(request) {
    const step = distillStep(request.instructions);
    return step ? distillFault(step, request.messages.map((message) => message.content).join('\n')) : undefined;
  },
  async respond({ value }, exchange) {
    const { res, signal, faults } = exchange;
    const body = decisionBody(value);
    const headers = { 'x-request-id': `req_${randomId(32)}` };
    const pacer = new Pacer(exchange.latency, signal);
    pacer.produce(value.questions.length);
    await pacer.next(0);
    if (signal.aborted) return;
    const text = JSON.stringify(body);
    if (faults.outcome?.kind === 'cut') return sendCutBody(res, 200, text, headers);
    res.status(200).set(headers).type('application/json').send(text);
  },
};
