import { loadConfig, commonSchema, env, z } from '@svc/config';

export const conversationsConfigSchema = commonSchema.extend({
  CONVERSATIONS_HOST: env.string('0.0.0.0'),
  CONVERSATIONS_PORT: env.port(50053),
  DATABASE_URL: z.string().min(1).default('postgresql://postgres@127.0.0.1:5432/svc'),
  // Where conversation changes are announced (changes.ts): the edges' history caches listen there.
  REDIS_URL: env.string('redis://127.0.0.1:6379/0'),
  REDIS_KEY_PREFIX: env.string('svc:'),
  PROTOS_DIR: z.string().optional(),
});

export type ConversationsConfig = z.infer<typeof conversationsConfigSchema>;

export function readConfig(): Readonly<ConversationsConfig> {
  return loadConfig('conversations', conversationsConfigSchema);
}
