import type { Catalog, ChatModel } from '@svc/catalog';
import { resolveEndpoint, type ResolvedProvider, type VendorKeys } from '@svc/vendors';

export type { VendorKeys } from '@svc/vendors';

/** Where the router calls a catalog chat model: the provider as every caller resolves it (libs/vendors), and the model. */
export interface ModelProvider extends ResolvedProvider {
  model: ChatModel;
}

/** The provider of a catalog chat model (libs/vendors resolveEndpoint); throws a sentence naming what is missing. */
export function resolveModelProvider(catalog: Catalog, modelId: string, simUrl: string, keys: VendorKeys): ModelProvider {
  const model = catalog.chatModel(modelId);
  if (!model) throw new Error(`${JSON.stringify(modelId)} is not a catalog chat model`);
  const resolved = resolveEndpoint(catalog, model.vendor, simUrl, keys, model.protocol);
  if ('missing' in resolved) throw new Error(`${modelId}: ${resolved.missing}`);
  return { ...resolved, model };
}
