import { loadConfig, commonSchema, env, z } from '@svc/config';

export const batchConfigSchema = commonSchema.extend({
  BATCH_HOST: env.string('0.0.0.0'),
  BATCH_PORT: env.port(50054),
  DATABASE_URL: z.string().min(1).default('postgresql://postgres@127.0.0.1:5432/svc'),
  PROTOS_DIR: z.string().optional(),
});

export type BatchConfig = z.infer<typeof batchConfigSchema>;

export function readConfig(): Readonly<BatchConfig> {
  return loadConfig('batch', batchConfigSchema);
}
