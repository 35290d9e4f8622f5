import { ServiceError } from '@svc/errors';
import { ids } from '@svc/ids';
import { DEFAULT_MAX_TOKENS, FREE_PLAN_LIMITS, type ChatModel } from '@svc/catalog';
import { routeNamed, type RouteDecision, type RouteQuery } from '@svc/routing';
import type { ChatRequestInput } from './request/chat-request';
import { estimateChatTokens, estimateInputTokens } from './tokens';
import { estimateCall, type CallAdmission } from './billing';
import { CallLedger, throwFirstFailure } from './ledger';
import type { Caller } from './ports';
import type { CallDeps, CallPolicy } from './types';

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
}

export async function planCall(deps: CallDeps, input: ChatRequestInput, caller: Caller, policy: CallPolicy, signal: AbortSignal): Promise<CallPlan> {
  const { key } = caller;
  const auto = deps.catalog.isVirtual(input.model);
  const { callId, completionId } = policy.ids ?? ids.completion();
  const ledger = new CallLedger(callId, key, deps);
  try {
    const inputTokens = estimateInputTokens(input);
    const named = auto ? undefined : deps.catalog.chatModel(input.model);
    // Spec (Authentication 8): a named model whose vendor has the organization's own key is
    // served on own keys only (fallbacks too), so it is not refused for missing credit.
    const byokNamed = Boolean(named && (key.byok_vendors ?? []).includes(named.vendor));
    const query = routeQuery(input, caller, inputTokens, auto);
    const admit = (model: ChatModel | undefined) => {
      const estimate = model
        ? estimateCall(deps.catalog, model, { inputTokens, outputTokens: input.maxTokens ?? DEFAULT_MAX_TOKENS, auto, byok: byokNamed, feePercent: deps.catalog.data.plans.paid.service_fee_percent })
        : { micros: 0, listMicros: 0 };
      return ledger.admit(estimate, { byok: byokNamed, auto, inputTokens, maxTokens: input.maxTokens ?? 0 });
    };
    const takeTokens = (maxOutput: number) => ledger.chargeTokens(estimateChatTokens(inputTokens, input.maxTokens, maxOutput));
    const images = deps.images && input.images.some((image) => !image.decoded) ? deps.images.resolveImages(input, signal) : Promise.resolve();

    const routed = route(deps, query, key.plan === 'free', auto);
    let decision: RouteDecision;
    // An id that is neither virtual nor in the catalog: routing refuses it (model_not_found) before anything is reserved.
    if (!auto && !named) await routed;
    if (!auto) {
      throwFirstFailure(await Promise.allSettled([routed, admit(named), takeTokens(named?.capabilities.max_output ?? DEFAULT_MAX_TOKENS), images]));
      decision = await routed;
    } else {
      throwFirstFailure(await Promise.allSettled([routed, images]));
      decision = await routed;
      const pick = deps.catalog.chatModel(decision.candidates[0]?.model ?? '');
      throwFirstFailure(await Promise.allSettled([admit(pick), takeTokens(pick?.capabilities.max_output ?? DEFAULT_MAX_TOKENS)]));
    }
    const admission = ledger.admission;
    if (!admission) throw new ServiceError('billing_unavailable', 'Billing is temporarily unavailable. Please retry.');
    if (policy.requireCredit && admission.free) {
      throw new ServiceError('insufficient_credits', 'Your organization has no credit left, and this work runs on the service’s own key. Top up to continue.', { headers: admission.headers });
    }
    // Under the Free limits max_tokens defaults to the Free plan's (spec: Limits, Free plan).
    if (admission.free && input.maxTokens === undefined) input.maxTokens = FREE_PLAN_LIMITS.max_output_tokens;
    return { callId, completionId, auto, inputTokens, route: decision, admission, byokNamed, ledger, query };
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

function routeQuery(input: ChatRequestInput, caller: Caller, inputTokens: number, auto: boolean): RouteQuery {
  const { key } = caller;
  return {
    organization_id: key.organization_id,
    key_id: key.key_id,
    model: input.model,
    access: { account_disabled: key.account_disabled_models ?? [], organization_disabled: key.organization_disabled_models ?? [], project_disabled: key.project_disabled_models ?? [], key_allowed: key.allowed_models ?? [] },
    vendors: input.svc.vendors ?? [],
    needs: { tools: Boolean(input.tools?.length) && input.toolChoice !== 'none', vision: input.needsVision, json_schema: input.responseFormat?.type === 'json_schema', input_tokens: inputTokens },
    fallback: input.svc.fallback ?? key.fallback_policy,
    session_id: input.svc.sessionId ?? '',
    system_prompt: input.system ?? '',
    messages: auto ? routeMessages(input) : [],
    free_plan: key.plan === 'free',
    reasoning_effort: input.reasoningEffort ?? '',
  };
}

/**
 * What routing reads of the conversation: role and plain text of the last turns, trimmed.
 * Images and tool payload structure are reduced to text; nothing here is stored by the router.
 */
const ROUTE_MESSAGES = 12;
const ROUTE_TEXT_CHARS = 4000;
export function routeMessages(input: Pick<ChatRequestInput, 'messages'>): Array<{ role: string; text: string }> {
  return input.messages.slice(-ROUTE_MESSAGES).map((message) => {
    let text: string;
    if (message.role === 'user') text = message.content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('');
    else if (message.role === 'assistant') text = message.content ?? (message.toolCalls ?? []).map((call) => `[tool call ${call.name}]`).join(' ');
    else text = message.content;
    return { role: message.role, text: text.length > ROUTE_TEXT_CHARS ? text.slice(0, ROUTE_TEXT_CHARS / 2) + text.slice(-ROUTE_TEXT_CHARS / 2) : text };
  });
}
