import { ids, newApiKey } from '@svc/ids';
import type { Redis } from '@svc/redis';
import type { Prisma } from '../db';
import { hashKey, keyPrefix } from '../keys/key-hash';
import { invalidateKeys } from '../keys/key-cache';
import { rebuildBalance } from '../admission/balance';

/** Admin operations as plain functions: the CLI parses arguments and prints; tests call these. */
export interface AdminDeps {
  prisma: Prisma;
  redis: Redis;
}

export const SCOPES = ['chat', 'embeddings', 'conversations'] as const;
export const FALLBACK_POLICIES = ['same_vendor', 'cross_vendor', 'none'] as const;
export const SPEND_PERIODS = ['day', 'week', 'month', 'life'] as const;

export class AdminError extends Error {
  override name = 'AdminError';
  /** A spec error code when the refusal is one (free_tier_limit with param members or api_keys). */
  constructor(message: string, readonly details: { code?: string; param?: string } = {}) {
    super(message);
  }
}

/** The Free plan's account caps until the first top-up (spec: 403 free_tier_limit). */
export const FREE_MAX_MEMBERS = 1;
export const FREE_MAX_KEYS = 2;

export interface CreateOrganizationInput {
  name: string;
  email: string;
  plan: 'paid' | 'free';
  creditMicros: bigint;
  stopAtZero?: boolean;
}

export async function createOrganization(deps: AdminDeps, input: CreateOrganizationInput) {
  if (input.creditMicros < 0n) throw new AdminError('credit must not be negative');
  const account = await deps.prisma.account.upsert({ where: { email: input.email }, update: {}, create: { id: ids.account(), email: input.email } });
  const organizationId = ids.organization();
  const projectId = ids.project();
  await deps.prisma.$transaction([
    deps.prisma.organization.create({
      data: { id: organizationId, accountId: account.id, name: input.name, plan: input.plan, stopAtZero: input.stopAtZero ?? false, toppedUp: input.plan === 'paid' && input.creditMicros > 0n },
    }),
    deps.prisma.project.create({ data: { id: projectId, organizationId, name: 'Default project' } }),
    deps.prisma.organizationMember.create({ data: { organizationId, accountId: account.id, role: 'owner' } }),
    ...(input.creditMicros > 0n ? [deps.prisma.creditEntry.create({ data: { id: ids.credit(), organizationId, amountMicros: input.creditMicros, kind: 'grant', note: 'initial credit' } })] : []),
  ]);
  await rebuildBalance(deps.prisma, deps.redis, organizationId);
  return { organization_id: organizationId, project_id: projectId, account_id: account.id, plan: input.plan, credit_micros: input.creditMicros.toString() };
}

export async function topUp(deps: AdminDeps, organizationId: string, micros: bigint) {
  if (micros <= 0n) throw new AdminError('top-up amount must be positive');
  await requireOrganization(deps, organizationId);
  await deps.prisma.$transaction([
    deps.prisma.creditEntry.create({ data: { id: ids.credit(), organizationId, amountMicros: micros, kind: 'topup' } }),
    // The first top-up ends the Free plan: the organization is paid from now on.
    deps.prisma.organization.update({ where: { id: organizationId }, data: { toppedUp: true, plan: 'paid' } }),
  ]);
  const balance = await rebuildBalance(deps.prisma, deps.redis, organizationId);
  await invalidateOrganizationKeys(deps, organizationId);
  return { organization_id: organizationId, balance_micros: String(balance) };
}

export async function setSuspended(deps: AdminDeps, organizationId: string, suspended: boolean) {
  await requireOrganization(deps, organizationId);
  await deps.prisma.organization.update({ where: { id: organizationId }, data: { status: suspended ? 'suspended' : 'active' } });
  await invalidateOrganizationKeys(deps, organizationId);
  return { organization_id: organizationId, status: suspended ? 'suspended' : 'active' };
}

export interface CreateKeyInput {
  organizationId: string;
  projectId?: string;
  name?: string;
  scopes?: string[];
  models?: string[];
  expiresAt?: Date;
  spendLimitMicros?: bigint;
  spendPeriod?: string;
  fallbackPolicy?: string;
  rpmLimit?: number;
  tpmLimit?: number;
  /** Account id or email of the member the key belongs to (default: the organization's owner). */
  member?: string;
}

