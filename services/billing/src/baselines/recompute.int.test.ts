import { randomBytes } from 'node:crypto';
import { catalog } from '@svc/catalog';
import { ids } from '@svc/ids';
import { createRedis, waitReady } from '@svc/redis';
import { createPrisma } from '../db';
import { balanceKey } from '../admission/balance';
import { createKey, createOrganization } from '../cli/admin-commands';
import { blendedPicoPerToken, recomputeBaselines } from './recompute';

// Real Postgres (svc_test) and Redis (a key prefix of this run). A fresh organization and keys;
// ledger rows around a fixed "now" far from any other test's dates; everything removed in afterAll.

const RUN = `${process.pid}-${randomBytes(4).toString('hex')}`;
const NOW = new Date('2021-03-01T00:00:00.000Z');
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

// Three catalog models at distinct blended prices: cheapest, a middle one, the dearest.
const byPrice = [...catalog.chatModels].sort((a, b) => Number(blendedPicoPerToken(a.pricing) - blendedPicoPerToken(b.pricing)));
const CHEAP = byPrice[0]!;
const MID = byPrice[Math.floor(byPrice.length / 2)]!;
const DEAR = byPrice[byPrice.length - 1]!;

describe('recomputeBaselines (real Postgres)', () => {
  const prisma = createPrisma(process.env.DATABASE_URL!);
  const redis = createRedis({ url: process.env.REDIS_URL!, keyPrefix: `${process.env.REDIS_KEY_PREFIX ?? 'svctest:'}baseline-${RUN}:` });
  const deps = { prisma, redis };
  let organizationId = '';
  let accountId = '';
  const keys: Record<'busy' | 'young' | 'idle' | 'retired', string> = { busy: '', young: '', idle: '', retired: '' };

  function calls(keyId: string, model: string, count: number, at: (i: number) => Date, kind = 'chat') {
    return Array.from({ length: count }, (_, i) => ({
      callId: ids.callId(),
      organizationId,
      keyId,
      kind,
      vendor: model.split('/')[0]!,
      model,
      inputTokens: 100,
      outputTokens: 10,
      vendorMicros: 1n,
      serviceFeeMicros: 0n,
      callFeeMicros: 0n,
      costMicros: 1n,
      directMicros: 1n,
      occurredAt: at(i),
    }));
  }

  beforeAll(async () => {
    await waitReady(redis);
    expect(blendedPicoPerToken(CHEAP.pricing)).toBeLessThan(blendedPicoPerToken(MID.pricing));
    expect(blendedPicoPerToken(MID.pricing)).toBeLessThan(blendedPicoPerToken(DEAR.pricing));
    const org = await createOrganization(deps, { name: 'baseline int', email: `baseline-${RUN}@svctest.local`, plan: 'paid', creditMicros: 0n });
    organizationId = org.organization_id;
    accountId = org.account_id;
    for (const name of Object.keys(keys) as Array<keyof typeof keys>) keys[name] = (await createKey(deps, { organizationId, name })).key_id;

    await prisma.ledgerEntry.createMany({
      data: [
        // busy: 30 calls in the window (27 cheap, 2 mid, 1 dear): rank ceil(0.95 * 30) = 29 is a mid call.
        ...calls(keys.busy, CHEAP.id, 27, (i) => daysAgo(1 + i)), // spread over days 1..27
        ...calls(keys.busy, MID.id, 2, () => daysAgo(29.9)),
        ...calls(keys.busy, DEAR.id, 1, () => NOW), // the upper edge is inside
        // ...and what must not count: older than 30 days, exactly 30 days old, after now, not chat.
        ...calls(keys.busy, DEAR.id, 40, (i) => daysAgo(31 + i)),
        ...calls(keys.busy, DEAR.id, 5, () => daysAgo(30)),
        ...calls(keys.busy, DEAR.id, 5, () => new Date(NOW.getTime() + 40 * DAY)),
        ...calls(keys.busy, DEAR.id, 5, () => daysAgo(2), 'embeddings'),
        // young: 3 calls, under the 20 needed, still gets its row.
        ...calls(keys.young, MID.id, 2, () => daysAgo(3)),
        ...calls(keys.young, CHEAP.id, 1, () => daysAgo(3)),
        // idle: calls only before the window.
        ...calls(keys.idle, DEAR.id, 25, () => daysAgo(45)),
        // retired: 30 calls on a model the catalog no longer lists, 1 priced call.
        ...calls(keys.retired, 'vendor-1/retired-model-0', 30, () => daysAgo(5)),
        ...calls(keys.retired, CHEAP.id, 1, () => daysAgo(5)),
      ],
    });
    // A row from an earlier run for the idle key: the recompute removes it.
    await prisma.keyBaseline.create({ data: { keyId: keys.idle, model: DEAR.id, calls: 25, pricePerTokenPico: 1n, computedAt: daysAgo(1) } });
  });

  afterAll(async () => {
    await prisma.keyBaseline.deleteMany({ where: { keyId: { in: Object.values(keys) } } });
    await prisma.ledgerEntry.deleteMany({ where: { organizationId } });
    await prisma.apiKey.deleteMany({ where: { organizationId } });
    await prisma.creditEntry.deleteMany({ where: { organizationId } });
    await prisma.project.deleteMany({ where: { organizationId } });
    await prisma.organization.deleteMany({ where: { id: organizationId } });
    await prisma.account.deleteMany({ where: { id: accountId } });
    await redis.del(balanceKey(organizationId));
    await prisma.$disconnect();
    await redis.quit();
  });

  it('writes each key the model at the 95th percentile of price per token over its last 30 days of calls', async () => {
    const result = await recomputeBaselines(prisma, catalog, NOW);
    expect(result.computedAt).toEqual(NOW);
    expect(result.keys).toBeGreaterThanOrEqual(3);

    const rows = await prisma.keyBaseline.findMany({ where: { keyId: { in: Object.values(keys) } } });
    const byKey = Object.fromEntries(rows.map((row) => [row.keyId, row]));
    expect(byKey[keys.busy]).toEqual({ keyId: keys.busy, model: MID.id, calls: 30, pricePerTokenPico: blendedPicoPerToken(MID.pricing), computedAt: NOW });
    expect(byKey[keys.young]).toEqual({ keyId: keys.young, model: MID.id, calls: 3, pricePerTokenPico: blendedPicoPerToken(MID.pricing), computedAt: NOW });
    expect(byKey[keys.retired]).toEqual({ keyId: keys.retired, model: CHEAP.id, calls: 1, pricePerTokenPico: blendedPicoPerToken(CHEAP.pricing), computedAt: NOW });
    expect(byKey[keys.idle]).toBeUndefined();
    expect(rows).toHaveLength(3);
  });

  it('replaces the rows on the next run as calls move in and out of the window', async () => {
    // Two more dear calls for busy: 3 of 32 is over 5%, so the dear model is now at rank 31.
    await prisma.ledgerEntry.createMany({ data: calls(keys.busy, DEAR.id, 2, () => daysAgo(0.5)) });
    const later = new Date(NOW.getTime() + 60_000);
    await recomputeBaselines(prisma, catalog, later);
    const busy = await prisma.keyBaseline.findUnique({ where: { keyId: keys.busy } });
    expect(busy).toEqual({ keyId: keys.busy, model: DEAR.id, calls: 32, pricePerTokenPico: blendedPicoPerToken(DEAR.pricing), computedAt: later });

    // A month on, every call has left the window and every row of this organization is gone.
    await recomputeBaselines(prisma, catalog, new Date(NOW.getTime() + 31 * DAY));
    expect(await prisma.keyBaseline.count({ where: { keyId: { in: Object.values(keys) } } })).toBe(0);
  });
});
