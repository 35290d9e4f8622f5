import { TIER_PRICE_SHARE, DECISION_MODEL_ID, type Catalog, type ChatModel } from '@svc/catalog';
import { ServiceError } from '@svc/errors';
import { DEFAULT_MAX_TOKENS, estimateCall, estimateInputTokens, parseChatRequest, type CallerKey, type ChatRequestInput } from '@svc/call';
import { forbiddenAt } from '@svc/routing';

/** The only endpoint a batch line may name (spec: Versioning 5). */
export const BATCH_ENDPOINT = '/v1/chat/completions';
/** At most this many entries in a failed batch's `errors` (the first lines that failed). */
export const MAX_BATCH_ERRORS = 100;

export interface BatchError {
  code: string;
  message: string;
  param: string | null;
  /** 1-based (RULINGS 7); null for a failure of the whole batch. */
  line: number | null;
}

/** How a checked line will run. */
export interface LinePlan {
  input: ChatRequestInput;
  /** The tier the call runs at, and the fallback it reports (`no_batch_tier` at standard price). */
  tier: 'batch' | 'standard';
  tierFallback?: 'no_batch_tier';
  /** What admission would reserve for it, at the price it runs at (micros). */
  estimateMicros: number;
}

const accessOf = (key: CallerKey) => ({ account_disabled: key.account_disabled_models ?? [], organization_disabled: key.organization_disabled_models ?? [], project_disabled: key.project_disabled_models ?? [], key_allowed: key.allowed_models ?? [] });

/** Models this key may name that have a batch tier (the decision model answers at its own price). */
export function batchableModels(catalog: Catalog, key: CallerKey): string[] {
  return catalog.data.models.filter((model) => model.batch && !forbiddenAt(model.id, accessOf(key))).map((model) => model.id);
}

/**
 * One input line, checked as the batch will run it (spec: Batch endpoints, the failure reasons):
 * `invalid_json`, `invalid_url` (not /v1/chat/completions), `invalid_request` (method not POST,
 * body not an object, or any refusal of the chat request's own checks, its message kept),
 * `missing_messages`, `model_not_found` (unknown, or forbidden at a level of model access),
 * `model_not_batchable` (a named model without a batch tier while allow_standard_price is off;
 * the message lists the batchable models and the option), `no_batch_model` (an auto line when no
 * model the key may use has a batch tier, and allow_standard_price is off). `line` is 1-based.
 * The upload already checked JSON objects, custom_id, method, url and body; they are checked
 * again so a batch never depends on that.
 */
