import { FREE_PLAN_LIMITS } from '@svc/catalog';
import { ServiceError, formatDuration, retryAfterSeconds } from '@svc/errors';
import type { AdmitRequest, AdmitResponse, KeyRecord } from '@svc/protos';
import type { Redis } from '@svc/redis';
import { BASELINE_PENDING, counterPlan, keyList, type CounterName, type CounterPlan, type CounterScope } from './keys';
import { describeReset, isSpendPeriod, periodWindow } from './periods';
import { admissionScripts } from './scripts';

/** The Free plan (spec: Limits); the fair-use cost limit comes from configuration and is never shown. */
const FREE_LIMITS = {
  requestsPerDay: FREE_PLAN_LIMITS.requests_per_day,
  requestsPerMinute: FREE_PLAN_LIMITS.requests_per_minute,
  maxInputTokens: FREE_PLAN_LIMITS.max_input_tokens,
  maxOutputTokens: FREE_PLAN_LIMITS.max_output_tokens,
};

export interface AdmitSettings {
  /** Free plan daily fair-use cost, list-price micros (FREE_DAILY_COST_MICROS). */
  freeDailyCostMicros?: number;
  /** How long a reservation lives without settlement or release (RESERVATION_TTL_SECONDS). */
  reservationTtlSeconds?: number;
  /** Injectable clock (Unix ms). */
  now?: () => number;
}

export const DEFAULT_FREE_DAILY_COST_MICROS = 500_000;
export const DEFAULT_RESERVATION_TTL_SECONDS = 3600;
const MINUTE_MS = 60_000;

export type Admission = AdmitResponse & Required<Pick<AdmitResponse, 'balance_micros' | 'headers' | 'plan_tier' | 'plan_reason' | 'baseline_model' | 'baseline_calls'>>;

/** Counters ADMIT found missing: only billing rebuilds them (from the ledger in Postgres). */
export interface MissingCounters {
  missing: CounterName[];
  scope: CounterScope;
  plan: CounterPlan;
}

/**
 * One run of admission before any vendor work, one atomic Lua call on the organization's
 * counters (scripts.ts ADMIT):
 * - credit (spec 402 insufficient_credits): the balance less what admitted calls hold must be
 *   above zero; at zero an organization continues on the Free limits unless it is set to stop at
 *   zero or is its person's second organization; a named model on own vendor keys skips it;
 * - spend limits (429 quota_exceeded): the key's limit over its period and the member's monthly
 *   quota, each against settled spend plus the reservations of calls in flight;
 * - the Free plan (429 free_tier_limit): input tokens, max_tokens, requests per day, the daily
 *   fair-use cost, requests per minute;
 * then reserves the estimate on every counter it checked. Settlement moves the counters to the
 * actual cost; Release gives a failed call's reservation back; an expired one is given back by
 * the next admission. Returns the admission, or the counters that are missing (nothing was
 * reserved; billing rebuilds them and runs it again). A store that cannot be read fails closed:
 * billing_unavailable, or free_tier_unavailable for a Free organization. Billing runs it behind
 * the Admit RPC; the edge and the workers run it in process (libs/backends admission-port.ts).
 */
