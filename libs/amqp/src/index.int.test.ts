import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import {
  ROOT_CONTEXT,
  TraceFlags,
  context,
  propagation,
  trace,
  type Context,
  type ContextManager,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
} from '@opentelemetry/api';
import type { ConsumeMessage, GetMessage } from 'amqplib';
import { z } from 'zod';
import type { Logger } from '@svc/logger';
import { connectAmqp, consume, consumeBatch, declareQueue, defineMessage, publish, type AmqpConnection, type Consumer } from './index';

// Integration tests against the real RabbitMQ, in the test vhost (AMQP_URL from
// scripts/jest-integration-env.js). Every queue name carries this run's pid and a random
// suffix; all queues (name, name.retry, name.dead) are deleted in afterAll.

const AMQP_URL = process.env.AMQP_URL!;
const RUN = `${process.pid}.${randomBytes(4).toString('hex')}`;
const created: string[] = [];

function queueName(label: string): string {
  const name = `svctest.amqp.${RUN}.${label}`;
  created.push(name);
  return name;
}

/** A minimal W3C traceparent propagator and an AsyncLocalStorage context manager, so the
 * test can see the trace context publish() injects and consume() restores. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const traceparentPropagator: TextMapPropagator = {
  inject(ctx: Context, carrier: unknown, setter: TextMapSetter) {
    const span = trace.getSpanContext(ctx);
    if (!span) return;
    setter.set(carrier, 'traceparent', `00-${span.traceId}-${span.spanId}-0${span.traceFlags & TraceFlags.SAMPLED}`);
  },
  extract(ctx: Context, carrier: unknown, getter: TextMapGetter) {
    const raw = getter.get(carrier, 'traceparent');
    const value = Array.isArray(raw) ? raw[0] : raw;
    const match = value ? TRACEPARENT.exec(value) : null;
    if (!match) return ctx;
    return trace.setSpanContext(ctx, { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16), isRemote: true });
  },
  fields: () => ['traceparent'],
};

class StorageContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

function spyLogger(): Logger & { error: jest.Mock; warn: jest.Mock } {
  return { error: jest.fn(), warn: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger & { error: jest.Mock; warn: jest.Mock };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Takes one message off a queue (basic.get, auto-ack), polling until one arrives. */
function takeOne(connection: AmqpConnection, queue: string): Promise<GetMessage> {
  return eventually(async () => (await connection.channel.get(queue, { noAck: true })) || undefined, `a message on ${queue}`);
}

async function readyCount(connection: AmqpConnection, queue: string): Promise<number> {
  return (await connection.channel.checkQueue(queue)).messageCount;
}

/** Ready + unacked messages, seen from a fresh connection after the consumer's one closed. */
async function remaining(queues: string[]): Promise<number[]> {
  const probe = await connectAmqp(AMQP_URL);
  try {
    const counts: number[] = [];
    for (const queue of queues) counts.push(await readyCount(probe, queue));
    return counts;
  } finally {
    await probe.close();
  }
}

function sendRaw(connection: AmqpConnection, queue: string, body: Buffer, headers: Record<string, unknown> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    connection.channel.sendToQueue(queue, body, { persistent: true, contentType: 'application/json', headers }, (error) => (error ? reject(error) : resolve()));
  });
}

const jobSchema = z.object({ id: z.string(), n: z.number().int() });

