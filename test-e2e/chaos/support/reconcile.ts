import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { usageSettle } from '@svc/messages';
import { createRedis } from '@svc/redis';
import { ROOT } from '../../support/fleet-state';
import { sleep, type ChaosFleet } from './chaos-fleet';
import type { Outcome } from './traffic';

/**
 * Ledger reconciliation: what the clients were answered against what billing wrote.
 *  - lost:    an answered call (a 200 whose svc.call_id the client read) with no ledger row;
 *  - double:  a call with more than one ledger row, or whose organization's balance moved more
 *             than its ledger rows say (the per-call counters moved twice);
 *  - phantom: a ledger row for a call no client was answered.
 * It waits for the usage still on its way (the queue, the outbox) before it counts.
 */
export interface Reconciliation {
  answered: number;
  ledger_rows: number;
  lost: number;
  double: number;
  phantom: number;
  /** Usage records waiting or dead: ready messages in usage.settle, its dead queue, outbox rows of these organizations. */
  queue_left: number;
  dead_letters: number;
  outbox_left: number;
  outbox_dead: number;
  /**
   * Redis balance minus (credits − cost of the ledger rows this fleet's billing settled), summed
   * over the organizations: 0 when every call moved the counters exactly once; negative = some
   * moved twice (counted in `double`); positive = some never moved.
   */
  balance_drift_micros: number;
  /** Ledger rows whose counters no billing moved (no per-call marker under any prefix). */
  counters_not_moved: number;
  /**
   * Ledger rows settled from the outbox by the billing of another fleet on the same database
   * (the main e2e fleet, another chaos file): its counters moved under that fleet's prefix. Not a
   * fault of the system (in production every billing replica shares one prefix), only of sharing
   * billing.usage_outbox between test fleets.
   */
  settled_by_another_fleet: number;
  /** ms from the call to reconcile until every answered call was in the ledger. */
  waited_ms: number;
  lost_call_ids: string[];
  phantom_call_ids: string[];
}

export async function reconcile(chaos: ChaosFleet, organizationIds: string[], outcomes: Outcome[], options: { timeoutMs?: number; checkBalance?: boolean } = {}): Promise<Reconciliation> {
  const startedAt = Date.now();
  const answered = new Set(outcomes.filter((outcome) => outcome.answered && outcome.callId).map((outcome) => outcome.callId as string));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const ledger = async () => {
    const result = await chaos.db.query<{ call_id: string; n: number }>('SELECT call_id, count(*)::int AS n FROM billing.ledger_entry WHERE organization_id = ANY($1) GROUP BY call_id', [organizationIds]);
    return new Map(result.rows.map((row) => [row.call_id, row.n]));
  };
  const pending = async () => {
    const [queue, dead] = await Promise.all([chaos.amqp.channel.checkQueue(usageSettle.name), chaos.amqp.channel.checkQueue(`${usageSettle.name}.dead`)]);
    const outbox = await chaos.db.query<{ pending: number; dead: number }>(
      "SELECT count(*) FILTER (WHERE dead_at IS NULL)::int AS pending, count(*) FILTER (WHERE dead_at IS NOT NULL)::int AS dead FROM billing.usage_outbox WHERE record->>'organization_id' = ANY($1)",
      [organizationIds],
    );
    return { queue: queue.messageCount, dead: dead.messageCount, outbox: outbox.rows[0].pending, outboxDead: outbox.rows[0].dead };
  };
  let rows = await ledger();
  let left = await pending();
  let waitedMs = 0;
  for (;;) {
    const missing = [...answered].filter((callId) => !rows.has(callId)).length;
    if (missing === 0 && waitedMs === 0) waitedMs = Date.now() - startedAt;
    if ((missing === 0 && left.queue === 0 && left.outbox === 0) || Date.now() - startedAt > timeoutMs) break;
    await sleep(200);
    [rows, left] = await Promise.all([ledger(), pending()]);
  }
  // Whatever was still in flight inside billing (taken, not yet acked) lands within a batch.
  await sleep(300);
  [rows, left] = await Promise.all([ledger(), pending()]);
  const lost = [...answered].filter((callId) => !rows.has(callId));
  const phantom = [...rows.keys()].filter((callId) => !answered.has(callId));
  const doubled = [...rows.values()].filter((n) => n > 1).length;
  const counters = options.checkBalance === false ? { drift: 0, missing: 0, elsewhere: 0 } : await countersMoved(chaos, organizationIds, rows);
  return {
    answered: answered.size,
    ledger_rows: [...rows.values()].reduce((sum, n) => sum + n, 0),
    lost: lost.length,
    double: doubled + (counters.drift < 0 ? 1 : 0),
    phantom: phantom.length,
    queue_left: left.queue,
    dead_letters: left.dead,
    outbox_left: left.outbox,
    outbox_dead: left.outboxDead,
    balance_drift_micros: counters.drift,
    counters_not_moved: counters.missing,
    settled_by_another_fleet: counters.elsewhere,
    waited_ms: waitedMs || Date.now() - startedAt,
    lost_call_ids: lost.slice(0, 20),
    phantom_call_ids: phantom.slice(0, 20),
  };
}

