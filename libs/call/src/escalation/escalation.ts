import type { ChatResult, ToolCall, ToolDefinition } from '@svc/vendors';
import type { RouteDecision } from '@svc/routing';
import type { ChatRequestInput } from '../request/chat-request';
import type { CallPolicy } from '../types';
import type { AnswerEvent, StreamSummary } from '../attempts';
import { schemaMismatch } from './schema-check';

/**
 * Escalation (spec: Escalation, svc.escalated_from): under auto, an answer is replaced by a
 * stronger model's in two cases.
 *
 * 1. **The model asks** (POST /v1/responses only, `CallPolicy.escalation`, tool_choice `auto` or
 *    absent, a stronger model exists): the attempt carries one more function tool, HIDDEN_TOOL,
 *    that lets the model say the task is beyond it. Calling it re-runs the turn with the same
 *    history on the stronger model. The hidden tool and its call never reach the client.
 * 2. **The answer fails the service's check** (any non-streamed auto call; see answerCheck).
 *
 * Where the stronger model is, and that later turns stay on it, is the router's (Route with
 * escalated_from); this file holds what the pipeline decides on its own.
 */

/** The hidden tool's name; a request that defines a tool of that name gets no hidden tool. */
export const HIDDEN_TOOL = 'svc_escalate';

export const HIDDEN_TOOL_DEFINITION: ToolDefinition = {
  name: HIDDEN_TOOL,
  description:
    'Call this only when the task is clearly beyond your abilities and a stronger model should answer it instead. Do not call it together with any other tool or text.',
  parameters: { type: 'object', properties: { reason: { type: 'string', description: 'Why a stronger model is needed, in one sentence.' } } },
};

/** The routing decision names stronger models for this call. */
export function canEscalate(route: RouteDecision): boolean {
  return (route.escalation?.length ?? 0) > 0;
}

/**
 * Spec (Escalation): only on POST /v1/responses (the caller's policy), under auto, with
 * tool_choice `auto` or absent, when a stronger model exists. Not when the client's own tools
 * already use the hidden tool's name.
 */
export function offersHiddenTool(input: Pick<ChatRequestInput, 'toolChoice' | 'tools'>, policy: Pick<CallPolicy, 'escalation'>, auto: boolean, route: RouteDecision): boolean {
  if (!policy.escalation || !auto || !canEscalate(route)) return false;
  if (input.toolChoice !== undefined && input.toolChoice !== 'auto') return false;
  return !(input.tools ?? []).some((tool) => tool.name === HIDDEN_TOOL);
}

/** The request with the hidden tool added (tool_choice stays as sent: auto or absent). */
export function withHiddenTool(input: ChatRequestInput): ChatRequestInput {
  return { ...input, tools: [...(input.tools ?? []), HIDDEN_TOOL_DEFINITION] };
}

export function isHiddenCall(call: Pick<ToolCall, 'name'>): boolean {
  return call.name === HIDDEN_TOOL;
}

