import { randomBytes } from 'node:crypto';
import { ServiceError } from '@svc/errors';
import { ids } from '@svc/ids';
import { createPrisma } from '../db';
import type { StoreDeps } from './queries';
import { getResponse } from './responses';
import { claimPool, claimPoolResults, markPoolSent, releasePoolClaim } from './pool';
import { completeTurn, updateResponse } from './turns';

// The vendor-batch pool against the real Postgres test database: rows join with CompleteTurn,
// claims by size and by age, concurrent claims never share a row (SKIP LOCKED), an expired claim
// goes back to waiting, sent rows are leased for polling, cancel is refused once claimed or sent,
// and ending the response removes its row.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const ORG = `org_pool_${RUN}`;
const OTHER = `org_pool_b_${RUN}`;

const prisma = createPrisma(process.env.DATABASE_URL!);
let now = new Date();
const deps: StoreDeps = { prisma, now: () => now };

afterAll(async () => {
  await prisma.conversation.deleteMany({ where: { organizationId: { in: [ORG, OTHER] } } });
  await prisma.$disconnect();
});

afterEach(async () => {
  // Each test starts with an empty pool for its organizations (other suites' rows are not touched).
  await prisma.conversation.deleteMany({ where: { organizationId: { in: [ORG, OTHER] } } });
});

function queued(id: string) {
  return { id, object: 'response', created_at: Math.floor(now.getTime() / 1000), status: 'queued', background: true, error: null, model: 'vendor-1/model-a', output: [], usage: null, metadata: {}, store: true };
}

async function enqueue(organization = ORG, vendor = 'vendor-1'): Promise<string> {
  const id = ids.response();
  await completeTurn(deps, {
    organization_id: organization,
    response_id: id,
    organization_retention_days: 30,
    input_items: 'hello',
    response: queued(id),
    pool: { vendor, model: `${vendor}/model-a`, job: { response_id: id, marker: RUN } },
  });
  return id;
}

const claim = (overrides: Partial<Parameters<typeof claimPool>[1]> = {}) => claimPool(deps, { claim_id: `claim_${randomBytes(4).toString('hex')}`, max_lines: 3, max_age_ms: 60_000, lease_ms: 30_000, ...overrides });
const mine = <T extends { organization_id: string }>(groups: T[]) => groups.filter((group) => group.organization_id === ORG || group.organization_id === OTHER);

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof ServiceError) return error.code;
    throw error;
  }
}

