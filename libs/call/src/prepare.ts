import { DEFAULT_MAX_TOKENS, type ChatModel } from '@svc/catalog';
import { mapReasoning, type ChatRequest } from '@svc/vendors';
import type { ChatRequestInput } from './request/chat-request';
import type { CacheDecision } from './cache/cache-policy';
import { questionsFor } from './decision/questions';

export { DEFAULT_MAX_TOKENS };

export interface Prepared {
  request: ChatRequest;
  /** Sampling parameters the model does not take, left out (svc.dropped_parameters). */
  dropped: string[];
  /** Stop sequences the service must cut itself (the vendor lacks them). */
  cutStops?: string[];
  /** svc.cache.ttl_applied once the vendor wrote or read, and the write price (cache-policy.ts). */
  cacheTtl: '5m' | '1h' | '';
  /** svc.reasoning: the level the client sent (omitted if none) and what the model's own control applied. */
  reasoning: { requested?: string; applied: string };
}

/**
 * The vendor request for one candidate model (max_tokens lowered to the model's max output),
 * with the prompt-cache decision for that model (request.cache.ttl; planCache in cache-policy.ts).
 */
export function prepareForModel(input: ChatRequestInput, model: ChatModel, cache: Pick<CacheDecision, 'ttl' | 'ttlApplied'>, routedEffort?: string): Prepared {
  // reasoning_effort as sent wins; under auto the router's effort is the level sent.
  const requestedEffort = input.reasoningEffort ?? (routedEffort || undefined);
  const reasoning = mapReasoning(model, requestedEffort);
  const dropped: string[] = [];
  const keep = (name: 'temperature' | 'top_p', value: number | undefined) => {
    if (value === undefined) return undefined;
    if (model.drops.includes(name)) {
      dropped.push(name);
      return undefined;
    }
    return value;
  };
  const request: ChatRequest = {
    model: model.upstream_id,
    system: input.system,
    messages: input.messages,
    tools: input.tools,
    toolChoice: input.toolChoice,
    parallelToolCalls: input.parallelToolCalls,
    maxTokens: Math.min(input.maxTokens ?? DEFAULT_MAX_TOKENS, model.capabilities.max_output),
    maxOutputTokens: model.capabilities.max_output,
    temperature: keep('temperature', input.temperature),
    topP: keep('top_p', input.topP),
    stop: model.native_stop ? input.stop : undefined,
    responseFormat: input.responseFormat,
    cache: { ttl: cache.ttl },
    metadata: input.metadata,
    user: input.user,
  };
  if (reasoning.vendor) request.reasoning = reasoning.vendor;
  // The decision model is asked the schema's typed questions (checked before any attempt: plan.ts, decision/jev.ts).
  if (model.protocol === 'decision') request.decision = questionsFor(input.responseFormat);
  return {
    request,
    dropped,
    cutStops: model.native_stop ? undefined : input.stop,
    cacheTtl: cache.ttlApplied,
    // Spec (svc.reasoning): requested is the level sent, omitted if none; the router's choice is routing.effort.
    reasoning: input.reasoningEffort ? { requested: input.reasoningEffort, applied: reasoning.applied } : { applied: reasoning.applied },
  };
}

/** Cuts text at the first stop sequence (for vendors without native stop support). */
export function cutAtStop(text: string, stops: string[] | undefined): { text: string; cut: boolean } {
  if (!stops || stops.length === 0) return { text, cut: false };
  let at = -1;
  for (const stop of stops) {
    const index = stop ? text.indexOf(stop) : -1;
    if (index >= 0 && (at < 0 || index < at)) at = index;
  }
  return at < 0 ? { text, cut: false } : { text: text.slice(0, at), cut: true };
}
