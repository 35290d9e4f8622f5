import { postJson, readJson } from '../http';
import { VendorError } from '../errors';
import { openAIErrorReason, openAIHeaders, openAIUrl } from '../openai/openai-chat-model';
import type { CallContext, ChatRequest, ChatResult, DecisionAnswer, DecisionQuestion, StreamEvent, VendorAdapter } from '../types';

/**
 * vendor-8's decision protocol (the decision model, `decision-1.13.0`): typed questions in, one
 * probability distribution per question out. It lives beside vendor-8's OpenAI-compatible API
 * (same base URL, bearer key and error bodies) at `POST {base}/decisions`; the wire shapes are
 * documented in services/vendor-sim/README.md ("Decision API"). It has no stream, no tools and
 * no images: the service refuses those before a call is made (unsupported_for_model).
 */

/** The distributions may differ from 1 by rounding, not more. */
export const PROBABILITY_TOLERANCE = 1e-6;

interface WireAnswer {
  name?: unknown;
  probabilities?: unknown;
}

interface WireDecision {
  answers?: WireAnswer[];
  usage?: { input_tokens?: unknown; output_tokens?: unknown };
}

/** The option keys a question's distribution must have, in order. */
export function optionKeys(question: DecisionQuestion): string[] {
  if (question.type === 'choice') return [...question.options];
  if (question.type === 'boolean') return ['true', 'false'];
  return Array.from({ length: question.max - question.min + 1 }, (_, index) => String(question.min + index));
}

/** The request body: instructions (the system prompt), the conversation as text turns, the questions. */
export function convertToDecisionRequest(request: ChatRequest, questions: DecisionQuestion[]): Record<string, unknown> {
  const messages = request.messages.map((message, index) => {
    if (message.role === 'tool') throw new VendorError('invalid_request', `the decision protocol takes no tool results (messages[${index}])`);
    if (message.role === 'assistant') {
      if (message.toolCalls?.length) throw new VendorError('invalid_request', `the decision protocol takes no tool calls (messages[${index}])`);
      return { role: 'assistant', content: message.content ?? '' };
    }
    if (message.content.some((part) => part.type !== 'text')) throw new VendorError('invalid_request', `the decision protocol takes no images (messages[${index}])`);
    return { role: 'user', content: message.content.map((part) => (part.type === 'text' ? part.text : '')).join('') };
  });
  return {
    model: request.model,
    ...(request.system ? { instructions: request.system } : {}),
    messages,
    questions: questions.map((question) => ({ ...question })),
  };
}

/** One answer checked against its question: the same name, every option once, probabilities in [0, 1] summing to 1. */
function checkedAnswer(question: DecisionQuestion, raw: WireAnswer | undefined, index: number): DecisionAnswer {
  const where = `answers[${index}]`;
  if (!raw || raw.name !== question.name) throw new VendorError('bad_response', `vendor decision ${where} does not answer '${question.name}'`);
  const given = raw.probabilities;
  if (!given || typeof given !== 'object' || Array.isArray(given)) throw new VendorError('bad_response', `vendor decision ${where} has no probabilities`);
  const keys = optionKeys(question);
  const values = given as Record<string, unknown>;
  if (Object.keys(values).length !== keys.length) throw new VendorError('bad_response', `vendor decision ${where} does not give one probability per option`);
  const probabilities: Record<string, number> = {};
  let sum = 0;
  for (const key of keys) {
    const p = values[key];
    if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1) throw new VendorError('bad_response', `vendor decision ${where} has no valid probability for '${key}'`);
    probabilities[key] = p;
    sum += p;
  }
  if (Math.abs(sum - 1) > PROBABILITY_TOLERANCE) throw new VendorError('bad_response', `vendor decision ${where} probabilities sum to ${sum}, not 1`);
  return { name: question.name, probabilities };
}

/** A decision body as a ChatResult: no text (the caller derives the answer), the distributions, usage. */
export function parseDecision(raw: unknown, questions: DecisionQuestion[]): ChatResult {
  const body = raw as WireDecision | undefined;
  if (!body || !Array.isArray(body.answers)) throw new VendorError('bad_response', 'vendor decision has no answers');
  if (body.answers.length !== questions.length) throw new VendorError('bad_response', `vendor decision answers ${body.answers.length} of ${questions.length} questions`);
  const decision = questions.map((question, index) => checkedAnswer(question, body.answers?.[index], index));
  const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0);
  return {
    content: '',
    toolCalls: [],
    finishReason: 'stop',
    vendorStopReason: '',
    usage: { inputTokens: count(body.usage?.input_tokens), outputTokens: count(body.usage?.output_tokens), cachedTokens: 0, cacheWriteTokens: 0 },
    decision,
  };
}

export const decisionAdapter: VendorAdapter = {
  specificationVersion: 'v1',
  protocol: 'decision',

  async generate(request: ChatRequest, context: CallContext): Promise<ChatResult> {
    const questions = request.decision;
    if (!questions || questions.length === 0) throw new VendorError('invalid_request', 'the decision protocol needs at least one question');
    const response = await postJson(openAIUrl(context, '/decisions'), convertToDecisionRequest(request, questions), openAIHeaders(context), context.signal, openAIErrorReason);
    return parseDecision(await readJson(response, context.signal), questions);
  },

  async *stream(): AsyncIterable<StreamEvent> {
    throw new VendorError('invalid_request', 'the decision protocol does not stream');
  },
};
