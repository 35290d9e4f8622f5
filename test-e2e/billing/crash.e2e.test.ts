import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { connectAmqp, declareQueue, publish, type AmqpConnection } from '@svc/amqp';
import { usageRecordSchema, usageSettle } from '@svc/messages';
import { createRedis, waitReady, type Redis } from '@svc/redis';
import { freePort, waitForPort } from '../../libs/fleet/src';
import { createPrisma, type Prisma } from '../../services/billing/src/db';
import { balanceFromLedger, balanceKey, readBalance } from '../../services/billing/src/admission/balance';
import { fleetState, newOrganization, ROOT } from '../support/fleet-state';

// Acceptance (durable settlement): kill the billing process mid-settlement; after a restart every
// answered call is in the ledger once and the balance moved once per call.
//
// The billing processes here are the test's own, started with the e2e fleet's environment (same
// database and Redis prefix) but on a RabbitMQ vhost of their own, so the fleet's billing never
// takes one of these messages and the kill is the only thing between the queue and the ledger.

const CALLS = 3000;
const COST_MICROS = 1000;
const CREDIT_MICROS = 10_000_000;
const EXPECTED_BALANCE = CREDIT_MICROS - CALLS * COST_MICROS;
const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const VHOST = `svc_e2e_crash_${RUN}`;

/** One usage.settle message as the edge publishes it. */
type UsagePayload = ReturnType<typeof usageRecordSchema.parse>;

interface BillingChild {
  process: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done` holds for its value, or fails naming the last value seen. */
async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

describe('billing killed mid-settlement', () => {
  const state = fleetState();
  const amqpUrl = `amqp://guest:guest@127.0.0.1:5672/${VHOST}`;
  const children: BillingChild[] = [];
  let amqp: AmqpConnection;
  let redis: Redis;
  let prisma: Prisma;
  let db: Client;
  let organizationId: string;
  let keyId: string;
  let records: UsagePayload[];
  let inLedgerAfterKill: number;

