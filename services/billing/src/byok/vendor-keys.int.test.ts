import { randomBytes } from 'node:crypto';
import { createRedis, Redis, waitReady } from '@svc/redis';
import { createPrisma } from '../db';
import { balanceKey } from '../admission/balance';
import { AdminError, createKey, createOrganization } from '../cli/admin-commands';
import { authenticateKey } from '../keys/authenticate-key';
import { keyCacheKey, keyEventsChannel } from '../keys/key-cache';
import { hashKey } from '../keys/key-hash';
import { open, vendorKeyAad } from './seal';
import { byokVendors, listVendorKeys, removeVendorKey, setVendorKey, vendorKeys } from './vendor-keys';

// Real Postgres (svc_test) and Redis (keys under REDIS_KEY_PREFIX). Two organizations are created
// for this run and removed, with their vendor keys, in afterAll.

const RUN = `${process.pid}-${randomBytes(4).toString('hex')}`;
const PREFIX = process.env.REDIS_KEY_PREFIX!;
const ENCRYPTION_KEY = randomBytes(32);
const OTHER_KEY = randomBytes(32);
const SECRET = `sk-own-${RUN}-Wxyz`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function adminError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AdminError);
    return (error as AdminError).message;
  }
  throw new Error('expected an AdminError');
}

