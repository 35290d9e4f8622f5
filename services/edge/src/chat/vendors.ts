import { ServiceError } from '@svc/errors';
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

/**
 * Spec (Authentication 8): where the organization has its own key for the model's vendor, that
 * key serves the call, never the service's. A listed vendor whose key billing could not open is
 * refused rather than served on the service's key.
 */
export function resolveServing(catalog: Catalog, model: ChatModel | { vendor: string }, simUrl: string, serviceKeys: Record<string, string | undefined>, own: { keys: Record<string, string>; vendors: readonly string[] }): { provider: ResolvedProvider | undefined; byok: boolean } {
  const ownKey = own.keys[model.vendor];
  if (!ownKey && own.vendors.includes(model.vendor)) {
    throw new ServiceError('byok_key_invalid', `Your organization's own key for ${model.vendor} cannot be used right now. Set it again and retry.`, { headers: { 'x-svc-vendor': model.vendor } });
  }
  if (!ownKey) return { provider: resolveProvider(catalog, model, simUrl, serviceKeys), byok: false };
  const resolved = resolveProvider(catalog, model, simUrl, {});
  return { provider: resolved && { ...resolved, context: { ...resolved.context, apiKey: ownKey } }, byok: true };
}

/** The vendor rejected the organization's own key: 400 byok_key_invalid, with no fallback. */
export function ownKeyRejected(vendor: string): ServiceError {
  return new ServiceError('byok_key_invalid', `The vendor rejected your organization's own key for ${vendor}. Update it and retry.`, { headers: { 'x-svc-vendor': vendor } });
}
