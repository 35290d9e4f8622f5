import type { AmqpConnection } from '@svc/amqp';
import type { Logger } from '@svc/logger';
import { svcMetrics } from '@svc/telemetry';

export const QUEUE_POLL_INTERVAL_MS = 5000;

type Connection = Pick<AmqpConnection['connection'], 'createChannel'>;
type Channel = Awaited<ReturnType<Connection['createChannel']>>;

export interface QueueDepthWatch {
  /** Polls once now (the timer keeps polling on its own). */
  poll(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * svc.queue.depth for `queues`: messages ready in each, read with checkQueue every
 * `intervalMs` on a channel of its own (a failed check closes its channel, and the consuming
 * channel must not go with it). A scrape reports the last successful reading (a failed check
 * is logged once, until a check succeeds again).
 */
export function watchQueueDepth(connection: Connection, queues: string[], options: { logger: Pick<Logger, 'warn'>; intervalMs?: number }): QueueDepthWatch {
  const depths = new Map<string, number>();
  let channel: Channel | undefined;
  let running: Promise<void> | undefined;
  let failing = false;
  let stopped = false;

  const open = async (): Promise<Channel> => {
    const opened = await connection.createChannel();
    opened.on('error', () => undefined);
    opened.on('close', () => {
      if (channel === opened) channel = undefined;
    });
    channel = opened;
    return opened;
  };

  const check = async (): Promise<void> => {
    try {
      const current = channel ?? (await open());
      for (const queue of queues) depths.set(queue, (await current.checkQueue(queue)).messageCount);
      failing = false;
    } catch (error) {
      if (!failing) options.logger.warn('queue depth check failed; svc.queue.depth keeps its last reading until a check succeeds', { queues, err: error });
      failing = true;
    }
  };
  // One check at a time: a slow broker does not pile up checks.
  const poll = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    running ??= check().finally(() => (running = undefined));
    return running;
  };

  const gauge = svcMetrics().queueDepth;
  const observe = (result: { observe(value: number, attributes: { queue: string }): void }) => {
    for (const [queue, depth] of depths) result.observe(depth, { queue });
  };
  gauge.addCallback(observe);
  const timer = setInterval(() => void poll(), options.intervalMs ?? QUEUE_POLL_INTERVAL_MS);
  timer.unref();
  void poll();

  return {
    poll,
    async stop() {
      stopped = true;
      clearInterval(timer);
      gauge.removeCallback(observe);
      await running;
      await channel?.close().catch(() => undefined);
      channel = undefined;
    },
  };
}

/** svc.queue.job_age_ms: for each record taken from `queue`, now minus the time its call happened. */
export function recordJobAges(queue: string, records: Array<{ occurred_at_ms: number }>, now = Date.now()): void {
  const histogram = svcMetrics().jobAgeMs;
  for (const record of records) histogram.record(Math.max(0, now - record.occurred_at_ms), { queue });
}
