import { loadConfig, commonSchema, env, z } from '@svc/config';
import { callConfigFields } from '@svc/backends';

export const workersConfigSchema = commonSchema.extend({
  AMQP_URL: env.string('amqp://guest:guest@127.0.0.1:5672/svc'),
  WORKERS_HOST: env.string('0.0.0.0'),
  /** HTTP /healthz and /readyz for probes. */
  WORKERS_HEALTH_PORT: env.port(8081),
  /** Queues this replica consumes (comma-separated; empty: every queue); scale replicas per queue. */
  WORKER_QUEUES: env.string(''),
  /** Background turns (response.run) one worker runs at once. */
  RESPONSE_RUN_PREFETCH: env.int(8),
  /**
   * The organization's vendor-batch pool of background responses (jobs/pool.ts), run by replicas
   * whose WORKER_QUEUES include `response.pool` (or are empty). A (organization, vendor) group is
   * sent as a vendor batch once POOL_MAX_LINES lines wait or its oldest line waited POOL_MAX_AGE_MS.
   */
  POOL_MAX_LINES: env.int(1000),
  POOL_MAX_AGE_MS: env.int(300_000),
  /** How often waiting lines are checked for a flush. */
  POOL_FLUSH_INTERVAL_MS: env.int(1000),
  /** How long a flush holds its claim before the lines go back to waiting (a worker that died mid-send). */
  POOL_CLAIM_LEASE_MS: env.int(120_000),
  /** How often a sent vendor batch is polled for its results. */
  POOL_POLL_INTERVAL_MS: env.int(10_000),
  /** The batch service (batches' state, input files, line commits). */
  BATCH_ADDR: env.string('127.0.0.1:50054'),
  /** Lines per batch.line.run chunk (also at most 4 MiB of request bodies). */
  BATCH_CHUNK_LINES: env.int(200),
  /** Chunks one worker runs at once (batch.line.run prefetch). */
  BATCH_CHUNK_PREFETCH: env.int(4),
  /** Lines of one chunk in flight at once. */
  BATCH_LINE_CONCURRENCY: env.int(16),
  /** Router and billing addresses, Redis, the simulator, attempt limits, provider health, BYOK cache: the same as the edge's (libs/backends callConfigFields). */
  ...callConfigFields,
});

export type WorkersConfig = z.infer<typeof workersConfigSchema>;

export function readConfig(): Readonly<WorkersConfig> {
  return loadConfig('workers', workersConfigSchema);
}
