import { loadConfig, commonSchema, env, z } from '@svc/config';

export const routerConfigSchema = commonSchema.extend({
  ROUTER_HOST: env.string('0.0.0.0'),
  ROUTER_PORT: env.port(50051),
  REDIS_URL: env.string('redis://127.0.0.1:6379/0'),
  REDIS_KEY_PREFIX: env.string('svc:'),
  PROTOS_DIR: z.string().optional(),
  /** Classifier weights; default services/router/data/weights.json. */
  CLASSIFIER_WEIGHTS: z.string().optional(),
  /** Longest wait for session state in Redis before an auto call is routed without it. */
  SESSION_TIMEOUT_MS: env.int(50),
});

export type RouterConfig = z.infer<typeof routerConfigSchema>;

export function readConfig(): Readonly<RouterConfig> {
  return loadConfig('router', routerConfigSchema);
}
