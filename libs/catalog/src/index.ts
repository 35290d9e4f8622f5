import catalogJson from './catalog.json';
import {
  CatalogSchema,
  TASK_TYPES,
  TIERS,
  type CacheMode,
  type CatalogData,
  type ChatModel,
  type EmbeddingModel,
  type Price,
  type Tier,
  type Vendor,
  type VendorId,
} from './schema';

export * from './schema';

/** Spec (What the service does 2): the four virtual ids, the only ones. */
export const VIRTUAL_MODEL_IDS = ['auto', 'auto/best', 'auto/balanced', 'auto/cheap'] as const;
export type VirtualModelId = (typeof VIRTUAL_MODEL_IDS)[number];

/** The line of each virtual id, as in svc.routing.line and svc.tier on virtual models (RULINGS 5). */
export const LINES = {
  auto: 'auto',
  'auto/best': 'best',
  'auto/balanced': 'balanced',
  'auto/cheap': 'cheap',
} as const satisfies Record<VirtualModelId, string>;
export type Line = (typeof LINES)[VirtualModelId];

/**
 * The Free plan's limits (spec: Limits, Free plan), in the free-tier document's field names: 100
 * answered requests per UTC day, 20 per minute, 16000 input tokens, max_tokens at most 2000 (also
 * the default on a Free call). The daily fair-use cost is configuration and never shown.
 */
export const FREE_PLAN_LIMITS = {
  requests_per_day: 100,
  requests_per_minute: 20,
  max_input_tokens: 16_000,
  max_output_tokens: 2_000,
} as const;

/** Classifier id of the decision model (spec: svc.decision). */
export const DECISION_MODEL_ID = 'vendor-8/decision-1.13.0';

/** max_tokens when the request sends none (spec: request-field table; clamped to the model's max output). */
export const DEFAULT_MAX_TOKENS = 16_000;

/** Spec (Baseline): the successful calls a key needs before its baseline applies. */
export const BASELINE_CALLS_NEEDED = 20;

/** Number of embedding models (spec: POST /v1/embeddings, "one of three embedding catalog ids"). */
export const EMBEDDING_MODEL_COUNT = 3;

/** Tier rank: fast 0, balanced 1, powerful 2, frontier 3. */
export function tierRank(tier: Tier): number {
  return TIERS.indexOf(tier);
}

/**
 * The price tiers of a model (spec: svc.tier `requested`/`applied`, Deadline and flex rules):
 * `standard` always; `flex` where the model's `flex` is true (the same model, slower, best-effort
 * capacity, asked per call); `batch` where its `batch` is true (the vendor's batch API, 24-hour
 * window).
 */
export type PriceTier = 'standard' | 'flex' | 'batch';

/**
 * Share of the standard price each tier costs, on every rate (input, output, cache read, cache
 * write). Half for flex and batch: the vendors' flex tiers and batch APIs (OpenAI flex and Batch,
 * Anthropic Message Batches, Gemini flex and batch mode) bill 50% of standard, prompt-cache rates
 * included; the analyzer's batch `discount` is this share.
 */
export const TIER_PRICE_SHARE: Readonly<Record<PriceTier, number>> = Object.freeze({ standard: 1, flex: 0.5, batch: 0.5 });

export function hasPriceTier(model: ChatModel, tier: PriceTier): boolean {
  return tier === 'standard' || (tier === 'flex' ? model.flex : model.batch);
}

/** Round to 6 decimals of USD per million (what pricing holds exactly). */
const sixDecimals = (usd: number) => Math.round(usd * 1_000_000) / 1_000_000;

/** The model's list price at a tier, or undefined when the model has no such tier. */
export function tierPricing(model: ChatModel, tier: PriceTier): Price | undefined {
  if (!hasPriceTier(model, tier)) return undefined;
  const share = TIER_PRICE_SHARE[tier];
  if (share === 1) return model.pricing;
  const { input, output, cache_read, cache_write } = model.pricing;
  return { input: sixDecimals(input * share), output: sixDecimals(output * share), cache_read: sixDecimals(cache_read * share), cache_write: sixDecimals(cache_write * share) };
}

/** Blended list price in USD per million tokens: (input + 3 * output) / 4. */
export function blendedPrice(pricing: Price): number {
  return (pricing.input + 3 * pricing.output) / 4;
}

