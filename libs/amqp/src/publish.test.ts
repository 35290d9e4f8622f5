import type { ConfirmChannel } from 'amqplib';
import { z } from 'zod';
import { confirmPublish, publish } from './publish';
import { ConfirmTimeoutError } from './failures';
import { defineMessage } from './message';

type Callback = (error: Error | null) => void;

function fakeChannel(behaviour: (callback: Callback) => void) {
  const published: Array<{ exchange: string; routingKey: string; content: Buffer; options: Record<string, unknown> }> = [];
  const channel = {
    publish: jest.fn((exchange: string, routingKey: string, content: Buffer, options: Record<string, unknown>, callback: Callback) => {
      published.push({ exchange, routingKey, content, options });
      behaviour(callback);
      return true;
    }),
  };
  return { channel: channel as unknown as ConfirmChannel, published };
}

describe('confirmPublish', () => {
  it('resolves on the broker confirm', async () => {
    const { channel } = fakeChannel((callback) => setImmediate(() => callback(null)));
    await expect(confirmPublish(channel, '', 'q', Buffer.from('x'), {}, 1000)).resolves.toBeUndefined();
  });

  it('rejects on a nack or a closed channel', async () => {
    const { channel } = fakeChannel((callback) => setImmediate(() => callback(new Error('message nacked'))));
    await expect(confirmPublish(channel, '', 'q', Buffer.from('x'), {}, 1000)).rejects.toThrow('message nacked');
    const closed = { publish: () => { throw new Error('Channel closed'); } } as unknown as ConfirmChannel;
    await expect(confirmPublish(closed, '', 'q', Buffer.from('x'), {}, 1000)).rejects.toThrow('Channel closed');
  });

  it('rejects with ConfirmTimeoutError when no confirm comes (a partition), and ignores a late one', async () => {
    let late: Callback | undefined;
    const { channel } = fakeChannel((callback) => (late = callback));
    const started = Date.now();
    const error = await confirmPublish(channel, '', 'q', Buffer.from('x'), {}, 80).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfirmTimeoutError);
    expect((error as ConfirmTimeoutError).timeoutMs).toBe(80);
    expect(Date.now() - started).toBeGreaterThanOrEqual(70);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(() => late?.(null)).not.toThrow();
  });
});

describe('publish', () => {
  const job = defineMessage('jobs.run', 2, z.object({ id: z.string() }));

  it('validates the payload, sets version and persistence, and strips the confirm option from the wire options', async () => {
    const { channel, published } = fakeChannel((callback) => callback(null));
    await publish(channel, job, { id: 'a', extra: 1 } as unknown as { id: string }, { confirmTimeoutMs: 50, priority: 1 });
    expect(published).toHaveLength(1);
    expect(JSON.parse(published[0]!.content.toString())).toEqual({ id: 'a' });
    expect(published[0]!.routingKey).toBe('jobs.run');
    expect(published[0]!.options).toMatchObject({ persistent: true, type: 'jobs.run', priority: 1, headers: { 'x-message-version': 2 } });
    expect(published[0]!.options).not.toHaveProperty('confirmTimeoutMs');
  });

  it('is bounded by default', async () => {
    jest.useFakeTimers();
    try {
      const { channel } = fakeChannel(() => undefined);
      const pending = publish(channel, job, { id: 'b' });
      const outcome = pending.catch((error: unknown) => error);
      jest.advanceTimersByTime(5000);
      expect(await outcome).toBeInstanceOf(ConfirmTimeoutError);
    } finally {
      jest.useRealTimers();
    }
  });
});
