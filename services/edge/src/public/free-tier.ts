import type { Request, Response } from 'express';
import type { Catalog } from '@svc/catalog';

/**
 * The Free plan's limits (spec: Limits, Free plan): 100 successful requests per UTC day, 20 per
 * minute, 16000 input tokens, explicit max_tokens at most 2000, and a daily fair-use cost limit
 * whose amount is never shown.
 */
export const FREE_LIMITS = {
  requests_per_day: 100,
  requests_per_minute: 20,
  max_input_tokens: 16_000,
  max_output_tokens: 2_000,
} as const;

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
