import { VENDOR_IDS } from '@svc/catalog';
import type { Redis } from '@svc/redis';
import type { Prisma } from '../db';
import { AdminError, invalidateOrganizationKeys } from '../cli/admin-commands';
import { open, seal, vendorKeyAad } from './seal';

/**
 * Organizations' own vendor keys (BYOK), sealed with AES-256-GCM in billing.vendor_key. Only the
 * VendorKeys RPC (vendorKeys) ever returns a key's text; admin listings show the last four
 * characters. Setting or removing a key drops the organization's cached key records, so every
 * edge sees the new byok_vendors list within a round trip.
 */
export interface VendorKeyStoreDeps {
  prisma: Prisma;
  redis: Redis;
  /** parseEncryptionKey(config.BYOK_ENCRYPTION_KEY); undefined: keys cannot be stored. */
  encryptionKey: Buffer | undefined;
}

export interface VendorKeyReadDeps {
  prisma: Prisma;
  encryptionKey: Buffer | undefined;
}

export interface SetVendorKeyInput {
  organizationId: string;
  vendor: string;
  apiKey: string;
}

export interface VendorKeySummary {
  vendor: string;
  hint: string;
  updated_at: string;
}

export interface VendorKeysResult {
  /** vendor id → the organization's own key, for every row that opened. */
  keys: Record<string, string>;
  /** Vendors whose row did not open (wrong or missing BYOK_ENCRYPTION_KEY, altered row), sorted. */
  unreadable: string[];
}

const MAX_KEY_LENGTH = 4096;

function requireVendor(vendor: string): void {
  if (!(VENDOR_IDS as readonly string[]).includes(vendor)) throw new AdminError(`vendor must be one of ${VENDOR_IDS.join(', ')}`);
}

async function requireOrganization(prisma: Prisma, organizationId: string): Promise<void> {
  const organization = await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
  if (!organization) throw new AdminError(`no organization ${organizationId}`);
}


/** Stores (or replaces) the organization's own key for a vendor; returns its hint, never the key. */
export async function setVendorKey(deps: VendorKeyStoreDeps, input: SetVendorKeyInput): Promise<VendorKeySummary & { organization_id: string }> {
  requireVendor(input.vendor);
  if (input.apiKey.length === 0) throw new AdminError('the vendor key must not be empty');
  if (/\s/.test(input.apiKey)) throw new AdminError('the vendor key must not contain whitespace');
  if (input.apiKey.length > MAX_KEY_LENGTH) throw new AdminError(`the vendor key must be at most ${MAX_KEY_LENGTH} characters`);
  if (!deps.encryptionKey) throw new AdminError('BYOK_ENCRYPTION_KEY is not configured');
  await requireOrganization(deps.prisma, input.organizationId);
  const sealed = seal(deps.encryptionKey, input.apiKey, vendorKeyAad(input.organizationId, input.vendor));
  const hint = input.apiKey.slice(-4);
  const now = new Date();
  const row = await deps.prisma.vendorKey.upsert({
    where: { organizationId_vendor: { organizationId: input.organizationId, vendor: input.vendor } },
    create: { organizationId: input.organizationId, vendor: input.vendor, sealed, hint, createdAt: now, updatedAt: now },
    update: { sealed, hint, updatedAt: now },
  });
  await invalidateOrganizationKeys(deps, input.organizationId);
  return { organization_id: row.organizationId, vendor: row.vendor, hint: row.hint, updated_at: row.updatedAt.toISOString() };
}

/** Removes the organization's own key for a vendor; its calls to that vendor go back to the service's key. */
export async function removeVendorKey(deps: Omit<VendorKeyStoreDeps, 'encryptionKey'>, input: { organizationId: string; vendor: string }): Promise<{ organization_id: string; vendor: string; removed: true }> {
  requireVendor(input.vendor);
  await requireOrganization(deps.prisma, input.organizationId);
  const { count } = await deps.prisma.vendorKey.deleteMany({ where: { organizationId: input.organizationId, vendor: input.vendor } });
  if (count === 0) throw new AdminError(`organization ${input.organizationId} has no ${input.vendor} key`);
  await invalidateOrganizationKeys(deps, input.organizationId);
  return { organization_id: input.organizationId, vendor: input.vendor, removed: true };
}

/** The organization's own keys by vendor, for display: hint and last change only. */
export async function listVendorKeys(prisma: Prisma, organizationId: string): Promise<VendorKeySummary[]> {
  const rows = await prisma.vendorKey.findMany({ where: { organizationId }, select: { vendor: true, hint: true, updatedAt: true }, orderBy: { vendor: 'asc' } });
  return rows.map((row) => ({ vendor: row.vendor, hint: row.hint, updated_at: row.updatedAt.toISOString() }));
}

/** The vendors the organization has its own key for, sorted (the key record's byok_vendors). */
export async function byokVendors(prisma: Prisma, organizationId: string): Promise<string[]> {
  const rows = await prisma.vendorKey.findMany({ where: { organizationId }, select: { vendor: true }, orderBy: { vendor: 'asc' } });
  return rows.map((row) => row.vendor);
}

/** The VendorKeys RPC body: every row opened; a row that does not open is left out and named in `unreadable`. */
export async function vendorKeys(deps: VendorKeyReadDeps, organizationId: string): Promise<VendorKeysResult> {
  const rows = await deps.prisma.vendorKey.findMany({ where: { organizationId }, select: { vendor: true, sealed: true }, orderBy: { vendor: 'asc' } });
  const keys: Record<string, string> = {};
  const unreadable: string[] = [];
  for (const row of rows) {
    if (!deps.encryptionKey) {
      unreadable.push(row.vendor);
      continue;
    }
    try {
      keys[row.vendor] = open(deps.encryptionKey, row.sealed, vendorKeyAad(organizationId, row.vendor));
    } catch {
      unreadable.push(row.vendor);
    }
  }
  return { keys, unreadable };
}
