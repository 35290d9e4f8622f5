import { admitOnce, holdCost, keyOf, release, unavailable, type AdmitSettings } from '@svc/admission';
import type { AdmitQuery, BillingPort, RouterPort } from '@svc/call';
import type { AdmitRequest } from '@svc/protos';
import type { Redis } from '@svc/redis';
import type { Backends } from './clients';

/** Admission in this process: billing's Redis (same keys and prefix), its settings, and how long it may take. */
export interface InProcessAdmission {
  redis: Redis;
  settings: AdmitSettings;
  /** The longest admission may take (as the Admit RPC's deadline): past it the script reserves nothing and the call fails closed. */
  deadlineMs: number;
}

/** The call pipeline's router port over the router's gRPC client. */
export function routerPort(backends: Pick<Backends, 'route'>): RouterPort {
  return { route: (query) => backends.route(query) };
}

/**
 * The call pipeline's billing port over billing's gRPC client. With `inProcess`, admission runs
 * here: one run of billing's ADMIT script on its Redis counters (@svc/admission: the same checks,
 * refusals, headers and reservation as the Admit RPC, so limits stay global), and the RPC only
 * when counters are missing (billing rebuilds them from the ledger). An unreachable Redis fails
 * closed (billing_unavailable / free_tier_unavailable), as billing does.
 */
export function billingPort(backends: Pick<Backends, 'admit' | 'release'>, inProcess?: InProcessAdmission): BillingPort {
  return {
    admit: inProcess
      ? async (query) => {
          const request = asOnTheWire(query);
          const admitted = await withDeadline(admitOnce(inProcess.redis, request, inProcess.settings, { deadlineMs: Date.now() + inProcess.deadlineMs }), inProcess.deadlineMs, request);
          return 'missing' in admitted ? backends.admit(query) : admitted;
        }
      : (query) => backends.admit(query),
    // The reservation goes back in process too, so a billing restart does not leave it held until it expires.
    release: inProcess
      ? async (callId, organizationId) => void (await release(inProcess.redis, { call_id: callId, organization_id: organizationId }))
      : async (callId, organizationId) => void (await backends.release({ call_id: callId, organization_id: organizationId })),
    // Where admission runs in process, so does moving an answered call's hold to its cost.
    ...(inProcess ? { holdCost: async (callId: string, organizationId: string, costMicros: number) => void (await holdCost(inProcess.redis, { call_id: callId, organization_id: organizationId, cost_micros: costMicros })) } : {}),
  };
}

/** Admission that has not answered within `ms` fails closed (the script itself reserves nothing past its deadline). */
function withDeadline<T>(work: Promise<T>, ms: number, request: AdmitRequest): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unavailable(keyOf(request), new Error(`admission did not answer within ${ms} ms`))), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const int = (value: unknown): number => Math.trunc(Number(value ?? 0)) || 0;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The query as billing's Admit handler would read it off the wire (proto3, defaults on): absent
 * strings are '', absent booleans false, integers truncated. In process and over the RPC the same
 * query is therefore the same request (a key record without free_allowance has none either way).
 */
export function asOnTheWire(query: AdmitQuery): AdmitRequest {
  const key = query.key ?? {};
  return {
    call_id: text(query.call_id),
    organization_id: text(query.organization_id),
    key_id: text(query.key_id),
    estimated_micros: int(query.estimated_micros),
    estimated_list_micros: int(query.estimated_list_micros),
    byok: query.byok === true,
    auto: query.auto === true,
    input_tokens: int(query.input_tokens),
    max_tokens: int(query.max_tokens),
    key: {
      key_id: text(key.key_id),
      organization_id: text(key.organization_id),
      plan: text(key.plan),
      stop_at_zero: key.stop_at_zero === true,
      free_allowance: key.free_allowance === true,
      member_id: text(key.member_id),
      member_quota_micros: int(key.member_quota_micros),
      spend_limit_micros: int(key.spend_limit_micros),
      spend_period: text(key.spend_period),
    },
  };
}
