import { EventEmitter } from 'node:events';
import { inMemoryMetrics, type InMemoryMetrics } from '@svc/telemetry';
import { recordJobAges, watchQueueDepth } from './queue-metrics';

/** A connection whose channels answer checkQueue from `depths`; an unknown queue fails and closes the channel, as the broker does. */
function fakeConnection(depths: Map<string, number>) {
  const channels: Array<EventEmitter & { closed: boolean }> = [];
  const connection = {
    channels,
    async createChannel() {
      const channel = Object.assign(new EventEmitter(), {
        closed: false,
        async checkQueue(queue: string) {
          const depth = depths.get(queue);
          if (depth === undefined) {
            channel.closed = true;
            channel.emit('error', new Error(`NOT_FOUND - no queue '${queue}'`));
            channel.emit('close');
            throw new Error(`NOT_FOUND - no queue '${queue}'`);
          }
          return { queue, messageCount: depth, consumerCount: 1 };
        },
        async close() {
          channel.closed = true;
        },
      });
      channels.push(channel);
      return channel;
    },
  };
  return connection;
}

describe('watchQueueDepth', () => {
  let memory: InMemoryMetrics;
  beforeEach(() => {
    memory = inMemoryMetrics();
  });
  afterEach(() => memory.stop());

  it('reports the last depth of each queue, on a channel of its own', async () => {
    const depths = new Map([['usage.settle', 3], ['usage.settle.dead', 0]]);
    const connection = fakeConnection(depths);
    const warn = jest.fn();
    const watch = watchQueueDepth(connection as never, ['usage.settle', 'usage.settle.dead'], { logger: { warn }, intervalMs: 60_000 });
    await watch.poll();
    expect(await memory.sum('svc.queue.depth', { queue: 'usage.settle' })).toBe(3);
    expect(await memory.sum('svc.queue.depth', { queue: 'usage.settle.dead' })).toBe(0);
    depths.set('usage.settle', 11);
    await watch.poll();
    expect(await memory.sum('svc.queue.depth', { queue: 'usage.settle' })).toBe(11);
    expect(connection.channels).toHaveLength(1);
    await watch.stop();
    expect(connection.channels[0]!.closed).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns once while checks fail, keeps the last reading, and recovers on a new channel', async () => {
    const depths = new Map([['usage.settle', 2]]);
    const connection = fakeConnection(depths);
    const warn = jest.fn();
    const watch = watchQueueDepth(connection as never, ['usage.settle', 'missing'], { logger: { warn }, intervalMs: 60_000 });
    await watch.poll();
    await watch.poll();
    expect((await memory.points('svc.queue.depth')).map((point) => point.attributes)).toEqual([{ queue: 'usage.settle' }]);
    expect(warn).toHaveBeenCalledTimes(1);
    depths.set('missing', 5);
    await watch.poll();
    expect(await memory.sum('svc.queue.depth', { queue: 'missing' })).toBe(5);
    expect(connection.channels.length).toBeGreaterThan(1);
    depths.delete('missing');
    depths.set('usage.settle', 9);
    await watch.poll();
    expect(await memory.sum('svc.queue.depth', { queue: 'usage.settle' })).toBe(9);
    expect(await memory.sum('svc.queue.depth', { queue: 'missing' })).toBe(5);
    expect(warn).toHaveBeenCalledTimes(2);
    await watch.stop();
  });
});

describe('recordJobAges', () => {
  it('records now minus each record occurred_at, never below 0', async () => {
    const memory = inMemoryMetrics();
    recordJobAges('usage.settle', [{ occurred_at_ms: 1_000 }, { occurred_at_ms: 1_400 }, { occurred_at_ms: 9_000 }], 2_000);
    expect(await memory.histogram('svc.queue.job_age_ms', { queue: 'usage.settle' })).toMatchObject({ count: 3, sum: 1_000 + 600 + 0 });
    await memory.stop();
  });
});
