import type { UsageRecord } from '@svc/protos';
import { svcMetrics } from '@svc/telemetry';
import type { Redis } from '@svc/redis';
import type { Prisma } from '../db';
import { balanceKey } from '../admission/balance';

export interface SettleDeps {
  prisma: Prisma;
  redis: Redis;
}

/**
 * Writes usage records into the append-only ledger, idempotent on call_id: a redelivered or
 * retried record is skipped by the primary key, and only rows actually inserted move the
 * Redis balance. Returns how many were new.
 */
export async function settle(deps: SettleDeps, records: UsageRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const unique = new Map(records.map((record) => [record.call_id ?? '', record]));
  const created = await deps.prisma.ledgerEntry.createManyAndReturn({
    data: [...unique.values()].map((record) => ({
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
      occurredAt: new Date(Number(record.occurred_at_ms ?? Date.now())),
    })),
    skipDuplicates: true,
    select: { organizationId: true, costMicros: true, occurredAt: true },
  });
  recordWritten(created);
  const spentByOrganization = new Map<string, bigint>();
  for (const row of created) spentByOrganization.set(row.organizationId, (spentByOrganization.get(row.organizationId) ?? 0n) + row.costMicros);
  const pipeline = deps.redis.pipeline();
  for (const [organizationId, spent] of spentByOrganization) {
    // Only adjust a balance Redis already holds; a missing one is rebuilt from the ledger.
    pipeline.eval("if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECRBY', KEYS[1], ARGV[1]) end return nil", 1, balanceKey(organizationId), spent.toString());
  }
  await pipeline.exec();
  return created.length;
}

/** svc.billing.settlements and, per new row, svc.billing.ledger_lag_ms (the call's occurred_at to now). */
function recordWritten(rows: Array<{ occurredAt: Date }>): void {
  const instruments = svcMetrics();
  instruments.settlementsWritten.add(rows.length);
  const now = Date.now();
  for (const row of rows) instruments.ledgerLagMs.record(Math.max(0, now - row.occurredAt.getTime()));
}
