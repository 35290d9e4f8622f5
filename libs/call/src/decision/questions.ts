import { ServiceError } from '@svc/errors';
import type { DecisionQuestion, ResponseFormat } from '@svc/vendors';
import type { ChatRequestInput } from '../request/chat-request';

/**
 * What the decision model can be asked (spec: svc.decision, and the decision model's rows of
 * unsupported_for_model): a json_schema whose properties are all typed questions, in schema order.
 *
 * - choice: a string enum (`{enum: [...]}`, with or without `type: "string"`), 2 to 64 options;
 * - yes/no: `{type: "boolean"}`;
 * - score: `{type: "integer", minimum, maximum}` with integer levels from 0 up, at most 11 of them
 *   (1–5, 0–10).
 *
 * Anything else is not a question it can answer: free text (a string without enum, a number, an
 * integer without both bounds), a nested object or array, combinators and references. The same
 * mapping decides the named model's refusals and whether auto may use it (jev.ts).
 */

export const MAX_DECISION_QUESTIONS = 64;
export const MAX_CHOICE_OPTIONS = 64;
export const MAX_SCORE_LEVELS = 11;

export type DecisionQuestionType = DecisionQuestion['type'];

/** Why a request is not one for the decision model; `property` names the schema property. */
export type DecisionProblem =
  | { kind: 'tools' | 'tool_results' | 'images' | 'stream' | 'no_json_schema' | 'no_questions'; message: string }
  | { kind: 'property'; property: string; message: string };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A property named like an array index ("0", "12") would be moved to the front of any JSON object
 * (JavaScript orders integer keys first), so svc.decision could not keep schema order.
 */
const INDEX_LIKE = /^(0|[1-9]\d{0,9})$/;