/** The answer without any hidden call; `tool_calls` becomes `stop` when no call is left. */
export function withoutHiddenCalls(result: ChatResult): ChatResult {
  if (!result.toolCalls.some(isHiddenCall)) return result;
  const toolCalls = result.toolCalls.filter((call) => !isHiddenCall(call));
  return { ...result, toolCalls, finishReason: toolCalls.length === 0 && result.finishReason === 'tool_calls' ? 'stop' : result.finishReason };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The service's check of a non-streamed answer (spec: svc.escalated_from). Returns why the
 * answer fails it, or undefined when it passes. Only a finished answer is checked (finish
 * reason `stop` or `tool_calls`): one cut by the output cap (`length`) or by the vendor's content
 * filter is the answer as asked, not a failure. An answer fails when:
 * - it is empty: no text (or only whitespace) and no tool call;
 * - a tool call names a tool the request did not offer, or its arguments are not a JSON object
 *   that fits the tool's `parameters` schema;
 * - tool_choice `required` or a named function got no tool call (or a call of another tool);
 * - with response_format `json_schema`, the text is not JSON that fits the schema; with
 *   `json_object`, the text is not a JSON object (when the answer is text, not tool calls).
 * Schemas are checked as schema-check.ts says (no tenant regular expressions).
 */
export function answerCheck(input: Pick<ChatRequestInput, 'tools' | 'toolChoice' | 'responseFormat'>, result: Pick<ChatResult, 'content' | 'toolCalls' | 'finishReason'>, hiddenOffered = true): string | undefined {
  if (result.finishReason !== 'stop' && result.finishReason !== 'tool_calls') return undefined;
  const text = result.content ?? '';
  // Calls of the hidden tool are the service's only where it offered it (a client's own tool of that name is not).
  const calls = hiddenOffered ? result.toolCalls.filter((call) => !isHiddenCall(call)) : result.toolCalls;
  if (text.trim() === '' && calls.length === 0) return 'empty';
  const tools = new Map((input.tools ?? []).map((tool) => [tool.name, tool]));
  for (const call of calls) {
    const tool = tools.get(call.name);
    if (!tool) return 'unknown_tool';
    const parsed = parseJson(call.arguments || '{}');
    if (!parsed.ok || !isObject(parsed.value)) return 'tool_arguments';
    if (schemaMismatch(tool.parameters, parsed.value)) return 'tool_arguments';
  }
  const choice = input.toolChoice;
  if (choice === 'required' && calls.length === 0) return 'tool_choice';
  if (isObject(choice) && !calls.some((call) => call.name === choice.name)) return 'tool_choice';
  if (calls.length === 0 && input.responseFormat && input.responseFormat.type !== 'text') {
    const parsed = parseJson(text);
    if (!parsed.ok) return 'invalid_json';
    if (input.responseFormat.type === 'json_object' && !isObject(parsed.value)) return 'invalid_json';
    if (input.responseFormat.type === 'json_schema' && schemaMismatch(input.responseFormat.schema, parsed.value)) return 'json_schema';
  }
  return undefined;
}

/** What a streamed answer's first events said: the model asked for a stronger one, or it did not. */
export type HeldStream =
  | { hidden: true; summary: StreamSummary }
  | { hidden: false; reader: AsyncGenerator<AnswerEvent, StreamSummary>; buffered: AnswerEvent[] };

/**
 * Spec (Escalation: the hidden call never appears in the stream): a stream that carries the
 * hidden tool is held until its first output shows what it is — text that is not empty, or a
 * tool call. A first call of the hidden tool is read to its end (its usage is needed) and
 * nothing of it is sent; anything else is sent with the events held so far, and a later hidden
 * call (after text or another call has gone out) is left out of the stream (hideCalls).
 */
export async function holdUntilDecided(reader: AsyncGenerator<AnswerEvent, StreamSummary>): Promise<HeldStream> {
  const buffered: AnswerEvent[] = [];
  for (;;) {
    const step = await reader.next();
    if (step.done) {
      const summary = step.value;
      return { hidden: false, reader: (async function* () { return summary; })(), buffered };
    }
    const event = step.value;
    if (event.type === 'tool_call_start' && isHiddenCall(event)) {
      let rest = await reader.next();
      while (!rest.done) rest = await reader.next();
      return { hidden: true, summary: rest.value };
    }
    buffered.push(event);
    if ((event.type === 'text' && event.delta.length > 0) || event.type === 'tool_call_start') return { hidden: false, reader, buffered };
  }
}

/** The events without any call of the hidden tool (the other calls renumbered from 0); the summary counts only what was sent. */
export async function* hideCalls(source: AsyncGenerator<AnswerEvent, StreamSummary>): AsyncGenerator<AnswerEvent, StreamSummary> {
  const visible = new Map<number, number>();
  const hidden = new Set<number>();
  let step = await source.next();
  while (!step.done) {
    const event = step.value;
    if (event.type === 'tool_call_start') {
      if (isHiddenCall(event)) hidden.add(event.index);
      else {
        visible.set(event.index, visible.size);
        yield { ...event, index: visible.get(event.index) as number };
      }
    } else if (event.type === 'tool_call_delta') {
      if (!hidden.has(event.index)) yield { ...event, index: visible.get(event.index) ?? event.index };
    } else yield event;
    step = await source.next();
  }
  const summary = step.value;
  if (hidden.size === 0) return summary;
  return { ...summary, toolCalls: visible.size, finishReason: visible.size === 0 && summary.finishReason === 'tool_calls' ? 'stop' : summary.finishReason };
}
