import { ServiceError } from '@svc/errors';
import { ids } from '@svc/ids';
import { DEFAULT_MAX_TOKENS, FREE_PLAN_LIMITS, type ChatModel } from '@svc/catalog';
import { routeNamed, type RouteDecision, type RouteQuery } from '@svc/routing';
import type { ChatRequestInput } from './request/chat-request';
import { countInputTokensUpTo, estimateChatTokens, estimateContextTokens, estimateInputTokens } from './tokens';
import { estimateCall, type CallAdmission } from './billing';
import { CallLedger, throwFirstFailure } from './ledger';
import { decisionRefusal } from './decision/questions';
import { DEFAULT_JEV_SETTINGS, jevCheck, jevRoute, type JevCheck } from './decision/jev';
import { passedGate, type Caller } from './ports';
import type { CallDeps, CallPolicy } from './types';
import { planTier, routingPriceTier } from './tier';

/**
 * Step 1 of a chat call: plan it. Routes the request (a named model in process, auto through the
 * router port), reserves its estimate through billing's admission and takes the key's token
 * charge, downloading http(s) images meanwhile.
 *
 * Named: routing, admission (its estimate is known), the token charge and image downloads run
 * together. Auto: admission waits for the router's pick, whose price it reserves. Every step runs
 * to its end (allSettled), so a refusal from one still carries what the others learned (the Free
 * headers of admission) and leaves no charge behind unaccounted.
 */
export interface CallPlan {
  callId: string;
  completionId: string;
  /** The request named a virtual id (auto, auto/cheap, ...). */
  auto: boolean;
  inputTokens: number;
  route: RouteDecision;
  admission: CallAdmission;
  /** A named model whose vendor has the organization's own key: served on own keys only. */
  byokNamed: boolean;
  ledger: CallLedger;
  /** The routing query, for routing again (Free plan picks, candidates.ts). */
  query: RouteQuery;
  /**
   * Under auto, when the decision model answers in place of the routed pick (decision/jev.ts): the
   * check, and svc.routing as the router gave it (what a fallback to the pick reports).
   */
  jev?: { check: JevCheck; routing: RouteDecision['routing'] };
}

