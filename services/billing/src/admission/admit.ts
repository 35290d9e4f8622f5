import type { AdmitRequest } from '@svc/protos';
import { admitOnce, keyOf, unavailable, type Admission, type AdmitSettings } from '@svc/admission';
import type { Redis } from '@svc/redis';
import type { Prisma } from '../db';
import { rebuildCounters } from './counters';

export interface AdmitDeps extends AdmitSettings {
  prisma: Prisma;
  redis: Redis;
}

/**
 * Admission behind the Admit RPC: one run of the ADMIT script (@svc/admission admitOnce: the
 * checks, the refusals and the reservation), and when it reports counters missing, their rebuild
 * from the ledger and another run (at most twice). The edge and the workers run admitOnce in
 * process on warm counters and call this only when counters are missing.
 */
export async function admit(deps: AdmitDeps, request: AdmitRequest, options: { deadlineMs?: number } = {}): Promise<Admission> {
  for (let round = 0; ; round += 1) {
    const result = await admitOnce(deps.redis, request, deps, options);
    if (!('missing' in result)) return result;
    try {
      if (round >= 2) throw new Error(`admission counters still missing after rebuild: ${result.missing.join(', ')}`);
      await rebuildCounters(deps.prisma, deps.redis, result.scope, result.plan, result.missing);
    } catch (error) {
      throw unavailable(keyOf(request), error);
    }
  }
}
