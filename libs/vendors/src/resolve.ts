import { ServiceError } from '@svc/errors';
import type { Catalog, ChatModel, Vendor } from '@svc/catalog';
import type { CallContext, VendorAdapter } from './types';
import { adapterFor } from './registry';

/** Where one vendor is called: its adapter and address, and whether the simulator stands in for it. */
export interface ResolvedProvider {
  vendor: Vendor;
  adapter: VendorAdapter;
  context: Omit<CallContext, 'signal' | 'headers'>;
  /** Served by the simulator (the catalog gives the vendor no base URL). */
  simulated: boolean;
}

/** Vendor keys by variable name (VENDOR_1_API_KEY ... VENDOR_8_API_KEY). */
export type VendorKeys = Readonly<Record<string, string | undefined>>;

/**
 * Where a model's vendor is served, the one rule every caller uses (edge, workers, the router's
 * LLM classifier): the catalog's base URL and the configured key, or the embedded simulator at
 * `simUrl` when the catalog gives no base URL (the OpenAI protocol's base gets `/v1`, as
 * api.openai.com/v1 has). A vendor with a base URL but no key is not configured. Returns the
 * provider, or a sentence naming what is missing.
 */
export function resolveEndpoint(catalog: Catalog, vendorId: string, simUrl: string, keys: VendorKeys, modelProtocol?: ChatModel['protocol']): ResolvedProvider | { missing: string } {
  const vendor = catalog.vendor(vendorId as Vendor['id']);
  if (!vendor) return { missing: `vendor ${vendorId} is not in the catalog` };
  // A model with a protocol of its own (the decision model) is reached at its vendor's address.
  const protocol = modelProtocol ?? vendor.protocol;
  const adapter = adapterFor(protocol);
  if (!adapter) return { missing: `no adapter for the ${protocol} protocol` };
  if (!vendor.base_url) {
    const base = simUrl.replace(/\/$/, '');
    return { vendor, adapter, context: { baseUrl: vendor.protocol === 'openai' ? `${base}/v1` : base, apiKey: keys[vendor.api_key_env] || 'sim' }, simulated: true };
  }
  const apiKey = keys[vendor.api_key_env];
  if (!apiKey) return { missing: `${vendor.api_key_env} is not set (${vendor.id} has a base URL)` };
  return { vendor, adapter, context: { baseUrl: vendor.base_url, apiKey }, simulated: false };
}

/** resolveEndpoint for a model; undefined when its vendor is not configured (the candidate is skipped). */
export function resolveProvider(catalog: Catalog, model: ChatModel | { vendor: string }, simUrl: string, keys: VendorKeys): ResolvedProvider | undefined {
  const resolved = resolveEndpoint(catalog, model.vendor, simUrl, keys, 'protocol' in model ? model.protocol : undefined);
  return 'missing' in resolved ? undefined : resolved;
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
export function resolveServing(catalog: Catalog, model: ChatModel | { vendor: string }, simUrl: string, serviceKeys: VendorKeys, own: { keys: Record<string, string>; vendors: readonly string[] }): { provider: ResolvedProvider | undefined; byok: boolean } {
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
