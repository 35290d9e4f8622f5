import type { Logger } from '@svc/logger';
import { unary, type ServiceRegistration } from '@svc/grpc';
import { loadBillingProto, type BillingServiceHandlers } from '@svc/protos';
import type { Redis } from '@svc/redis';
import type { Prisma } from './db';
import { authenticateKey } from './keys/authenticate-key';
import { admit } from './admission/admit';
import { settle } from './settlement/settle';
import { release } from '@svc/admission';
import type { PriceLookup } from './baselines/recompute';

export interface BillingDeps {
  prisma: Prisma;
  redis: Redis;
  logger: Logger;
  keyCacheTtlSeconds: number;
  protosDir?: string;
  catalog?: PriceLookup;
  freeDailyCostMicros?: number;
  reservationTtlSeconds?: number;
  /** The organization's own vendor keys, decrypted (BYOK); absent: none are served. */
  vendorKeys?: (organizationId: string) => Promise<Record<string, string>>;
}

/** A call's deadline as Unix ms (undefined when it has none). */
function deadlineMs(deadline: Date | number): number | undefined {
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? ms : undefined;
}

/** The BillingService registration, built from injected dependencies (nothing at import time). */
export function billingService(deps: BillingDeps): ServiceRegistration {
  const proto = loadBillingProto(deps.protosDir);
  const handlers: BillingServiceHandlers = {
    AuthenticateKey: unary(deps.logger, 'AuthenticateKey', async (request) => ({
      key: await authenticateKey({ prisma: deps.prisma, redis: deps.redis, cacheTtlSeconds: deps.keyCacheTtlSeconds }, request.key_hash),
    })),
    Admit: unary(deps.logger, 'Admit', (request, call) => admit(deps, request, { deadlineMs: deadlineMs(call.getDeadline()) })),
    Settle: unary(deps.logger, 'Settle', async (request) => ({ written: await settle(deps, request.records) })),
    Release: unary(deps.logger, 'Release', (request) => release(deps.redis, request)),
    VendorKeys: unary(deps.logger, 'VendorKeys', async (request) => ({ keys: deps.vendorKeys ? await deps.vendorKeys(request.organization_id) : {} })),
  };
  return { definition: proto.BillingService.service, implementation: handlers as never, name: 'svc.billing.v1.BillingService' };
}
