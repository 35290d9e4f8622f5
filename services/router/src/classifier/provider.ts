import type { Catalog, ChatModel, Vendor } from '@svc/catalog';
import { adapterFor, type CallContext, type VendorAdapter } from '@svc/vendors';

/** Where the router calls a catalog chat model: its vendor's adapter and address. */
export interface ModelProvider {
  model: ChatModel;
  vendor: Vendor;
  adapter: VendorAdapter;
  context: Pick<CallContext, 'baseUrl' | 'apiKey'>;
  /** Served by the simulator (the catalog gives the vendor no base URL). */
  simulated: boolean;
}

/** Vendor keys by variable name (VENDOR_1_API_KEY ... VENDOR_8_API_KEY). */
export type VendorKeys = Readonly<Record<string, string | undefined>>;

/**
 * The provider of a catalog chat model, the way the edge resolves it: a vendor without a base
 * URL is served by the simulator at `simUrl` (the OpenAI protocol's base gets `/v1`, as
 * api.openai.com/v1 has); a vendor with a base URL needs its key. Throws a sentence naming what
 * is missing.
 */
export function resolveModelProvider(catalog: Catalog, modelId: string, simUrl: string, keys: VendorKeys): ModelProvider {
  const model = catalog.chatModel(modelId);
  if (!model) throw new Error(`${JSON.stringify(modelId)} is not a catalog chat model`);
  const vendor = catalog.vendor(model.vendor);
  if (!vendor) throw new Error(`${modelId}: vendor ${model.vendor} is not in the catalog`);
  const adapter = adapterFor(vendor.protocol);
  if (!adapter) throw new Error(`${modelId}: no adapter for the ${vendor.protocol} protocol`);
  if (!vendor.base_url) {
    const base = simUrl.replace(/\/$/, '');
    const baseUrl = vendor.protocol === 'openai' ? `${base}/v1` : base;
    return { model, vendor, adapter, context: { baseUrl, apiKey: keys[vendor.api_key_env] || 'sim' }, simulated: true };
  }
  const apiKey = keys[vendor.api_key_env];
  if (!apiKey) throw new Error(`${modelId}: ${vendor.api_key_env} is not set (${vendor.id} has a base URL)`);
  return { model, vendor, adapter, context: { baseUrl: vendor.base_url, apiKey }, simulated: false };
}