export function checkLine(catalog: Catalog, key: CallerKey, text: string, lineNumber: number, allowStandardPrice: boolean): { error: BatchError } | { plan: LinePlan; customId: string; body: Record<string, unknown> } {
  const fail = (code: string, message: string, param: string | null = null) => ({ error: { code, message, param, line: lineNumber } });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('invalid_json', `Line ${lineNumber} is not valid JSON.`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return fail('invalid_json', `Line ${lineNumber} is not a JSON object.`);
  const line = parsed as { custom_id?: unknown; method?: unknown; url?: unknown; body?: unknown };
  if (typeof line.custom_id !== 'string' || line.custom_id === '') return fail('invalid_request', `Line ${lineNumber} has no custom_id.`, 'custom_id');
  if (line.url !== BATCH_ENDPOINT) return fail('invalid_url', `Line ${lineNumber}: url must be '${BATCH_ENDPOINT}' (the batch's endpoint), not ${JSON.stringify(line.url)}.`, 'url');
  if (line.method !== 'POST') return fail('invalid_request', `Line ${lineNumber}: method must be 'POST'.`, 'method');
  if (!line.body || typeof line.body !== 'object' || Array.isArray(line.body)) return fail('invalid_request', `Line ${lineNumber}: body must be a JSON object.`, 'body');
  return planLine(catalog, key, line.custom_id, line.body as Record<string, unknown>, lineNumber, allowStandardPrice);
}

/** The body of a line already read (a chunk's line): how it runs, or why it cannot. */
export function planLine(catalog: Catalog, key: CallerKey, customId: string, body: Record<string, unknown>, lineNumber: number, allowStandardPrice: boolean): { error: BatchError } | { plan: LinePlan; customId: string; body: Record<string, unknown> } {
  const fail = (code: string, message: string, param: string | null = null) => ({ error: { code, message, param, line: lineNumber } });
  let input: ChatRequestInput;
  try {
    // A line's http(s) images are downloaded when it runs, as on POST /v1/chat/completions (one
    // that cannot be fetched is that line's invalid_image_url in the error file).
    input = parseChatRequest(body, {}, { remoteImages: 'defer' });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.code === 'missing_messages') return fail('missing_messages', `Line ${lineNumber}: ${error.message}`, error.param);
    if (error.code === 'invalid_json') return fail('invalid_json', `Line ${lineNumber}: ${error.message}`, error.param);
    return fail('invalid_request', `Line ${lineNumber}: ${error.message}`, error.param);
  }
  if (input.stream) return fail('invalid_request', `Line ${lineNumber}: stream is not available in a batch.`, 'stream');
  const inputTokens = estimateInputTokens(input);
  const feePercent = catalog.data.plans.paid.service_fee_percent;
  const estimate = (model: ChatModel, share: number, auto: boolean) =>
    Math.ceil(estimateCall(catalog, model, { inputTokens, outputTokens: input.maxTokens ?? DEFAULT_MAX_TOKENS, auto, byok: false, feePercent }).micros * share);
  if (catalog.isVirtual(input.model)) {
    const batchable = catalog.data.models.filter((model) => model.batch && catalog.isAutoEligible(model.id) && !forbiddenAt(model.id, accessOf(key)));
    if (batchable.length === 0 && !allowStandardPrice) {
      return fail('no_batch_model', `Line ${lineNumber}: '${input.model}' has no model with a batch tier among the models your key may use. Name a batchable model, or create the batch with svc.allow_standard_price true to run such lines at standard price.`, 'body.model');
    }
    const pool = batchable.length > 0 ? batchable : catalog.data.models.filter((model) => catalog.isAutoEligible(model.id));
    const dearest = pool.reduce((max, model) => (estimate(model, 1, true) > estimate(max, 1, true) ? model : max), pool[0]!);
    return { plan: { input, tier: 'batch', estimateMicros: estimate(dearest, batchable.length > 0 ? TIER_PRICE_SHARE.batch : 1, true) }, customId, body };
  }
  const model = catalog.chatModel(input.model);
  if (!model || forbiddenAt(model.id, accessOf(key))) return fail('model_not_found', `Line ${lineNumber}: the model '${input.model}' does not exist or you do not have access to it.`, 'body.model');
  if (model.batch) return { plan: { input, tier: 'batch', estimateMicros: estimate(model, TIER_PRICE_SHARE.batch, false) }, customId, body };
  // The decision model has no batch tier: a line it answers is billed at its own price (svc.tier fallback `decision`).
  if (model.id === DECISION_MODEL_ID) return { plan: { input, tier: 'batch', estimateMicros: estimate(model, 1, false) }, customId, body };
  if (!allowStandardPrice) {
    const list = batchableModels(catalog, key);
    return fail(
      'model_not_batchable',
      `Line ${lineNumber}: the model '${model.id}' has no batch tier. Batchable models: ${list.length > 0 ? list.join(', ') : '(none for this key)'}. Or create the batch with svc.allow_standard_price true to run such lines as synchronous calls at standard price.`,
      'body.model',
    );
  }
  // Asked at batch (tier.requested `batch`, as every line of a batch); its model has no batch tier,
  // so it is served at standard with tier.fallback `no_batch_tier` (tier.ts, tierFallbackFor).
  return { plan: { input, tier: 'batch', estimateMicros: estimate(model, 1, false) }, customId, body };
}
