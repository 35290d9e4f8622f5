import { randomBytes } from 'node:crypto';
import { connectAmqp, createAmqpClient, defineMessage, publish, type AmqpClient, type AmqpConnection } from '@svc/amqp';
import { ids } from '@svc/ids';
import type { Logger } from '@svc/logger';
import { usageRecordSchema } from '@svc/messages';
import type { UsageRecord } from '@svc/protos';
import { createRedis, waitReady } from '@svc/redis';
import { inMemoryMetrics, type InMemoryMetrics } from '@svc/telemetry';
import { startTcpProxy, type TcpProxy } from '../../../../libs/fleet/src/tcp-proxy';
import { createPrisma, type Prisma } from '../db';
import { balanceKey, readBalance } from '../admission/balance';
import { createOrganization } from '../cli/admin-commands';
import { startSettlementConsumer } from './consumer';
import { listDeadLetters, replayDeadLetters } from './dead-letters';

// The usage.settle consumer as billing runs it (startSettlementConsumer over the reconnecting
// client) against the real RabbitMQ (test vhost, a queue of this run's own), Postgres and Redis.
// Billing's Postgres connection goes through a TCP proxy the test cuts and stalls; the Postgres
// server itself is never touched.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const AMQP_URL = process.env.AMQP_URL!;
const DATABASE_URL = process.env.DATABASE_URL!;
const CREDIT = 1_000_000;

