import { createImageFetcher } from '@svc/safe-fetch';
import { createStatusRecorder, parseRegionalComponents, type StatusRecorder } from './status/measurements';
import type { Catalog } from '@svc/catalog';
import { env, z } from '@svc/config';
import type { Logger } from '@svc/logger';
import type { Redis } from '@svc/redis';
import { DEFAULT_JEV_SETTINGS, DEFAULT_SPLIT_SETTINGS, ProviderHealth, RedisCacheState, createOwnKeys, type CallDeps, type ImageResolver, type JevSettings, type SplitSettings, type OwnKeys, type TokenGate, type UsageSink } from '@svc/call';
import { createBackends, type Backends } from './clients';
import { billingPort, routerPort } from './ports';

const vendorKeys = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`VENDOR_${index + 1}_API_KEY`, z.string().optional()])) as Record<`VENDOR_${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8}_API_KEY`, z.ZodOptional<z.ZodString>>;

/** What every service that runs model calls reads (the edge and the workers), defined once. */
export const callConfigFields = {
  ROUTER_ADDR: env.string('127.0.0.1:50051'),
  BILLING_ADDR: env.string('127.0.0.1:50052'),
  CONVERSATIONS_ADDR: env.string('127.0.0.1:50053'),
  RPC_DEADLINE_MS: env.int(2000),
  /** Retention of a conversation that sets none (spec: "default the organization's retention"), days. */
  CONVERSATION_RETENTION_DAYS: env.int(30),
  REDIS_URL: env.string('redis://127.0.0.1:6379/0'),
  REDIS_KEY_PREFIX: env.string('svc:'),
  /**
   * Admission runs in this process on billing's Redis counters (one Lua call), and asks billing's
   * Admit RPC only when counters are missing (their rebuild needs the ledger). Needs the same Redis
   * and REDIS_KEY_PREFIX as billing. false: every admission is the RPC.
   */
  ADMISSION_IN_PROCESS: env.bool(true),
  /** As billing's: how long a reservation lives without settlement or release (s), and the Free plan's daily fair-use cost (list-price micros). */
  RESERVATION_TTL_SECONDS: env.int(3600),
  FREE_DAILY_COST_MICROS: env.int(500_000),
  /** Image parts sent as http(s) URLs: size and time limits of one download (the edge's calls and the workers' background turns and batch lines). */
  IMAGE_MAX_BYTES: env.int(20 * 1024 * 1024),
  IMAGE_TIMEOUT_MS: env.int(10_000),
  /** Where vendors without a base URL in the catalog are served: the embedded simulator. */
  VENDOR_SIM_URL: env.url('http://127.0.0.1:8090'),
  /** Attempt time limits (spec: 600 s powerful and frontier, 180 s others). */
  ATTEMPT_TIMEOUT_LONG_MS: env.int(600_000),
  ATTEMPT_TIMEOUT_MS: env.int(180_000),
  /** Provider health: this many retryable failures within the window mark a model unhealthy for the cooldown. */
  HEALTH_FAILURE_THRESHOLD: env.int(3),
  HEALTH_WINDOW_MS: env.int(30_000),
  HEALTH_COOLDOWN_MS: env.int(30_000),
  /** How often each replica reads the shared health view from Redis. */
  HEALTH_REFRESH_MS: env.int(1000),
  /** Where a Free call's svc.plan.topup_url points. */
  TOPUP_URL: env.url('https://svc.example.com/billing/top-up'),
  /** How long a replica keeps an organization's own vendor keys (BYOK) in memory. */
  BYOK_CACHE_TTL_MS: env.int(30_000),
  /** The status document's two regional vendor components (RULINGS 10), as vendor:region (the region of the models measured). */
  STATUS_REGIONAL_COMPONENTS: env.string('vendor-1:us-east,vendor-5:eu-west'),
  /**
   * jev: auto may answer with the decision model when the json_schema maps onto its typed questions,
   * the job is one it can do and it is cheaper than the routed pick (libs/call decision/jev.ts).
   */
  JEV_ENABLED: env.bool(true),
  /** Lines (svc.routing.line) where jev applies, comma-separated. */
  JEV_LINES: env.string(DEFAULT_JEV_SETTINGS.lines.join(',')),
  /** Kinds of work (svc.routing.task_type) the decision model can do, comma-separated. */
  JEV_TASK_TYPES: env.string(DEFAULT_JEV_SETTINGS.taskTypes.join(',')),
  /** Highest job difficulty (1–5, after the low-confidence bias) jev takes. */
  JEV_MAX_DIFFICULTY: env.int(DEFAULT_JEV_SETTINGS.maxDifficulty),
  /** Lowest classifier confidence (0–1) jev takes. */
  JEV_MIN_CONFIDENCE: env.number(DEFAULT_JEV_SETTINGS.minConfidence),
  /**
   * Split-and-route (`distill`, libs/call split/gate.ts): under auto, a large plain-text source with
   * a question is answered on a verbatim excerpt when the split is cheaper; svc.split reports it.
   */
  SPLIT_ENABLED: env.bool(DEFAULT_SPLIT_SETTINGS.enabled),
  /** Smallest source (tokens, characters / 4) worth splitting; below it svc.split.reason is `below_threshold`. */
  SPLIT_MIN_SOURCE_TOKENS: env.int(DEFAULT_SPLIT_SETTINGS.minSourceTokens),
  /** Largest question apart from the source (tokens); a longer one is `not_eligible`. */
  SPLIT_MAX_QUESTION_TOKENS: env.int(DEFAULT_SPLIT_SETTINGS.maxQuestionTokens),
  /** Kinds of work (svc.routing.task_type) that need the whole document (`not_eligible`), comma-separated. */
  SPLIT_WHOLE_DOCUMENT_TASKS: env.string(DEFAULT_SPLIT_SETTINGS.wholeDocumentTasks.join(',')),
  /** The answer's output tokens in the price estimate (capped by max_tokens). */
  SPLIT_ANSWER_OUTPUT_TOKENS: env.int(DEFAULT_SPLIT_SETTINGS.answerOutputTokens),
  /** Share of the source the price estimate expects the excerpt to keep (0–1). */
  SPLIT_EXCERPT_SHARE_ESTIMATE: env.number(DEFAULT_SPLIT_SETTINGS.excerptShareEstimate),
  /** Largest excerpt as a share of the source (0–1); bigger is fallback `extract_too_big`. */
  SPLIT_MAX_EXCERPT_SHARE: env.number(DEFAULT_SPLIT_SETTINGS.maxExcerptShare),
  /** Lowest share of the extract's lines found verbatim in the source (0–1); lower is fallback `low_verbatim`. */
  SPLIT_MIN_VERBATIM_RATE: env.number(DEFAULT_SPLIT_SETTINGS.minVerbatimRate),
  /** Lowest check_p (0–1); lower is fallback `check_rejected`. */
  SPLIT_MIN_CHECK_P: env.number(DEFAULT_SPLIT_SETTINGS.minCheckP),
  /** Highest probability the answer needs lines outside the excerpt (0–1); higher is fallback `need_more_source`. */
  SPLIT_MAX_NEED_MORE_P: env.number(DEFAULT_SPLIT_SETTINGS.maxNeedMoreP),
  /** The questions step: at or above this probability that the question needs the whole source, reason `jev_no`. */
  SPLIT_MAX_WHOLE_P: env.number(DEFAULT_SPLIT_SETTINGS.maxWholeP),
  /** The split's estimated list price must be at most this share of the whole request's on the pick; else `price_check`. */
  SPLIT_MAX_PRICE_RATIO: env.number(DEFAULT_SPLIT_SETTINGS.maxPriceRatio),
  /** Tokens of the source's beginning the questions step reads. */
  SPLIT_QUESTIONS_SOURCE_TOKENS: env.int(DEFAULT_SPLIT_SETTINGS.questionsSourceTokens),
  /** The extractor model (catalog id); empty: the cheapest model allowed for the key whose context holds the source. */
  SPLIT_EXTRACTOR: env.string(DEFAULT_SPLIT_SETTINGS.extractor),
  PROTOS_DIR: z.string().optional(),
  /** Postgres for the usage outbox (billing.usage_outbox; the role needs INSERT on it only): where usage the broker cannot take waits for billing. Unset: no outbox. */
  DATABASE_URL: z.string().optional(),
  ...vendorKeys,
};