export async function planCall(deps: CallDeps, input: ChatRequestInput, caller: Caller, policy: CallPolicy, signal: AbortSignal): Promise<CallPlan> {
  const { key } = caller;
  const auto = deps.catalog.isVirtual(input.model);
  const { callId, completionId } = policy.ids ?? ids.completion();
  const ledger = new CallLedger(callId, key, deps);
  try {
    const inputTokens = estimateInputTokens(input);
    const named = auto ? undefined : deps.catalog.chatModel(input.model);
    // The decision model's own refusals (unsupported_for_model) come after model access is checked.
    const decisionModel = named?.protocol === 'decision';
    // Spec (Authentication 8): a named model whose vendor has the organization's own key is
    // served on own keys only (fallbacks too), so it is not refused for missing credit.
    const byokNamed = Boolean(named && (key.byok_vendors ?? []).includes(named.vendor));
    const query = routeQuery(input, caller, auto, policy, decisionModel);
    // Admission's input_tokens only meets the Free plan's limit: a Free-plan key's is counted with
    // the tokenizer (the limit is in tokens); others keep the estimate (a paid organization is on
    // the Free limits only at zero balance, and no paid call pays for encoding its prompt).
    const admissionInputTokens = key.plan === 'free' ? countInputTokensUpTo(input, FREE_PLAN_LIMITS.max_input_tokens) : inputTokens;
    const admit = (model: ChatModel | undefined) => {
      const estimate = model
        ? estimateCall(deps.catalog, model, { inputTokens, outputTokens: input.maxTokens ?? DEFAULT_MAX_TOKENS, auto, byok: byokNamed, feePercent: deps.catalog.data.plans.paid.service_fee_percent })
        : { micros: 0, listMicros: 0 };
      return ledger.admit(estimate, { byok: byokNamed, auto, inputTokens: admissionInputTokens, maxTokens: input.maxTokens ?? 0 });
    };
    const takeTokens = (maxOutput: number) => ledger.chargeTokens(estimateChatTokens(inputTokens, input.maxTokens, maxOutput));
    // A check still running beside the call (the per-address limit): admission and the token
    // charge run with it (its refusal takes them back), what reaches outside waits for it.
    const gate = passedGate(caller);
    const images = caller.gate ? gate.then(() => pendingImages(deps, input, signal)) : pendingImages(deps, input, signal);

    const routed = auto && caller.gate ? gate.then(() => route(deps, query, key.plan === 'free', auto)) : route(deps, query, key.plan === 'free', auto);
    // A step a refusal ends early is never awaited: its failure is handled here, not left unhandled.
    for (const step of [gate, images, routed]) step.catch(() => undefined);
    let decision: RouteDecision;
    // An id that is neither virtual nor in the catalog: routing refuses it (model_not_found) before anything is reserved.
    if (!auto && (!named || decisionModel)) throwFirstFailure(await Promise.allSettled([gate, routed]));
    if (decisionModel) {
      // Spec (Errors, unsupported_for_model): no json_schema, a free-text or nested property, tools, images, tool results or stream true.
      const refusal = decisionRefusal(input, policy.api ?? 'chat');
      if (refusal) throw refusal;
    }
    let jev: CallPlan['jev'];
    if (!auto) {
      throwFirstFailure(await Promise.allSettled([gate, routed, admit(named), takeTokens(named?.capabilities.max_output ?? DEFAULT_MAX_TOKENS), images]));
      decision = await routed;
    } else {
      throwFirstFailure(await Promise.allSettled([gate, routed, images]));
      decision = await routed;
      const pick = deps.catalog.chatModel(decision.candidates[0]?.model ?? '');
      // The routed pick is reserved (and its output charged) even when jev answers: a fallback to it never overshoots.
      // Admission and the key's bucket check leave in one write (deps.oneWrite).
      const charging = deps.oneWrite ? deps.oneWrite(() => [admit(pick), takeTokens(pick?.capabilities.max_output ?? DEFAULT_MAX_TOKENS)]) : [admit(pick), takeTokens(pick?.capabilities.max_output ?? DEFAULT_MAX_TOKENS)];
      throwFirstFailure(await Promise.allSettled(charging));
      const check = jevCheck(deps.catalog, input, decision.routing, pick, { ...query, free_plan: query.free_plan || Boolean(ledger.admission?.free) }, deps.jev ?? DEFAULT_JEV_SETTINGS);
      if (check.applies) {
        jev = { check, routing: decision.routing };
        decision = jevRoute(deps.catalog, decision, check);
      }
    }
    const admission = ledger.admission;
    if (!admission) throw new ServiceError('billing_unavailable', 'Billing is temporarily unavailable. Please retry.');
    if (policy.requireCredit && admission.free) {
      throw new ServiceError('insufficient_credits', 'Your organization has no credit left, and this work runs on the service’s own key. Top up to continue.', { headers: admission.headers });
    }
    // Under the Free limits max_tokens defaults to the Free plan's (spec: Limits, Free plan).
    if (admission.free && input.maxTokens === undefined) input.maxTokens = FREE_PLAN_LIMITS.max_output_tokens;
    return { callId, completionId, auto, inputTokens, route: decision, admission, byokNamed, ledger, query, ...(jev ? { jev } : {}) };
  } catch (error) {
    await ledger.refuse(error);
    ledger.release();
    throw error;
  }
}

/** A named model's candidates are a pure function of the catalog and the key's access (libs/routing): computed here, saving the router round trip; auto goes to the router. */
export function route(deps: Pick<CallDeps, 'catalog' | 'router'>, query: RouteQuery, freePlan: boolean, auto: boolean): Promise<RouteDecision> {
  const asked = { ...query, free_plan: freePlan };
  return auto ? deps.router.route(asked) : Promise.resolve().then(() => routeNamed(deps.catalog, asked));
}

