import type { ChatResult, Usage } from '@svc/vendors';
import type { RoutingExplanation as Routing__Output } from '@svc/routing';

/** Removes empty fields (RULINGS 2: null, '', [] and {} are omitted) from the svc object's parts. */
export function compact<T extends Record<string, unknown>>(value: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [field, inner] of Object.entries(value)) {
    if (inner === null || inner === undefined || inner === '') continue;
    if (Array.isArray(inner) && inner.length === 0) continue;
    if (typeof inner === 'object' && !Array.isArray(inner) && Object.keys(inner).length === 0) continue;
    out[field] = inner;
  }
  return out as Partial<T>;
}

/** svc.routing from the router's answer; zero values and empty strings left out. */
export function renderRouting(routing: Routing__Output | null | undefined): Record<string, unknown> | undefined {
  if (!routing) return undefined;
  const out = compact({
    line: routing.line,
    floor: routing.floor,
    task: routing.task,
    task_type: routing.task_type,
    difficulty: routing.difficulty || undefined,
    band: routing.band,
    stakes: routing.stakes,
    biased: routing.biased || undefined,
    cell: routing.cell,
    // Spec (svc.routing): 0 to 1, 0 when no classifier ran — a named model's routing says 0 too.
    confidence: routing.confidence ?? 0,
    reason: routing.reason,
    trigger: routing.trigger,
    classifier: routing.classifier,
    effort: routing.effort,
    effort_reason: routing.effort_reason,
    sticky: routing.sticky && routing.sticky.model ? { model: routing.sticky.model, cold_pick: routing.sticky.cold_pick } : undefined,
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

export function renderUsage(usage: Usage): Record<string, unknown> {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    ...(usage.cachedTokens > 0 ? { prompt_tokens_details: { cached_tokens: usage.cachedTokens } } : {}),
    ...(usage.reasoningTokens !== undefined ? { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } } : {}),
  };
}

export function renderMessage(result: Pick<ChatResult, 'content' | 'toolCalls'>): Record<string, unknown> {
  return {
    role: 'assistant',
    content: result.toolCalls.length > 0 && !result.content ? null : (result.content ?? ''),
    ...(result.toolCalls.length > 0
      ? { tool_calls: result.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments || '{}' } })) }
      : {}),
  };
}

export interface CompletionHead {
  id: string;
  created: number;
  model: string;
}

export function renderCompletion(head: CompletionHead, result: ChatResult, svc: Record<string, unknown>): Record<string, unknown> {
  return {
    id: head.id,
    object: 'chat.completion',
    created: head.created,
    model: head.model,
    choices: [{ index: 0, message: renderMessage(result), logprobs: null, finish_reason: result.finishReason }],
    usage: renderUsage(result.usage),
    system_fingerprint: null,
    svc,
  };
}

/** One chat.completion.chunk (spec: Events, chat stream). */
export function renderChunk(head: CompletionHead, delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> {
  return { id: head.id, object: 'chat.completion.chunk', created: head.created, model: head.model, system_fingerprint: null, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
}

export function renderUsageChunk(head: CompletionHead, usage: Usage, svc: Record<string, unknown>): Record<string, unknown> {
  return { id: head.id, object: 'chat.completion.chunk', created: head.created, model: head.model, system_fingerprint: null, choices: [], usage: renderUsage(usage), svc };
}