export async function admitOnce(redis: Redis, request: AdmitRequest, settings: AdmitSettings = {}, options: { deadlineMs?: number } = {}): Promise<Admission | MissingCounters> {
  const key = keyOf(request);
  const nowMs = (settings.now ?? Date.now)();
  const scope: CounterScope = {
    organizationId: key.organization_id ?? '',
    keyId: key.key_id ?? request.key_id ?? '',
    memberId: key.member_id ?? '',
    spendPeriod: Number(key.spend_limit_micros ?? 0) > 0 ? (key.spend_period ?? '') : '',
  };
  const plan = counterPlan(scope, nowMs);
  const keyLimit = scope.spendPeriod ? Number(key.spend_limit_micros ?? 0) : 0;
  const memberLimit = scope.memberId ? Number(key.member_quota_micros ?? 0) : 0;
  const byokNamed = Boolean(request.byok) && !request.auto;
  const args = [
    request.call_id ?? '',
    nowMs,
    nowMs + (settings.reservationTtlSeconds ?? DEFAULT_RESERVATION_TTL_SECONDS) * 1000,
    Math.max(0, Math.ceil(Number(request.estimated_micros ?? 0))),
    Math.max(0, Math.ceil(Number(request.estimated_list_micros ?? 0))),
    key.plan === 'free' ? 'free' : 'paid',
    byokNamed ? 1 : 0,
    key.stop_at_zero ? 1 : 0,
    key.free_allowance === false ? 0 : 1,
    keyLimit,
    memberLimit,
    FREE_LIMITS.requestsPerDay,
    settings.freeDailyCostMicros ?? DEFAULT_FREE_DAILY_COST_MICROS,
    FREE_LIMITS.requestsPerMinute,
    Number(request.input_tokens ?? 0),
    Number(request.max_tokens ?? 0),
    FREE_LIMITS.maxInputTokens,
    FREE_LIMITS.maxOutputTokens,
    // Admission cannot outlive its caller: past the RPC's deadline the script reserves nothing.
    options.deadlineMs !== undefined && Number.isFinite(options.deadlineMs) ? Math.floor(options.deadlineMs) : 0,
  ];
  let reply: string[];
  try {
    reply = await admissionScripts(redis).admit(keyList(plan.keys), args);
    if (reply[0] === 'expired') throw new Error('admission ran after its deadline; nothing was reserved');
  } catch (error) {
    throw unavailable(key, error);
  }
  if (reply[0] === 'missing') return { missing: reply.slice(1) as CounterName[], scope, plan };

  // ok: {'ok', mode, reason, balance, ...}; refuse: {'refuse', kind, balance, ...}
  const balance = Number(reply[0] === 'ok' ? reply[3] : reply[2]);
  const headers: Record<string, string> = { 'x-svc-balance-micros': String(balance) };
  if (reply[0] === 'refuse') throw refusal(reply, headers, { keyLimit, memberLimit, key, nowMs, plan });

  const [, mode, reason, , keySpent, memberSpent, dayUsed, minuteUsed, baseline, calls] = reply;
  Object.assign(headers, quotaHeaders(keyLimit, Number(keySpent), memberLimit, Number(memberSpent)));
  if (mode === 'free') Object.assign(headers, freeHeaders(Number(dayUsed), Number(minuteUsed), nowMs));
  return {
    balance_micros: balance,
    headers,
    plan_tier: mode === 'free' ? 'free' : '',
    plan_reason: mode === 'free' ? reason : '',
    baseline_model: baseline && baseline !== BASELINE_PENDING ? baseline : '',
    baseline_calls: Number(calls ?? 0),
  };
}

/** Admission's store could not be read: it fails closed. */
export function unavailable(key: KeyRecord, cause: unknown): ServiceError {
  if (key.plan === 'free') return new ServiceError('free_tier_unavailable', 'The Free plan’s counters cannot be read right now, so Free calls are paused. Please retry.', { cause });
  return new ServiceError('billing_unavailable', 'Billing is temporarily unavailable. Please retry.', { cause });
}

/** The key record the edge sent; older callers send only the ids. */
export function keyOf(request: AdmitRequest): KeyRecord {
  return request.key ?? { organization_id: request.organization_id, key_id: request.key_id, plan: 'paid', free_allowance: true };
}

interface RefusalContext {
  keyLimit: number;
  memberLimit: number;
  key: KeyRecord;
  nowMs: number;
  plan: CounterPlan;
}

