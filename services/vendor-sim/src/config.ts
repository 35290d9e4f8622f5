import { commonSchema, env, loadConfig, parseConfig, z } from '@svc/config';
import { FaultSyntaxError, parseFaultSpec } from './faults';

export const configSchema = commonSchema.extend({
  VENDOR_SIM_PORT: env.port(8090),
  VENDOR_SIM_HOST: env.string('127.0.0.1'),
  SIM_TTFT_MS: z.coerce.number().int().min(0).default(0),
  /** 0 = unlimited. */
  SIM_TOKENS_PER_SECOND: z.coerce.number().min(0).default(0),
  /** Fault applied to every request without an x-sim-fault header; same syntax as the header. */
  /** Default time per batch line, ms (fractions allowed); x-sim-batch line-ms overrides. */
  SIM_BATCH_LINE_MS: z.coerce.number().min(0).default(0.1),
  SIM_FAULT: env.string('').superRefine((spec, ctx) => {
    try {
      parseFaultSpec(spec);
    } catch (error) {
      if (!(error instanceof FaultSyntaxError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
    }
  }),
});

export type VendorSimConfig = Readonly<z.infer<typeof configSchema>>;

/** Throws ConfigError; for tests. */
export function parseVendorSimConfig(environment: NodeJS.ProcessEnv): VendorSimConfig {
  return parseConfig('vendor-sim', configSchema, environment);
}

/** Exits 1 with one line on a bad environment. */
export function loadVendorSimConfig(environment: NodeJS.ProcessEnv = process.env): VendorSimConfig {
  return loadConfig('vendor-sim', configSchema, environment);
}