const COMBINATORS = ['$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'const', 'items', 'properties', 'prefixItems', 'additionalItems', 'patternProperties'];

/** One property as a typed question, or the sentence saying why it is not one. */
export function questionOf(name: string, schema: unknown): DecisionQuestion | { problem: string } {
  const says = (why: string) => ({ problem: `Property '${name}' ${why}` });
  if (INDEX_LIKE.test(name)) return says('is named like an array index; the decision model answers properties in schema order, so property names must not be integers.');
  if (!isObject(schema)) return says('has no schema; the decision model answers typed questions only (a string enum, a boolean, or an integer score with minimum and maximum).');
  const description = typeof schema.description === 'string' && schema.description ? { description: schema.description } : {};
  const type = schema.type;
  if (type === 'object' || type === 'array' || 'properties' in schema || 'items' in schema) return says('is nested (an object or an array); the decision model answers flat typed questions only.');
  if (Array.isArray(type)) return says('allows several types; the decision model answers one typed question per property.');
  const combinator = COMBINATORS.find((field) => field in schema);
  if (combinator) return says(`uses '${combinator}'; the decision model answers plain typed questions only.`);
  if ('enum' in schema) {
    const options = schema.enum;
    if ((type !== undefined && type !== 'string') || !Array.isArray(options) || !options.every((option) => typeof option === 'string')) return says('is an enum of values other than strings; a choice is a string enum.');
    if (options.length < 2 || options.length > MAX_CHOICE_OPTIONS) return says(`is a choice with ${options.length} options; the decision model takes 2 to ${MAX_CHOICE_OPTIONS}.`);
    if (new Set(options).size !== options.length) return says('is a choice that lists an option twice.');
    return { name, type: 'choice', options: [...options] as string[], ...description };
  }
  if (type === 'boolean') return { name, type: 'boolean', ...description };
  if (type === 'integer') {
    const { minimum, maximum } = schema;
    if (typeof minimum !== 'number' || typeof maximum !== 'number' || !Number.isInteger(minimum) || !Number.isInteger(maximum)) {
      return says('is an integer without integer minimum and maximum; a score is an integer with both (e.g. minimum 1, maximum 5).');
    }
    if (minimum < 0 || maximum <= minimum || maximum - minimum + 1 > MAX_SCORE_LEVELS) return says(`is a score from ${minimum} to ${maximum}; the decision model scores 2 to ${MAX_SCORE_LEVELS} levels from 0 up.`);
    return { name, type: 'score', min: minimum, max: maximum, ...description };
  }
  if (type === 'string') return says('is free text (a string without enum); the decision model answers typed questions only.');
  return says('is free text or a number; the decision model answers typed questions only (a string enum, a boolean, or an integer score with minimum and maximum).');
}

/** The schema's properties as typed questions in schema order, or the first problem. */
export function typedQuestions(format: ResponseFormat | undefined): { questions: DecisionQuestion[] } | { problem: DecisionProblem } {
  if (format?.type !== 'json_schema') return { problem: { kind: 'no_json_schema', message: 'The decision model answers a json_schema response_format whose properties are typed questions.' } };
  const properties = isObject(format.schema) && (format.schema.type === undefined || format.schema.type === 'object') ? format.schema.properties : undefined;
  if (!isObject(properties) || Object.keys(properties).length === 0) return { problem: { kind: 'no_questions', message: 'The json_schema must be an object schema with at least one property: each property is a question.' } };
  const entries = Object.entries(properties);
  if (entries.length > MAX_DECISION_QUESTIONS) return { problem: { kind: 'no_questions', message: `The decision model answers at most ${MAX_DECISION_QUESTIONS} questions (properties); the schema has ${entries.length}.` } };
  const questions: DecisionQuestion[] = [];
  for (const [name, schema] of entries) {
    const question = questionOf(name, schema);
    if ('problem' in question) return { problem: { kind: 'property', property: name, message: question.problem } };
    questions.push(question);
  }
  return { questions };
}

/** The request fields the decision model's checks read. */
export type DecisionRequest = Pick<ChatRequestInput, 'tools' | 'messages' | 'needsVision' | 'stream' | 'responseFormat'>;

/**
 * The first thing the decision model cannot do, in this order: tools, tool calls and results,
 * images, a stream, then the response format and each property. Undefined when it can answer.
 */
export function decisionProblem(request: DecisionRequest): DecisionProblem | undefined {
  if (request.tools?.length) return { kind: 'tools', message: 'The decision model takes no tools.' };
  if (request.messages.some((message) => message.role === 'tool' || (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0))) {
    return { kind: 'tool_results', message: 'The decision model takes no tool calls or tool results.' };
  }
  if (request.needsVision || request.messages.some((message) => message.role === 'user' && message.content.some((part) => part.type === 'image'))) {
    return { kind: 'images', message: 'The decision model reads text only, no images.' };
  }
  if (request.stream) return { kind: 'stream', message: 'The decision model does not stream; send stream false.' };
  const typed = typedQuestions(request.responseFormat);
  return 'problem' in typed ? typed.problem : undefined;
}

/** Which API's field names a refusal uses. */
export type RequestApi = 'chat' | 'responses';

/** The field a problem names (spec: unsupported_for_model, "param names the field"), per API. */
export function decisionParam(problem: DecisionProblem, api: RequestApi): string {
  const format = api === 'responses' ? 'text.format' : 'response_format';
  const schema = api === 'responses' ? 'text.format.schema' : 'response_format.json_schema.schema';
  switch (problem.kind) {
    case 'tools':
      return 'tools';
    case 'tool_results':
    case 'images':
      return api === 'responses' ? 'input' : 'messages';
    case 'stream':
      return 'stream';
    case 'no_json_schema':
      return format;
    case 'no_questions':
      return schema;
    case 'property':
      return `${schema}.properties.${problem.property}`;
  }
}

/** 400 unsupported_for_model for a request the decision model cannot answer, or undefined. */
export function decisionRefusal(request: DecisionRequest, api: RequestApi = 'chat'): ServiceError | undefined {
  const problem = decisionProblem(request);
  if (!problem) return undefined;
  return new ServiceError('unsupported_for_model', problem.message, { param: decisionParam(problem, api) });
}

/** The typed questions of a request the decision model is about to answer (already checked). */
export function questionsFor(format: ResponseFormat | undefined): DecisionQuestion[] {
  const typed = typedQuestions(format);
  if ('problem' in typed) throw new ServiceError('unsupported_for_model', typed.problem.message, { param: decisionParam(typed.problem, 'chat') });
  return typed.questions;
}
