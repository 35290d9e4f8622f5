import { loadConfig, commonSchema, env, z } from '@svc/config';

export const routerConfigSchema = commonSchema.extend({
  ROUTER_HOST: env.string('0.0.0.0'),
  ROUTER_PORT: env.port(50051),
  REDIS_URL: env.string('redis://127.0.0.1:6379/0'),
  REDIS_KEY_PREFIX: env.string('svc:'),
  PROTOS_DIR: z.string().optional(),
});

export type RouterConfig = z.infer<typeof routerConfigSchema>;

export function readConfig(): Readonly<RouterConfig> {
  return loadConfig('router', routerConfigSchema);
}
