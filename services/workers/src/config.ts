import { loadConfig, commonSchema, env, z } from '@svc/config';
import { callConfigFields } from '@svc/backends';

export const workersConfigSchema = commonSchema.extend({
  AMQP_URL: env.string('amqp://guest:guest@127.0.0.1:5672/svc'),
  WORKERS_HOST: env.string('0.0.0.0'),
  /** HTTP /healthz and /readyz for probes. */
  WORKERS_HEALTH_PORT: env.port(8081),
  /** Queues this replica consumes (comma-separated; empty: every queue); scale replicas per queue. */
  WORKER_QUEUES: env.string(''),
  /** Router and billing addresses, Redis, the simulator, attempt limits, provider health, BYOK cache: the same as the edge's (libs/backends callConfigFields). */
  ...callConfigFields,
});

export type WorkersConfig = z.infer<typeof workersConfigSchema>;

export function readConfig(): Readonly<WorkersConfig> {
  return loadConfig('workers', workersConfigSchema);
}