  async function startBilling(): Promise<BillingChild> {
    const port = await freePort();
    const child = spawn(process.execPath, [join(ROOT, 'services/billing/dist/main.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...state.env,
        AMQP_URL: amqpUrl,
        BILLING_HOST: '127.0.0.1',
        BILLING_PORT: String(port),
        METRICS_PORT: '0',
        // The production batch: 3000 records are 15 batches, so a kill after the first lands mid-way.
        SETTLE_BATCH_SIZE: '200',
        SETTLE_BATCH_WAIT_MS: '20',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const started: BillingChild = { process: child, exited, output: () => output };
    children.push(started);
    await waitForPort(port, 20_000, () => child.exitCode === null);
    return started;
  }

  /** SIGTERM: stop consuming, settle and ack what was taken, exit 0. */
  async function stopBilling(child: BillingChild): Promise<void> {
    child.process.kill('SIGTERM');
    const { code, signal } = await child.exited;
    expect({ code, signal, output: code === 0 ? '' : child.output() }).toEqual({ code: 0, signal: null, output: '' });
  }

  const ledgerCount = async (): Promise<number> => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM billing.ledger_entry WHERE organization_id = $1', [organizationId])).rows[0].n);
  const queue = async (name: string) => amqp.channel.checkQueue(name);
  const redisBalance = async (): Promise<string | null> => redis.get(balanceKey(organizationId));

  function usage(index: number): UsagePayload {
    return {
      call_id: `call_crash_${RUN}_${String(index).padStart(4, '0')}`,
      organization_id: organizationId,
      key_id: keyId,
      kind: 'chat',
      vendor: 'vendor-1',
      model: 'vendor-1/orion-mini-5',
      line: '',
      input_tokens: 12,
      output_tokens: 20,
      cached_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      vendor_micros: 900,
      service_fee_micros: 90,
      call_fee_micros: 10,
      cost_micros: COST_MICROS,
      direct_micros: 900,
      byok: false,
      occurred_at_ms: Date.now(),
      reserved_micros: 0,
      plan: '',
      spend_period: '',
      member_id: '',
      baseline_pending: false,
    };
  }

  beforeAll(async () => {
    execFileSync('rabbitmqctl', ['add_vhost', VHOST], { stdio: 'ignore' });
    execFileSync('rabbitmqctl', ['set_permissions', '-p', VHOST, 'guest', '.*', '.*', '.*'], { stdio: 'ignore' });
    amqp = await connectAmqp(amqpUrl);
    await declareQueue(amqp.channel, usageSettle.name);
    redis = createRedis({ url: state.env.REDIS_URL, keyPrefix: state.env.REDIS_KEY_PREFIX });
    await waitReady(redis);
    prisma = createPrisma(state.env.DATABASE_URL);
    db = new Client({ connectionString: state.env.DATABASE_URL });
    await db.connect();
    const org = newOrganization({ credit: String(CREDIT_MICROS) });
    organizationId = org.organizationId;
    keyId = org.keyId;
    records = Array.from({ length: CALLS }, (_, index) => usage(index));
  }, 60_000);

  afterAll(async () => {
    for (const child of children) if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await Promise.all(children.map((child) => child.exited));
    await amqp?.close();
    execFileSync('rabbitmqctl', ['delete_vhost', VHOST], { stdio: 'ignore' });
    if (redis && organizationId) {
      // This organization's keys (the per-call markers among them) under the fleet's prefix.
      const plain = createRedis({ url: state.env.REDIS_URL });
      const stream = plain.scanStream({ match: `${state.env.REDIS_KEY_PREFIX}*{${organizationId}}*`, count: 1000 });
      for await (const keys of stream as AsyncIterable<string[]>) if (keys.length > 0) await plain.del(...keys);
      plain.disconnect();
    }
    redis?.disconnect();
    await prisma?.$disconnect();
    await db?.end();
  }, 60_000);

  it('a billing process SIGKILLed while settling leaves some, not all, answered calls in the ledger', async () => {
    expect(await redisBalance()).toBe(String(CREDIT_MICROS));
    // The edge's side: every answered call published with a confirm (nothing consumes yet).
    await Promise.all(records.map((record) => publish(amqp.channel, usageSettle, record)));
    expect((await queue(usageSettle.name)).messageCount).toBe(CALLS);

    const first = await startBilling();
    await until('ledger rows before the kill', ledgerCount, (count) => count > 0, 30_000, 2);
    first.process.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // The broker sees the consumer go and puts back every message it had not acked.
    await until('consumers of usage.settle', async () => (await queue(usageSettle.name)).consumerCount, (count) => count === 0);
    await sleep(200);
    inLedgerAfterKill = await ledgerCount();
    expect(inLedgerAfterKill).toBeGreaterThan(0);
    expect(inLedgerAfterKill).toBeLessThan(CALLS);
    // A message is acked only after its row is written, so at least every call not in the ledger is back.
    await until('messages back in usage.settle', async () => (await queue(usageSettle.name)).messageCount, (count) => count >= CALLS - inLedgerAfterKill, 10_000);
  });

  it('after a restart every answered call is in the ledger exactly once and the balance moved once per call', async () => {
    expect(inLedgerAfterKill).toBeGreaterThan(0);
    const second = await startBilling();
    await until('ledger rows after the restart', ledgerCount, (count) => count >= CALLS);
    await until('messages left in usage.settle', async () => (await queue(usageSettle.name)).messageCount, (count) => count === 0);
    // A graceful stop settles and acks whatever the consumer still held, so the books are final.
    await stopBilling(second);
    expect((await queue(usageSettle.name)).messageCount).toBe(0);
    expect((await queue(`${usageSettle.name}.retry`)).messageCount).toBe(0);
    expect((await queue(`${usageSettle.name}.dead`)).messageCount).toBe(0);

    const totals = await db.query<{ n: string; calls: string; cost: string }>(
      'SELECT count(*) AS n, count(DISTINCT call_id) AS calls, COALESCE(sum(cost_micros), 0) AS cost FROM billing.ledger_entry WHERE organization_id = $1',
      [organizationId],
    );
    expect(totals.rows[0]).toEqual({ n: String(CALLS), calls: String(CALLS), cost: String(CALLS * COST_MICROS) });
    const ids = await db.query<{ call_id: string }>('SELECT call_id FROM billing.ledger_entry WHERE organization_id = $1 ORDER BY call_id', [organizationId]);
    expect(ids.rows.map((row) => row.call_id)).toEqual(records.map((record) => record.call_id).sort());

    // Redis moved once per call, although part of the queue was delivered twice.
    expect(await redisBalance()).toBe(String(EXPECTED_BALANCE));
  });

  it('the balance rebuilt from the ledger agrees with the one settlement moved', async () => {
    expect(await balanceFromLedger(prisma, organizationId)).toBe(BigInt(EXPECTED_BALANCE));
    expect(await redis.del(balanceKey(organizationId))).toBe(1);
    expect(await readBalance(prisma, redis, organizationId)).toBe(EXPECTED_BALANCE);
    expect(await redisBalance()).toBe(String(EXPECTED_BALANCE));
  });

  it('a redelivery of calls already settled changes nothing', async () => {
    const third = await startBilling();
    const again = [records[0], records[CALLS >> 1], records[CALLS - 1], records[7], records[1234]];
    await Promise.all(again.map((record) => publish(amqp.channel, usageSettle, record)));
    await until('redelivered messages left in usage.settle', async () => (await queue(usageSettle.name)).messageCount, (count) => count === 0);
    await stopBilling(third);
    expect((await queue(usageSettle.name)).messageCount).toBe(0);
    expect((await queue(`${usageSettle.name}.retry`)).messageCount).toBe(0);
    expect((await queue(`${usageSettle.name}.dead`)).messageCount).toBe(0);

    const totals = await db.query<{ n: string; cost: string }>('SELECT count(*) AS n, COALESCE(sum(cost_micros), 0) AS cost FROM billing.ledger_entry WHERE organization_id = $1', [organizationId]);
    expect(totals.rows[0]).toEqual({ n: String(CALLS), cost: String(CALLS * COST_MICROS) });
    expect(await redisBalance()).toBe(String(EXPECTED_BALANCE));
    expect(await balanceFromLedger(prisma, organizationId)).toBe(BigInt(EXPECTED_BALANCE));
  });
});
