import { LINES, VIRTUAL_MODEL_IDS, type Catalog, type ChatModel, type EmbeddingModel } from '@svc/catalog';
import { withPlanFee } from '@svc/pricing';
import type { KeyRecord__Output } from '@svc/protos';

/**
 * The Model object of GET /v1/models (spec: Model object). Choices where the spec is silent:
 * virtual ids carry no auto_eligible/named_only, pricing, capabilities or residency (they are
 * lines, not models); `availability` is shown only to an organization on the Free limits.
 */
export interface ModelView {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  svc: Record<string, unknown>;
}

export interface Viewer {
  /** The plan's service fee percent, included in the prices shown. */
  feePercent: number;
  /** The organization is on the Free limits: models outside the free list are `locked`. */
  freeLimits: boolean;
  /** svc.availability is shown (absent only for a paid organization with credit). */
  showAvailability: boolean;
}

/**
 * Spec (Model object, svc.availability): `available` or `locked`, locked only while the
 * organization is on the Free limits; absent for a paid organization with credit. `available`
 * (balance less what calls in flight hold) comes from admission's counters; a paid organization
 * without credit is on the Free limits when it has the Free allowance and is not set to stop at
 * zero, as admission decides; a Free-plan organization is on them when it has the Free allowance.
 * Unknown (not in Redis yet): treated as with credit.
 */
export function viewerFor(catalog: Catalog, key: KeyRecord__Output, standing?: { available: number }): Viewer {
  const feePercent = catalog.data.plans[key.plan === 'free' ? 'free' : 'paid'].service_fee_percent;
  // A Free-plan organization without the Free allowance (a person's second) is refused every call
  // (402): not on the Free limits, so nothing is `locked` for it.
  if (key.plan === 'free') return { feePercent, freeLimits: key.free_allowance !== false, showAvailability: true };
  if (!standing || standing.available > 0) return { feePercent, freeLimits: false, showAvailability: false };
  return { feePercent, freeLimits: !key.stop_at_zero && key.free_allowance !== false, showAvailability: true };
}

function pricing(model: ChatModel | EmbeddingModel, viewer: Viewer) {
  return {
    input: withPlanFee(model.pricing.input, viewer.feePercent),
    output: withPlanFee(model.pricing.output, viewer.feePercent),
    cache_read: withPlanFee(model.pricing.cache_read, viewer.feePercent),
    cache_write: withPlanFee(model.pricing.cache_write, viewer.feePercent),
    currency: 'USD',
  };
}

export function virtualModel(catalog: Catalog, id: (typeof VIRTUAL_MODEL_IDS)[number], viewer: Viewer): ModelView {
  return {
    id,
    object: 'model',
    created: catalog.data.created,
    owned_by: 'svc',
    svc: { tier: LINES[id], virtual: true, embedding: false, ...(viewer.showAvailability ? { availability: 'available' } : {}) },
  };
}

export function catalogModel(catalog: Catalog, model: ChatModel | EmbeddingModel, viewer: Viewer): ModelView {
  const autoEligible = model.kind === 'chat' && catalog.isAutoEligible(model.id);
  const svc: Record<string, unknown> = {
    tier: model.tier,
    auto_eligible: autoEligible,
    ...(autoEligible ? {} : { named_only: true }),
    virtual: false,
    embedding: model.kind === 'embedding',
    ...(model.kind === 'chat' ? { capabilities: { ...model.capabilities } } : {}),
    pricing: pricing(model, viewer),
    residency: model.residency,
    location: model.location,
    ...(model.label ? { label: model.label } : {}),
    free_tier: model.free,
    ...(viewer.showAvailability ? { availability: viewer.freeLimits && !model.free ? 'locked' : 'available' } : {}),
  };
  return { id: model.id, object: 'model', created: catalog.data.created, owned_by: model.vendor, svc };
}

/** Is the model visible to this key (account, organization, project and key levels)? */
export function visibleTo(key: KeyRecord__Output, modelId: string): boolean {
  if (key.account_disabled_models.includes(modelId)) return false;
  if (key.organization_disabled_models.includes(modelId)) return false;
  if (key.project_disabled_models.includes(modelId)) return false;
  return key.allowed_models.length === 0 || key.allowed_models.includes(modelId);
}
