import { loadConfig, commonSchema, env, z } from '@svc/config';

const vendorKeys = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`VENDOR_${index + 1}_API_KEY`, z.string().optional()])) as Record<`VENDOR_${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8}_API_KEY`, z.ZodOptional<z.ZodString>>;

export const edgeConfigSchema = commonSchema.extend({
  EDGE_HOST: env.string('0.0.0.0'),
  EDGE_PORT: env.port(8080),
  ROUTER_ADDR: env.string('127.0.0.1:50051'),
  BILLING_ADDR: env.string('127.0.0.1:50052'),
  REDIS_URL: env.string('redis://127.0.0.1:6379/0'),
  REDIS_KEY_PREFIX: env.string('svc:'),
  AMQP_URL: env.string('amqp://guest:guest@127.0.0.1:5672/svc'),
  /** Where vendors without a base URL in the catalog are served: the embedded simulator. */
  VENDOR_SIM_URL: env.url('http://127.0.0.1:8090'),
  /** Pass the simulator's x-sim-* fault headers through (development and tests only). */
  FORWARD_SIM_HEADERS: env.bool(true),
  /** In-memory key cache lifetime; revocations are also pushed over Redis pub/sub. */
  KEY_CACHE_TTL_MS: env.int(5000),
  RPC_DEADLINE_MS: env.int(2000),
  /** Body limit for JSON bodies (spec: 32 MB, 413 payload_too_large). */
  BODY_LIMIT_BYTES: env.int(32 * 1024 * 1024),
  /** Attempt time limits (spec: 600 s powerful and frontier, 180 s others). */
  ATTEMPT_TIMEOUT_LONG_MS: env.int(600_000),
  ATTEMPT_TIMEOUT_MS: env.int(180_000),
  /** Per-address limit, checked before authentication (spec: default 300 per minute); 0 turns it off. */
  IP_RATE_LIMIT_PER_MINUTE: env.int(300),
  /** Header carrying the client address from a trusted proxy (e.g. x-forwarded-for); unset = the socket address. */
  TRUSTED_PROXY_HEADER: z.string().optional(),
  /** Spec (Long calls): a non-streamed call with no answer commits its 200 after this long. */
  LONG_CALL_COMMIT_MS: env.int(90_000),
  /** Spec (Long calls): one space (unary) or `: keepalive` (stream) this often while the vendor is silent. */
  KEEPALIVE_INTERVAL_MS: env.int(20_000),
  /** Provider health: this many retryable failures within the window mark a model unhealthy for the cooldown. */
  HEALTH_FAILURE_THRESHOLD: env.int(3),
  HEALTH_WINDOW_MS: env.int(30_000),
  HEALTH_COOLDOWN_MS: env.int(30_000),
  /** How often each edge reads the shared health view from Redis. */
  HEALTH_REFRESH_MS: env.int(1000),
  /** Image parts: size and time limits of one download. */
  IMAGE_MAX_BYTES: env.int(20 * 1024 * 1024),
  IMAGE_TIMEOUT_MS: env.int(10_000),
  /** Where a Free call's svc.plan.topup_url points. */
  TOPUP_URL: env.url('https://svc.example.com/billing/top-up'),
  /** How long an edge keeps an organization's own vendor keys (BYOK) in memory. */
  BYOK_CACHE_TTL_MS: env.int(30_000),
  PROTOS_DIR: z.string().optional(),
  ...vendorKeys,
});

export type EdgeConfig = z.infer<typeof edgeConfigSchema>;

export function readConfig(): Readonly<EdgeConfig> {
  return loadConfig('edge', edgeConfigSchema);
}
