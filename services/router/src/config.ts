import { catalog as defaultCatalog, type Catalog } from '@svc/catalog';
import { loadConfig, commonSchema, env, parseConfig, z } from '@svc/config';
import { resolveModelProvider, type VendorKeys } from './classifier/provider';

export const VENDOR_KEY_VARIABLES = [
  'VENDOR_1_API_KEY', 'VENDOR_2_API_KEY', 'VENDOR_3_API_KEY', 'VENDOR_4_API_KEY',
  'VENDOR_5_API_KEY', 'VENDOR_6_API_KEY', 'VENDOR_7_API_KEY', 'VENDOR_8_API_KEY',
] as const;
type VendorKeyVariable = (typeof VENDOR_KEY_VARIABLES)[number];

const vendorKeys = Object.fromEntries(VENDOR_KEY_VARIABLES.map((name) => [name, z.string().optional()])) as Record<VendorKeyVariable, z.ZodOptional<z.ZodString>>;

/** A cheap catalog model that supports json_schema. */
export const DEFAULT_LLM_CLASSIFIER_MODEL = 'vendor-1/orion-nano-5';

/**
 * Why `model` cannot be the LLM classifier (not a catalog chat model, no json_schema, a vendor
 * with a base URL but no key), or undefined when it can.
 */
export function llmClassifierModelProblem(catalog: Catalog, model: string, simUrl: string, keys: VendorKeys): string | undefined {
  try {
    const provider = resolveModelProvider(catalog, model, simUrl, keys);
    if (!provider.model.capabilities.json_schema) return `${model} does not support json_schema`;
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The schema, checking the LLM classifier's model against `catalog`. */
export function routerConfigSchemaFor(catalog: Catalog) {
  return commonSchema
    .extend({
      ROUTER_HOST: env.string('0.0.0.0'),
      ROUTER_PORT: env.port(50051),
      REDIS_URL: env.string('redis://127.0.0.1:6379/0'),
      REDIS_KEY_PREFIX: env.string('svc:'),
      PROTOS_DIR: z.string().optional(),
      /** Classifier weights; default services/router/data/weights.json. */
      CLASSIFIER_WEIGHTS: z.string().optional(),
      /** Longest wait for session state in Redis before an auto call is routed without it. */
      SESSION_TIMEOUT_MS: env.int(50),
      /** `trained` (the in-process model) or `llm` (a catalog model, with the trained one as fallback). */
      ROUTER_CLASSIFIER: z.enum(['trained', 'llm']).default('trained'),
      /** Catalog chat model the LLM classifier asks; it must support json_schema. */
      ROUTER_LLM_CLASSIFIER_MODEL: env.string(DEFAULT_LLM_CLASSIFIER_MODEL),
      /** Longest wait for the LLM classifier before the trained classifier answers. */
      ROUTER_LLM_CLASSIFIER_TIMEOUT_MS: z.coerce.number().int().positive().default(800),
      /** Where vendors without a base URL in the catalog are served: the embedded simulator. */
      VENDOR_SIM_URL: env.url('http://127.0.0.1:8090'),
      ...vendorKeys,
    })
    .superRefine((config, ctx) => {
      if (config.ROUTER_CLASSIFIER !== 'llm') return;
      const problem = llmClassifierModelProblem(catalog, config.ROUTER_LLM_CLASSIFIER_MODEL, config.VENDOR_SIM_URL, vendorKeysOf(config));
      if (problem) ctx.addIssue({ code: 'custom', path: ['ROUTER_LLM_CLASSIFIER_MODEL'], message: problem });
    });
}

export const routerConfigSchema = routerConfigSchemaFor(defaultCatalog);

export type RouterConfig = z.infer<typeof routerConfigSchema>;

/** The VENDOR_n_API_KEY values by variable name. */
export function vendorKeysOf(config: Readonly<Partial<Record<VendorKeyVariable, string>>>): Record<string, string | undefined> {
  return Object.fromEntries(VENDOR_KEY_VARIABLES.map((name) => [name, config[name]]));
}

/** Throws ConfigError; for tests. */
export function parseRouterConfig(environment: NodeJS.ProcessEnv, catalog: Catalog = defaultCatalog): Readonly<RouterConfig> {
  return parseConfig('router', catalog === defaultCatalog ? routerConfigSchema : routerConfigSchemaFor(catalog), environment);
}

export function readConfig(): Readonly<RouterConfig> {
  return loadConfig('router', routerConfigSchema);
}
