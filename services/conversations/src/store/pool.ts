import type { PoolClient } from 'pg';
import { ServiceError } from '@svc/errors';
import { clock, type Db, type StoreDeps } from './queries';
import { poolFor, transaction } from './sql';

/**
 * The organization's vendor-batch pool (table conversations.response_pool; ARCHITECTURE.md,
 * "Background responses and the vendor-batch pool"). A batch-bound background response joins it
 * `waiting` in CompleteTurn's transaction (insertPoolRow) and leaves it when UpdateResponse ends
 * the response (removePoolRow, same transaction). In between the workers move it:
 *
 *   waiting ──ClaimPool──▶ claimed (lease) ──MarkPoolSent──▶ sent (vendor batch handle)
 *      ▲                     │ lease expired, or ReleasePoolClaim
 *      └─────────────────────┘
 *
 * Claims take rows with FOR UPDATE SKIP LOCKED, so replicas never claim the same rows; a cancel
 * locks the row too (lockForCancel) and is refused once the row is claimed or sent.
 */

export type PoolState = 'waiting' | 'claimed' | 'sent';

export interface PoolEntry {
  vendor: string;
  model: string;
  job: Record<string, unknown>;
}

import type { PoolGroup, PoolRow } from '@svc/call';

export type { PoolGroup, PoolRow };

interface RawRow {
  response_id: string;
  organization_id: string;
  vendor: string;
  model: string;
  job: Record<string, unknown>;
  enqueued_at: Date;
  vendor_batch_id: string | null;
  vendor_batch: unknown;
}

const COLUMNS = 'response_id, organization_id, vendor, model, job, enqueued_at, vendor_batch_id, vendor_batch';

function rowOf(raw: RawRow): PoolRow {
  return {
    response_id: raw.response_id,
    organization_id: raw.organization_id,
    vendor: raw.vendor,
    model: raw.model,
    job: raw.job,
    enqueued_at_ms: raw.enqueued_at.getTime(),
    vendor_batch_id: raw.vendor_batch_id ?? '',
    vendor_batch: raw.vendor_batch ?? null,
  };
}

/** Parses CompleteTurn's pool_json: {vendor, model, job}. */
export function parsePoolEntry(value: unknown): PoolEntry | undefined {
  if (value === undefined || value === null) return undefined;
  const entry = value as Partial<PoolEntry>;
  if (typeof entry.vendor !== 'string' || !entry.vendor || typeof entry.model !== 'string' || !entry.model || typeof entry.job !== 'object' || entry.job === null) {
    throw new ServiceError('invalid_value', "'pool' must be {vendor, model, job}.", { param: 'pool' });
  }
  return { vendor: entry.vendor, model: entry.model, job: entry.job };
}

/** In CompleteTurn's transaction: the queued response joins the pool, waiting. */
export async function insertPoolRow(client: PoolClient, responseId: string, organizationId: string, entry: PoolEntry, now: Date): Promise<void> {
  await client.query({
    name: 'conversations.pool_insert',
    text: `INSERT INTO conversations.response_pool (response_id, organization_id, vendor, model, job, enqueued_at, state)
           VALUES ($1::text, $2::text, $3::text, $4::text, $5::jsonb, $6::timestamptz, 'waiting')`,
    values: [responseId, organizationId, entry.vendor, entry.model, JSON.stringify(entry.job), now],
  });
}

/**
 * In UpdateResponse's transaction, after the response row is locked: a cancel is refused (409
 * not_cancellable) when the row is claimed under a live lease or sent inside a vendor batch; the
 * row is removed otherwise (and whenever the response ends with an answer or a failure).
 */
