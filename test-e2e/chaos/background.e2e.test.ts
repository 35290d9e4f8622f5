import { sleep, startChaosFleet, type ChaosFleet } from './support/chaos-fleet';
import { report } from './support/reconcile';

/**
 * Chaos: kill -9 of the workers while 50 background responses are in flight (spec: Background
 * responses, Failures: "a worker killed mid-job → the job is redelivered and completes once
 * (never billed twice, never stuck in queued)"). The supervisor restarts the workers; every
 * response must end completed, each billed exactly once (ledger rows by the response's call id).
 */
jest.setTimeout(150_000);

const RESPONSES = 50;
const MODEL = 'vendor-1/orion-mini-5';

/**
 * Posts RESPONSES background turns, SIGKILLs the workers `killAfterMs` later, then waits until every
 * response has ended and reads the ledger by the responses' call ids.
 */
async function killDuringBackground(chaos: ChaosFleet, name: string, body: (index: number) => Record<string, unknown>, headers: Record<string, string>, killAfterMs: number) {
  const organization = chaos.newOrganization();
  const auth = { authorization: `Bearer ${organization.apiKey}` };
  const ids: string[] = [];
  for (let index = 0; index < RESPONSES; index += 1) {
    const response = await fetch(`${chaos.baseUrl}/responses`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ background: true, ...body(index) }) });
    const created = (await response.json()) as { id: string; status: string };
    expect(response.status).toBe(200);
    expect(created.status).toBe('queued');
    ids.push(created.id);
  }
  await sleep(killAfterMs);
  const killedAt = Date.now();
  chaos.fleet.processOf('workers')!.kill('SIGKILL');

  const statuses = new Map<string, string>();
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    await Promise.all(
      ids
        .filter((id) => statuses.get(id) === undefined || statuses.get(id) === 'queued')
        .map(async (id) => {
          const response = await fetch(`${chaos.baseUrl}/responses/${id}`, { headers: auth }).catch(() => undefined);
          if (response?.status === 200) statuses.set(id, ((await response.json()) as { status: string }).status);
        }),
    );
    if (ids.every((id) => statuses.get(id) && statuses.get(id) !== 'queued')) break;
    await sleep(250);
  }
  const endedAfterMs = Date.now() - killedAt;
  const callIds = ids.map((id) => `call_${id.slice(5)}`);
  let rows: Array<{ call_id: string; n: number }> = [];
  for (let i = 0; i < 100; i += 1) {
    rows = (await chaos.db.query<{ call_id: string; n: number }>('SELECT call_id, count(*)::int AS n FROM billing.ledger_entry WHERE call_id = ANY($1) GROUP BY call_id', [callIds])).rows;
    if (rows.length >= RESPONSES) break;
    await sleep(200);
  }
  const byStatus: Record<string, number> = {};
  for (const id of ids) byStatus[statuses.get(id) ?? 'unread'] = (byStatus[statuses.get(id) ?? 'unread'] ?? 0) + 1;
  const billedTwice = rows.filter((row) => row.n > 1).length;
  report(name, { responses: RESPONSES, by_status: byStatus, ended_after_kill_ms: endedAfterMs, ledger_rows: rows.reduce((sum, row) => sum + row.n, 0), billed_twice: billedTwice, unbilled: RESPONSES - rows.length });
  return { byStatus, rows, billedTwice };
}

describe('chaos: workers SIGKILLed with background responses in flight', () => {
  let chaos: ChaosFleet;

  beforeAll(async () => {
    chaos = await startChaosFleet({ name: 'background', restart: true });
  }, 120_000);

  afterAll(async () => {
    await chaos?.stop();
  }, 60_000);

  it('every queued response completes exactly once and is billed exactly once', async () => {
    // Some turns are mid-call (hang 1.5 s at the vendor), the rest wait in the queue.
    const { byStatus, rows, billedTwice } = await killDuringBackground(chaos, 'background', (index) => ({ model: MODEL, input: `Background turn ${index}.` }), { 'x-sim-fault': 'hang:1500' }, 1200);
    expect(byStatus).toEqual({ completed: RESPONSES });
    expect(rows).toHaveLength(RESPONSES);
    expect(billedTwice).toBe(0);
  });

  it('a worker given SIGTERM finishes the turn it is running before it exits, rather than handing it to another worker to run again', async () => {
    const organization = chaos.newOrganization();
    const auth = { authorization: `Bearer ${organization.apiKey}` };
    const created = await fetch(`${chaos.baseUrl}/responses`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'x-sim-fault': 'hang:2500' }, body: JSON.stringify({ background: true, model: MODEL, input: 'Finish me before you go.' }) });
    const { id } = (await created.json()) as { id: string };
    await sleep(800);
    const worker = chaos.fleet.processOf('workers')!;
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => worker.once('exit', (code) => resolve({ code, at: Date.now() })));
    worker.kill('SIGTERM');
    const exit = await exited;
    expect(exit.code).toBe(0);
    let status = 'queued';
    for (let i = 0; i < 60 && status === 'queued'; i += 1) {
      status = ((await (await fetch(`${chaos.baseUrl}/responses/${id}`, { headers: auth })).json()) as { status: string }).status;
      if (status === 'queued') await sleep(250);
    }
    expect(status).toBe('completed');
    // Answered (and billed, once) by the worker that was stopping, before it exited.
    let rows: Array<{ occurred_at: Date }> = [];
    for (let i = 0; i < 50 && rows.length === 0; i += 1) {
      rows = (await chaos.db.query<{ occurred_at: Date }>('SELECT occurred_at FROM billing.ledger_entry WHERE call_id = $1', [`call_${id.slice(5)}`])).rows;
      if (rows.length === 0) await sleep(200);
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]!.occurred_at.getTime()).toBeLessThanOrEqual(exit.at);
  });
});

describe('chaos: workers SIGKILLed with batch-bound responses in the vendor-batch pool', () => {
  let chaos: ChaosFleet;

  beforeAll(async () => {
    // Batches of 10, flushed within a second; a claim the killed worker held comes back after 3 s.
    chaos = await startChaosFleet({ name: 'pool', restart: true, env: { POOL_MAX_LINES: '10', POOL_MAX_AGE_MS: '1000', POOL_FLUSH_INTERVAL_MS: '200', POOL_POLL_INTERVAL_MS: '400', POOL_CLAIM_LEASE_MS: '3000' } });
  }, 120_000);

  afterAll(async () => {
    await chaos?.stop();
  }, 60_000);

  it('every pooled response completes exactly once and is billed exactly once (batches waiting, sent and being read when the workers die)', async () => {
    const { byStatus, rows, billedTwice } = await killDuringBackground(chaos, 'pool', (index) => ({ model: MODEL, input: `Pooled turn ${index}.` }), { 'x-svc-deadline': '24h', 'x-sim-batch': 'line-ms:300' }, 1500);
    expect(byStatus).toEqual({ completed: RESPONSES });
    expect(rows).toHaveLength(RESPONSES);
    expect(billedTwice).toBe(0);
  });
});