const callConfigSchema = z.object(callConfigFields);
export type CallConfig = z.infer<typeof callConfigSchema>;

/** The service's own vendor keys by variable name (VENDOR_1_API_KEY ...). */
export function vendorKeysOf(config: Readonly<Record<string, unknown>>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(config).filter(([name]) => /^VENDOR_\d_API_KEY$/.test(name))) as Record<string, string | undefined>;
}

/** The jev settings of a service's configuration (comma lists split, blanks dropped). */
export function jevSettingsOf(config: Pick<CallConfig, 'JEV_ENABLED' | 'JEV_LINES' | 'JEV_TASK_TYPES' | 'JEV_MAX_DIFFICULTY' | 'JEV_MIN_CONFIDENCE'>): JevSettings {
  const list = (value: string) => value.split(',').map((item) => item.trim()).filter(Boolean);
  return { enabled: config.JEV_ENABLED, lines: list(config.JEV_LINES), taskTypes: list(config.JEV_TASK_TYPES), maxDifficulty: config.JEV_MAX_DIFFICULTY, minConfidence: config.JEV_MIN_CONFIDENCE };
}

/** The split-and-route settings of a service's configuration. */
export function splitSettingsOf(config: Pick<CallConfig, 'SPLIT_ENABLED' | 'SPLIT_MIN_SOURCE_TOKENS' | 'SPLIT_MAX_QUESTION_TOKENS' | 'SPLIT_WHOLE_DOCUMENT_TASKS' | 'SPLIT_ANSWER_OUTPUT_TOKENS' | 'SPLIT_EXCERPT_SHARE_ESTIMATE' | 'SPLIT_MAX_EXCERPT_SHARE' | 'SPLIT_MIN_VERBATIM_RATE' | 'SPLIT_MIN_CHECK_P' | 'SPLIT_MAX_NEED_MORE_P' | 'SPLIT_MAX_WHOLE_P' | 'SPLIT_MAX_PRICE_RATIO' | 'SPLIT_QUESTIONS_SOURCE_TOKENS' | 'SPLIT_EXTRACTOR'>): SplitSettings {
  return {
    enabled: config.SPLIT_ENABLED,
    minSourceTokens: config.SPLIT_MIN_SOURCE_TOKENS,
    maxQuestionTokens: config.SPLIT_MAX_QUESTION_TOKENS,
    wholeDocumentTasks: config.SPLIT_WHOLE_DOCUMENT_TASKS.split(',').map((item) => item.trim()).filter(Boolean),
    answerOutputTokens: config.SPLIT_ANSWER_OUTPUT_TOKENS,
    excerptShareEstimate: config.SPLIT_EXCERPT_SHARE_ESTIMATE,
    maxExcerptShare: config.SPLIT_MAX_EXCERPT_SHARE,
    minVerbatimRate: config.SPLIT_MIN_VERBATIM_RATE,
    minCheckP: config.SPLIT_MIN_CHECK_P,
    maxNeedMoreP: config.SPLIT_MAX_NEED_MORE_P,
    maxWholeP: config.SPLIT_MAX_WHOLE_P,
    maxPriceRatio: config.SPLIT_MAX_PRICE_RATIO,
    questionsSourceTokens: config.SPLIT_QUESTIONS_SOURCE_TOKENS,
    extractor: config.SPLIT_EXTRACTOR,
  };
}