/**
 * Downloads the request's http(s) images into it (deps.images). An image still to download is
 * never dropped: without a downloader the call is refused (invalid_image_url) before any vendor work.
 */
export function pendingImages(deps: Pick<CallDeps, 'images'>, input: ChatRequestInput, signal?: AbortSignal): Promise<void> {
  const pending = input.images.find((image) => !image.decoded);
  if (!pending) return Promise.resolve();
  if (!deps.images) throw new ServiceError('invalid_image_url', 'Image URLs are not downloaded here; send images as base64 data: URLs.', { param: pending.param });
  return deps.images.resolveImages(input, signal);
}

export function routeQuery(input: ChatRequestInput, caller: Caller, auto: boolean, policy: CallPolicy, decisionModel = false): RouteQuery {
  const { key } = caller;
  return {
    organization_id: key.organization_id,
    key_id: key.key_id,
    model: input.model,
    access: { account_disabled: key.account_disabled_models ?? [], organization_disabled: key.organization_disabled_models ?? [], project_disabled: key.project_disabled_models ?? [], key_allowed: key.allowed_models ?? [] },
    vendors: input.svc.vendors ?? [],
    // The decision model's refusals of tools and images name the field the decision rules name (decision/questions.ts).
    needs: { tools: !decisionModel && Boolean(input.tools?.length) && input.toolChoice !== 'none', vision: !decisionModel && input.needsVision, json_schema: input.responseFormat?.type === 'json_schema', input_tokens: estimateContextTokens(input) },
    fallback: input.svc.fallback ?? key.fallback_policy,
    session_id: input.svc.sessionId ?? '',
    system_prompt: routeText(input.system ?? ''),
    messages: auto ? routeMessages(input) : [],
    free_plan: key.plan === 'free',
    reasoning_effort: input.reasoningEffort ?? '',
    // Spec (Deadline and flex rules 1): under auto the candidates are compared at flex prices.
    ...(auto && routingPriceTier(planTier(input.svc.deadlineMs, policy)) === 'flex' ? { price_tier: 'flex' } : {}),
  };
}

/**
 * What routing reads of the conversation: role and plain text of the last turns, trimmed.
 * Images and tool payload structure are reduced to text; nothing here is stored by the router.
 */
const ROUTE_MESSAGES = 12;
const ROUTE_TEXT_CHARS = 4000;
/** Of a content part list or tool-call list, routing reads this many entries (first and last halves). */
const ROUTE_PARTS = 64;

/** The first and last ROUTE_TEXT_CHARS / 2 characters: what routing reads of any one text. */
export function routeText(text: string): string {
  return text.length > ROUTE_TEXT_CHARS ? text.slice(0, ROUTE_TEXT_CHARS / 2) + text.slice(-ROUTE_TEXT_CHARS / 2) : text;
}

/** Joins the entries, or only the first and last ROUTE_PARTS / 2 of a longer list. */
function joinBounded<T>(items: readonly T[], text: (item: T) => string, separator: string): string {
  const kept = items.length > ROUTE_PARTS ? [...items.slice(0, ROUTE_PARTS / 2), ...items.slice(-ROUTE_PARTS / 2)] : items;
  return kept.map(text).join(separator);
}

export function routeMessages(input: Pick<ChatRequestInput, 'messages'>): Array<{ role: string; text: string }> {
  return input.messages.slice(-ROUTE_MESSAGES).map((message) => {
    let text: string;
    if (message.role === 'user') text = joinBounded(message.content, (part) => (part.type === 'text' ? part.text : '[image]'), '');
    else if (message.role === 'assistant') text = message.content ?? joinBounded(message.toolCalls ?? [], (call) => `[tool call ${call.name}]`, ' ');
    else text = message.content;
    return { role: message.role, text: routeText(text) };
  });
}