function spyLogger(): Logger & { error: jest.Mock; warn: jest.Mock; info: jest.Mock } {
  return { error: jest.fn(), warn: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger & { error: jest.Mock; warn: jest.Mock; info: jest.Mock };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(probe: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('usage.settle consumer through dependency outages (real RabbitMQ, Postgres, Redis)', () => {
  const message = defineMessage(`svctest.settle.${RUN}`, 1, usageRecordSchema);
  const prisma = createPrisma(DATABASE_URL);
  const redis = createRedis({ url: process.env.REDIS_URL!, keyPrefix: process.env.REDIS_KEY_PREFIX });
  const organizations: Array<{ organizationId: string; accountId: string }> = [];
  const logger = spyLogger();
  let proxy: TcpProxy;
  let billingPrisma: Prisma;
  let amqp: AmqpClient;
  let direct: AmqpConnection;
  let memory: InMemoryMetrics;
  let consumer: ReturnType<typeof startSettlementConsumer>;

  /**
   * The ledger row commits before the record's Redis counters move (settle.ts), and a record still
   * unacknowledged is not counted in the queue's depth: wait for the balance, then make sure a late
   * retry of the same batch does not move it a second time.
   */
  async function settledAt(organizationId: string, expected: number): Promise<void> {
    await until(async () => (await readBalance(prisma, redis, organizationId)) === expected, `the balance to reach ${expected}`);
    await sleep(500);
    expect(await readBalance(prisma, redis, organizationId)).toBe(expected);
  }

  async function newOrganization(label: string): Promise<string> {
    const org = await createOrganization({ prisma, redis }, { name: `consumer ${label}`, email: `consumer-${label}-${RUN}@svctest.local`, plan: 'paid', creditMicros: BigInt(CREDIT) });
    organizations.push({ organizationId: org.organization_id, accountId: org.account_id });
    return org.organization_id;
  }

  function usage(organizationId: string, costMicros: number, overrides: Partial<UsageRecord> = {}) {
    return usageRecordSchema.parse({
      call_id: ids.callId(),
      organization_id: organizationId,
      key_id: 'key_consumer_int',
      kind: 'chat',
      vendor: 'openai',
      model: 'gpt-test',
      input_tokens: 10,
      output_tokens: 5,
      vendor_micros: costMicros,
      service_fee_micros: 0,
      call_fee_micros: 0,
      cost_micros: costMicros,
      direct_micros: 0,
      occurred_at_ms: Date.now(),
      ...overrides,
    });
  }

  const inLedger = (callIds: string[]) => prisma.ledgerEntry.count({ where: { callId: { in: callIds } } });
  const depth = async (queue: string) => (await direct.channel.checkQueue(queue)).messageCount;

  beforeAll(async () => {
    await waitReady(redis);
    const target = new URL(DATABASE_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    billingPrisma = createPrisma(proxy.url(DATABASE_URL));
    direct = await connectAmqp(AMQP_URL);
    memory = inMemoryMetrics();
    amqp = createAmqpClient({ url: AMQP_URL, logger, name: 'settle-consumer-int-test' });
    consumer = startSettlementConsumer(amqp, { prisma: billingPrisma, redis, logger }, {
      batchSize: 50,
      batchWaitMs: 20,
      message,
      maxRetries: 1,
      handlerTimeoutMs: 2000,
      outageBackoff: { initialMs: 100, maxMs: 400 },
    });
    // Retries come back quickly in this test (the queue is declared before the client subscribes).
    await amqp.declare(message.name, { retryDelayMs: 100 });
    await amqp.waitReady(10_000);
  });

  afterAll(async () => {
    await consumer.cancel();
    await consumer.drain();
    await amqp.close();
    for (const queue of [message.name, `${message.name}.retry`, `${message.name}.dead`]) await direct.channel.deleteQueue(queue).catch(() => undefined);
    await direct.close();
    await proxy.close();
    for (const { organizationId, accountId } of organizations) {
      await prisma.ledgerEntry.deleteMany({ where: { organizationId } });
      await prisma.apiKey.deleteMany({ where: { organizationId } });
      await prisma.creditEntry.deleteMany({ where: { organizationId } });
      await prisma.organizationMember.deleteMany({ where: { organizationId } });
      await prisma.project.deleteMany({ where: { organizationId } });
      await prisma.organization.deleteMany({ where: { id: organizationId } });
      await prisma.account.deleteMany({ where: { id: accountId } });
      await redis.del(balanceKey(organizationId));
    }
    await memory.stop();
    await billingPrisma.$disconnect();
    await prisma.$disconnect();
    await redis.quit();
  });

  it('a batch that finds Postgres unreachable is held and retried for as long as it lasts — never dead-lettered — and settled once when it is back', async () => {
    const organizationId = await newOrganization('unreachable');
    const records = [usage(organizationId, 100), usage(organizationId, 20), usage(organizationId, 3)];
    const callIds = records.map((record) => record.call_id);

    proxy.cut();
    for (const record of records) await publish(direct.channel, message, record);
    await until(() => logger.warn.mock.calls.some((call) => call[0] === 'handler dependency unavailable: holding messages and trying again'), 'the consumer to meet the outage');
    // Several seconds of outage: many tries, with backoff.
    await sleep(3000);
    expect(await inLedger(callIds)).toBe(0);
    expect(await depth(`${message.name}.dead`)).toBe(0);
    expect(await depth(`${message.name}.retry`)).toBe(0);
    expect(await memory.sum('svc.queue.dead_lettered')).toBe(0);
    expect(logger.error).not.toHaveBeenCalled();

    proxy.restore();
    await until(async () => (await inLedger(callIds)) === 3, 'the held batch to settle');
    await until(async () => (await depth(message.name)) === 0, 'an empty queue');
    await settledAt(organizationId, CREDIT - 123);
    expect(await depth(`${message.name}.dead`)).toBe(0);
    // The batch that met the outage holds what had arrived within its wait (one to three of the
    // records, as the publishes fall); whatever came after it settles as an ordinary batch.
    const back = logger.info.mock.calls.filter((call) => call[0] === 'handler dependency back: held messages processed');
    expect(back).toHaveLength(1);
    expect(back[0][1]).toEqual(expect.objectContaining({ queue: message.name }));
    expect(back[0][1].messages).toBeGreaterThanOrEqual(1);
    expect(back[0][1].messages).toBeLessThanOrEqual(3);
    expect(logger.error).not.toHaveBeenCalled();
  }, 60_000);

  it('a batch that hangs on a stalled Postgres is timed out, retried, and settled once when the stall ends', async () => {
    const organizationId = await newOrganization('stalled');
    const records = [usage(organizationId, 7), usage(organizationId, 8)];
    const callIds = records.map((record) => record.call_id);

    proxy.stall();
    for (const record of records) await publish(direct.channel, message, record);
    await sleep(4500);
    expect(await inLedger(callIds)).toBe(0);
    expect(await depth(`${message.name}.dead`)).toBe(0);

    proxy.restore();
    await until(async () => (await inLedger(callIds)) === 2, 'the held batch to settle');
    await until(async () => (await depth(message.name)) === 0, 'an empty queue');
    await settledAt(organizationId, CREDIT - 15);
    expect(await depth(`${message.name}.dead`)).toBe(0);
    expect(await memory.sum('svc.queue.dead_lettered')).toBe(0);
  }, 60_000);

  it('dead-letters only poison — an invalid payload at once, a record that keeps failing after its retry — each with an error line and the metric, while the rest of its batch settles', async () => {
    const organizationId = await newOrganization('poison');
    const good = [usage(organizationId, 11), usage(organizationId, 22)];
    // input_tokens beyond the ledger's integer column: Postgres refuses it every time (22003), not an outage.
    const bad = usage(organizationId, 33, { input_tokens: 3_000_000_000 });
    await new Promise<void>((resolve, reject) => direct.channel.sendToQueue(message.name, Buffer.from('{"call_id":42}'), { persistent: true }, (error) => (error ? reject(error) : resolve())));
    await Promise.all([...good, bad].map((record) => publish(direct.channel, message, record)));

    await until(async () => (await depth(`${message.name}.dead`)) === 2, 'two dead letters');
    expect(await inLedger(good.map((record) => record.call_id))).toBe(2);
    expect(await inLedger([bad.call_id])).toBe(0);
    await settledAt(organizationId, CREDIT - 33);
    expect(logger.error).toHaveBeenCalledWith('message rejected: invalid payload', expect.objectContaining({ queue: message.name }));
    expect(logger.error).toHaveBeenCalledWith('message dead-lettered', expect.objectContaining({ queue: message.name, reason: 'retries_exhausted', call_id: bad.call_id, organization_id: organizationId }));
    expect(await memory.sum('svc.queue.dead_lettered', { queue: message.name, reason: 'invalid_payload' })).toBe(1);
    expect(await memory.sum('svc.queue.dead_lettered', { queue: message.name, reason: 'retries_exhausted' })).toBe(1);

    const dead = await listDeadLetters({ amqpUrl: AMQP_URL, prisma, queue: message.name });
    expect(dead.filter((letter) => letter.source === 'queue').map((letter) => letter.call_id).sort()).toEqual(['(unreadable)', bad.call_id].sort());
    // Listing leaves them where they are.
    expect(await depth(`${message.name}.dead`)).toBe(2);
    await until(async () => (await depth(`${message.name}.dead`)) === 2, 'the listed letters back in the dead queue');
  }, 60_000);

  it('usage replay moves dead records back with a fresh retry budget; one dead-lettered by a bug since fixed is settled once', async () => {
    const organizationId = await newOrganization('replay');
    // As the zero-cost bug left them: a valid record in the dead queue after its retries.
    const stranded = usage(organizationId, 0);
    const before = await depth(`${message.name}.dead`);
    await new Promise<void>((resolve, reject) =>
      direct.channel.sendToQueue(`${message.name}.dead`, Buffer.from(JSON.stringify(stranded)), { persistent: true, headers: { 'x-retries': 5, 'x-message-version': 1 } }, (error) => (error ? reject(error) : resolve())),
    );
    await until(async () => (await depth(`${message.name}.dead`)) === before + 1, 'the stranded record in the dead queue');

    const result = await replayDeadLetters({ amqpUrl: AMQP_URL, prisma, queue: message.name });
    expect(result.queue_replayed).toBe(before + 1);
    await until(async () => (await inLedger([stranded.call_id])) === 1, 'the replayed record in the ledger');
    // The two poison messages die again (after a fresh retry for the failing one); nothing loops.
    await until(async () => (await depth(`${message.name}.dead`)) === before, 'the poison back in the dead queue');
    await sleep(500);
    expect(await depth(`${message.name}.dead`)).toBe(before);
    expect(await inLedger([stranded.call_id])).toBe(1);
  }, 60_000);
});
