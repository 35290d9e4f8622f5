/**
 * The vendor adapter interface, version 1. Every wire protocol (OpenAI chat-completions
 * compatible, Anthropic messages, Gemini generateContent) implements it. The edge speaks only
 * these shapes; a change to them is a breaking change (add a v2 beside it).
 */

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export type ContentPart = { type: 'text'; text: string } | { type: 'image'; mediaType: string; data: Buffer };

export interface ToolCall {
  id: string;
  name: string;
  /** Always a JSON string; `{}` when empty or invalid. */
  arguments: string;
}

/** One message after the edge's normalisation (system/developer merged out into `system`). */
export type VendorMessage =
  | { role: 'user'; content: ContentPart[] }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON schema of the arguments (default: empty object schema). */
  parameters: Record<string, unknown>;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export type ResponseFormat = { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean };

/**
 * The vendor's service tier for one call (spec: Deadline and flex rules). `standard` is the
 * default; `flex` is the same model at a lower price with best-effort capacity, where the vendor
 * has one (OpenAI `service_tier: flex`, Gemini `service_tier: FLEX`; Anthropic has none). Batch
 * is not a tier of a call: it is the batch interface (batch-types.ts).
 */
export type ServiceTier = 'standard' | 'flex';

/**
 * One typed question for the decision model (spec: svc.decision), as vendor-8's decision protocol
 * takes it: a choice among string options, a yes/no, or a score on integer levels min..max.
 * `description` is the json_schema property's own, when it has one.
 */
export type DecisionQuestion =
  | { name: string; type: 'choice'; options: string[]; description?: string }
  | { name: string; type: 'boolean'; description?: string }
  | { name: string; type: 'score'; min: number; max: number; description?: string };

/**
 * The decision model's answer to one question: a probability for every option (`true` and
 * `false` for a yes/no, every level as its decimal string for a score), summing to 1.
 */
export interface DecisionAnswer {
  name: string;
  probabilities: Record<string, number>;
}

export interface CacheOptions {
  /** `none` turns caching off; otherwise the explicit-marker vendor writes with this lifetime. */
  ttl: '5m' | '1h' | 'none';
}

export interface ChatRequest {
  /** The vendor's own model name. */
  model: string;
  system?: string;
  messages: VendorMessage[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  /** Already lowered to the model's max output. */
  maxTokens: number;
  /**
   * The served model's max output (catalog capabilities.max_output). Optional, added within v1:
   * lets an adapter whose vendor counts thinking inside max_tokens (Anthropic) make room for a
   * thinking budget without asking for more than the model can produce.
   */
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  /** Sent only where the vendor supports stop sequences natively; otherwise the edge cuts. */
  stop?: string[];
  responseFormat?: ResponseFormat;
  /** The model's own reasoning control, already mapped (see reasoning.ts). */
  reasoning?: VendorReasoning;
  cache?: CacheOptions;
  metadata?: Record<string, string>;
  user?: string;
  /**
   * The tier asked for (optional, added within v1; absent = standard). A vendor without the tier
   * serves standard and says so in the result's `tier`. A flex call the vendor refuses for lack
   * of capacity fails with VendorError kind `capacity`: the caller retries at standard.
   */
  tier?: ServiceTier;
  /**
   * The typed questions (optional, added within v1): what the decision protocol asks, one per
   * json_schema property in schema order. Other protocols ignore it.
   */
  decision?: DecisionQuestion[];
}

/** Reasoning as the vendor takes it. */
export type VendorReasoning = { kind: 'effort'; level: string } | { kind: 'budget'; tokens: number } | { kind: 'toggle'; on: boolean };

export interface Usage {
  /** All input tokens, cached or not, whatever the vendor's own convention. */
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens?: number;
}

export interface ChatResult {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  vendorStopReason: string;
  usage: Usage;
  /**
   * The tier that served the call: present when flex was asked for or served (`standard` then
   * means the vendor served standard instead); absent on standard calls.
   */
  tier?: ServiceTier;
  /**
   * The decision protocol's answers (optional, added within v1): one distribution per question of
   * ChatRequest.decision, in the same order, checked well formed. `content` is then empty: what
   * the service answers is derived from the distributions by the caller.
   */
  decision?: DecisionAnswer[];
}

/** The internal stream shape every protocol's stream is normalised into. */
export type StreamEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; arguments: string }
  | { type: 'finish'; finishReason: FinishReason; vendorStopReason: string }
  /** Last event of a clean stream; `tier` as in ChatResult. */
  | { type: 'usage'; usage: Usage; tier?: ServiceTier };

export interface EmbeddingRequest {
  model: string;
  input: string[];
  dimensions?: number;
}

export interface EmbeddingResult {
  /** One vector per input, in input order. */
  vectors: number[][];
  /** Undefined when the vendor reports no counts (the caller estimates). */
  promptTokens?: number;
}

/** Where and how to call: from the catalog (base URL) and configuration (key). */
export interface CallContext {
  baseUrl: string;
  apiKey: string;
  signal?: AbortSignal;
  /** Extra request headers (the simulator's fault-injection headers in development). */
  headers?: Record<string, string>;
}

export interface VendorAdapter {
  readonly specificationVersion: 'v1';
  readonly protocol: 'openai' | 'anthropic' | 'gemini' | 'decision';
  generate(request: ChatRequest, context: CallContext): Promise<ChatResult>;
  stream(request: ChatRequest, context: CallContext): AsyncIterable<StreamEvent>;
  embed?(request: EmbeddingRequest, context: CallContext): Promise<EmbeddingResult>;
}