/** Creates a key and returns its text once; only its sha256 is stored. */
export async function createKey(deps: AdminDeps, input: CreateKeyInput) {
  const organization = await requireOrganization(deps, input.organizationId);
  const scopes = input.scopes ?? [...SCOPES];
  for (const scope of scopes) if (!(SCOPES as readonly string[]).includes(scope)) throw new AdminError(`unknown scope ${scope} (use ${SCOPES.join(', ')})`);
  if (input.fallbackPolicy && !(FALLBACK_POLICIES as readonly string[]).includes(input.fallbackPolicy)) throw new AdminError(`fallback policy must be one of ${FALLBACK_POLICIES.join(', ')}`);
  if (input.spendPeriod && !(SPEND_PERIODS as readonly string[]).includes(input.spendPeriod)) throw new AdminError(`spend period must be one of ${SPEND_PERIODS.join(', ')}`);
  if ((input.spendLimitMicros === undefined) !== (input.spendPeriod === undefined)) throw new AdminError('a spend limit needs both --spend-limit and --spend-period');
  if (input.expiresAt && Number.isNaN(input.expiresAt.getTime())) throw new AdminError('expiry must be an ISO date');
  if (organization.plan === 'free') {
    const live = await deps.prisma.apiKey.count({ where: { organizationId: organization.id, revokedAt: null } });
    if (live >= FREE_MAX_KEYS) {
      throw new AdminError(`The Free plan allows ${FREE_MAX_KEYS} API keys until the first top-up.`, { code: 'free_tier_limit', param: 'api_keys' });
    }
  }
  const memberId = input.member ? (await requireMember(deps, organization.id, input.member)).accountId : undefined;
  // A project is a level inside the organization: another organization's project (whose model
  // access would then govern this key) is refused as not found.
  const projectId = input.projectId
    ? (await deps.prisma.project.findFirst({ where: { id: input.projectId, organizationId: organization.id } }))?.id
    : (await deps.prisma.project.findFirst({ where: { organizationId: organization.id }, orderBy: { createdAt: 'asc' } }))?.id;
  if (input.projectId && !projectId) throw new AdminError(`project ${input.projectId} not found in organization ${organization.id}`);
  if (!projectId) throw new AdminError(`organization ${organization.id} has no project`);
  const key = newApiKey();
  const id = ids.apiKeyId();
  await deps.prisma.apiKey.create({
    data: {
      id,
      organizationId: organization.id,
      projectId,
      name: input.name ?? '',
      hash: hashKey(key),
      prefix: keyPrefix(key),
      scopes,
      allowedModels: input.models ?? [],
      expiresAt: input.expiresAt,
      spendLimitMicros: input.spendLimitMicros,
      spendPeriod: input.spendPeriod,
      fallbackPolicy: input.fallbackPolicy ?? 'cross_vendor',
      rpmLimit: input.rpmLimit ?? 600,
      tpmLimit: input.tpmLimit ?? 200_000,
      memberId,
    },
  });
  return { key_id: id, key, organization_id: organization.id, project_id: projectId, scopes, allowed_models: input.models ?? [] };
}

export async function revokeKey(deps: AdminDeps, keyId: string) {
  const row = await deps.prisma.apiKey.findUnique({ where: { id: keyId } });
  if (!row) throw new AdminError(`no key ${keyId}`);
  await deps.prisma.apiKey.update({ where: { id: keyId }, data: { revokedAt: row.revokedAt ?? new Date() } });
  await invalidateKeys(deps.redis, [row.hash]);
  return { key_id: keyId, revoked: true };
}

export async function listKeys(deps: AdminDeps, organizationId: string) {
  const rows = await deps.prisma.apiKey.findMany({ where: { organizationId }, orderBy: { createdAt: 'asc' } });
  return rows.map((row) => ({
    key_id: row.id,
    prefix: row.prefix,
    name: row.name,
    scopes: row.scopes,
    allowed_models: row.allowedModels,
    expires_at: row.expiresAt?.toISOString() ?? null,
    revoked: row.revokedAt !== null,
    spend_limit_micros: row.spendLimitMicros?.toString() ?? null,
    spend_period: row.spendPeriod,
    fallback_policy: row.fallbackPolicy,
  }));
}