/** True when `a` offers at least what `b` offers on every capability. */
function capabilitiesCover(a: ChatModel['capabilities'], b: ChatModel['capabilities']): boolean {
  return (
    (a.vision || !b.vision) &&
    (a.tools || !b.tools) &&
    (a.json_schema || !b.json_schema) &&
    a.context_window >= b.context_window &&
    a.max_output >= b.max_output
  );
}

/**
 * The earlier rule: the models auto may choose for kind `other` (and for any job without skill
 * data), as a price/capability curve.
 *
 * - Only chat models that are not named_only take part.
 * - They are sorted by blended price, (input + 3 * output) / 4, cheapest first (ties by id).
 * - A model is dropped when a strictly cheaper model has an equal or higher tier rank and equal
 *   or wider capabilities (vision, tools, json_schema each at least as good; context_window and
 *   max_output at least as large): that model would do the same job for less.
 * - What remains is the lower frontier of price against capability, returned cheapest first;
 *   "the next model up the curve" (spec: Escalation) is the next element.
 */
export function earlierRuleCandidates(models: readonly ChatModel[]): ChatModel[] {
  const pool = models
    .filter((m) => !m.named_only)
    .slice()
    .sort((a, b) => blendedPrice(a.pricing) - blendedPrice(b.pricing) || a.id.localeCompare(b.id));
  return pool.filter(
    (model) =>
      !pool.some(
        (other) =>
          blendedPrice(other.pricing) < blendedPrice(model.pricing) &&
          tierRank(other.tier) >= tierRank(model.tier) &&
          capabilitiesCover(other.capabilities, model.capabilities),
      ),
  );
}

/** True when the model has a skill score for at least one kind of work. */
export function hasSkillData(model: ChatModel): boolean {
  return Object.values(model.skills).some((bands) => Object.keys(bands ?? {}).length > 0);
}

/** A vendor as the catalog export shows it: without the key variable or the upstream address. */
export type ExportedVendor = Omit<Vendor, 'api_key_env' | 'base_url'>;
export type ExportedChatModel = ChatModel & { auto_eligible: boolean };

/** The catalog-export document (GET /v1/public/catalog-export): the model tables as served. */
export interface CatalogExport {
  object: 'catalog_export';
  version: string;
  created: number;
  /** RFC 3339 date of the skill data, as in the auto-model document. */
  skills_as_of: string;
  plans: CatalogData['plans'];
  auto_call_fee_micros: number;
  vendors: ExportedVendor[];
  models: ExportedChatModel[];
  embedding_models: EmbeddingModel[];
}

/** Loaded, checked catalog with lookups. The data is deeply frozen. */
export class Catalog {
  readonly vendors: readonly Vendor[];
  readonly chatModels: readonly ChatModel[];
  readonly embeddingModels: readonly EmbeddingModel[];
  private readonly vendorById: ReadonlyMap<string, Vendor>;
  private readonly chatById: ReadonlyMap<string, ChatModel>;
  private readonly embeddingById: ReadonlyMap<string, EmbeddingModel>;
  private readonly autoEligible: readonly string[];

  constructor(readonly data: CatalogData) {
    this.vendors = data.vendors;
    this.chatModels = data.models;
    this.embeddingModels = data.embedding_models;
    this.vendorById = new Map(data.vendors.map((v) => [v.id, v]));
    this.chatById = new Map(data.models.map((m) => [m.id, m]));
    this.embeddingById = new Map(data.embedding_models.map((m) => [m.id, m]));
    const curve = new Set(earlierRuleCandidates(data.models).map((m) => m.id));
    this.autoEligible = Object.freeze(
      data.models.filter((m) => !m.named_only && (hasSkillData(m) || curve.has(m.id))).map((m) => m.id),
    );
  }

  vendor(id: string): Vendor | undefined {
    return this.vendorById.get(id);
  }

  /** A chat or embedding model; undefined when unknown (virtual ids are not catalog models). */
  model(id: string): ChatModel | EmbeddingModel | undefined {
    return this.chatById.get(id) ?? this.embeddingById.get(id);
  }

  chatModel(id: string): ChatModel | undefined {
    return this.chatById.get(id);
  }

