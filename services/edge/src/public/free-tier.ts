import type { Request, Response } from 'express';
import { FREE_PLAN_LIMITS, type Catalog } from '@svc/catalog';

/** The Free plan's limits, one definition shared with billing's admission. */
export const FREE_LIMITS = FREE_PLAN_LIMITS;

/** The free-tier document (spec: Free-tier and auto-model documents). */
export interface FreeTierDocument {
  models: string[];
  limits: typeof FREE_LIMITS & { fair_use_daily_limit: boolean };
}

export function freeTierDocument(catalog: Catalog): FreeTierDocument {
  // Existence of the fair-use limit only, never its amount.
  return { models: catalog.freeModelIds(), limits: { ...FREE_LIMITS, fair_use_daily_limit: true } };
}

/** GET /v1/public/free-tier (no key): `Cache-Control: public, max-age=60`. */
export function freeTierHandler(catalog: Catalog) {
  return (_req: Request, res: Response): void => {
    res.setHeader('cache-control', 'public, max-age=60');
    res.json(freeTierDocument(catalog));
  };
}
