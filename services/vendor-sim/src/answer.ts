import { decode } from '@svc/tokenizer';
import { createRng, seedOf, type Rng } from './hash';
import type { Reasoning, SimRequest, ToolSpec } from './request';
import { generateInstance } from './schema';
import { countTokens, tokenize, truncateToTokens } from './tokens';
import { chatDistillStep, extractAnswer } from './distill';

/** Output budget the think-all switch burns when the request sets no max tokens. */
export const DEFAULT_THINK_ALL_TOKENS = 4096;

export type Finish = 'stop' | 'stop_sequence' | 'length' | 'tool_call' | 'refusal';

export interface SimAnswer {
  text: string;
  toolCall?: { name: string; argumentsJson: string };
  /** Tokens of the visible output (text, or tool name plus arguments); reasoning excluded. */
  outputTokens: number;
  reasoningTokens: number;
  finish: Finish;
  stopSequence?: string;
  /** Seed for the reasoning text, for protocols that show thinking. */
  seed: number;
}

export interface AnswerOptions {
  /** x-sim-think-all: the whole output budget goes on reasoning. */
  thinkAll?: boolean;
  /** The refuse fault. */
  refuse?: boolean;
  /** The `empty` fault: an empty text answer with a normal stop (no tool call). */
  empty?: boolean;
  /** The `not-json` fault: a text answer that is not JSON, whatever format was asked (no tool call). */
  notJson?: boolean;
}

const WORDS = [
  'the', 'system', 'request', 'answer', 'model', 'data', 'value', 'result', 'simple', 'clear', 'quick', 'plan', 'step',
  'first', 'next', 'then', 'finally', 'because', 'which', 'should', 'could', 'would', 'will', 'can', 'may', 'this', 'that',
  'these', 'those', 'with', 'without', 'from', 'into', 'over', 'under', 'about', 'after', 'before', 'while', 'during',
  'small', 'large', 'early', 'late', 'new', 'old', 'good', 'better', 'best', 'useful', 'careful', 'steady', 'fast', 'slow',
  'team', 'project', 'service', 'network', 'storage', 'memory', 'process', 'method', 'option', 'setting', 'report', 'record',
  'table', 'field', 'number', 'string', 'list', 'map', 'graph', 'node', 'edge', 'path', 'route', 'signal', 'event', 'message',
  'reads', 'writes', 'keeps', 'makes', 'takes', 'gives', 'shows', 'finds', 'checks', 'builds', 'moves', 'holds', 'starts',
  'stops', 'runs', 'helps', 'uses', 'needs', 'works', 'changes', 'returns', 'sends', 'counts', 'tracks', 'limits', 'covers',
  'river', 'mountain', 'garden', 'window', 'morning', 'evening', 'summer', 'winter', 'light', 'water', 'stone', 'paper',
  'always', 'often', 'rarely', 'mostly', 'nearly', 'simply', 'only', 'also', 'still', 'again', 'here', 'there', 'now',
];

const TOOL_MARKER = /\[tool(?::([^\]\s]+))?\]/;

export function wantsReasoning(reasoning: Reasoning | undefined): boolean {
  if (!reasoning) return false;
  if (reasoning.effort !== undefined) return !['none', 'minimal'].includes(reasoning.effort);
  return reasoning.budget !== undefined && reasoning.budget !== 0;
}

const EFFORT_SCALE: Record<string, number> = { low: 1, medium: 2, high: 4, xhigh: 8 };

function plannedReasoning(reasoning: Reasoning, rng: Rng): number {
  const base = rng.int(24, 160) * (EFFORT_SCALE[reasoning.effort ?? ''] ?? 2);
  return reasoning.budget !== undefined && reasoning.budget > 0 ? Math.min(base, reasoning.budget) : base;
}

function sentences(rng: Rng, totalWords: number): string {
  const out: string[] = [];
  let left = totalWords;
  while (left > 0) {
    const length = Math.min(left, rng.int(5, 12));
    const words = Array.from({ length }, () => rng.pick(WORDS));
    const first = words[0] ?? 'the';
    words[0] = first.charAt(0).toUpperCase() + first.slice(1);
    out.push(`${words.join(' ')}.`);
    left -= length;
  }
  return out.join(' ');
}

/**
 * Which tool, if any, the answer calls. Under `auto` only a `[tool]` / `[tool:name]` marker
 * triggers one; a `[tool:name]` whose tool is not offered calls nothing (so a request that offers
 * a tool only sometimes, like the gateway's hidden escalation tool, calls it exactly then).
 */
