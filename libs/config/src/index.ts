import { z } from 'zod';

export { z };

/** Thrown (and printed as one line) when the environment does not satisfy a service's schema. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment once against a zod object schema and returns a frozen, typed
 * object. Each service calls this from its own src/config.ts; nothing else reads process.env.
 */
export function parseConfig<S extends z.ZodObject>(service: string, schema: S, env: NodeJS.ProcessEnv = process.env): Readonly<z.infer<S>> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`).join('; ');
    throw new ConfigError(`${service}: invalid configuration: ${problems}`);
  }
  return Object.freeze(result.data) as Readonly<z.infer<S>>;
}

/** Like parseConfig, but prints the problem as one clear line and exits 1 (fail fast at start). */
export function loadConfig<S extends z.ZodObject>(service: string, schema: S, env: NodeJS.ProcessEnv = process.env): Readonly<z.infer<S>> {
  try {
    return parseConfig(service, schema, env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** Common field helpers so every service spells its variables the same way. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  int: (fallback: number) => z.coerce.number().int().default(fallback),
  number: (fallback: number) => z.coerce.number().default(fallback),
  string: (fallback: string) => z.string().default(fallback),
  url: (fallback: string) => z.string().url().default(fallback),
  optionalUrl: () => z.string().url().optional(),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  logLevel: () => z.enum(['error', 'warn', 'info', 'debug']).default('info'),
};

/** Variables every service reads. */
export const commonSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: env.logLevel(),
  SHUTDOWN_GRACE_MS: env.int(25_000),
});
