import { loadConfig, commonSchema, env, z } from '@svc/config';

export const billingConfigSchema = commonSchema.extend({
  BILLING_HOST: env.string('0.0.0.0'),
  BILLING_PORT: env.port(50052),
  DATABASE_URL: z.string().min(1).default('postgresql://postgres@127.0.0.1:5432/svc'),
  REDIS_URL: env.string('redis://127.0.0.1:6379/0'),
  REDIS_KEY_PREFIX: env.string('svc:'),
  AMQP_URL: env.string('amqp://guest:guest@127.0.0.1:5672/svc'),
  /** Key records cached in Redis for this long; revocation also deletes the entry at once. */
  KEY_CACHE_TTL_SECONDS: env.int(60),
  /** An admitted call's reservation is given back after this long if neither settled nor released (a lost edge). */
  RESERVATION_TTL_SECONDS: env.int(3600),
  /** The Free plan's daily fair-use cost limit per organization, list price in micros (never shown to clients). */
  FREE_DAILY_COST_MICROS: env.int(500_000),
  /** 32 bytes, base64: the AES-256-GCM key sealing organizations' own vendor keys (BYOK). Unset: BYOK keys cannot be stored or used. */
  BYOK_ENCRYPTION_KEY: z.string().optional(),
  SETTLE_BATCH_SIZE: env.int(200),
  SETTLE_BATCH_WAIT_MS: env.int(20),
  /** How often billing looks for usage records edges put in the outbox (billing.usage_outbox) while the broker could not take them. */
  USAGE_OUTBOX_SWEEP_MS: env.int(1000),
  PROTOS_DIR: z.string().optional(),
});

export type BillingConfig = z.infer<typeof billingConfigSchema>;

export function readConfig(): Readonly<BillingConfig> {
  return loadConfig('billing', billingConfigSchema);
}
