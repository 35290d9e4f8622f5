import type { Request, Response } from 'express';
import { VIRTUAL_MODEL_IDS, type Catalog } from '@svc/catalog';
import { ServiceError } from '@svc/errors';
import type { KeyRecord__Output } from '@svc/protos';
import { catalogModel, viewerFor, virtualModel, visibleTo } from './model-object';

/** Where the organization stands (admission's counters), for svc.availability; absent: not read. */
export type StandingOf = (organizationId: string) => Promise<{ available: number } | undefined>;

async function viewerOf(catalog: Catalog, key: KeyRecord__Output, standing?: StandingOf) {
  // Only a paid organization's availability depends on its balance; a failed read shows none.
  const read = key.plan === 'free' || !standing ? undefined : await standing(key.organization_id).catch(() => undefined);
  return viewerFor(catalog, key, read);
}

/** GET /v1/models: the four virtual ids first, then the catalog priced for the organization. */
export function listModelsHandler(catalog: Catalog, standing?: StandingOf) {
  return async (_req: Request, res: Response): Promise<void> => {
    const key = res.locals.key as KeyRecord__Output;
    const viewer = await viewerOf(catalog, key, standing);
    const data = [
      ...VIRTUAL_MODEL_IDS.map((id) => virtualModel(catalog, id, viewer)),
      ...[...catalog.chatModels, ...catalog.embeddingModels].filter((model) => visibleTo(key, model.id)).map((model) => catalogModel(catalog, model, viewer)),
    ];
    res.json({ object: 'list', data });
  };
}

/**
 * GET /v1/models/{id}: `auto/cheap` and `auto%2Fcheap` both name the virtual model, and catalog
 * ids contain a slash (`vendor-1/...`), so the id is the rest of the path.
 */
export function getModelHandler(catalog: Catalog, standing?: StandingOf) {
  return async (req: Request, res: Response): Promise<void> => {
    const key = res.locals.key as KeyRecord__Output;
    const raw = (req.params as { id?: string | string[] }).id;
    const id = Array.isArray(raw) ? raw.join('/') : (raw ?? '');
    const viewer = await viewerOf(catalog, key, standing);
    if (catalog.isVirtual(id)) {
      res.json(virtualModel(catalog, id, viewer));
      return;
    }
    const model = catalog.model(id);
    if (!model || !visibleTo(key, model.id)) {
      throw new ServiceError('model_not_found', `The model '${id}' does not exist or you do not have access to it.`, { param: 'model' });
    }
    res.json(catalogModel(catalog, model, viewer));
  };
}