describe('BYOK vendor keys (real Postgres and Redis)', () => {
  const prisma = createPrisma(process.env.DATABASE_URL!);
  const redis = createRedis({ url: process.env.REDIS_URL!, keyPrefix: PREFIX });
  const subscriber = new Redis(process.env.REDIS_URL!, { lazyConnect: true });
  const adminDeps = { prisma, redis };
  const deps = { prisma, redis, encryptionKey: ENCRYPTION_KEY };
  const events: string[] = [];
  const organizations: Array<{ organizationId: string; accountId: string }> = [];
  const hashes: string[] = [];

  let organizationId: string;
  let otherOrganizationId: string;

  async function newOrganization(name: string): Promise<string> {
    const org = await createOrganization(adminDeps, { name, email: `byok-${name}-${RUN}@svctest.local`, plan: 'paid', creditMicros: 1_000_000n });
    organizations.push({ organizationId: org.organization_id, accountId: org.account_id });
    return org.organization_id;
  }

  /** A key of the organization whose record is cached in Redis by authenticateKey. */
  async function cachedKeyHash(orgId: string): Promise<string> {
    const created = await createKey(adminDeps, { organizationId: orgId });
    const hash = hashKey(created.key);
    hashes.push(hash);
    await authenticateKey({ prisma, redis, cacheTtlSeconds: 60 }, hash);
    expect(await redis.exists(keyCacheKey(hash))).toBe(1);
    return hash;
  }

  async function invalidated(hash: string): Promise<boolean> {
    const deadline = Date.now() + 5_000;
    while (!events.includes(hash)) {
      if (Date.now() > deadline) return false;
      await sleep(20);
    }
    return true;
  }

  beforeAll(async () => {
    await waitReady(redis);
    await subscriber.connect();
    subscriber.on('message', (_channel: string, message: string) => events.push((JSON.parse(message) as { hash: string }).hash));
    await subscriber.subscribe(keyEventsChannel(PREFIX));
    organizationId = await newOrganization('main');
    otherOrganizationId = await newOrganization('other');
  });

  afterAll(async () => {
    if (hashes.length > 0) await redis.del(...hashes.map(keyCacheKey));
    for (const { organizationId: id, accountId } of organizations) {
      await redis.del(balanceKey(id));
      await prisma.vendorKey.deleteMany({ where: { organizationId: id } });
      await prisma.apiKey.deleteMany({ where: { organizationId: id } });
      await prisma.creditEntry.deleteMany({ where: { organizationId: id } });
      await prisma.project.deleteMany({ where: { organizationId: id } });
      await prisma.organization.deleteMany({ where: { id } });
      await prisma.account.deleteMany({ where: { id: accountId } });
    }
    await prisma.$disconnect();
    await redis.quit();
    await subscriber.quit();
  });

  it('setVendorKey stores the key sealed under its row, shows only the last four characters', async () => {
    const result = await setVendorKey(deps, { organizationId, vendor: 'vendor-3', apiKey: SECRET });
    const row = await prisma.vendorKey.findUniqueOrThrow({ where: { organizationId_vendor: { organizationId, vendor: 'vendor-3' } } });
    expect(result).toEqual({ organization_id: organizationId, vendor: 'vendor-3', hint: 'Wxyz', updated_at: row.updatedAt.toISOString() });
    expect(row.hint).toBe('Wxyz');
    expect(row.createdAt.getTime()).toBe(row.updatedAt.getTime());
    expect(Buffer.from(row.sealed, 'base64').length).toBe(12 + 16 + SECRET.length);
    expect(open(ENCRYPTION_KEY, row.sealed, `${organizationId}:vendor-3`)).toBe(SECRET);

    // The key's text appears in no billing row.
    const found = await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM billing.vendor_key t WHERE strpos(row_to_json(t)::text, $1) > 0`, SECRET.slice(0, -4));
    expect(Number(found[0]!.n)).toBe(0);
  });

  it('setting again replaces the key in place and keeps the creation time', async () => {
    const before = await prisma.vendorKey.findUniqueOrThrow({ where: { organizationId_vendor: { organizationId, vendor: 'vendor-3' } } });
    await sleep(5);
    const result = await setVendorKey(deps, { organizationId, vendor: 'vendor-3', apiKey: `${SECRET}-2nd9` });
    expect(result.hint).toBe('2nd9');
    const rows = await prisma.vendorKey.findMany({ where: { organizationId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.createdAt.getTime()).toBe(before.createdAt.getTime());
    expect(rows[0]!.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    expect(rows[0]!.sealed).not.toBe(before.sealed);
    expect(await vendorKeys(deps, organizationId)).toEqual({ keys: { 'vendor-3': `${SECRET}-2nd9` }, unreadable: [] });
  });

  it('set and remove drop the organization’s cached key records and announce it', async () => {
    const first = await cachedKeyHash(organizationId);
    const second = await cachedKeyHash(organizationId);
    const otherOrg = await cachedKeyHash(otherOrganizationId);

    await setVendorKey(deps, { organizationId, vendor: 'vendor-5', apiKey: 'sk-five-5555' });
    expect(await redis.exists(keyCacheKey(first))).toBe(0);
    expect(await redis.exists(keyCacheKey(second))).toBe(0);
    expect(await invalidated(first)).toBe(true);
    expect(await invalidated(second)).toBe(true);
    // Another organization's records stay cached.
    expect(await redis.exists(keyCacheKey(otherOrg))).toBe(1);
    expect(events.includes(otherOrg)).toBe(false);

    events.length = 0;
    await authenticateKey({ prisma, redis, cacheTtlSeconds: 60 }, first);
    expect(await redis.exists(keyCacheKey(first))).toBe(1);
    expect(await removeVendorKey(adminDeps, { organizationId, vendor: 'vendor-5' })).toEqual({ organization_id: organizationId, vendor: 'vendor-5', removed: true });
    expect(await redis.exists(keyCacheKey(first))).toBe(0);
    expect(await invalidated(first)).toBe(true);
    expect(await invalidated(second)).toBe(true);
  });

  it('listVendorKeys and byokVendors are sorted by vendor and never carry the key', async () => {
    await setVendorKey(deps, { organizationId, vendor: 'vendor-7', apiKey: 'sk-seven-7777' });
    await setVendorKey(deps, { organizationId, vendor: 'vendor-1', apiKey: 'sk-one-1111' });
    const rows = await prisma.vendorKey.findMany({ where: { organizationId }, orderBy: { vendor: 'asc' } });
    expect(await listVendorKeys(prisma, organizationId)).toEqual(rows.map((row) => ({ vendor: row.vendor, hint: row.hint, updated_at: row.updatedAt.toISOString() })));
    expect((await listVendorKeys(prisma, organizationId)).map(({ vendor, hint }) => ({ vendor, hint }))).toEqual([
      { vendor: 'vendor-1', hint: '1111' },
      { vendor: 'vendor-3', hint: '2nd9' },
      { vendor: 'vendor-7', hint: '7777' },
    ]);
    expect(await byokVendors(prisma, organizationId)).toEqual(['vendor-1', 'vendor-3', 'vendor-7']);
    expect(await byokVendors(prisma, otherOrganizationId)).toEqual([]);
    expect(await listVendorKeys(prisma, otherOrganizationId)).toEqual([]);
  });

  it('vendorKeys opens every row of the organization', async () => {
    expect(await vendorKeys(deps, organizationId)).toEqual({
      keys: { 'vendor-1': 'sk-one-1111', 'vendor-3': `${SECRET}-2nd9`, 'vendor-7': 'sk-seven-7777' },
      unreadable: [],
    });
    expect(await vendorKeys(deps, otherOrganizationId)).toEqual({ keys: {}, unreadable: [] });
  });

  it('a sealed value copied to another vendor or organization does not open there', async () => {
    const source = await prisma.vendorKey.findUniqueOrThrow({ where: { organizationId_vendor: { organizationId, vendor: 'vendor-1' } } });
    await prisma.vendorKey.update({ where: { organizationId_vendor: { organizationId, vendor: 'vendor-7' } }, data: { sealed: source.sealed } });
    await prisma.vendorKey.create({ data: { organizationId: otherOrganizationId, vendor: 'vendor-1', sealed: source.sealed, hint: source.hint } });
    expect(await vendorKeys(deps, organizationId)).toEqual({ keys: { 'vendor-1': 'sk-one-1111', 'vendor-3': `${SECRET}-2nd9` }, unreadable: ['vendor-7'] });
    expect(await vendorKeys(deps, otherOrganizationId)).toEqual({ keys: {}, unreadable: ['vendor-1'] });
    await prisma.vendorKey.deleteMany({ where: { organizationId: otherOrganizationId } });
    await setVendorKey(deps, { organizationId, vendor: 'vendor-7', apiKey: 'sk-seven-7777' });
  });

  it('under another encryption key, or none, every row is unreadable', async () => {
    expect(await vendorKeys({ prisma, encryptionKey: OTHER_KEY }, organizationId)).toEqual({ keys: {}, unreadable: ['vendor-1', 'vendor-3', 'vendor-7'] });
    expect(await vendorKeys({ prisma, encryptionKey: undefined }, organizationId)).toEqual({ keys: {}, unreadable: ['vendor-1', 'vendor-3', 'vendor-7'] });
  });

  it('refuses bad input with an AdminError and stores nothing', async () => {
    const before = await prisma.vendorKey.findMany({ where: { organizationId }, orderBy: { vendor: 'asc' } });
    expect(await adminError(setVendorKey(deps, { organizationId, vendor: 'vendor-9', apiKey: 'sk-x' }))).toBe(
      'vendor must be one of vendor-1, vendor-2, vendor-3, vendor-4, vendor-5, vendor-6, vendor-7, vendor-8',
    );
    expect(await adminError(setVendorKey(deps, { organizationId, vendor: 'vendor-2', apiKey: '' }))).toBe('the vendor key must not be empty');
    expect(await adminError(setVendorKey(deps, { organizationId, vendor: 'vendor-2', apiKey: 'sk two' }))).toBe('the vendor key must not contain whitespace');
    expect(await adminError(setVendorKey(deps, { organizationId, vendor: 'vendor-2', apiKey: 'sk-two\n' }))).toBe('the vendor key must not contain whitespace');
    expect(await adminError(setVendorKey(deps, { organizationId, vendor: 'vendor-2', apiKey: 'k'.repeat(4097) }))).toBe('the vendor key must be at most 4096 characters');
    expect(await adminError(setVendorKey({ prisma, redis, encryptionKey: undefined }, { organizationId, vendor: 'vendor-2', apiKey: 'sk-two' }))).toBe('BYOK_ENCRYPTION_KEY is not configured');
    expect(await adminError(setVendorKey(deps, { organizationId: `org_missing_${RUN}`, vendor: 'vendor-2', apiKey: 'sk-two' }))).toBe(`no organization org_missing_${RUN}`);
    expect(await adminError(removeVendorKey(adminDeps, { organizationId, vendor: 'vendor-0' }))).toBe(
      'vendor must be one of vendor-1, vendor-2, vendor-3, vendor-4, vendor-5, vendor-6, vendor-7, vendor-8',
    );
    expect(await adminError(removeVendorKey(adminDeps, { organizationId: `org_missing_${RUN}`, vendor: 'vendor-2' }))).toBe(`no organization org_missing_${RUN}`);
    expect(await adminError(removeVendorKey(adminDeps, { organizationId, vendor: 'vendor-2' }))).toBe(`organization ${organizationId} has no vendor-2 key`);
    expect(await prisma.vendorKey.findMany({ where: { organizationId }, orderBy: { vendor: 'asc' } })).toEqual(before);
  });

  it('vendorKeyAad is organization:vendor', () => {
    expect(vendorKeyAad('org_a', 'vendor-2')).toBe('org_a:vendor-2');
  });
});