function refusal(reply: string[], headers: Record<string, string>, context: RefusalContext): ServiceError {
  const kind = reply[1];
  if (kind === 'credit') {
    return new ServiceError('insufficient_credits', 'Your organization has no credit left. Top up to continue.', { headers });
  }
  if (kind === 'quota_key' || kind === 'quota_member') {
    const member = kind === 'quota_member';
    const limit = member ? context.memberLimit : context.keyLimit;
    const period = member ? 'month' : isSpendPeriod(context.key.spend_period ?? '') ? (context.key.spend_period as 'day' | 'week' | 'month' | 'life') : 'life';
    const window = periodWindow(period, context.nowMs);
    const resetMs = Number.isFinite(window.endMs) ? window.endMs - context.nowMs : 86_400_000;
    const what = member ? 'Your monthly spend quota in this organization' : `This key’s spend limit${period === 'life' ? '' : ` for the ${period}`}`;
    const quota = { 'x-svc-quota-scope': member ? 'member' : 'key', 'x-svc-quota-limit': String(limit), 'x-svc-quota-remaining': '0' };
    const settled = Number(reply[4] ?? limit);
    if (settled < limit) {
      // Not reached: calls still in flight hold the rest, and they end (settled or given back) in moments.
      return new ServiceError('quota_exceeded', `${what} (${limit} micros) is taken up by calls in flight: ${settled} micros are spent and the rest is held by calls not yet settled. Retry when they finish.`, {
        headers: { ...headers, 'retry-after': '1', ...quota },
      });
    }
    return new ServiceError('quota_exceeded', `${what} (${limit} micros) is reached. ${describeReset(period, window)}`, {
      headers: { ...headers, 'retry-after': retryAfterSeconds(resetMs), ...quota },
    });
  }
  // free_tier_limit
  const [, , , limit, dayUsed, minuteUsed] = reply;
  const free = { ...headers, ...freeHeaders(Number(dayUsed), Number(minuteUsed), context.nowMs), 'x-svc-free-limit': limit };
  const dayResetMs = context.plan.dayWindow.endMs - context.nowMs;
  const minuteResetMs = MINUTE_MS - (context.nowMs % MINUTE_MS);
  switch (limit) {
    case 'input_tokens':
      return new ServiceError('free_tier_limit', `The Free plan takes at most ${FREE_LIMITS.maxInputTokens} input tokens per request. Shorten the input or top up.`, { param: 'input_tokens', headers: free });
    case 'max_tokens':
      return new ServiceError('free_tier_limit', `The Free plan allows max_tokens up to ${FREE_LIMITS.maxOutputTokens}.`, { param: 'max_tokens', headers: free });
    case 'requests_per_day':
      return new ServiceError('free_tier_limit', `The Free plan’s ${FREE_LIMITS.requestsPerDay} requests for today are used. They reset at 00:00 UTC; top up to continue now.`, { param: 'requests_per_day', headers: { ...free, 'retry-after': retryAfterSeconds(dayResetMs) } });
    case 'daily_cost':
      return new ServiceError('free_tier_limit', 'The Free plan’s daily fair-use limit is reached. It resets at 00:00 UTC; top up to continue now.', { param: 'daily_cost', headers: { ...free, 'retry-after': retryAfterSeconds(dayResetMs) } });
    default:
      return new ServiceError('free_tier_limit', `The Free plan allows ${FREE_LIMITS.requestsPerMinute} requests per minute.`, { param: 'requests_per_minute', headers: { ...free, 'retry-after': retryAfterSeconds(minuteResetMs) } });
  }
}

/**
 * x-svc-quota-* when a spend limit applies (spec: Limits). With both a key limit and a member
 * quota, the one with less left is shown. Remaining is what was left when this call was admitted:
 * settled spend plus other calls in flight, not this call's own reservation.
 */
export function quotaHeaders(keyLimit: number, keySpent: number, memberLimit: number, memberSpent: number): Record<string, string> {
  const options: Array<{ scope: string; limit: number; remaining: number }> = [];
  if (keyLimit > 0) options.push({ scope: 'key', limit: keyLimit, remaining: Math.max(0, keyLimit - keySpent) });
  if (memberLimit > 0) options.push({ scope: 'member', limit: memberLimit, remaining: Math.max(0, memberLimit - memberSpent) });
  if (options.length === 0) return {};
  const shown = options.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return { 'x-svc-quota-scope': shown.scope, 'x-svc-quota-limit': String(shown.limit), 'x-svc-quota-remaining': String(shown.remaining) };
}

/**
 * Spec (Limits): x-svc-plan free and the Free day headers on every Free call and refusal; there
 * x-ratelimit-*-requests is the Free minute window (20), which replaces the key's own bucket.
 */
export function freeHeaders(dayUsed: number, minuteUsed: number, nowMs: number): Record<string, string> {
  const dayEnd = (Math.floor(nowMs / 86_400_000) + 1) * 86_400_000;
  return {
    'x-svc-plan': 'free',
    'x-ratelimit-limit-requests-day': String(FREE_LIMITS.requestsPerDay),
    'x-ratelimit-remaining-requests-day': String(Math.max(0, FREE_LIMITS.requestsPerDay - dayUsed)),
    'x-ratelimit-reset-requests-day': formatDuration(dayEnd - nowMs),
    'x-ratelimit-limit-requests': String(FREE_LIMITS.requestsPerMinute),
    'x-ratelimit-remaining-requests': String(Math.max(0, FREE_LIMITS.requestsPerMinute - minuteUsed)),
    'x-ratelimit-reset-requests': formatDuration(minuteUsed === 0 ? 0 : MINUTE_MS - (nowMs % MINUTE_MS)),
  };
}

/**
 * The Free-plan headers of an organization on the Free limits, read without moving anything (a
 * refusal before admission ran carries them too: the Free minute and day, not the key's bucket).
 */
export async function readFreeHeaders(redis: { mget(...keys: string[]): Promise<Array<string | null>> }, organizationId: string, nowMs: number): Promise<Record<string, string>> {
  const { keys } = counterPlan({ organizationId, keyId: '', memberId: '', spendPeriod: '' }, nowMs);
  const [day, heldRequests, minute] = await redis.mget(keys.freeDay, keys.freeHeldRequests, keys.freeMinute);
  return freeHeaders(Number(day ?? 0) + Number(heldRequests ?? 0), Number(minute ?? 0), nowMs);
}
