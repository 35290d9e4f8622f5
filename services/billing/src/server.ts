import type { Logger } from '@svc/logger';
import { unary, type ServiceRegistration } from '@svc/grpc';
import { loadBillingProto, type BillingServiceHandlers } from '@svc/protos';
import type { Redis } from '@svc/redis';
import type { Prisma } from './db';
import { authenticateKey } from './keys/authenticate-key';
import { admit } from './admission/admit';
import { settle } from './settlement/settle';

export interface BillingDeps {
  prisma: Prisma;
  redis: Redis;
  logger: Logger;
  keyCacheTtlSeconds: number;
  protosDir?: string;
}

/** The BillingService registration, built from injected dependencies (nothing at import time). */
export function billingService(deps: BillingDeps): ServiceRegistration {
  const proto = loadBillingProto(deps.protosDir);
  const handlers: BillingServiceHandlers = {
    AuthenticateKey: unary(deps.logger, 'AuthenticateKey', async (request) => ({
      key: await authenticateKey({ prisma: deps.prisma, redis: deps.redis, cacheTtlSeconds: deps.keyCacheTtlSeconds }, request.key_hash),
    })),
    Admit: unary(deps.logger, 'Admit', (request) => admit(deps, request)),
    Settle: unary(deps.logger, 'Settle', async (request) => ({ written: await settle(deps, request.records) })),
  };
  return { definition: proto.BillingService.service, implementation: handlers as never, name: 'svc.billing.v1.BillingService' };
}
