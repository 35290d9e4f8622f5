import type { UsageRecord } from '@svc/protos';
import { svcMetrics } from '@svc/telemetry';
import type { Logger } from '@svc/logger';
import type { Redis } from '@svc/redis';
import type { Prisma } from '../db';
import { cacheBaseline, counterPlan, keyList } from '../admission/counters';
import { admissionScripts } from '../admission/scripts';
import { BASELINE_CALLS_NEEDED, recomputeKeyBaseline, type PriceLookup } from '../baselines/recompute';

export interface SettleDeps {
  prisma: Prisma;
  redis: Redis;
  /** With a catalog, a key's baseline is computed when it reaches its 20th answered call. */
  catalog?: PriceLookup;
  logger?: Logger;
}

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
  const created = await deps.prisma.ledgerEntry.createManyAndReturn({
    data: unique.map((record) => ({
      callId: record.call_id ?? '',
      organizationId: record.organization_id ?? '',
      keyId: record.key_id ?? '',
      kind: record.kind ?? 'chat',
      vendor: record.vendor ?? '',
      model: record.model ?? '',
      line: record.line ?? '',
      inputTokens: Number(record.input_tokens ?? 0),
      outputTokens: Number(record.output_tokens ?? 0),
      cachedTokens: Number(record.cached_tokens ?? 0),
      cacheWriteTokens: Number(record.cache_write_tokens ?? 0),
      reasoningTokens: Number(record.reasoning_tokens ?? 0),
      vendorMicros: BigInt(String(record.vendor_micros ?? 0)),
      serviceFeeMicros: BigInt(String(record.service_fee_micros ?? 0)),
      callFeeMicros: BigInt(String(record.call_fee_micros ?? 0)),
      costMicros: BigInt(String(record.cost_micros ?? 0)),
      directMicros: BigInt(String(record.direct_micros ?? 0)),
      byok: Boolean(record.byok),
      plan: record.plan === 'free' ? 'free' : '',
      memberId: record.member_id ?? '',
      baselinePending: Boolean(record.baseline_pending),
      occurredAt: new Date(Number(record.occurred_at_ms ?? Date.now())),
    })),
    skipDuplicates: true,
    select: { occurredAt: true },
  });
  recordWritten(created);
  const counts = await moveCounters(deps.redis, unique);
  reachedBaseline(deps, unique, counts);
  return created.length;
}

/** One SETTLE script per record, pipelined. Returns each record's key call count (-1: not counted). */
async function moveCounters(redis: Redis, records: UsageRecord[]): Promise<number[]> {
  const scripts = admissionScripts(redis);
  return Promise.all(
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
  );
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