  embeddingModel(id: string): EmbeddingModel | undefined {
    return this.embeddingById.get(id);
  }

  /** `auto`, `auto/best`, `auto/balanced` or `auto/cheap`. */
  isVirtual(id: string): id is VirtualModelId {
    return (VIRTUAL_MODEL_IDS as readonly string[]).includes(id);
  }

  /** The free model list (svc.free_tier, GET /v1/public/free-tier): chat models, then embedding models. */
  freeModelIds(): string[] {
    return [...this.chatModels, ...this.embeddingModels].filter((m) => m.free).map((m) => m.id);
  }

  /**
   * Models auto can pick today (svc.auto_eligible, GET /v1/public/auto-models): not named_only,
   * and either a skill score for at least one kind of work or a place on the earlier rule's
   * curve for kind `other`. Catalog order.
   */
  autoEligibleIds(): string[] {
    return [...this.autoEligible];
  }

  isAutoEligible(id: string): boolean {
    return this.autoEligible.includes(id);
  }

  /** The earlier rule's curve over this catalog, cheapest first. */
  earlierRuleCurve(): ChatModel[] {
    return earlierRuleCandidates(this.chatModels);
  }

  /** The catalog-export document: vendors without api_key_env (nor base_url), models, embedding models, skills_as_of. */
  exportDocument(): CatalogExport {
    const d = this.data;
    return structuredClone({
      object: 'catalog_export' as const,
      version: d.version,
      created: d.created,
      skills_as_of: d.skills_as_of,
      plans: d.plans,
      auto_call_fee_micros: d.auto_call_fee_micros,
      vendors: d.vendors.map(({ api_key_env: _key, base_url: _url, ...vendor }) => vendor),
      models: d.models.map((m) => ({ ...m, auto_eligible: this.autoEligible.includes(m.id) })),
      embedding_models: [...d.embedding_models],
    });
  }
}

/** Equal within rounding of prices given to six decimals. */
function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 + 1e-6 * Math.abs(b);
}

/** Spec Caching rules 2 and 3: what a model's cache prices must be under its vendor's cache mode. */
function cachePriceProblem(mode: CacheMode, p: Price): string | undefined {
  switch (mode) {
    case 'explicit':
      // Explicit markers: reads at 0.1x input, 5-minute writes at 1.25x input.
      if (!near(p.cache_read, p.input * 0.1)) return `cache_read ${p.cache_read} must be 0.1 x input (${p.input}) on an explicit-cache vendor`;
      if (!near(p.cache_write, p.input * 1.25)) return `cache_write ${p.cache_write} must be 1.25 x input (${p.input}) on an explicit-cache vendor`;
      return undefined;
    case 'automatic':
    case 'automatic_4096':
      // Automatic caches: reads discounted, no write charge.
      if (!near(p.cache_write, p.input)) return `cache_write ${p.cache_write} must equal input (${p.input}) on an automatic-cache vendor (no write charge)`;
      if (p.cache_read < p.input * 0.1 - 1e-9 || p.cache_read > p.input * 0.5 + 1e-9) {
        return `cache_read ${p.cache_read} must be between 0.1 and 0.5 x input (${p.input}) on an automatic-cache vendor`;
      }
      return undefined;
    case 'none':
      if (!near(p.cache_read, p.input) || !near(p.cache_write, p.input)) {
        return `cache_read and cache_write must equal input (${p.input}) on a vendor without prompt cache`;
      }
      return undefined;
  }
}

/** Spec Caching rules 2 and 3: the minimum cacheable prefix a vendor's cache mode allows. */
function minPrefixProblem(mode: CacheMode, prefix: number): string | undefined {
  if (mode === 'explicit' && (prefix < 512 || prefix > 4096)) return `min_cache_prefix ${prefix} must be 512 to 4096 on an explicit-cache vendor`;
  if (mode === 'automatic' && prefix !== 1024) return `min_cache_prefix ${prefix} must be 1024 on an automatic-cache vendor`;
  if (mode === 'automatic_4096' && prefix !== 4096) return `min_cache_prefix ${prefix} must be 4096 on an automatic_4096 vendor`;
  return undefined;
}

