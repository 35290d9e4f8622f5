import { inMemoryMetrics } from '@svc/telemetry';
import type { UsageRecord } from '@svc/protos';
import { settle, type SettleDeps } from './settle';

/** Prisma and Redis stand-ins: the ledger insert returns `inserted` rows (the rest were duplicates). */
function deps(inserted: Array<{ organizationId: string; costMicros: bigint; occurredAt: Date }>): SettleDeps {
  const prisma = { $queryRaw: jest.fn(async () => inserted.map((row) => ({ occurred_at: row.occurredAt }))) };
  // The per-record counter script: registered with defineCommand, called by name.
  const redis = { defineCommand: jest.fn(), svcBillingSettle: jest.fn(async () => [-1]) };
  return { prisma, redis } as unknown as SettleDeps;
}

describe('settle metrics', () => {
  it('counts the rows written and records each one’s lag from its call', async () => {
    const memory = inMemoryMetrics();
    const now = Date.now();
    const records = [{ call_id: 'a', occurred_at_ms: now - 1500 }, { call_id: 'b', occurred_at_ms: now - 300 }, { call_id: 'c', occurred_at_ms: now - 50 }] as UsageRecord[];
    // c was a redelivery: not inserted, so neither counted nor timed.
    const written = await settle(
      deps([
        { organizationId: 'org_1', costMicros: 10n, occurredAt: new Date(now - 1500) },
        { organizationId: 'org_1', costMicros: 5n, occurredAt: new Date(now - 300) },
      ]),
      records,
    );
    expect(written).toBe(2);
    expect(await memory.sum('svc.billing.settlements')).toBe(2);
    const lag = await memory.histogram('svc.billing.ledger_lag_ms');
    expect(lag?.count).toBe(2);
    expect(lag?.sum).toBeGreaterThanOrEqual(1800);
    expect(lag?.sum).toBeLessThan(1800 + 2 * 5000);
    await memory.stop();
  });
});
