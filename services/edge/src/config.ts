import { loadConfig, commonSchema, env, z } from '@svc/config';
import { callConfigFields } from '@svc/backends';

export const edgeConfigSchema = commonSchema.extend({
  EDGE_HOST: env.string('0.0.0.0'),
  EDGE_PORT: env.port(8080),
  /** Router and billing addresses, Redis, the simulator, attempt limits, provider health, BYOK cache (libs/backends callConfigFields). */
  ...callConfigFields,
  AMQP_URL: env.string('amqp://guest:guest@127.0.0.1:5672/svc'),
  /** The batch service (files): host:port, a comma-separated list of replicas, or a grpc target. */
  BATCH_ADDR: env.string('127.0.0.1:50054'),
  /** Pass the simulator's x-sim-* fault headers through (development and tests only). */
  FORWARD_SIM_HEADERS: env.bool(true),
  /** In-memory key cache lifetime; revocations are also pushed over Redis pub/sub. */
  KEY_CACHE_TTL_MS: env.int(5000),
  /** Body limit for JSON bodies (spec: 32 MB, 413 payload_too_large; decimal, as the spec writes MiB where it means it). */
  BODY_LIMIT_BYTES: env.int(32_000_000),
  /** Per-address limit, checked before authentication (spec: default 300 per minute); 0 turns it off. */
  IP_RATE_LIMIT_PER_MINUTE: env.int(300),
  /** Header carrying the client address from a trusted proxy (e.g. x-forwarded-for); unset = the socket address. */
  TRUSTED_PROXY_HEADER: z.string().optional(),
  /** Spec (Long calls): a non-streamed call with no answer commits its 200 after this long. */
  LONG_CALL_COMMIT_MS: env.int(90_000),
  /** Spec (Long calls): one space (unary) or `: keepalive` (stream) this often while the vendor is silent. */
  KEEPALIVE_INTERVAL_MS: env.int(20_000),
  /** The fast model that writes compaction summaries (spec: Compaction; on the service's own key). */
  COMPACTION_MODEL: env.string('vendor-3/lumen-2.5-flash-lite'),
  /** Longest a turn waits for its compaction (the workers' conversation.compact job). */
  COMPACTION_WAIT_MS: env.int(60_000),
  /** The edge's copy of recent thread histories (responses/history-cache.ts): how long an entry is kept at most; 0 turns it off. */
  RESPONSES_HISTORY_CACHE_TTL_MS: env.int(120_000),
  /** Its size: the most characters of history kept, counting 1,024 more per item and 2,048 per entry for what they take in memory. */
  RESPONSES_HISTORY_CACHE_MAX_CHARACTERS: env.int(16_000_000),
  /** Background responses (POST /v1/responses background true) run on the workers' response.run queue; false when no worker consumes it (400 background_unavailable). */
  BACKGROUND_RESPONSES: env.bool(true),
  /** How often the status document is recomputed (spec: every 30 seconds); one replica computes, every replica serves it. */
  STATUS_RECOMPUTE_MS: env.int(30_000),
  /** Where the status document's measurements come from: `redis` (the counters every edge and worker writes) or `prometheus` (the metrics the fleet exports, at PROMETHEUS_URL). */
  STATUS_SOURCE: z.enum(['redis', 'prometheus']).default('redis'),
  /** The Prometheus that scrapes the fleet (STATUS_SOURCE=prometheus). */
  PROMETHEUS_URL: env.string('http://prometheus.monitoring.svc:9090'),
  /** Analyses the public analyzer runs per UTC day for the whole service (503 analyzer_daily_cap past it); 0: no limit. */
  ANALYZER_DAILY_CAP: env.int(10_000),
});

export type EdgeConfig = z.infer<typeof edgeConfigSchema>;

export function readConfig(): Readonly<EdgeConfig> {
  return loadConfig('edge', edgeConfigSchema);
}