export async function removePoolRow(client: Pick<Db, '$queryRaw'>, responseId: string, now: Date, cancel: boolean): Promise<void> {
  if (cancel) {
    const rows = await client.$queryRaw<Array<{ state: PoolState; claimed_until: Date | null }>>`
      SELECT state, claimed_until FROM conversations.response_pool WHERE response_id = ${responseId} FOR UPDATE`;
    const row = rows[0];
    if (row && (row.state === 'sent' || (row.state === 'claimed' && row.claimed_until !== null && row.claimed_until > now))) {
      throw new ServiceError('not_cancellable', `Response with id '${responseId}' was already sent to the vendor inside a batch and can no longer be cancelled; its answer is billed when it arrives.`, { param: 'response_id' });
    }
  }
  await client.$queryRaw`DELETE FROM conversations.response_pool WHERE response_id = ${responseId}`;
}

/** Expired claims that never reached a vendor batch go back to waiting. */
async function reclaimExpired(deps: StoreDeps, now: Date): Promise<void> {
  await poolFor(deps).query({
    name: 'conversations.pool_reclaim',
    text: `UPDATE conversations.response_pool SET state = 'waiting', claim_id = NULL, claimed_until = NULL
            WHERE state = 'claimed' AND claimed_until <= $1::timestamptz`,
    values: [now],
  });
}

/** (organization, vendor) groups with max_lines waiting or whose oldest waited max_age_ms. */
const readyGroups = {
  name: 'conversations.pool_ready_groups',
  text: `SELECT organization_id, vendor FROM conversations.response_pool
          WHERE state = 'waiting'
          GROUP BY organization_id, vendor
         HAVING count(*) >= $1::int OR min(enqueued_at) <= $2::timestamptz
          ORDER BY min(enqueued_at)
          LIMIT $3::int`,
};

/** Up to $4 waiting rows of one group, oldest first, claimed under $1 until $2 (rows another claim holds are skipped). */
const claimGroup = {
  name: 'conversations.pool_claim_group',
  text: `UPDATE conversations.response_pool p SET state = 'claimed', claim_id = $1::text, claimed_until = $2::timestamptz
           FROM (SELECT response_id FROM conversations.response_pool
                  WHERE state = 'waiting' AND organization_id = $3::text AND vendor = $4::text
                  ORDER BY enqueued_at, response_id
                  LIMIT $5::int
                    FOR UPDATE SKIP LOCKED) picked
          WHERE p.response_id = picked.response_id
      RETURNING ${COLUMNS.split(', ').map((column) => `p.${column}`).join(', ')}`,
};

export interface ClaimPoolInput {
  claim_id: string;
  max_lines: number;
  max_age_ms: number;
  lease_ms: number;
  max_groups?: number;
}

/** ClaimPool: the groups this claim now holds (each with at most max_lines rows, oldest first). */
export async function claimPool(deps: StoreDeps, input: ClaimPoolInput): Promise<PoolGroup[]> {
  if (!input.claim_id) throw new ServiceError('missing_field', "'claim_id' is required.", { param: 'claim_id' });
  const maxLines = Math.max(1, input.max_lines);
  const now = clock(deps);
  await reclaimExpired(deps, now);
  const db = poolFor(deps);
  const groups = (await db.query<{ organization_id: string; vendor: string }>({ ...readyGroups, values: [maxLines, new Date(now.getTime() - Math.max(0, input.max_age_ms)), input.max_groups || 16] })).rows;
  const until = new Date(now.getTime() + Math.max(1, input.lease_ms));
  const claimed: PoolGroup[] = [];
  for (const group of groups) {
    const rows = (await db.query<RawRow>({ ...claimGroup, values: [input.claim_id, until, group.organization_id, group.vendor, maxLines] })).rows;
    if (rows.length === 0) continue;
    rows.sort((a, b) => a.enqueued_at.getTime() - b.enqueued_at.getTime() || a.response_id.localeCompare(b.response_id));
    claimed.push({ organization_id: group.organization_id, vendor: group.vendor, rows: rows.map(rowOf) });
  }
  return claimed;
}

