import { createHash, randomBytes } from 'node:crypto';
import { ServiceError } from '@svc/errors';
import { API_KEY_PATTERN } from '@svc/ids';
import { createRedis, Redis, waitReady } from '@svc/redis';
import { createPrisma } from '../db';
import { balanceKey } from '../admission/balance';
import { createKey, createOrganization, revokeKey, setSuspended } from '../cli/admin-commands';
import { authenticateKey } from './authenticate-key';
import { keyCacheKey, keyEventsChannel } from './key-cache';
import { hashKey } from './key-hash';

// Real Postgres (svc_test) and Redis (keys under REDIS_KEY_PREFIX; the key-events channel is
// prefixed too). The organization and its keys are new for this run and removed in afterAll.

const RUN = `${process.pid}-${randomBytes(4).toString('hex')}`;
const PREFIX = process.env.REDIS_KEY_PREFIX!;
const TTL_SECONDS = 60;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(probe: () => T | undefined, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected a rejection');
}

describe('authenticateKey and key admin (real Postgres and Redis)', () => {
  const prisma = createPrisma(process.env.DATABASE_URL!);
  const redis = createRedis({ url: process.env.REDIS_URL!, keyPrefix: PREFIX });
  // Pub/sub needs its own connection; channel names are not key-prefixed by ioredis.
  const subscriber = new Redis(process.env.REDIS_URL!, { lazyConnect: true });
  const deps = { prisma, redis };
  const authDeps = { prisma, redis, cacheTtlSeconds: TTL_SECONDS };
  const events: Array<{ channel: string; message: { type: string; hash: string } }> = [];

  let organizationId: string;
  let projectId: string;
  let accountId: string;
  const hashes: string[] = [];

  async function newKey(input: Omit<Parameters<typeof createKey>[1], 'organizationId'> = {}) {
    const created = await createKey(deps, { organizationId, ...input });
    hashes.push(hashKey(created.key));
    return created;
  }

  function eventsFor(hash: string) {
    return events.filter((event) => event.message.hash === hash);
  }

  beforeAll(async () => {
    await waitReady(redis);
    await subscriber.connect();
    subscriber.on('message', (channel: string, message: string) => events.push({ channel, message: JSON.parse(message) }));
    expect(await subscriber.subscribe(keyEventsChannel(PREFIX))).toBe(1);
    const org = await createOrganization(deps, { name: 'keys int', email: `keys-${RUN}@svctest.local`, plan: 'paid', creditMicros: 2_000_000n });
    organizationId = org.organization_id;
    projectId = org.project_id;
    accountId = org.account_id;
  });

  afterAll(async () => {
    if (hashes.length > 0) await redis.del(...hashes.map(keyCacheKey));
    await redis.del(balanceKey(organizationId));
    await prisma.apiKey.deleteMany({ where: { organizationId } });
    await prisma.creditEntry.deleteMany({ where: { organizationId } });
    await prisma.project.deleteMany({ where: { organizationId } });
    await prisma.organization.deleteMany({ where: { id: organizationId } });
    await prisma.account.deleteMany({ where: { id: accountId } });
    await prisma.$disconnect();
    await redis.quit();
    await subscriber.quit();
  });

  it('uses the test prefix for the key-events channel', () => {
    expect(keyEventsChannel(PREFIX)).toBe(`${PREFIX}key-events`);
  });

  it('createKey returns svc_live_ + 43 letters and digits once and stores only its sha256', async () => {
    const created = await newKey({ name: 'stored' });
    expect(created.key).toMatch(/^svc_live_[A-Za-z0-9]{43}$/);
    expect(created.key).toMatch(API_KEY_PATTERN);
    expect(created.key).toHaveLength(52);
    expect(created.key_id).toMatch(/^key_[0-9a-f]{32}$/);
    expect(created.organization_id).toBe(organizationId);
    expect(created.project_id).toBe(projectId);
    expect(created.scopes).toEqual(['chat', 'embeddings', 'conversations']);

    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: created.key_id } });
    expect(row.hash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(row.prefix).toBe(created.key.slice(0, 13));
    expect(row.prefix).toMatch(/^svc_live_[A-Za-z0-9]{4}$/);

    // Neither the key nor its secret part appears in any billing row.
    const secret = created.key.slice('svc_live_'.length);
    for (const table of ['account', 'organization', 'project', 'api_key', 'credit_entry', 'ledger_entry']) {
      const rows = await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM billing.${table} t WHERE strpos(row_to_json(t)::text, $1) > 0`, secret);
      expect({ table, n: Number(rows[0]!.n) }).toEqual({ table, n: 0 });
    }
  });

  it('authenticateKey returns the full key record from Postgres and caches it in Redis', async () => {
    const created = await newKey({ name: 'record', scopes: ['chat'], models: ['gpt-test', 'claude-test'], fallbackPolicy: 'same_vendor', rpmLimit: 30, tpmLimit: 9_000, spendLimitMicros: 5_000_000n, spendPeriod: 'month', expiresAt: new Date('2099-01-02T03:04:05.678Z') });
    const hash = hashKey(created.key);
    expect(await redis.exists(keyCacheKey(hash))).toBe(0);

    const record = await authenticateKey(authDeps, hash);
    expect(record).toEqual({
      key_id: created.key_id,
      organization_id: organizationId,
      project_id: projectId,
      account_id: accountId,
      scopes: ['chat'],
      allowed_models: ['gpt-test', 'claude-test'],
      account_disabled_models: [],
      organization_disabled_models: [],
      project_disabled_models: [],
      expires_at_ms: Date.parse('2099-01-02T03:04:05.678Z'),
      revoked: false,
      organization_status: 'active',
      plan: 'paid',
      fallback_policy: 'same_vendor',
      rpm_limit: 30,
      tpm_limit: 9_000,
      spend_limit_micros: 5_000_000,
      spend_period: 'month',
      stop_at_zero: false,
      topped_up: true,
      free_allowance: true,
      member_id: accountId,
      member_quota_micros: 0,
      byok_vendors: [],
    });

    // Cached under the prefix with the configured TTL...
    expect(JSON.parse((await redis.get(keyCacheKey(hash)))!)).toEqual(record);
    const ttl = await redis.ttl(keyCacheKey(hash));
    expect(ttl).toBeGreaterThan(TTL_SECONDS - 5);
    expect(ttl).toBeLessThanOrEqual(TTL_SECONDS);
    // ...and served from there: a change made behind the cache's back is not seen.
    await prisma.apiKey.update({ where: { id: created.key_id }, data: { rpmLimit: 31 } });
    expect((await authenticateKey(authDeps, hash)).rpm_limit).toBe(30);
  });

  it('a key with defaults reports cross_vendor fallback, no expiry and no spend limit', async () => {
    const created = await newKey();
    const record = await authenticateKey(authDeps, hashKey(created.key));
    expect(record.scopes).toEqual(['chat', 'embeddings', 'conversations']);
    expect(record.allowed_models).toEqual([]);
    expect(record.fallback_policy).toBe('cross_vendor');
    expect(record.expires_at_ms).toBe(0);
    expect(record.spend_limit_micros).toBe(0);
    expect(record.spend_period).toBe('');
    expect(record.rpm_limit).toBe(600);
    expect(record.tpm_limit).toBe(200_000);
  });

  it("createKey refuses another organization's project (its model access would govern the key)", async () => {
    const other = await createOrganization(deps, { name: 'keys int other', email: `keys-other-${RUN}@svctest.local`, plan: 'paid', creditMicros: 0n });
    try {
      await expect(createKey(deps, { organizationId, projectId: other.project_id })).rejects.toThrow(`project ${other.project_id} not found in organization ${organizationId}`);
      expect(await prisma.apiKey.count({ where: { organizationId, projectId: other.project_id } })).toBe(0);
      // Its own project is taken.
      expect((await newKey({ projectId })).project_id).toBe(projectId);
    } finally {
      await redis.del(balanceKey(other.organization_id));
      await prisma.creditEntry.deleteMany({ where: { organizationId: other.organization_id } });
      await prisma.project.deleteMany({ where: { organizationId: other.organization_id } });
      await prisma.organization.deleteMany({ where: { id: other.organization_id } });
      await prisma.account.deleteMany({ where: { id: other.account_id } });
    }
  });

  it('refuses an unknown or malformed hash with invalid_api_key (401)', async () => {
    const unknown = hashKey(`svc_live_${'x'.repeat(43)}-${RUN}`);
    const error = await rejection(authenticateKey(authDeps, unknown));
    expect(error.code).toBe('invalid_api_key');
    expect(error.status).toBe(401);
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toBe('Incorrect API key provided.');
    expect(await redis.exists(keyCacheKey(unknown))).toBe(0);

    const malformed = await rejection(authenticateKey(authDeps, 'svc_live_not_a_hash'));
    expect(malformed.code).toBe('invalid_api_key');
    expect(malformed.status).toBe(401);
  });

  it('revokeKey drops the cached record, announces it, and the next lookup says revoked', async () => {
    const created = await newKey({ name: 'to revoke' });
    const hash = hashKey(created.key);
    expect((await authenticateKey(authDeps, hash)).revoked).toBe(false);
    expect(await redis.exists(keyCacheKey(hash))).toBe(1);

    expect(await revokeKey(deps, created.key_id)).toEqual({ key_id: created.key_id, revoked: true });
    expect(await redis.exists(keyCacheKey(hash))).toBe(0);
    const announced = await eventually(() => eventsFor(hash)[0], 'the invalidate event');
    expect(announced).toEqual({ channel: `${PREFIX}key-events`, message: { type: 'invalidate', hash } });

    const record = await authenticateKey(authDeps, hash);
    expect(record.revoked).toBe(true);
    expect(record.key_id).toBe(created.key_id);
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: created.key_id } });
    expect(row.revokedAt).toBeInstanceOf(Date);

    // Revoking again keeps the first revocation time.
    await revokeKey(deps, created.key_id);
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: created.key_id } })).revokedAt).toEqual(row.revokedAt);
  });

  it('setSuspended invalidates every key of the organization and the next lookup reports suspended', async () => {
    const one = await newKey({ name: 'suspend one' });
    const two = await newKey({ name: 'suspend two' });
    const hashOne = hashKey(one.key);
    const hashTwo = hashKey(two.key);
    expect((await authenticateKey(authDeps, hashOne)).organization_status).toBe('active');
    expect((await authenticateKey(authDeps, hashTwo)).organization_status).toBe('active');
    const before = events.length;

    expect(await setSuspended(deps, organizationId, true)).toEqual({ organization_id: organizationId, status: 'suspended' });
    expect(await redis.exists(keyCacheKey(hashOne), keyCacheKey(hashTwo))).toBe(0);
    await eventually(() => (eventsFor(hashOne).length >= 1 && eventsFor(hashTwo).length >= 1) || undefined, 'invalidate events for both keys');
    const announced = events.slice(before).filter((event) => event.message.hash === hashOne || event.message.hash === hashTwo);
    expect(announced.sort((a, b) => [hashOne, hashTwo].indexOf(a.message.hash) - [hashOne, hashTwo].indexOf(b.message.hash))).toEqual([
      { channel: `${PREFIX}key-events`, message: { type: 'invalidate', hash: hashOne } },
      { channel: `${PREFIX}key-events`, message: { type: 'invalidate', hash: hashTwo } },
    ]);
    expect((await authenticateKey(authDeps, hashOne)).organization_status).toBe('suspended');
    expect((await authenticateKey(authDeps, hashTwo)).organization_status).toBe('suspended');

    expect(await setSuspended(deps, organizationId, false)).toEqual({ organization_id: organizationId, status: 'active' });
    expect((await authenticateKey(authDeps, hashOne)).organization_status).toBe('active');
  });
});
