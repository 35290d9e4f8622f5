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
