import { EventEmitter } from 'node:events';
import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { z } from 'zod';
import { inMemoryMetrics, type InMemoryMetrics } from '@svc/telemetry';
import type { Logger } from '@svc/logger';
import { consume, consumeBatch } from './consume';
import { PoisonMessageError } from './failures';
import { defineMessage } from './message';

/** A channel that records acks, nacks and retry publishes; `deliver` hands the consumer a message. */
function fakeChannel() {
  const events = new EventEmitter();
  let onMessage: ((message: ConsumeMessage | null) => void) | undefined;
  let tag = 0;
  const log: string[] = [];
  const channel = Object.assign(events, {
    prefetch: jest.fn(async () => undefined),
    consume: jest.fn(async (_queue: string, callback: (message: ConsumeMessage | null) => void) => {
      onMessage = callback;
      return { consumerTag: 'ctag' };
    }),
    cancel: jest.fn(async () => undefined),
    ack: jest.fn((message: ConsumeMessage) => log.push(`ack ${message.content.toString()}`)),
    nack: jest.fn((message: ConsumeMessage, _all: boolean, requeue: boolean) => log.push(`${requeue ? 'requeue' : 'dead'} ${message.content.toString()}`)),
    publish: jest.fn((_exchange: string, _key: string, content: Buffer, options: { headers?: Record<string, unknown> }, callback: (error: Error | null) => void) => {
      log.push(`retry ${content.toString()} x-retries=${String(options.headers?.['x-retries'])}`);
      callback(null);
      return true;
    }),
  });
  const deliver = (body: unknown, headers: Record<string, unknown> = {}) => {
    tag += 1;
    onMessage?.({ content: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), fields: { deliveryTag: tag, redelivered: false }, properties: { headers } } as unknown as ConsumeMessage);
  };
  const close = () => events.emit('close');
  return { channel: channel as unknown as ConfirmChannel, deliver, close, log };
}

