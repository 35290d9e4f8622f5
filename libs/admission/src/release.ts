import type { ReleaseRequest, ReleaseResponse } from '@svc/protos';
import type { Redis } from '@svc/redis';
import { admissionScripts } from './scripts';

/**
 * Gives back the reservation of an admitted call that ended without a billed answer (every
 * vendor failed, no answer, the client left). Settled or unknown calls hold nothing: a no-op.
 * Billing runs it behind the Release RPC; the edge and the workers run it in process.
 */
export async function release(redis: Redis, request: ReleaseRequest): Promise<ReleaseResponse> {
  const org = `{${request.organization_id ?? ''}}`;
  const released = await admissionScripts(redis).release([`unused:${org}`, `held:${org}`, `hold:${org}`], [request.call_id ?? '']);
  return { released: released === 1 };
}

/**
 * An answered call's hold against the balance and the spend limits becomes its cost until billing
 * settles it (HOLD_COST in scripts.ts). True when the call still held something.
 */
export async function holdCost(redis: Redis, request: { organization_id: string; call_id: string; cost_micros: number }): Promise<boolean> {
  const cost = Math.max(0, Math.trunc(request.cost_micros));
  return (await admissionScripts(redis).holdCost([`hold:{${request.organization_id}}`], [request.call_id, String(cost)])) === 1;
}
