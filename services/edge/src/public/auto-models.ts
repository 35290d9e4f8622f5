import type { Request, Response } from 'express';
import type { Catalog } from '@svc/catalog';

/** The auto-model document (spec: Free-tier and auto-model documents). */
export interface AutoModelsDocument {
  object: 'auto_models';
  /** RFC 3339 date (full-date) of the skill data. */
  as_of: string;
  /** Catalog ids auto can pick today, in catalog order; the same list as svc.auto_eligible in GET /v1/models. */
  models: string[];
}

export function autoModelsDocument(catalog: Catalog): AutoModelsDocument {
  return { object: 'auto_models', as_of: catalog.data.skills_as_of, models: catalog.autoEligibleIds() };
}

/** GET /v1/public/auto-models (no key): `Cache-Control: public, max-age=600`. */
export function autoModelsHandler(catalog: Catalog) {
  return (_req: Request, res: Response): void => {
    res.setHeader('cache-control', 'public, max-age=600');
    res.json(autoModelsDocument(catalog));
  };
}