function spyLogger() {
  return { error: jest.fn(), warn: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger & { error: jest.Mock; warn: jest.Mock; info: jest.Mock };
}

const outage = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(probe: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const job = defineMessage('jobs', 1, z.object({ id: z.string() }));
const fast = { outageBackoff: { initialMs: 5, maxMs: 20 } };

describe('consumeBatch', () => {
  let memory: InMemoryMetrics;
  beforeEach(() => {
    memory = inMemoryMetrics();
  });
  afterEach(() => memory.stop());

  it('holds a batch through a dependency outage, however long, and never dead-letters it', async () => {
    const { channel, deliver, log } = fakeChannel();
    const logger = spyLogger();
    let down = true;
    let calls = 0;
    const consumer = await consumeBatch(channel, job, async () => {
      calls += 1;
      if (down) throw new Error('settle failed', { cause: outage() });
    }, { logger, maxBatch: 10, maxWaitMs: 5, maxRetries: 1, ...fast });
    deliver({ id: 'a' });
    deliver({ id: 'b' });
    await until(() => calls >= 20, '20 tries');
    expect(log).toEqual([]);
    down = false;
    await until(() => log.length === 2, 'the acks');
    await consumer.drain();
    expect(log).toEqual(['ack {"id":"a"}', 'ack {"id":"b"}']);
    expect(logger.error).not.toHaveBeenCalled();
    // One warning while it lasted (throttled), one line when it was over.
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.info).toHaveBeenCalledWith('handler dependency back: held messages processed', expect.objectContaining({ queue: 'jobs', messages: 2 }));
    expect(await memory.sum('svc.queue.dead_lettered')).toBe(0);
  });

  it('narrows a failing batch down to the bad message: the others are acked, it goes through the retry queue and then dead, with an error line and the metric', async () => {
    const { channel, deliver, log } = fakeChannel();
    const logger = spyLogger();
    const consumer = await consumeBatch(channel, job, async (payloads) => {
      if (payloads.some((payload) => payload.id === 'bad')) throw new Error('ERR value is not an integer or out of range');
    }, { logger, maxBatch: 10, maxWaitMs: 5, maxRetries: 2, describe: (payload) => ({ id: payload.id }), ...fast });
    deliver({ id: 'a' });
    deliver({ id: 'bad' });
    deliver({ id: 'c' });
    await until(() => log.length === 4, 'the three outcomes');
    // The retry copy is confirmed before the original is acked.
    expect(log).toEqual(['ack {"id":"a"}', 'retry {"id":"bad"} x-retries=1', 'ack {"id":"bad"}', 'ack {"id":"c"}']);
    // The retry queue brings it back after its last retry: now it is dead.
    deliver({ id: 'bad' }, { 'x-retries': 2 });
    await until(() => log.length === 5, 'the dead letter');
    await consumer.drain();
    expect(log[4]).toBe('dead {"id":"bad"}');
    expect(logger.error).toHaveBeenCalledWith('message dead-lettered', expect.objectContaining({ queue: 'jobs', reason: 'retries_exhausted', retries: 2, id: 'bad' }));
    expect(await memory.sum('svc.queue.dead_lettered', { queue: 'jobs', reason: 'retries_exhausted' })).toBe(1);
  });

  it('dead-letters an invalid payload and a PoisonMessageError at once', async () => {
    const { channel, deliver, log } = fakeChannel();
    const logger = spyLogger();
    const consumer = await consumeBatch(channel, job, async (payloads) => {
      if (payloads.some((payload) => payload.id === 'poison')) throw new PoisonMessageError('can never be settled');
    }, { logger, maxBatch: 10, maxWaitMs: 5, maxRetries: 5, ...fast });
    deliver('not json {');
    deliver({ id: 'poison' });
    await until(() => log.length === 2, 'both outcomes');
    await consumer.drain();
    expect(log).toEqual(['dead not json {', 'dead {"id":"poison"}']);
    expect(logger.error.mock.calls.map((call) => call[0])).toEqual(['message rejected: invalid payload', 'message dead-lettered']);
    expect(await memory.sum('svc.queue.dead_lettered', { queue: 'jobs', reason: 'invalid_payload' })).toBe(1);
    expect(await memory.sum('svc.queue.dead_lettered', { queue: 'jobs', reason: 'poison' })).toBe(1);
  });

  it('hands a held batch back to the broker when cancelled (shutdown during an outage)', async () => {
    const { channel, deliver, log } = fakeChannel();
    const consumer = await consumeBatch(channel, job, async () => {
      throw outage();
    }, { logger: spyLogger(), maxBatch: 10, maxWaitMs: 5, outageBackoff: { initialMs: 60_000, maxMs: 60_000 } });
    deliver({ id: 'a' });
    await sleep(50);
    const started = Date.now();
    await consumer.cancel();
    await consumer.drain();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(log).toEqual(['requeue {"id":"a"}']);
  });

  it('stops touching a channel that closed (the broker redelivers to the next consumer)', async () => {
    const { channel, deliver, close, log } = fakeChannel();
    let calls = 0;
    const consumer = await consumeBatch(channel, job, async () => {
      calls += 1;
      throw outage();
    }, { logger: spyLogger(), maxBatch: 10, maxWaitMs: 5, ...fast });
    deliver({ id: 'a' });
    await until(() => calls >= 2, 'tries');
    close();
    await consumer.drain();
    const after = calls;
    await sleep(50);
    expect(calls).toBe(after);
    expect(log).toEqual([]);
  });

  it('counts a handler that hangs past its time limit as an outage', async () => {
    const { channel, deliver, log } = fakeChannel();
    let calls = 0;
    const consumer = await consumeBatch(channel, job, async () => {
      calls += 1;
      if (calls === 1) await new Promise(() => undefined);
    }, { logger: spyLogger(), maxBatch: 10, maxWaitMs: 5, handlerTimeoutMs: 30, ...fast });
    deliver({ id: 'a' });
    await until(() => log.length === 1, 'the ack');
    await consumer.drain();
    expect(calls).toBe(2);
    expect(log).toEqual(['ack {"id":"a"}']);
  });
});

describe('consume', () => {
  it('holds a message through an outage, then acks it', async () => {
    const memory = inMemoryMetrics();
    const { channel, deliver, log } = fakeChannel();
    let calls = 0;
    const consumer = await consume(channel, job, async () => {
      calls += 1;
      if (calls < 4) throw outage();
    }, { logger: spyLogger(), maxRetries: 0, ...fast });
    deliver({ id: 'a' });
    await until(() => log.length === 1, 'the ack');
    await consumer.drain();
    expect(log).toEqual(['ack {"id":"a"}']);
    expect(await memory.sum('svc.queue.dead_lettered')).toBe(0);
    await memory.stop();
  });

  it('uses a custom outage test', async () => {
    const { channel, deliver, log } = fakeChannel();
    let calls = 0;
    const consumer = await consume(channel, job, async () => {
      calls += 1;
      if (calls < 3) throw new Error('database is starting up');
    }, { logger: spyLogger(), maxRetries: 0, isOutage: (error) => error instanceof Error && error.message.includes('starting up'), ...fast });
    deliver({ id: 'a' });
    await until(() => log.length === 1, 'the ack');
    await consumer.drain();
    expect(log).toEqual(['ack {"id":"a"}']);
  });
});
