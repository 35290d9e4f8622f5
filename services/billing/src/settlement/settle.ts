import type { UsageRecord } from '@svc/protos';
import { svcMetrics } from '@svc/telemetry';
import type { Logger } from '@svc/logger';
import { inOneWrite, type Redis } from '@svc/redis';
import type { Prisma } from '../db';
import { cacheBaseline, counterPlan, keyList } from '../admission/counters';
import { admissionScripts } from '@svc/admission';
import { BASELINE_CALLS_NEEDED, recomputeKeyBaseline, type PriceLookup } from '../baselines/recompute';

export interface SettleDeps {
  prisma: Prisma;
  redis: Redis;
  /** With a catalog, a key's baseline is computed when it reaches its 20th answered call. */
  catalog?: PriceLookup;
  logger?: Logger;
  /** Where the ledger rows are written, when not `prisma` itself (the outbox sweep's transaction). */
  ledger?: LedgerWriter;
}

/** What writing ledger rows needs: a raw query (PrismaClient or an interactive transaction). */
export type LedgerWriter = Pick<Prisma, '$queryRaw'>;

/** How long Redis remembers that a call's counters were moved (covers any redelivery). */
const APPLIED_MARKER_SECONDS = 7 * 86_400;

/**
 * Writes usage records into the append-only ledger, idempotent on call_id (a redelivered or
 * retried record is skipped by the primary key), then moves each record's Redis counters once
 * (balance, spend, Free day, calls) and gives back its reservation — guarded by a per-call
 * marker, so a record whose ledger row was written just before a crash still moves them once
 * when it is redelivered. Returns how many ledger rows were new.
 */
export async function settle(deps: SettleDeps, records: UsageRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const unique = [...new Map(records.map((record) => [record.call_id ?? '', record])).values()];
  const created = await insertLedgerRows(deps.ledger ?? deps.prisma, unique);
  recordWritten(created);
  const counts = await moveCounters(deps.redis, unique);
  reachedBaseline(deps, unique, counts);
  return created.length;
}

/**
 * One multi-row INSERT … SELECT FROM unnest(…) ON CONFLICT (call_id) DO NOTHING RETURNING: the
 * rows actually written. Column arrays rather than Prisma's createManyAndReturn, which spends
 * ~0.5 ms per row building and parsing the statement (bench/billing.mjs measured it as the limit
 * of ledger throughput).
 */
async function insertLedgerRows(prisma: LedgerWriter, records: UsageRecord[]): Promise<Array<{ occurredAt: Date }>> {
  const column = <T>(read: (record: UsageRecord) => T): T[] => records.map(read);
  const micros = (value: UsageRecord['cost_micros']) => String(value ?? 0);
  const rows = await prisma.$queryRaw<Array<{ occurred_at: Date }>>`
    INSERT INTO billing.ledger_entry (
      call_id, organization_id, key_id, kind, vendor, model, line,
      input_tokens, output_tokens, cached_tokens, cache_write_tokens, reasoning_tokens,
      vendor_micros, service_fee_micros, call_fee_micros, cost_micros, direct_micros,
      byok, plan, member_id, baseline_pending, occurred_at)
    SELECT * FROM unnest(
      ${column((r) => r.call_id ?? '')}::text[], ${column((r) => r.organization_id ?? '')}::text[], ${column((r) => r.key_id ?? '')}::text[],
      ${column((r) => r.kind || 'chat')}::text[], ${column((r) => r.vendor ?? '')}::text[], ${column((r) => r.model ?? '')}::text[], ${column((r) => r.line ?? '')}::text[],
      ${column((r) => Number(r.input_tokens ?? 0))}::int[], ${column((r) => Number(r.output_tokens ?? 0))}::int[], ${column((r) => Number(r.cached_tokens ?? 0))}::int[],
      ${column((r) => Number(r.cache_write_tokens ?? 0))}::int[], ${column((r) => Number(r.reasoning_tokens ?? 0))}::int[],
      ${column((r) => micros(r.vendor_micros))}::bigint[], ${column((r) => micros(r.service_fee_micros))}::bigint[], ${column((r) => micros(r.call_fee_micros))}::bigint[],
      ${column((r) => micros(r.cost_micros))}::bigint[], ${column((r) => micros(r.direct_micros))}::bigint[],
      ${column((r) => Boolean(r.byok))}::boolean[], ${column((r) => (r.plan === 'free' ? 'free' : ''))}::text[], ${column((r) => r.member_id ?? '')}::text[],
      ${column((r) => Boolean(r.baseline_pending))}::boolean[], ${column((r) => new Date(Number(r.occurred_at_ms ?? Date.now())))}::timestamptz[]
    )
    ON CONFLICT (call_id) DO NOTHING
    RETURNING occurred_at`;
  return rows.map((row) => ({ occurredAt: row.occurred_at }));
}

/**
 * One SETTLE script per record, every one of the batch sent in one write (`inOneWrite`: one
 * syscall for the batch rather than one per record). Returns each record's key call count (-1:
 * not counted).
 */
async function moveCounters(redis: Redis, records: UsageRecord[]): Promise<number[]> {
  const scripts = admissionScripts(redis);
  return inOneWrite(redis, () => Promise.all(
    records.map(async (record) => {
      const organizationId = record.organization_id ?? '';
      const plan = counterPlan(
        { organizationId, keyId: record.key_id ?? '', memberId: record.member_id ?? '', spendPeriod: record.spend_period ?? '' },
        Number(record.occurred_at_ms ?? Date.now()),
      );
      const [calls] = await scripts.settle([...keyList(plan.keys), `applied:{${organizationId}}:${record.call_id ?? ''}`], [
        record.call_id ?? '',
        String(record.cost_micros ?? 0),
        String(record.vendor_micros ?? 0),
        record.plan === 'free' ? 1 : 0,
        (record.kind ?? 'chat') === 'chat' ? 1 : 0,
        APPLIED_MARKER_SECONDS,
      ]);
      return Number(calls);
    }),
  ));
}

/** A key that just reached its 20th answered call gets its baseline now (off the settlement path). */
function reachedBaseline(deps: SettleDeps, records: UsageRecord[], counts: number[]): void {
  const catalog = deps.catalog;
  if (!catalog) return;
  records.forEach((record, index) => {
    if (counts[index] !== BASELINE_CALLS_NEEDED) return;
    const keyId = record.key_id ?? '';
    void recomputeKeyBaseline(deps.prisma, catalog, keyId)
      .then((baseline) => cacheBaseline(deps.redis, record.organization_id ?? '', keyId, baseline && baseline.calls >= BASELINE_CALLS_NEEDED ? baseline.model : undefined))
      .catch((error: unknown) => deps.logger?.warn('baseline for a key at 20 calls failed; the nightly run will make it', { key_id: keyId, err: error }));
  });
}

/** svc.billing.settlements and, per new row, svc.billing.ledger_lag_ms (the call's occurred_at to now). */
function recordWritten(rows: Array<{ occurredAt: Date }>): void {
  const instruments = svcMetrics();
  instruments.settlementsWritten.add(rows.length);
  const now = Date.now();
  for (const row of rows) instruments.ledgerLagMs.record(Math.max(0, now - row.occurredAt.getTime()));
}
