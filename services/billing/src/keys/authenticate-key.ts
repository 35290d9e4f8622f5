import { ServiceError } from '@svc/errors';
import type { KeyRecord } from '@svc/protos';
import type { Redis } from '@svc/redis';
import type { Prisma } from '../db';
import { keyCacheKey } from './key-cache';
import { sameHash } from './key-hash';

export interface AuthenticateDeps {
  prisma: Prisma;
  redis: Redis;
  cacheTtlSeconds: number;
}

/** The key record for a key hash; Redis first, Postgres on a miss. Unknown → invalid_api_key. */
export async function authenticateKey(deps: AuthenticateDeps, keyHash: string): Promise<KeyRecord> {
  if (!/^[0-9a-f]{64}$/.test(keyHash)) throw new ServiceError('invalid_api_key', 'Incorrect API key provided.');
  const cached = await deps.redis.get(keyCacheKey(keyHash));
  if (cached) return JSON.parse(cached) as KeyRecord;
  const row = await deps.prisma.apiKey.findUnique({
    where: { hash: keyHash },
    include: { organization: { include: { account: true, vendorKeys: { select: { vendor: true } } } }, project: true },
  });
  if (!row || !sameHash(row.hash, keyHash)) throw new ServiceError('invalid_api_key', 'Incorrect API key provided.');
  const memberId = row.memberId ?? row.organization.accountId;
  const [firstOrganization, member] = await Promise.all([
    // A person's first organization carries the Free allowance; a second one has none (spec: 402).
    deps.prisma.organization.findFirst({ where: { accountId: row.organization.accountId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true } }),
    deps.prisma.organizationMember.findUnique({ where: { organizationId_accountId: { organizationId: row.organizationId, accountId: memberId } } }),
  ]);
  const record: KeyRecord = {
    key_id: row.id,
    organization_id: row.organizationId,
    project_id: row.projectId,
    account_id: row.organization.accountId,
    scopes: row.scopes,
    allowed_models: row.allowedModels,
    account_disabled_models: row.organization.account.disabledModels,
    organization_disabled_models: row.organization.disabledModels,
    project_disabled_models: row.project.disabledModels,
    expires_at_ms: row.expiresAt ? row.expiresAt.getTime() : 0,
    revoked: row.revokedAt !== null,
    organization_status: row.organization.status,
    plan: row.organization.plan,
    fallback_policy: row.fallbackPolicy,
    rpm_limit: row.rpmLimit,
    tpm_limit: row.tpmLimit,
    spend_limit_micros: row.spendLimitMicros === null ? 0 : Number(row.spendLimitMicros),
    spend_period: row.spendPeriod ?? '',
    stop_at_zero: row.organization.stopAtZero,
    topped_up: row.organization.toppedUp,
    free_allowance: firstOrganization?.id === row.organizationId,
    member_id: memberId,
    member_quota_micros: member?.monthlyQuotaMicros === null || member?.monthlyQuotaMicros === undefined ? 0 : Number(member.monthlyQuotaMicros),
    byok_vendors: row.organization.vendorKeys.map((key) => key.vendor).sort(),
  };
  await deps.redis.set(keyCacheKey(keyHash), JSON.stringify(record), 'EX', deps.cacheTtlSeconds);
  return record;
}
