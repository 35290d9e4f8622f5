import type { Catalog, ChatModel, Vendor } from '@svc/catalog';
import { adapterFor, type CallContext, type VendorAdapter } from '@svc/vendors';

export interface ResolvedProvider {
  vendor: Vendor;
  adapter: VendorAdapter;
  context: Omit<CallContext, 'signal' | 'headers'>;
  simulated: boolean;
}

/**
 * Where a model is served: the catalog's base URL and the configured key, or the embedded
 * simulator when the catalog gives no base URL. A vendor with a base URL but no key is not
 * configured (undefined): it is skipped as a candidate.
 */
export function resolveProvider(catalog: Catalog, model: ChatModel | { vendor: string }, simUrl: string, keys: Record<string, string | undefined>): ResolvedProvider | undefined {
  const vendor = catalog.vendor(model.vendor as Vendor['id']);
  if (!vendor) return undefined;
  const adapter = adapterFor(vendor.protocol);
  if (!adapter) return undefined;
  if (!vendor.base_url) {
    const base = simUrl.replace(/\/$/, '');
    // The OpenAI protocol's base URL includes /v1 (as api.openai.com/v1 does); the others add their own paths.
    return { vendor, adapter, context: { baseUrl: vendor.protocol === 'openai' ? `${base}/v1` : base, apiKey: keys[vendor.api_key_env] ?? 'sim' }, simulated: true };
  }
  const apiKey = keys[vendor.api_key_env];
  if (!apiKey) return undefined;
  return { vendor, adapter, context: { baseUrl: vendor.base_url, apiKey }, simulated: false };
}

/** The simulator's x-sim-* headers, forwarded only to the simulator and only when allowed. */
export function simulatorHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (name.startsWith('x-sim-') && typeof value === 'string') out[name] = value;
  return out;
}
