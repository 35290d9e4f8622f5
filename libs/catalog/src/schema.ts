import { z } from 'zod';

/**
 * The catalog is data: vendors, models, prices, capabilities, skills. One file
 * (catalog.json beside this module) validated at load by these schemas; the same
 * document is served by GET /v1/public/catalog-export.
 */

export const VENDOR_IDS = ['vendor-1', 'vendor-2', 'vendor-3', 'vendor-4', 'vendor-5', 'vendor-6', 'vendor-7', 'vendor-8'] as const;
export type VendorId = (typeof VENDOR_IDS)[number];

/** Wire protocols the vendor layer speaks. */
export const PROTOCOLS = ['openai', 'anthropic', 'gemini'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/**
 * Wire protocols a model may speak instead of its vendor's: `decision` is vendor-8's decision API
 * (typed questions in, one probability distribution per question out), which serves the decision
 * model only (services/vendor-sim/README.md documents it).
 */
export const MODEL_PROTOCOLS = [...PROTOCOLS, 'decision'] as const;
export type ModelProtocol = (typeof MODEL_PROTOCOLS)[number];

export const TIERS = ['fast', 'balanced', 'powerful', 'frontier'] as const;
export type Tier = (typeof TIERS)[number];

export const BANDS = ['easy', 'medium', 'hard', 'frontier'] as const;
export type Band = (typeof BANDS)[number];

/** Kinds of work (svc.routing.task_type), in the spec's order. */
export const TASK_TYPES = [
  'classification_tagging', 'data:extraction', 'agent:workflow_execution', 'roleplay_fiction', 'content_writing',
  'data:transformation', 'code:general_impl', 'agent:multi_step_planning', 'qa_knowledge', 'translation',
  'conversational_reply', 'code:debugging', 'summarization', 'code:file_read_write', 'customer_support',
  'code:review_security', 'agent:tool_dispatch', 'code:shell_execution', 'agent:memory_extraction', 'code:frontend_ui',
  'finance_trading', 'research_report', 'agent:web_search', 'security_audit', 'code:repo_scan', 'math',
  'code:devops_config', 'code:sql_database', 'devops', 'other',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/** USD per million tokens. cache_write is the 5-minute rate (1.25x input on the explicit-marker vendor). */
export const PriceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cache_read: z.number().nonnegative(),
  cache_write: z.number().nonnegative(),
});
export type Price = z.infer<typeof PriceSchema>;

/** How a vendor's prompt cache works (spec: Caching rules 2 and 3). */
export const CacheModeSchema = z.enum([
  'explicit', // explicit markers, writes billed (5m 1.25x, 1h 2x input), per-model minimum prefix
  'automatic', // automatic from 1024 tokens, reads discounted, no write charge
  'automatic_4096', // automatic from 4096 tokens, no write charge
  'none', // no prompt cache
]);
export type CacheMode = z.infer<typeof CacheModeSchema>;

export const VendorSchema = z.object({
  id: z.enum(VENDOR_IDS),
  name: z.string().min(1),
  protocol: z.enum(PROTOCOLS),
  /** Base URL of the real vendor API; empty means the embedded vendor-sim serves it. */
  base_url: z.string(),
  /** Environment variable holding the service's own key for this vendor. */
  api_key_env: z.string().min(1),
  cache: CacheModeSchema,
  /** Reports token counts on embeddings (false: the service estimates; svc.tokens_estimated). */
  reports_embedding_tokens: z.boolean(),
  location: z.string().min(1),
});
export type Vendor = z.infer<typeof VendorSchema>;

/** How a model takes reasoning_effort (spec: svc.reasoning.applied values). */
export const ReasoningSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }), // not a reasoning model: applied "not supported"
  z.object({ kind: z.literal('levels'), levels: z.array(z.string()).min(1), default: z.string() }), // e.g. low/medium/high
  z.object({ kind: z.literal('budget'), budgets: z.record(z.string(), z.number().int().nonnegative()) }), // thinking budget tokens per level
  z.object({ kind: z.literal('toggle') }), // on/off
  z.object({ kind: z.literal('always') }), // always reasons: applied "always on"
]);
export type Reasoning = z.infer<typeof ReasoningSchema>;

export const SkillScoresSchema = z.record(z.string(), z.partialRecord(z.enum(BANDS), z.number().min(0).max(1)));

export const ChatModelSchema = z.object({
  id: z.string().regex(/^vendor-[1-8]\/[a-z0-9][a-z0-9.\-]*$/),
  vendor: z.enum(VENDOR_IDS),
  /** The vendor's own model name, sent upstream. */
  upstream_id: z.string().min(1),
  /** The model's own wire protocol where it is not its vendor's (the decision model: `decision`). */
  protocol: z.enum(MODEL_PROTOCOLS).optional(),
  kind: z.literal('chat'),
  tier: z.enum(TIERS),
  pricing: PriceSchema,
  capabilities: z.object({
    vision: z.boolean(),
    tools: z.boolean(),
    json_schema: z.boolean(),
    context_window: z.number().int().positive(),
    max_output: z.number().int().positive(),
  }),
  /** Sampling parameters the model does not take (dropped, named in svc.dropped_parameters). */
  drops: z.array(z.enum(['temperature', 'top_p'])).default([]),
  /** The vendor lacks native stop sequences: the service cuts the answer. */
  native_stop: z.boolean().default(true),
  reasoning: ReasoningSchema,
  /** Minimum cacheable prefix in tokens on the explicit-marker vendor. */
  min_cache_prefix: z.number().int().nonnegative().default(1024),
  flex: z.boolean(),
  batch: z.boolean(),
  residency: z.enum(['global', 'us']),
  location: z.string().min(1),
  label: z.string().optional(),
  free: z.boolean(),
  /** Named only: auto never picks it (e.g. the decision model). */
  named_only: z.boolean().default(false),
  /** Skill per kind of work and band, 0..1. Absent kinds have no skill data. */
  skills: SkillScoresSchema.default({}),
});
export type ChatModel = z.infer<typeof ChatModelSchema>;

export const EmbeddingModelSchema = z.object({
  id: z.string().regex(/^vendor-[1-8]\/[a-z0-9][a-z0-9.\-]*$/),
  vendor: z.enum(VENDOR_IDS),
  upstream_id: z.string().min(1),
  kind: z.literal('embedding'),
  tier: z.enum(TIERS),
  pricing: PriceSchema,
  dimensions: z.number().int().positive(),
  max_input_tokens: z.number().int().positive(),
  residency: z.enum(['global', 'us']),
  location: z.string().min(1),
  label: z.string().optional(),
  free: z.boolean(),
});
export type EmbeddingModel = z.infer<typeof EmbeddingModelSchema>;

export const CatalogSchema = z.object({
  version: z.string(),
  /** Launch timestamp reported as `created` on every model object. */
  created: z.number().int().positive(),
  /** RFC 3339 date of the skill data. */
  skills_as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  plans: z.object({
    paid: z.object({ service_fee_percent: z.number().min(0) }),
    free: z.object({ service_fee_percent: z.number().min(0) }),
  }),
  /** Fixed fee an auto request pays once, in micros. */
  auto_call_fee_micros: z.number().int().nonnegative(),
  vendors: z.array(VendorSchema).length(8),
  models: z.array(ChatModelSchema).min(20).max(41),
  embedding_models: z.array(EmbeddingModelSchema).length(3),
});
export type CatalogData = z.infer<typeof CatalogSchema>;