/** MarkPoolSent: this claim's rows are inside vendor batch `vendor_batch_id` (rows whose claim was lost are left alone). */
export async function markPoolSent(deps: StoreDeps, input: { claim_id: string; response_ids: string[]; vendor_batch_id: string; vendor_batch: unknown }): Promise<number> {
  if (!input.vendor_batch_id) throw new ServiceError('missing_field', "'vendor_batch_id' is required.", { param: 'vendor_batch_id' });
  const result = await poolFor(deps).query({
    name: 'conversations.pool_mark_sent',
    text: `UPDATE conversations.response_pool
              SET state = 'sent', vendor_batch_id = $3::text, vendor_batch = $4::jsonb, sent_at = $5::timestamptz, claim_id = NULL, claimed_until = NULL
            WHERE claim_id = $1::text AND state = 'claimed' AND response_id = ANY($2::text[])`,
    values: [input.claim_id, input.response_ids, input.vendor_batch_id, JSON.stringify(input.vendor_batch ?? null), clock(deps)],
  });
  return result.rowCount ?? 0;
}

/** ReleasePoolClaim: this claim's rows go back to waiting (all of them when response_ids is empty). */
export async function releasePoolClaim(deps: StoreDeps, input: { claim_id: string; response_ids: string[] }): Promise<number> {
  const result = await poolFor(deps).query({
    name: 'conversations.pool_release',
    text: `UPDATE conversations.response_pool SET state = 'waiting', claim_id = NULL, claimed_until = NULL
            WHERE claim_id = $1::text AND state = 'claimed' AND (cardinality($2::text[]) = 0 OR response_id = ANY($2::text[]))`,
    values: [input.claim_id, input.response_ids],
  });
  return result.rowCount ?? 0;
}

/**
 * ClaimPoolResults: sent rows whose poll lease is free, of at most max_batches vendor batches,
 * leased to this claim for lease_ms; grouped by vendor batch (PoolGroup.vendor is the batch id's
 * vendor, rows carry the handle).
 */
export async function claimPoolResults(deps: StoreDeps, input: { claim_id: string; lease_ms: number; max_batches?: number }): Promise<PoolGroup[]> {
  if (!input.claim_id) throw new ServiceError('missing_field', "'claim_id' is required.", { param: 'claim_id' });
  const now = clock(deps);
  const until = new Date(now.getTime() + Math.max(1, input.lease_ms));
  return transaction<PoolGroup[]>(deps, 'ClaimPoolResults', async (client) => {
    const batches = (await client.query<{ vendor_batch_id: string }>({
      name: 'conversations.pool_result_batches',
      text: `SELECT vendor_batch_id FROM conversations.response_pool
              WHERE state = 'sent' AND (claimed_until IS NULL OR claimed_until <= $1::timestamptz)
              GROUP BY vendor_batch_id ORDER BY min(sent_at) LIMIT $2::int`,
      values: [now, input.max_batches || 16],
    })).rows.map((row) => row.vendor_batch_id);
    if (batches.length === 0) return [];
    const rows = (await client.query<RawRow>({
      name: 'conversations.pool_claim_results',
      text: `UPDATE conversations.response_pool p SET claim_id = $1::text, claimed_until = $2::timestamptz
               FROM (SELECT response_id FROM conversations.response_pool
                      WHERE state = 'sent' AND vendor_batch_id = ANY($3::text[]) AND (claimed_until IS NULL OR claimed_until <= $4::timestamptz)
                        FOR UPDATE SKIP LOCKED) picked
              WHERE p.response_id = picked.response_id
          RETURNING ${COLUMNS.split(', ').map((column) => `p.${column}`).join(', ')}`,
      values: [input.claim_id, until, batches, now],
    })).rows;
    const byBatch = new Map<string, PoolGroup>();
    for (const raw of rows) {
      const row = rowOf(raw);
      const group = byBatch.get(row.vendor_batch_id) ?? { organization_id: row.organization_id, vendor: row.vendor, rows: [] };
      group.rows.push(row);
      byBatch.set(row.vendor_batch_id, group);
    }
    return [...byBatch.values()];
  });
}
