/**
 * The protocol-neutral shape each wire protocol is parsed into. Answers, token counts and
 * cache accounting work on this shape only, so the three protocols behave alike.
 */

export type CacheTtl = '5m' | '1h';

/** One unit of prompt input, in the order the vendors cache it: tools, system, then messages. */
export interface PromptBlock {
  text?: string;
  /** Image bytes or URL; counted as IMAGE_TOKENS. */
  image?: string;
  /** Anthropic cache_control marker closing the prefix that ends with this block. */
  cache?: CacheTtl;
}

export interface ToolSpec {
  name: string;
  description?: string;
  parameters: unknown;
}

export type ToolChoice = { mode: 'auto' } | { mode: 'none' } | { mode: 'required' } | { mode: 'named'; name: string };

export type OutputFormat = { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; schema: unknown };

export interface Reasoning {
  /** OpenAI reasoning_effort level, when given. */
  effort?: string;
  /** Anthropic budget_tokens / Gemini thinkingBudget, when given (-1 = dynamic). */
  budget?: number;
}

export interface SimRequest {
  model: string;
  blocks: PromptBlock[];
  /** Canonical text of model + system + messages: the answer's seed. */
  seedMaterial: string;
  /** Text of the last user message ('' when the last message is a tool result). */
  lastUserText: string;
  lastIsToolResult: boolean;
  tools: ToolSpec[];
  toolChoice: ToolChoice;
  maxTokens?: number;
  stop: string[];
  format: OutputFormat;
  reasoning?: Reasoning;
}

/** Thrown by protocol parsers; rendered as that vendor's 400. */
export class InvalidRequest extends Error {
  override name = 'InvalidRequest';
  constructor(
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
