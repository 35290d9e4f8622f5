import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '@svc/logger';
import { connectAmqp, createAmqpClient, type AmqpClient, type AmqpConnection } from './client';
import { declareQueue } from './topology';
import { defineMessage } from './message';
import { publish } from './publish';
import { AmqpUnavailableError, ConfirmTimeoutError } from './failures';
import { startTcpProxy, type TcpProxy } from '../../fleet/src/tcp-proxy';

// The reconnecting client against the real RabbitMQ, on a vhost of this run's own (created and
// deleted here), so closing "every connection" closes only this test's. Broker faults are made
// per connection — rabbitmqctl close_all_connections on the vhost, or a TCP proxy in front of the
// broker that the test cuts or stalls. The RabbitMQ server itself is never stopped.

const RUN = `${process.pid}_${randomBytes(4).toString('hex')}`;
const VHOST = `svc_test_amqp_${RUN}`;
const base = new URL(process.env.AMQP_URL!);
base.pathname = `/${VHOST}`;
const AMQP_URL = base.toString();

const jobSchema = z.object({ id: z.string() });

function rabbitmqctl(...args: string[]): void {
  execFileSync('rabbitmqctl', args, { stdio: 'ignore', timeout: 60_000 });
}

function spyLogger(): Logger & { error: jest.Mock; warn: jest.Mock; info: jest.Mock } {
  return { error: jest.fn(), warn: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger & { error: jest.Mock; warn: jest.Mock; info: jest.Mock };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(probe: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe('reconnecting client (real RabbitMQ, own vhost)', () => {
  const clients: AmqpClient[] = [];
  const proxies: TcpProxy[] = [];
  let direct: AmqpConnection;
  let counter = 0;

  const message = (label: string) => defineMessage(`svctest.client.${label}.${++counter}`, 1, jobSchema);

  function client(options: Partial<Parameters<typeof createAmqpClient>[0]> = {}): AmqpClient {
    const created = createAmqpClient({ url: AMQP_URL, logger: spyLogger(), name: 'client-int-test', reconnect: { initialMs: 50, maxMs: 500 }, ...options });
    clients.push(created);
    return created;
  }

  beforeAll(async () => {
    rabbitmqctl('add_vhost', VHOST);
    rabbitmqctl('set_permissions', '-p', VHOST, base.username || 'guest', '.*', '.*', '.*');
    direct = await connectAmqp(AMQP_URL);
  }, 120_000);

  afterEach(async () => {
    for (const created of clients.splice(0)) await created.close();
    for (const proxy of proxies.splice(0)) await proxy.close();
  });

  afterAll(async () => {
    await direct?.close();
    rabbitmqctl('delete_vhost', VHOST);
  }, 120_000);

  it('a consumer and a publisher survive the broker closing every connection (rabbitmqctl close_all_connections): reconnect, consume and publish again', async () => {
    const job = message('closeall');
    const logger = spyLogger();
    const amqp = client({ logger });
    const received: string[] = [];
    amqp.consume(job, async (payload) => void received.push(payload.id), { logger });
    await amqp.waitReady(10_000);

    await amqp.publish(job, { id: 'before' });
    await until(() => received.includes('before'), 'the first message');
    // Let its ack reach the broker (a message unacked when the connection goes is redelivered: at least once).
    await sleep(500);

    rabbitmqctl('close_all_connections', '-p', VHOST, 'client.int.test: broker closed the connection');
    // The direct connection was closed too: reopen it for the checks below.
    direct = await connectAmqp(AMQP_URL);
    await until(() => logger.warn.mock.calls.some((call) => call[0] === 'amqp connection lost; reconnecting'), 'the client to notice');
    // While it reconnects, another publisher's message waits in the queue.
    await publish(direct.channel, job, { id: 'while-away' });
    await amqp.waitReady(20_000);
    expect(amqp.isReady()).toBe(true);

    await amqp.publish(job, { id: 'after' });
    await until(() => received.includes('after') && received.includes('while-away'), 'messages after the reconnect');
    expect(received).toEqual(expect.arrayContaining(['before', 'while-away', 'after']));
    expect((await direct.channel.checkQueue(job.name)).consumerCount).toBe(1);
  }, 90_000);

  it('while the broker is unreachable it retries with backoff (never exits), publishes fail at once, and once back it declares the topology again and subscribes again', async () => {
    const job = message('cut');
    const proxy = await startTcpProxy({ host: base.hostname, port: Number(base.port || 5672) });
    proxies.push(proxy);
    const logger = spyLogger();
    const amqp = client({ url: proxy.url(AMQP_URL), logger });
    const received: string[] = [];
    amqp.consume(job, async (payload) => void received.push(payload.id), { logger });
    await amqp.waitReady(10_000);

    proxy.cut();
    await until(() => !amqp.isReady(), 'the client to see the connection go');
    const started = Date.now();
    await expect(amqp.publish(job, { id: 'refused' })).rejects.toBeInstanceOf(AmqpUnavailableError);
    expect(Date.now() - started).toBeLessThan(1_000);
    await expect(amqp.waitReady(300)).rejects.toBeInstanceOf(AmqpUnavailableError);

    // The queue is gone while the client is away: it must declare it again on reconnect.
    await direct.channel.deleteQueue(job.name);
    await sleep(1500);
    const attempts = logger.warn.mock.calls.filter((call) => call[0] === 'amqp connect failed; retrying').length;
    expect(attempts).toBeGreaterThanOrEqual(2);

    proxy.restore();
    await amqp.waitReady(10_000);
    await publish(direct.channel, job, { id: 'after-restore' });
    await amqp.publish(job, { id: 'own-after-restore' });
    await until(() => received.includes('after-restore') && received.includes('own-after-restore'), 'messages on the declared-again queue');
    expect(logger.info).toHaveBeenCalledWith('amqp connected', expect.objectContaining({ attempts: expect.any(Number) }));
  }, 60_000);

  it('a publish during a partition rejects within the confirm time limit instead of hanging; the heartbeat notices the silence and the client comes back', async () => {
    const job = message('stall');
    const proxy = await startTcpProxy({ host: base.hostname, port: Number(base.port || 5672) });
    proxies.push(proxy);
    const logger = spyLogger();
    const amqp = client({ url: proxy.url(AMQP_URL), logger, queues: [job.name], confirmTimeoutMs: 300, heartbeatSeconds: 1, connectTimeoutMs: 500 });
    await amqp.waitReady(10_000);

    proxy.stall();
    const started = Date.now();
    const outcome = await amqp.publish(job, { id: 'partitioned' }).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(ConfirmTimeoutError);
    expect(Date.now() - started).toBeLessThan(1500);
    await until(() => !amqp.isReady(), 'the heartbeat to notice the silent broker', 10_000);

    proxy.restore();
    await amqp.waitReady(15_000);
    await amqp.publish(job, { id: 'healed' });
    // The partitioned publish may or may not have reached the queue; the healed one did, once.
    const ids: string[] = [];
    for (;;) {
      const got = await direct.channel.get(job.name, { noAck: true });
      if (!got) break;
      ids.push((JSON.parse(got.content.toString()) as { id: string }).id);
    }
    expect(ids.filter((id) => id === 'healed')).toHaveLength(1);
  }, 60_000);

  it('redelivers messages that were in the handler when the connection dropped, and acks each once it is handled on the new channel', async () => {
    const job = message('inflight');
    const proxy = await startTcpProxy({ host: base.hostname, port: Number(base.port || 5672) });
    proxies.push(proxy);
    const logger = spyLogger();
    const amqp = client({ url: proxy.url(AMQP_URL), logger });
    let gate!: () => void;
    const opened = new Promise<void>((resolve) => (gate = resolve));
    const handled: string[] = [];
    amqp.consumeBatch(job, async (payloads) => {
      if (handled.length === 0) await opened;
      handled.push(...payloads.map((payload) => payload.id));
    }, { logger, maxBatch: 10, maxWaitMs: 10 });
    await amqp.waitReady(10_000);
    await declareQueue(direct.channel, job.name);
    await publish(direct.channel, job, { id: 'm1' });
    await sleep(200);
    proxy.cut();
    await until(() => !amqp.isReady(), 'the drop');
    proxy.restore();
    gate();
    await amqp.waitReady(10_000);
    await until(() => handled.filter((id) => id === 'm1').length >= 2, 'the redelivery to be handled');
    await until(async () => {
      const queue = await direct.channel.checkQueue(job.name);
      return queue.messageCount === 0;
    }, 'an empty queue');
    await amqp.close();
    expect((await direct.channel.checkQueue(job.name)).messageCount).toBe(0);
    expect((await direct.channel.checkQueue(`${job.name}.dead`)).messageCount).toBe(0);
  }, 60_000);
});