export function chooseTool(request: SimRequest): ToolSpec | undefined {
  const { tools, toolChoice } = request;
  if (tools.length === 0 || toolChoice.mode === 'none' || request.lastIsToolResult) return undefined;
  const marker = TOOL_MARKER.exec(request.lastUserText);
  const byName = (name: string | undefined) => (name ? tools.find((t) => t.name === name) : undefined);
  if (toolChoice.mode === 'named') return byName(toolChoice.name) ?? tools[0];
  if (toolChoice.mode === 'required') return byName(marker?.[1]) ?? tools[0];
  if (!marker) return undefined;
  return marker[1] ? byName(marker[1]) : tools[0];
}

function draftText(request: SimRequest, rng: Rng): string {
  // The gateway's split-and-route extract step (distill.ts).
  if (chatDistillStep(request) === 'extract') return extractAnswer(request.lastUserText);
  if (request.lastUserText.includes('[echo]')) return request.lastUserText;
  switch (request.format.type) {
    case 'json_schema':
      return JSON.stringify(generateInstance(request.format.schema, rng));
    case 'json_object':
      return JSON.stringify({ answer: sentences(rng, rng.int(4, 12)) });
    default:
      return sentences(rng, rng.int(8, 60));
  }
}

function applyStop(text: string, stops: string[]): { text: string; stop?: string } {
  let cut = -1;
  let found: string | undefined;
  for (const stop of stops) {
    if (!stop) continue;
    const at = text.indexOf(stop);
    if (at >= 0 && (cut < 0 || at < cut)) {
      cut = at;
      found = stop;
    }
  }
  return found === undefined ? { text } : { text: text.slice(0, cut), stop: found };
}

/**
 * The deterministic answer to a request: the same model and conversation always give the same
 * text or tool call; sampling parameters only cut it (max tokens, stop sequences).
 */
export function generateAnswer(request: SimRequest, options: AnswerOptions = {}): SimAnswer {
  const seed = seedOf(request.seedMaterial);
  const rng = createRng(seed);
  const limit = request.maxTokens ?? Infinity;
  if (options.refuse) return { text: '', outputTokens: 0, reasoningTokens: 0, finish: 'refusal', seed };
  if (options.empty) return { text: '', outputTokens: 0, reasoningTokens: 0, finish: 'stop', seed };
  if (options.notJson) {
    const text = truncateToTokens(`Not JSON: ${sentences(rng, 6)}`, Math.max(1, Number.isFinite(limit) ? limit : Infinity)).text;
    return { text, outputTokens: countTokens(text), reasoningTokens: 0, finish: 'stop', seed };
  }
  if (options.thinkAll) {
    const burnt = Number.isFinite(limit) ? limit : DEFAULT_THINK_ALL_TOKENS;
    return { text: '', outputTokens: 0, reasoningTokens: burnt, finish: 'length', seed };
  }
  // A separate stream for reasoning, so switching reasoning on leaves the answer text unchanged.
  const reasoningTokens = wantsReasoning(request.reasoning) ? Math.min(limit, plannedReasoning(request.reasoning ?? {}, createRng(seed ^ 0x5bd1e995))) : 0;
  const room = limit - reasoningTokens;

  const tool = chooseTool(request);
  if (tool) {
    if (room <= 0) return { text: '', outputTokens: 0, reasoningTokens, finish: 'length', seed };
    const full = JSON.stringify(generateInstance(tool.parameters, rng) ?? {});
    const nameTokens = countTokens(tool.name);
    const cut = truncateToTokens(full, Math.max(0, room - nameTokens));
    return {
      text: '',
      toolCall: { name: tool.name, argumentsJson: cut.text },
      outputTokens: nameTokens + cut.tokens,
      reasoningTokens,
      finish: cut.truncated ? 'length' : 'tool_call',
      seed,
    };
  }

  const stopped = applyStop(draftText(request, rng), request.stop);
  const cut = truncateToTokens(stopped.text, Math.max(0, room));
  if (cut.truncated) return { text: cut.text, outputTokens: cut.tokens, reasoningTokens, finish: 'length', seed };
  if (stopped.stop !== undefined) return { text: cut.text, outputTokens: cut.tokens, reasoningTokens, finish: 'stop_sequence', stopSequence: stopped.stop, seed };
  return { text: cut.text, outputTokens: cut.tokens, reasoningTokens, finish: 'stop', seed };
}

/** Visible thinking of exactly `tokens` tokens (Anthropic thinking blocks, Gemini thought parts). */
export function reasoningText(seed: number, tokens: number): string {
  if (tokens <= 0) return '';
  const rng = createRng(seed ^ 0x2545f491);
  let text = '';
  let ids: number[] = [];
  while (ids.length < tokens) {
    text += (text ? ' ' : '') + sentences(rng, Math.max(8, tokens - ids.length));
    ids = tokenize(text);
  }
  return decode(ids.slice(0, tokens));
}