/**
 * Which billing moved each ledger row's counters: settlement leaves a marker
 * `applied:{org}:<call_id>` under its Redis prefix (services/billing/src/settlement/settle.ts).
 */
async function countersMoved(chaos: ChaosFleet, organizationIds: string[], rows: Map<string, number>): Promise<{ drift: number; missing: number; elsewhere: number }> {
  const prefix = chaos.env.REDIS_KEY_PREFIX!;
  const plain = createRedis({ url: chaos.directEnv.REDIS_URL! });
  let drift = 0;
  let missing = 0;
  let elsewhere = 0;
  try {
    for (const organizationId of organizationIds) {
      const here = new Set<string>();
      const other = new Set<string>();
      const stream = plain.scanStream({ match: `*applied:{${organizationId}}:*`, count: 5000 });
      for await (const keys of stream as AsyncIterable<string[]>) {
        for (const key of keys) {
          const callId = key.slice(key.indexOf(`applied:{${organizationId}}:`) + `applied:{${organizationId}}:`.length);
          (key.startsWith(prefix) ? here : other).add(callId);
        }
      }
      const costs = await chaos.db.query<{ call_id: string; cost: string }>('SELECT call_id, cost_micros::text AS cost FROM billing.ledger_entry WHERE organization_id = $1', [organizationId]);
      let settledHere = 0n;
      for (const row of costs.rows) {
        if (!rows.has(row.call_id)) continue;
        if (here.has(row.call_id)) settledHere += BigInt(row.cost);
        else if (other.has(row.call_id)) elsewhere += 1;
        else missing += 1;
      }
      const [credits, balance] = await Promise.all([
        chaos.db.query<{ sum: string | null }>('SELECT sum(amount_micros)::text AS sum FROM billing.credit_entry WHERE organization_id = $1', [organizationId]),
        chaos.redis.get(`bal:{${organizationId}}`),
      ]);
      if (balance !== null) drift += Number(BigInt(balance) - (BigInt(credits.rows[0].sum ?? '0') - settledHere));
    }
  } finally {
    plain.disconnect();
  }
  return { drift, missing, elsewhere };
}

const REPORT = join(ROOT, '.svc', 'reports', 'chaos.json');

/**
 * Prints a scenario's numbers and merges them into .svc/reports/chaos.json (one key per
 * scenario, so the files of the suite, in any order or in parallel, add to one report).
 */
export function report(scenario: string, numbers: Record<string, unknown>): void {
  const entry = { ...numbers, at: new Date().toISOString() };
  // One line, what failed first: a CI log shows the start of it.
  console.log(`chaos ${scenario}: ${JSON.stringify(entry)}`);
  mkdirSync(join(ROOT, '.svc', 'reports'), { recursive: true });
  let all: Record<string, unknown> = {};
  try {
    if (existsSync(REPORT)) all = JSON.parse(readFileSync(REPORT, 'utf8')) as Record<string, unknown>;
  } catch {
    all = {};
  }
  all[scenario] = entry;
  const temporary = `${REPORT}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(all, null, 2)}\n`);
  renameSync(temporary, REPORT);
}
