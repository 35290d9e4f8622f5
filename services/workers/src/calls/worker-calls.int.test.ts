import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { parseConfig } from '@svc/config';
import { createLogger } from '@svc/logger';
import { createRedis, type Redis } from '@svc/redis';
import { createAmqpClient, type AmqpClient } from '@svc/amqp';
import { usageSettle } from '@svc/messages';
import { startFleet, type Fleet } from '@svc/fleet';
import { createUsageSink } from '@svc/backends';
import { parseChatRequest } from '@svc/call';
import { workersConfigSchema } from '../config';
import { createWorkerCalls, type WorkerCalls } from './worker-calls';

/**
 * A worker runs a chat call through the same pipeline as the edge: real billing (admission over
 * gRPC, settlement from the usage.settle queue into the ledger) and the vendor simulator, started
 * here from their builds against the test database and a vhost of this test's own.
 */
const ROOT = join(__dirname, '..', '..', '..', '..');
const vhost = `svc_test_workers_${process.pid}`;
const env: Record<string, string> = {
  DATABASE_URL: process.env.DATABASE_URL as string,
  REDIS_URL: process.env.REDIS_URL as string,
  REDIS_KEY_PREFIX: `svctest:workers:${process.pid}:`,
  AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${vhost}`,
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  BYOK_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

let fleet: Fleet;
let redis: Redis;
let amqp: AmqpClient;
let calls: WorkerCalls;
let apiKey = '';
const db = new Client({ connectionString: env.DATABASE_URL });

beforeAll(async () => {
  execFileSync('rabbitmqctl', ['add_vhost', vhost], { stdio: 'ignore' });
  execFileSync('rabbitmqctl', ['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*'], { stdio: 'ignore' });
  fleet = await startFleet({ root: ROOT, env, only: ['vendor-sim', 'billing'], restart: false, logDir: join(ROOT, '.svc', 'logs', `int-workers-${process.pid}`) });
  const admin = (...args: string[]) => JSON.parse(execFileSync(process.execPath, [join(ROOT, 'services/billing/dist/cli/admin.js'), ...args, '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim());
  const org = admin('org', 'create', '--name', 'workers-int', '--plan', 'paid', '--credit', '5000000');
  apiKey = admin('key', 'create', '--org', org.organization_id, '--name', 'workers-int').key;
  const config = parseConfig('workers', workersConfigSchema, { ...env, BILLING_ADDR: `127.0.0.1:${fleet.ports.billing}`, ROUTER_ADDR: `127.0.0.1:${fleet.ports.router}`, VENDOR_SIM_URL: `http://127.0.0.1:${fleet.ports.vendorSim}` });
  const logger = createLogger({ service: 'workers-int', level: 'warn' });
  redis = createRedis({ url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX, name: 'workers-int' });
  amqp = createAmqpClient({ url: env.AMQP_URL, logger, name: 'workers-int', queues: [usageSettle.name] });
  await amqp.waitReady(10_000);
  // The workers' own wiring (main.ts): the durable usage sink over the reconnecting client.
  calls = createWorkerCalls(config, { logger, redis, usage: (backends) => createUsageSink({ publish: (record) => amqp.publish(usageSettle, record), settleDirect: (records) => backends.settle({ records }), logger }) });
  await db.connect();
}, 120_000);

afterAll(async () => {
  calls?.close();
  await amqp?.close();
  await redis?.quit();
  await db.end();
  await fleet?.stop();
  execFileSync('rabbitmqctl', ['delete_vhost', vhost], { stdio: 'ignore' });
}, 60_000);

async function ledgerRows(callId: string): Promise<Array<{ model: string; cost_micros: string }>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { rows } = await db.query('SELECT model, cost_micros::text FROM billing.ledger_entry WHERE call_id = $1', [callId]);
    if (rows.length > 0 || Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

it('runs a chat call from a worker against the simulator and real billing; its usage lands in the ledger once', async () => {
  const { key } = await calls.runtime.backends.authenticateKey(createHash('sha256').update(apiKey).digest('hex'));
  if (!key) throw new Error('billing returned no key record');
  const input = parseChatRequest({ model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: 'Say hello from a worker.' }] }, {});
  const outcome = await calls.run(input, { key }, { cacheTtl: 'none' }, new AbortController().signal);
  if (!outcome) throw new Error('no outcome');
  expect(outcome.result.content).toBeTruthy();
  expect(outcome.svc).toMatchObject({ vendor: 'vendor-1', model_served: 'vendor-1/orion-mini-5', attempts: 1 });
  const callId = outcome.svc.call_id as string;
  const rows = await ledgerRows(callId);
  expect(rows).toHaveLength(1);
  expect(rows[0].model).toBe('vendor-1/orion-mini-5');
  expect(Number(rows[0].cost_micros)).toBe(outcome.svc.cost_micros);
  // Settlement is once: a second look after the queue drained still finds one row.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const again = await db.query('SELECT count(*)::int AS n FROM billing.ledger_entry WHERE call_id = $1', [callId]);
  expect(again.rows[0].n).toBe(1);
}, 60_000);