/** Every problem the schema cannot see. Empty when the catalog is consistent. */
export function crossCheck(data: CatalogData): string[] {
  const problems: string[] = [];
  const vendors = new Map<VendorId, Vendor>();
  for (const vendor of data.vendors) {
    if (vendors.has(vendor.id)) problems.push(`vendor ${vendor.id}: duplicate vendor id`);
    vendors.set(vendor.id, vendor);
  }

  const seen = new Set<string>();
  const knownTasks = new Set<string>(TASK_TYPES);
  for (const model of [...data.models, ...data.embedding_models]) {
    const where = `model ${model.id}`;
    if (seen.has(model.id)) problems.push(`${where}: duplicate model id`);
    seen.add(model.id);
    if ((VIRTUAL_MODEL_IDS as readonly string[]).includes(model.id)) problems.push(`${where}: id is a virtual id`);
    if (model.id.split('/')[0] !== model.vendor) problems.push(`${where}: id prefix does not match vendor ${model.vendor}`);
    const vendor = vendors.get(model.vendor);
    if (!vendor) {
      problems.push(`${where}: vendor ${model.vendor} does not exist`);
      continue;
    }
    if (model.kind === 'embedding') {
      // Embeddings have no prompt cache: both cache prices are the input price.
      if (!near(model.pricing.cache_read, model.pricing.input) || !near(model.pricing.cache_write, model.pricing.input)) {
        problems.push(`${where}: embedding cache_read and cache_write must equal input (${model.pricing.input})`);
      }
      continue;
    }
    const priceProblem = cachePriceProblem(vendor.cache, model.pricing);
    if (priceProblem) problems.push(`${where}: ${priceProblem}`);
    const prefixProblem = minPrefixProblem(vendor.cache, model.min_cache_prefix);
    if (prefixProblem) problems.push(`${where}: ${prefixProblem}`);
    for (const task of Object.keys(model.skills)) {
      if (task === 'other') problems.push(`${where}: skills key "other" is not allowed (kind other goes by the earlier rule)`);
      else if (!knownTasks.has(task)) problems.push(`${where}: skills key "${task}" is not a known kind of work`);
    }
    if (model.reasoning.kind === 'levels' && !model.reasoning.levels.includes(model.reasoning.default)) {
      problems.push(`${where}: reasoning default "${model.reasoning.default}" is not one of its levels`);
    }
    if (model.capabilities.max_output > model.capabilities.context_window) {
      problems.push(`${where}: max_output exceeds context_window`);
    }
  }

  const decision = data.models.find((m) => m.id === DECISION_MODEL_ID);
  if (!decision) problems.push(`decision model ${DECISION_MODEL_ID} is missing`);
  else if (!decision.named_only) problems.push(`decision model ${DECISION_MODEL_ID} must be named_only`);
  else if (decision.protocol !== 'decision') problems.push(`decision model ${DECISION_MODEL_ID} must speak the decision protocol`);
  for (const model of data.models) {
    if (model.protocol === 'decision' && model.id !== DECISION_MODEL_ID) problems.push(`model ${model.id}: only the decision model speaks the decision protocol`);
  }

  if (data.embedding_models.length !== EMBEDDING_MODEL_COUNT) {
    problems.push(`expected exactly ${EMBEDDING_MODEL_COUNT} embedding models, found ${data.embedding_models.length}`);
  }
  if (![...data.models, ...data.embedding_models].some((m) => m.free)) problems.push('no free models: the free model list is empty');
  return problems;
}

/** Thrown by loadCatalog; `problems` holds one line per problem. */
export class CatalogError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid catalog (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `- ${p}`).join('\n')}`);
    this.name = 'CatalogError';
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Validates catalog data (by default the committed catalog.json) with CatalogSchema and the
 * cross checks, and returns the catalog. Throws a CatalogError listing every problem.
 */
export function loadCatalog(data: unknown = catalogJson): Catalog {
  const parsed = CatalogSchema.safeParse(data);
  if (!parsed.success) {
    throw new CatalogError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  const problems = crossCheck(parsed.data);
  if (problems.length > 0) throw new CatalogError(problems);
  return new Catalog(deepFreeze(parsed.data));
}

/** The committed catalog, loaded and checked at import. */
export const catalog: Catalog = loadCatalog();
