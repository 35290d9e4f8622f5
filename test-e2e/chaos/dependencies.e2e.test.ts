import { sleep, startChaosFleet, type ChaosFleet, type Dependency, type Organization } from './support/chaos-fleet';
import { reconcile, report } from './support/reconcile';
import { Load, mixedCall, recoverySeconds, summarize, type Outcome } from './support/traffic';

/**
 * Chaos 2: Redis, Postgres and RabbitMQ each cut (every connection reset, new ones refused) and
 * each stalled (connections accepted, no byte forwarded either way) for a few seconds under a
 * light mixed load, through the TCP proxies in front of this fleet only. After each:
 *  - the fleet answers again within 5 s of the dependency's return, with no process restarted
 *    (the supervisor is off here: a process that exits stays gone, and its pid would change),
 *    and settlement has caught up on what was answered before the return within those 5 s;
 *  - the ledger reconciles: every call answered before, during and after the outage is billed
 *    exactly once (through the queue or the outbox), nothing that was not answered is billed.
 */
const RATE = 10;
/** The campaign held each outage 15 s; 4 s is enough for the bars (CHAOS_OUTAGE_MS runs it longer). */
const OUTAGE_MS = Number(process.env.CHAOS_OUTAGE_MS ?? 4000);
jest.setTimeout(120_000 + OUTAGE_MS * 2);
const RECOVERY_BAR_S = 5;

type Fault = 'cut' | 'stall';
const PHASES: Array<{ dependency: Dependency; fault: Fault }> = [
  { dependency: 'redis', fault: 'cut' },
  { dependency: 'redis', fault: 'stall' },
  { dependency: 'postgres', fault: 'cut' },
  { dependency: 'postgres', fault: 'stall' },
  { dependency: 'amqp', fault: 'cut' },
  { dependency: 'amqp', fault: 'stall' },
];

describe('chaos: dependency outages under load', () => {
  let chaos: ChaosFleet;
  const organizations = new Map<string, Organization>();
  const results: Record<string, Record<string, unknown>> = {};

  beforeAll(async () => {
    chaos = await startChaosFleet({ name: 'deps' });
    for (const phase of PHASES) organizations.set(`${phase.dependency}-${phase.fault}`, chaos.newOrganization());
  }, 120_000);

  afterAll(async () => {
    if (Object.keys(results).length > 0) report('dependencies', { rate_per_s: RATE, outage_ms: OUTAGE_MS, phases: results });
    await chaos?.stop();
  }, 60_000);

  it.each(PHASES)('$dependency $fault: recovers within 5 s of its return, no restart, every answered call billed once', async ({ dependency, fault }) => {
    const name = `${dependency}-${fault}`;
    const organization = organizations.get(name)!;
    const proxy = chaos.proxies[dependency];
    const pidsBefore = chaos.pids();
    const load = new Load((index) => mixedCall(chaos.baseUrl, organization, index)).start(RATE);
    await sleep(1000);
    const faultAt = Date.now();
    if (fault === 'cut') proxy.cut();
    else proxy.stall();
    await sleep(OUTAGE_MS);
    const restoredAt = Date.now();
    proxy.restore();
    // Run on until every request of the last two seconds was answered (at most 20 s).
    const healthy = () => {
      const now = Date.now();
      const recent = load.outcomes.filter((outcome) => outcome.start >= now - 2500 && outcome.start < now - 500);
      return now - restoredAt >= 3000 && recent.length >= RATE && recent.every((outcome) => outcome.answered);
    };
    // Meanwhile: when is every call answered before the return in the ledger (settlement caught up)?
    let backlogSettledAt: number | undefined;
    const backlogSettled = async () => {
      if (backlogSettledAt !== undefined) return;
      const before = load.outcomes.filter((outcome) => outcome.answered && outcome.end <= restoredAt).map((outcome) => outcome.callId as string);
      const found = await chaos.db.query<{ n: number }>('SELECT count(*)::int AS n FROM billing.ledger_entry WHERE call_id = ANY($1)', [before]);
      if (found.rows[0].n === before.length) backlogSettledAt = Date.now();
    };
    while ((!healthy() || backlogSettledAt === undefined) && Date.now() - restoredAt < 20_000) {
      await backlogSettled();
      await sleep(250);
    }
    const outcomes: Outcome[] = await load.stop();
    const traffic = summarize(outcomes);
    const during = summarize(outcomes.filter((outcome) => outcome.start >= faultAt && outcome.start < restoredAt));
    const recovery = recoverySeconds(outcomes, restoredAt);
    const ledger = await reconcile(chaos, [organization.organizationId], outcomes);
    const pidsAfter = chaos.pids();
    const alive = chaos.fleet.instances.every((instance) => chaos.fleet.processOf(instance.name)?.exitCode === null);
    results[name] = {
      requests: traffic.requests,
      answered: traffic.answered,
      answered_during_outage: during.answered,
      statuses: traffic.statuses,
      codes: traffic.codes,
      recovery_s: recovery,
      max_request_ms: traffic.max_request_ms,
      ledger_rows: ledger.ledger_rows,
      lost: ledger.lost,
      double: ledger.double,
      phantom: ledger.phantom,
      dead_letters: ledger.dead_letters + ledger.outbox_dead,
      backlog_settled_after_return_s: backlogSettledAt === undefined ? null : Math.round((backlogSettledAt - restoredAt) / 100) / 10,
      balance_drift_micros: ledger.balance_drift_micros,
      counters_not_moved: ledger.counters_not_moved,
      settled_by_another_fleet: ledger.settled_by_another_fleet,
      restarts: Object.keys(pidsBefore).filter((instance) => pidsBefore[instance] !== pidsAfter[instance]),
      lost_call_ids: ledger.lost_call_ids,
      phantom_call_ids: ledger.phantom_call_ids,
    };

    expect({ restarts: results[name]!.restarts, alive }).toEqual({ restarts: [], alive: true });
    expect(recovery).toBeLessThanOrEqual(RECOVERY_BAR_S);
    // Settlement recovers too: what was answered before the return is in the ledger within 5 s of it.
    expect(results[name]!.backlog_settled_after_return_s).not.toBeNull();
    expect(results[name]!.backlog_settled_after_return_s as number).toBeLessThanOrEqual(RECOVERY_BAR_S);
    expect({ lost: ledger.lost, double: ledger.double, phantom: ledger.phantom, dead: ledger.dead_letters + ledger.outbox_dead }).toEqual({ lost: 0, double: 0, phantom: 0, dead: 0 });
    expect({ drift: ledger.balance_drift_micros, notMoved: ledger.counters_not_moved }).toEqual({ drift: 0, notMoved: 0 });
    expect(traffic.bare_refusals).toBe(0);
  });
});