describe('response pool', () => {
  it('claims a group once it has max_lines waiting, oldest first, and not before', async () => {
    now = new Date();
    const first = await enqueue();
    now = new Date(now.getTime() + 1);
    await enqueue();
    expect(mine(await claim())).toEqual([]);
    now = new Date(now.getTime() + 1);
    const third = await enqueue();
    await enqueue(OTHER);
    const groups = mine(await claim());
    expect(groups).toHaveLength(1);
    expect(groups[0]!.rows.map((row) => row.response_id)[0]).toBe(first);
    expect(groups[0]!.rows.map((row) => row.response_id)).toContain(third);
    expect(groups[0]!.rows[0]!.job).toEqual({ response_id: first, marker: RUN });
  });

  it('claims a smaller group once its oldest row waited max_age_ms', async () => {
    now = new Date();
    const id = await enqueue();
    expect(mine(await claim())).toEqual([]);
    now = new Date(now.getTime() + 61_000);
    const groups = mine(await claim());
    expect(groups.map((group) => group.rows.map((row) => row.response_id))).toEqual([[id]]);
  });

  it('never gives the same row to two concurrent claims', async () => {
    now = new Date(Date.now() - 120_000);
    const all = new Set<string>();
    for (let i = 0; i < 12; i += 1) all.add(await enqueue());
    now = new Date();
    const results = await Promise.all(Array.from({ length: 6 }, () => claim({ max_groups: 4 })));
    const seen = results.flatMap((groups) => mine(groups).flatMap((group) => group.rows.map((row) => row.response_id)));
    expect(new Set(seen).size).toBe(seen.length);
    // Each claim takes at most max_lines of a group; what is left waits for the next claim.
    let rest = mine(await claim({ max_lines: 100 })).flatMap((group) => group.rows.map((row) => row.response_id));
    expect(new Set([...seen, ...rest])).toEqual(all);
    rest = mine(await claim({ max_lines: 100 })).flatMap((group) => group.rows.map((row) => row.response_id));
    expect(rest).toEqual([]);
  });

  it('gives an expired claim without a vendor batch back to waiting; a released claim too', async () => {
    now = new Date(Date.now() - 120_000);
    const id = await enqueue();
    now = new Date();
    expect(mine(await claim({ lease_ms: 10_000 }))).toHaveLength(1);
    expect(mine(await claim())).toEqual([]);
    now = new Date(now.getTime() + 10_001);
    const again = mine(await claim({ claim_id: 'claim_again' }));
    expect(again[0]!.rows.map((row) => row.response_id)).toEqual([id]);
    expect(await releasePoolClaim(deps, { claim_id: 'claim_again', response_ids: [] })).toBe(1);
    expect(mine(await claim())[0]!.rows.map((row) => row.response_id)).toEqual([id]);
  });

  it('marks claimed rows sent, leases them for polling once at a time, and removes them when the response ends', async () => {
    now = new Date(Date.now() - 120_000);
    const a = await enqueue();
    const b = await enqueue();
    now = new Date();
    const [group] = mine(await claim({ claim_id: 'claim_send' }));
    expect(await markPoolSent(deps, { claim_id: 'other_claim', response_ids: [a, b], vendor_batch_id: 'batch_x', vendor_batch: {} })).toBe(0);
    const batchId = `batch_${RUN}`;
    expect(await markPoolSent(deps, { claim_id: 'claim_send', response_ids: group!.rows.map((row) => row.response_id), vendor_batch_id: batchId, vendor_batch: { protocol: 'openai', id: batchId } })).toBe(2);
    // Sent rows are never claimed for sending again, even after the lease.
    now = new Date(now.getTime() + 3_600_000);
    expect(mine(await claim())).toEqual([]);
    const polled = mine(await claimPoolResults(deps, { claim_id: 'poll_1', lease_ms: 5_000, max_batches: 100 }));
    expect(polled).toHaveLength(1);
    expect(polled[0]!.rows.map((row) => row.vendor_batch)).toEqual([{ protocol: 'openai', id: batchId }, { protocol: 'openai', id: batchId }]);
    expect(mine(await claimPoolResults(deps, { claim_id: 'poll_2', lease_ms: 5_000, max_batches: 100 }))).toEqual([]);
    now = new Date(now.getTime() + 5_001);
    expect(mine(await claimPoolResults(deps, { claim_id: 'poll_3', lease_ms: 5_000, max_batches: 100 }))[0]!.rows).toHaveLength(2);

    // A cancel of a sent line: 409 not_cancellable, nothing changes.
    expect(await code(updateResponse(deps, { organization_id: ORG, response_id: a, response: { ...queued(a), status: 'cancelled' }, organization_retention_days: 30, cancel: true }))).toBe('not_cancellable');
    expect((await getResponse(deps, ORG, a)).status).toBe('queued');
    // The answer ends it, and its row leaves the pool.
    const ended = await updateResponse(deps, { organization_id: ORG, response_id: a, response: { ...queued(a), status: 'completed' }, organization_retention_days: 30 });
    expect(ended.updated).toBe(true);
    now = new Date(now.getTime() + 5_001);
    expect(mine(await claimPoolResults(deps, { claim_id: 'poll_4', lease_ms: 5_000, max_batches: 100 }))[0]!.rows.map((row) => row.response_id)).toEqual([b]);
  });

  it('cancels a waiting line (row removed with the status change) and refuses one that is claimed', async () => {
    now = new Date();
    const waiting = await enqueue();
    const cancelled = await updateResponse(deps, { organization_id: ORG, response_id: waiting, response: { ...queued(waiting), status: 'cancelled' }, organization_retention_days: 30, cancel: true });
    expect(cancelled.updated).toBe(true);
    now = new Date(now.getTime() + 3_600_000);
    expect(mine(await claim())).toEqual([]);

    const claimed = await enqueue();
    now = new Date(now.getTime() + 3_600_000);
    expect(mine(await claim({ lease_ms: 10_000 }))).toHaveLength(1);
    expect(await code(updateResponse(deps, { organization_id: ORG, response_id: claimed, response: { ...queued(claimed), status: 'cancelled' }, organization_retention_days: 30, cancel: true }))).toBe('not_cancellable');
    // Once the lease expired without a vendor batch, it is waiting again: the cancel goes through.
    now = new Date(now.getTime() + 10_001);
    expect((await updateResponse(deps, { organization_id: ORG, response_id: claimed, response: { ...queued(claimed), status: 'cancelled' }, organization_retention_days: 30, cancel: true })).updated).toBe(true);
    expect(mine(await claim())).toEqual([]);
  });

  it('refuses a pool entry on a response that is not queued background', async () => {
    const id = ids.response();
    expect(await code(completeTurn(deps, { organization_id: ORG, response_id: id, organization_retention_days: 30, input_items: 'x', response: { ...queued(id), status: 'completed' }, pool: { vendor: 'vendor-1', model: 'vendor-1/model-a', job: {} } }))).toBe('invalid_value');
  });
});
