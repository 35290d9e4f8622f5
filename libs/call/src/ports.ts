import type { RouteDecision, RouteQuery } from '@svc/routing';
import type { VendorKeys } from '@svc/vendors';
import type { ChatRequestInput } from './request/chat-request';

/**
 * The domain shapes a call runs on, and the ports it reaches the rest of the fleet through.
 * Ports are small interfaces: the edge and the workers wire their gRPC, AMQP and Redis
 * implementations; tests wire in-memory ones. Nothing here knows HTTP or protobuf.
 */

/** The caller's key record as a call reads it (field names as billing's key record). */
export interface CallerKey {
  key_id: string;
  organization_id: string;
  /** paid or free */
  plan: string;
  /** The key's default svc.fallback. */
  fallback_policy: string;
  allowed_models?: string[];
  account_disabled_models?: string[];
  organization_disabled_models?: string[];
  project_disabled_models?: string[];
  /** Vendors for which the organization has its own key (BYOK). */
  byok_vendors?: string[];
  stop_at_zero?: boolean;
  free_allowance?: boolean;
  member_id?: string;
  member_quota_micros?: number | string;
  spend_limit_micros?: number | string;
  spend_period?: string;
  rpm_limit?: number;
  tpm_limit?: number;
}

/** Who runs the call. */
export interface Caller {
  key: CallerKey;
  /**
   * A check of the request still running beside the call's own steps (the edge's per-address
   * limit): it resolves to its refusal, or to undefined when passed. Routing under auto, image
   * downloads and the vendor wait for it; its refusal wins over every other step's answer.
   */
  gate?: Promise<Error | undefined>;
}

/** What waits on the caller's gate: resolves when it passed, rejects with its refusal. */
export function passedGate(caller: Caller): Promise<void> {
  if (!caller.gate) return Promise.resolve();
  return caller.gate.then((refusal) => {
    if (refusal) throw refusal;
  });
}

/** Admission's question: reserve this call's estimate (billing.Admit). */
export interface AdmitQuery {
  call_id: string;
  organization_id: string;
  key_id: string;
  key: Partial<CallerKey>;
  estimated_micros: number;
  estimated_list_micros: number;
  byok: boolean;
  auto: boolean;
  input_tokens: number;
  max_tokens?: number;
}

/** Admission's answer. */
export interface AdmitAnswer {
  /** "free" when served under the Free limits. */
  plan_tier?: string;
  /** free_plan or zero_balance (with plan_tier free). */
  plan_reason?: string;
  /** Headers for the response (quota, Free plan). */
  headers?: Record<string, string>;
  /** The key's baseline model; "" while pending. */
  baseline_model?: string;
  baseline_calls?: number;
}

/** One answered call for the ledger (usage.settle). */
export interface UsageRecord {
  call_id: string;
  organization_id: string;
  key_id: string;
  kind: 'chat' | 'embeddings';
  vendor: string;
  model: string;
  line: string;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  vendor_micros: number;
  service_fee_micros: number;
  call_fee_micros: number;
  cost_micros: number;
  direct_micros: number;
  byok: boolean;
  occurred_at_ms: number;
  reserved_micros: number;
  plan: '' | 'free';
  spend_period: '' | 'day' | 'week' | 'month' | 'life';
  member_id: string;
  baseline_pending: boolean;
}

/** Auto routing (the router service); named models are routed in process. */
export interface RouterPort {
  route(query: RouteQuery): Promise<RouteDecision>;
}

/** Admission and the give-back of a reservation that will not be settled (billing service). */
export interface BillingPort {
  admit(query: AdmitQuery): Promise<AdmitAnswer>;
  release(callId: string, organizationId: string): Promise<void>;
  /** An answered call holds its cost, not its estimate, until billing settles it (absent: the estimate stays held until then). */
  holdCost?(callId: string, organizationId: string, costMicros: number): Promise<void>;
}

/** Where an answered call's usage goes (the usage.settle queue). Resolves once it is durable. */
export interface UsageSink {
  record(usage: UsageRecord): Promise<void>;
}

/** The key's request and token buckets (spec: Limits). Optional: a worker's lines have none. */
export interface TokenGate {
  /** Takes one request and `tokens` tokens, or throws 429 rate_limit_exceeded taking nothing. */
  check(key: CallerKey, tokens: number): Promise<{ headers: Record<string, string>; charged: number }>;
  /** Moves the token bucket from the charged estimate to the real count; the headers after it. */
  refund(key: CallerKey, charged: number, actual: number): Promise<Record<string, string> | void>;
  /** The headers without taking anything (refusals carry them too, RULINGS 6). */
  peek(key: CallerKey): Promise<Record<string, string>>;
}

/** Shared provider health: unhealthy models are tried last; a retryable failure counts. */
export interface HealthPort {
  isHealthy(model: string): boolean;
  recordFailure(model: string): void;
  order<T extends { model: string }>(candidates: T[]): T[];
}

/** The organization's own vendor keys (BYOK), vendor id → key. */
export interface OwnKeysPort {
  forOrganization(organizationId: string, vendors: readonly string[]): Promise<Record<string, string>>;
}

/** Downloads a request's http(s) images into it (all or nothing). */
export interface ImageResolver {
  resolveImages(input: ChatRequestInput, signal?: AbortSignal): Promise<void>;
}

/** How vendors are reached: the simulator's address and the service's own vendor keys. */
export interface VendorAccess {
  simUrl: string;
  keys: VendorKeys;
}