describe('amqp lib (real RabbitMQ)', () => {
  const contextManager = new StorageContextManager();
  const open: Array<{ consumer?: Consumer; connection: AmqpConnection }> = [];

  async function connect(): Promise<AmqpConnection> {
    const connection = await connectAmqp(AMQP_URL);
    open.push({ connection });
    return connection;
  }

  beforeAll(() => {
    expect(context.setGlobalContextManager(contextManager)).toBe(true);
    expect(propagation.setGlobalPropagator(traceparentPropagator)).toBe(true);
  });

  afterEach(async () => {
    for (const item of open.splice(0)) {
      await item.consumer?.cancel();
      await item.connection.close();
    }
  });

  afterAll(async () => {
    const admin = await connectAmqp(AMQP_URL);
    try {
      for (const name of created) {
        for (const queue of [name, `${name}.retry`, `${name}.dead`]) await admin.channel.deleteQueue(queue);
      }
    } finally {
      await admin.close();
      propagation.disable();
      context.disable();
    }
  });

  it('publishes with confirms and consumes the validated payload with version and trace headers', async () => {
    const name = queueName('roundtrip');
    const job = defineMessage(name, 3, jobSchema);
    const connection = await connect();
    await declareQueue(connection.channel, name, { retryDelayMs: 100 });

    const received: Array<{ payload: z.infer<typeof jobSchema>; message: ConsumeMessage; traceId: string | undefined }> = [];
    const consumer = await consume(
      connection.channel,
      job,
      async (payload, message) => {
        received.push({ payload, message, traceId: trace.getSpanContext(context.active())?.traceId });
      },
      { logger: spyLogger() },
    );
    open[open.length - 1]!.consumer = consumer;

    const traceId = randomBytes(16).toString('hex');
    const spanId = randomBytes(8).toString('hex');
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId, traceFlags: TraceFlags.SAMPLED });
    // Unknown fields are stripped by the schema before anything goes on the wire.
    await context.with(parent, () => publish(connection.channel, job, { id: 'job-1', n: 7, extra: 'dropped' } as z.infer<typeof jobSchema>));

    await eventually(() => received.length === 1 || undefined, 'the delivery');
    await consumer.drain();
    const [{ payload, message, traceId: handlerTraceId }] = received as [(typeof received)[number]];
    expect(payload).toEqual({ id: 'job-1', n: 7 });
    expect(JSON.parse(message.content.toString())).toEqual({ id: 'job-1', n: 7 });
    expect(message.properties.headers?.['x-message-version']).toBe(3);
    expect(message.properties.headers?.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    expect(message.properties.headers?.['x-retries']).toBeUndefined();
    expect(message.properties.type).toBe(name);
    expect(message.properties.contentType).toBe('application/json');
    expect(message.properties.deliveryMode).toBe(2);
    expect(message.fields.redelivered).toBe(false);
    // The handler runs inside the publisher's trace.
    expect(handlerTraceId).toBe(traceId);

    await consumer.cancel();
    await connection.close();
    expect(await remaining([name, `${name}.retry`, `${name}.dead`])).toEqual([0, 0, 0]);
  });

  it('refuses to publish a payload its schema rejects', async () => {
    const name = queueName('badpublish');
    const job = defineMessage(name, 1, jobSchema);
    const connection = await connect();
    await declareQueue(connection.channel, name);
    await expect(publish(connection.channel, job, { id: 42, n: 1.5 } as unknown as z.infer<typeof jobSchema>)).rejects.toBeInstanceOf(z.ZodError);
    expect(await readyCount(connection, name)).toBe(0);
  });

  it('retries a failing handler through the retry queue with x-retries 1..maxRetries, then dead-letters it', async () => {
    const name = queueName('retry');
    const job = defineMessage(name, 1, jobSchema);
    const connection = await connect();
    await declareQueue(connection.channel, name, { retryDelayMs: 100 });

    const attempts: Array<number | undefined> = [];
    const logger = spyLogger();
    const consumer = await consume(
      connection.channel,
      job,
      async (_payload, message) => {
        attempts.push(message.properties.headers?.['x-retries'] as number | undefined);
        throw new Error('handler failed on purpose');
      },
      { logger, maxRetries: 2 },
    );
    open[open.length - 1]!.consumer = consumer;

    await publish(connection.channel, job, { id: 'job-retry', n: 1 });
    const dead = await takeOne(connection, `${name}.dead`);
    await consumer.drain();

    expect(attempts).toEqual([undefined, 1, 2]);
    expect(JSON.parse(dead.content.toString())).toEqual({ id: 'job-retry', n: 1 });
    expect(dead.properties.headers?.['x-retries']).toBe(2);
    expect(dead.properties.headers?.['x-message-version']).toBe(1);
    const deaths = dead.properties.headers?.['x-death'] as Array<{ queue: string; reason: string }>;
    expect(deaths.find((death) => death.queue === name)?.reason).toBe('rejected');
    expect(logger.warn.mock.calls.map((call) => call[1].outcome)).toEqual(['retried', 'retried', 'dead']);

    await consumer.cancel();
    await connection.close();
    expect(await remaining([name, `${name}.retry`, `${name}.dead`])).toEqual([0, 0, 0]);
  });

  it('acks a message that succeeds on its retry (nothing dead-lettered)', async () => {
    const name = queueName('recover');
    const job = defineMessage(name, 1, jobSchema);
    const connection = await connect();
    await declareQueue(connection.channel, name, { retryDelayMs: 100 });

    const attempts: Array<number | undefined> = [];
    const consumer = await consume(
      connection.channel,
      job,
      async (_payload, message) => {
        attempts.push(message.properties.headers?.['x-retries'] as number | undefined);
        if (attempts.length === 1) throw new Error('first try fails');
      },
      { logger: spyLogger(), maxRetries: 3 },
    );
    open[open.length - 1]!.consumer = consumer;

    await publish(connection.channel, job, { id: 'job-recover', n: 2 });
    await eventually(() => attempts.length === 2 || undefined, 'the retried delivery');
    await consumer.drain();
    expect(attempts).toEqual([undefined, 1]);

    await consumer.cancel();
    await connection.close();
    expect(await remaining([name, `${name}.retry`, `${name}.dead`])).toEqual([0, 0, 0]);
  });

  it('sends a payload that fails its schema, or is not JSON, straight to the dead queue without calling the handler', async () => {
    const name = queueName('invalid');
    const job = defineMessage(name, 1, jobSchema);
    const connection = await connect();
    await declareQueue(connection.channel, name, { retryDelayMs: 100 });

    const handler = jest.fn(async () => undefined);
    const logger = spyLogger();
    const consumer = await consume(connection.channel, job, handler, { logger, maxRetries: 3 });
    open[open.length - 1]!.consumer = consumer;

    await sendRaw(connection, name, Buffer.from(JSON.stringify({ id: 5 })), { marker: 'schema' });
    const first = await takeOne(connection, `${name}.dead`);
    await sendRaw(connection, name, Buffer.from('not json {'), { marker: 'json' });
    const second = await takeOne(connection, `${name}.dead`);
    await consumer.drain();

    expect(handler).not.toHaveBeenCalled();
    expect(first.content.toString()).toBe('{"id":5}');
    expect(first.properties.headers?.marker).toBe('schema');
    expect(first.properties.headers?.['x-retries']).toBeUndefined();
    expect(second.content.toString()).toBe('not json {');
    expect(second.properties.headers?.marker).toBe('json');
    expect(second.properties.headers?.['x-retries']).toBeUndefined();
    expect(logger.error).toHaveBeenCalledTimes(2);
    expect(logger.error.mock.calls.map((call) => call[0])).toEqual(['message rejected: invalid payload', 'message rejected: invalid payload']);
    expect(logger.warn).not.toHaveBeenCalled();

    await consumer.cancel();
    await connection.close();
    expect(await remaining([name, `${name}.retry`, `${name}.dead`])).toEqual([0, 0, 0]);
  });

  it('drain() waits for handlers still in flight', async () => {
    const name = queueName('drain');
    const job = defineMessage(name, 1, jobSchema);
    const connection = await connect();
    await declareQueue(connection.channel, name);

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const finished: string[] = [];
    const consumer = await consume(
      connection.channel,
      job,
      async (payload) => {
        started.push(payload.id);
        await gate;
        finished.push(payload.id);
      },
      { logger: spyLogger(), prefetch: 4 },
    );
    open[open.length - 1]!.consumer = consumer;

    await publish(connection.channel, job, { id: 'a', n: 1 });
    await publish(connection.channel, job, { id: 'b', n: 2 });
    await eventually(() => started.length === 2 || undefined, 'both handlers to start');

    let drained = false;
    const draining = consumer.drain().then(() => {
      drained = true;
    });
    await sleep(200);
    expect(drained).toBe(false);
    expect(finished).toEqual([]);

    release();
    await draining;
    expect(drained).toBe(true);
    expect(finished.sort()).toEqual(['a', 'b']);

    await consumer.cancel();
    await connection.close();
    expect(await remaining([name, `${name}.retry`, `${name}.dead`])).toEqual([0, 0, 0]);
  });

  it('consumeBatch hands over batches of at most maxBatch and acks every message', async () => {
    const name = queueName('batch');
    const job = defineMessage(name, 1, jobSchema);
    const connection = await connect();
    await declareQueue(connection.channel, name);
    // Queued before the consumer starts, so they arrive in one burst: 5 + 5 by size, 2 by time.
    for (let n = 0; n < 12; n += 1) await publish(connection.channel, job, { id: `m${n}`, n });
    expect(await readyCount(connection, name)).toBe(12);

    const batches: Array<Array<z.infer<typeof jobSchema>>> = [];
    const consumer = await consumeBatch(
      connection.channel,
      job,
      async (payloads) => {
        batches.push(payloads);
      },
      { logger: spyLogger(), maxBatch: 5, maxWaitMs: 50 },
    );
    open[open.length - 1]!.consumer = consumer;

    await eventually(() => batches.flat().length === 12 || undefined, 'all 12 messages');
    await consumer.drain();

    expect(batches.map((batch) => batch.length)).toEqual([5, 5, 2]);
    expect(batches.flat().map((payload) => payload.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(batches[0]![0]).toEqual({ id: 'm0', n: 0 });

    await consumer.cancel();
    await connection.close();
    expect(await remaining([name, `${name}.retry`, `${name}.dead`])).toEqual([0, 0, 0]);
  });

  it('consumeBatch drain() flushes a partial batch at once and dead-letters an invalid payload', async () => {
    const name = queueName('batchdrain');
    const job = defineMessage(name, 1, jobSchema);
    const connection = await connect();
    await declareQueue(connection.channel, name);

    const batches: Array<Array<z.infer<typeof jobSchema>>> = [];
    const consumer = await consumeBatch(
      connection.channel,
      job,
      async (payloads) => {
        batches.push(payloads);
      },
      { logger: spyLogger(), maxBatch: 100, maxWaitMs: 60_000 },
    );
    open[open.length - 1]!.consumer = consumer;

    for (let n = 0; n < 3; n += 1) await publish(connection.channel, job, { id: `p${n}`, n });
    await sendRaw(connection, name, Buffer.from('{"id":true}'));
    // Everything delivered (nothing ready), but the 60 s batch window has not closed.
    await eventually(async () => (await readyCount(connection, name)) === 0 || undefined, 'delivery to the consumer');
    const dead = await takeOne(connection, `${name}.dead`);
    expect(dead.content.toString()).toBe('{"id":true}');
    expect(batches).toEqual([]);

    const started = Date.now();
    await consumer.drain();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(batches).toEqual([
      [
        { id: 'p0', n: 0 },
        { id: 'p1', n: 1 },
        { id: 'p2', n: 2 },
      ],
    ]);

    await consumer.cancel();
    await connection.close();
    expect(await remaining([name, `${name}.retry`, `${name}.dead`])).toEqual([0, 0, 0]);
  });

  it('consumeBatch retries the messages of a failed batch one by one', async () => {
    const name = queueName('batchretry');
    const job = defineMessage(name, 1, jobSchema);
    const connection = await connect();
    await declareQueue(connection.channel, name, { retryDelayMs: 100 });

    let calls = 0;
    const settled: number[] = [];
    const consumer = await consumeBatch(
      connection.channel,
      job,
      async (payloads) => {
        calls += 1;
        if (calls === 1) throw new Error('first batch fails');
        settled.push(...payloads.map((payload) => payload.n));
      },
      { logger: spyLogger(), maxBatch: 10, maxWaitMs: 100, maxRetries: 2 },
    );
    open[open.length - 1]!.consumer = consumer;

    // Publish while the consumer's first batch window is open, so all three share it.
    await Promise.all([0, 1, 2].map((n) => publish(connection.channel, job, { id: `r${n}`, n })));
    await eventually(() => settled.length === 3 || undefined, 'the retried messages');
    await consumer.drain();
    expect(settled.sort()).toEqual([0, 1, 2]);

    await consumer.cancel();
    await connection.close();
    expect(await remaining([name, `${name}.retry`, `${name}.dead`])).toEqual([0, 0, 0]);
  });
});