/** Adds a person (by email) to an organization; the Free plan has one member until the first top-up. */
export async function addMember(deps: AdminDeps, organizationId: string, email: string, monthlyQuotaMicros?: bigint) {
  const organization = await requireOrganization(deps, organizationId);
  if (organization.plan === 'free') {
    const members = await deps.prisma.organizationMember.count({ where: { organizationId } });
    if (members >= FREE_MAX_MEMBERS) throw new AdminError(`The Free plan allows ${FREE_MAX_MEMBERS} member until the first top-up.`, { code: 'free_tier_limit', param: 'members' });
  }
  const account = await deps.prisma.account.upsert({ where: { email }, update: {}, create: { id: ids.account(), email } });
  const member = await deps.prisma.organizationMember.create({ data: { organizationId, accountId: account.id, role: 'member', monthlyQuotaMicros } });
  return { organization_id: organizationId, account_id: account.id, email, role: member.role, monthly_quota_micros: member.monthlyQuotaMicros?.toString() ?? null };
}

/** Sets (or with undefined, clears) a member's monthly spend quota; keys see it at once. */
export async function setMemberQuota(deps: AdminDeps, organizationId: string, member: string, monthlyQuotaMicros: bigint | undefined) {
  const row = await requireMember(deps, organizationId, member);
  await deps.prisma.organizationMember.update({
    where: { organizationId_accountId: { organizationId, accountId: row.accountId } },
    data: { monthlyQuotaMicros: monthlyQuotaMicros ?? null },
  });
  await invalidateOrganizationKeys(deps, organizationId);
  return { organization_id: organizationId, account_id: row.accountId, monthly_quota_micros: monthlyQuotaMicros?.toString() ?? null };
}

export async function listMembers(deps: AdminDeps, organizationId: string) {
  const rows = await deps.prisma.organizationMember.findMany({ where: { organizationId }, orderBy: { createdAt: 'asc' } });
  const accounts = await deps.prisma.account.findMany({ where: { id: { in: rows.map((row) => row.accountId) } } });
  const email = new Map(accounts.map((account) => [account.id, account.email]));
  return rows.map((row) => ({ account_id: row.accountId, email: email.get(row.accountId) ?? '', role: row.role, monthly_quota_micros: row.monthlyQuotaMicros?.toString() ?? null }));
}

/** A member by account id or email. */
async function requireMember(deps: AdminDeps, organizationId: string, member: string) {
  const accountId = member.includes('@') ? (await deps.prisma.account.findUnique({ where: { email: member } }))?.id : member;
  const row = accountId ? await deps.prisma.organizationMember.findUnique({ where: { organizationId_accountId: { organizationId, accountId } } }) : null;
  if (!row) throw new AdminError(`${member} is not a member of ${organizationId}`);
  return row;
}

async function requireOrganization(deps: AdminDeps, organizationId: string) {
  const organization = await deps.prisma.organization.findUnique({ where: { id: organizationId } });
  if (!organization) throw new AdminError(`no organization ${organizationId}`);
  return organization;
}

/** Drops every cached key record of an organization (each edge hears it over key-events). */
export async function invalidateOrganizationKeys(deps: AdminDeps, organizationId: string): Promise<void> {
  const rows = await deps.prisma.apiKey.findMany({ where: { organizationId }, select: { hash: true } });
  await invalidateKeys(deps.redis, rows.map((row) => row.hash));
}

export const DEV_ACCOUNT_EMAIL = 'dev@svc.local';

/**
 * The development organization (idempotent): created once with credit; the key in
 * `existingKey` is kept while it still works, otherwise a new one is made.
 */
export async function seedDevelopment(deps: AdminDeps, existingKey: string | undefined, creditMicros: bigint) {
  let organization = await deps.prisma.organization.findFirst({ where: { account: { email: DEV_ACCOUNT_EMAIL } }, orderBy: { createdAt: 'asc' } });
  if (!organization) {
    const created = await createOrganization(deps, { name: 'Development', email: DEV_ACCOUNT_EMAIL, plan: 'paid', creditMicros });
    organization = await deps.prisma.organization.findUniqueOrThrow({ where: { id: created.organization_id } });
  }
  if (existingKey) {
    const row = await deps.prisma.apiKey.findUnique({ where: { hash: hashKey(existingKey) } });
    if (row && row.organizationId === organization.id && !row.revokedAt && (!row.expiresAt || row.expiresAt > new Date())) {
      return { organization_id: organization.id, key: existingKey, key_id: row.id, created: false };
    }
  }
  const key = await createKey(deps, { organizationId: organization.id, name: 'development' });
  return { organization_id: organization.id, key: key.key, key_id: key.key_id, created: true };
}
