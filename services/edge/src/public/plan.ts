import type { Request, Response } from 'express';
import type { Catalog } from '@svc/catalog';
import { FREE_LIMITS } from './free-tier';

/**
 * GET /v1/public/plan (no key). The spec names the route and leaves the shape to us: the plans as
 * they are billed — the service fee as a percentage of the vendor's list price, the fixed fee an
 * auto request pays once (micros), and the Free plan's limits (the fair-use amount is never shown).
 */
export function planDocument(catalog: Catalog) {
  return {
    object: 'plan',
    currency: 'USD',
    auto_call_fee_micros: catalog.data.auto_call_fee_micros,
    plans: {
      paid: { service_fee_percent: catalog.data.plans.paid.service_fee_percent },
      free: { service_fee_percent: catalog.data.plans.free.service_fee_percent, limits: { ...FREE_LIMITS, fair_use_daily_limit: true }, models: catalog.freeModelIds() },
    },
  };
}

export function planHandler(catalog: Catalog) {
  return (_req: Request, res: Response): void => {
    res.setHeader('cache-control', 'public, max-age=600');
    res.json(planDocument(catalog));
  };
}