export interface CallRuntime {
  /** The pipeline's ports; it always downloads images. */
  deps: CallDeps & Required<Pick<CallDeps, 'images'>>;
  backends: Backends;
  health: ProviderHealth;
  ownKeys: OwnKeys;
  /** The status document's measurements of this process (the edge adds its requests). */
  status: StatusRecorder;
  /** Stops the health refresh and closes the gRPC clients. */
  close(): void;
}

/**
 * Everything a service needs to run calls through @svc/call, wired the same way wherever it
 * runs: gRPC clients of router and billing, provider health and prompt-cache state shared in
 * Redis, the organizations' own vendor keys, the image downloader. The caller brings its Redis
 * connection, its usage sink and, where it has one, the key's token gate.
 */
export function createCallRuntime(config: Readonly<CallConfig>, options: { catalog: Catalog; logger: Logger; redis: Redis; usage: (backends: Backends) => UsageSink; tokens?: TokenGate; images?: ImageResolver; backends?: Backends }): CallRuntime {
  const backends = options.backends ?? createBackends({ routerAddr: config.ROUTER_ADDR, billingAddr: config.BILLING_ADDR, deadlineMs: config.RPC_DEADLINE_MS, protosDir: config.PROTOS_DIR });
  const ownKeys = createOwnKeys({ fetch: (organizationId) => backends.vendorKeys(organizationId), ttlMs: config.BYOK_CACHE_TTL_MS });
  const health = new ProviderHealth({
    redis: options.redis,
    logger: options.logger,
    threshold: config.HEALTH_FAILURE_THRESHOLD,
    windowMs: config.HEALTH_WINDOW_MS,
    cooldownMs: config.HEALTH_COOLDOWN_MS,
    refreshMs: config.HEALTH_REFRESH_MS,
  });
  health.start();
  // A vendor without a base URL in the catalog is served by the simulator at VENDOR_SIM_URL: say
  // so once at start in production, where that is rarely what an operator meant.
  const simulated = options.catalog.data.vendors.filter((vendor) => !vendor.base_url).map((vendor) => vendor.id);
  if (process.env.NODE_ENV === 'production' && simulated.length > 0) {
    options.logger.warn('vendors without a base URL in the catalog are served by the simulator at VENDOR_SIM_URL', { vendors: simulated, vendor_sim_url: config.VENDOR_SIM_URL });
  }
  // The status document's measurements: every vendor attempt this process makes (status/measurements.ts).
  const status = createStatusRecorder({ redis: options.redis, catalog: options.catalog, regional: parseRegionalComponents(config.STATUS_REGIONAL_COMPONENTS), logger: options.logger });
  const deps: CallRuntime['deps'] = {
    catalog: options.catalog,
    router: routerPort(backends),
    billing: billingPort(backends, config.ADMISSION_IN_PROCESS ? { redis: options.redis, settings: { reservationTtlSeconds: config.RESERVATION_TTL_SECONDS, freeDailyCostMicros: config.FREE_DAILY_COST_MICROS }, deadlineMs: config.RPC_DEADLINE_MS } : undefined),
    usage: options.usage(backends),
    ...(options.tokens ? { tokens: options.tokens } : {}),
    health,
    cacheState: new RedisCacheState({ redis: options.redis, logger: options.logger }),
    ownKeys,
    // Every process that runs calls downloads their http(s) images (a deferred image is never sent without its bytes).
    images: options.images ?? createImageFetcher({ maxBytes: config.IMAGE_MAX_BYTES, timeoutMs: config.IMAGE_TIMEOUT_MS }),
    attemptObserver: status.attemptObserver,
    vendors: { simUrl: config.VENDOR_SIM_URL, keys: vendorKeysOf(config) },
    logger: options.logger,
    attemptTimeoutMs: config.ATTEMPT_TIMEOUT_MS,
    attemptTimeoutLongMs: config.ATTEMPT_TIMEOUT_LONG_MS,
    topupUrl: config.TOPUP_URL,
    jev: jevSettingsOf(config),
    split: splitSettingsOf(config),
  };
  return {
    deps,
    backends,
    health,
    ownKeys,
    status,
    close: () => {
      health.stop();
      backends.close();
      void status.close();
    },
  };
}
