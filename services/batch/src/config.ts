import { loadConfig, commonSchema, env, z } from '@svc/config';

export const batchConfigSchema = commonSchema.extend({
  BATCH_HOST: env.string('0.0.0.0'),
  BATCH_PORT: env.port(50054),
  DATABASE_URL: z.string().min(1).default('postgresql://postgres@127.0.0.1:5432/svc'),
  PROTOS_DIR: z.string().optional(),
  /**
   * The master key of uploaded files (32 random bytes, base64: `openssl rand -base64 32`). It seals
   * each organization's data key; without the key those files cannot be read. Required.
   */
  FILES_ENCRYPTION_KEY: z.string({ error: 'FILES_ENCRYPTION_KEY is required (32 random bytes, base64: openssl rand -base64 32)' }).min(1, 'FILES_ENCRYPTION_KEY is required (32 random bytes, base64: openssl rand -base64 32)'),
  /** Where encrypted file chunks are kept: `postgres` (batch.file_chunk). See src/files/blob-store.ts for the object-store path. */
  FILES_BLOB_STORE: z.enum(['postgres']).default('postgres'),
  /** How often expired, deleted and abandoned files are swept (each replica; runs skip rows another holds). */
  FILES_SWEEP_INTERVAL_MS: env.int(60_000),
  /** How often each replica looks for batches to end (all lines settled, window passed, cancelled). */
  BATCH_TICK_MS: env.int(1_000),
  /**
   * After a cancel, how long lines still pending are left to the workers (which cancel the ones
   * not yet at a vendor and cut the calls in flight) before the ticker cancels them itself.
   */
  BATCH_CANCEL_GRACE_MS: env.int(30_000),
  /** The completion window (spec: 24h). Shorter only in tests, to see batches expire. */
  BATCH_WINDOW_MS: env.int(24 * 3_600_000),
});

export type BatchConfig = z.infer<typeof batchConfigSchema>;

export function readConfig(): Readonly<BatchConfig> {
  return loadConfig('batch', batchConfigSchema);
}
