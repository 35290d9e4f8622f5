import type { Catalog } from '@svc/catalog';
import { env, z } from '@svc/config';
import type { Logger } from '@svc/logger';
import type { Redis } from '@svc/redis';
import { ProviderHealth, RedisCacheState, createOwnKeys, type CallDeps, type ImageResolver, type OwnKeys, type TokenGate, type UsageSink } from '@svc/call';
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

export interface CallRuntime {
  deps: CallDeps;
  backends: Backends;
  health: ProviderHealth;
  ownKeys: OwnKeys;
  /** Stops the health refresh and closes the gRPC clients. */
  close(): void;
}

/**
 * Everything a service needs to run calls through @svc/call, wired the same way wherever it
 * runs: gRPC clients of router and billing, provider health and prompt-cache state shared in
 * Redis, the organizations' own vendor keys. The caller brings its Redis connection, its usage
 * sink and, where it has them, the key's token gate and an image downloader.
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
  const deps: CallDeps = {
    catalog: options.catalog,
    router: routerPort(backends),
    billing: billingPort(backends),
    usage: options.usage(backends),
    ...(options.tokens ? { tokens: options.tokens } : {}),
    health,
    cacheState: new RedisCacheState({ redis: options.redis, logger: options.logger }),
    ownKeys,
    ...(options.images ? { images: options.images } : {}),
    vendors: { simUrl: config.VENDOR_SIM_URL, keys: vendorKeysOf(config) },
    logger: options.logger,
    attemptTimeoutMs: config.ATTEMPT_TIMEOUT_MS,
    attemptTimeoutLongMs: config.ATTEMPT_TIMEOUT_LONG_MS,
    topupUrl: config.TOPUP_URL,
  };
  return {
    deps,
    backends,
    health,
    ownKeys,
    close: () => {
      health.stop();
      backends.close();
    },
  };
}
