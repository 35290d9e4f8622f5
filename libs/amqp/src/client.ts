import amqp, { type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import type { z } from 'zod';
import type { Logger } from '@svc/logger';
import type { MessageDefinition } from './message';
import { declareQueue, type QueueOptions } from './topology';
import { DEFAULT_CONFIRM_TIMEOUT_MS, publish, type PublishOptions } from './publish';
import { consume, consumeBatch, type BatchConsumeOptions, type ConsumeOptions, type Consumer } from './consume';
import { AmqpUnavailableError, backoffDelay, Sleeper, type BackoffOptions } from './failures';
import { coalesceWrites, socketOf } from './coalesce';

export interface AmqpConnection {
  connection: ChannelModel;
  channel: ConfirmChannel;
  close(): Promise<void>;
}

/**
 * One connection and confirm channel, not reconnected (scripts, tests, the admin CLI). Services
 * use createAmqpClient, which reconnects.
 */
export async function connectAmqp(url: string, onClose?: (error?: unknown) => void): Promise<AmqpConnection> {
  const connection = await amqp.connect(url);
  const socket = socketOf(connection);
  if (socket) coalesceWrites(socket);
  const channel = await connection.createConfirmChannel();
  let closing = false;
  connection.on('close', (error) => {
    if (!closing) onClose?.(error);
  });
  connection.on('error', () => undefined);
  channel.on('error', () => undefined);
  return {
    connection,
    channel,
    async close() {
      closing = true;
      await channel.close().catch(() => undefined);
      await connection.close().catch(() => undefined);
    },
  };
}

export interface AmqpClientOptions {
  url: string;
  logger: Logger;
  /** Shown by the broker as the connection's name (rabbitmqctl list_connections client_properties). */
  name?: string;
  /** Queues (and their retry and dead queues) declared on every connect. Consumers declare their own. */
  queues?: Array<string | { name: string; options?: QueueOptions }>;
  /** Waits between connection attempts (default 250 ms doubling up to 3 s: a broker that is back is reconnected to within seconds). */
  reconnect?: BackoffOptions;
  /** Default confirm wait of publish() (5 s). */
  confirmTimeoutMs?: number;
  /** AMQP heartbeat: a silent broker (a partition) is noticed after about twice this (default 10 s). */
  heartbeatSeconds?: number;
  /** Time limit of the TCP connect and AMQP handshake (default 5 s). */
  connectTimeoutMs?: number;
}

export interface ManagedConsumer extends Consumer {
  readonly queue: string;
}

/**
 * The one connection every publisher and consumer of a process uses: a confirm channel that is
 * re-opened after a broker restart or a lost connection, with backoff, forever (never exits the
 * process). On every connect it declares the topology again and subscribes every consumer again;
 * messages that were unacked when the connection dropped are redelivered by the broker.
 */
export interface AmqpClient {
  /** Connected, topology declared, every consumer subscribed. */
  isReady(): boolean;
  /** Resolves once ready (at once if ready); with a time limit, rejects with AmqpUnavailableError after it. */
  waitReady(timeoutMs?: number): Promise<void>;
  /** The current confirm channel; undefined while reconnecting. */
  channel(): ConfirmChannel | undefined;
  /** A separate channel on the current connection (for checks that may fail and close their channel). */
  createChannel(): Promise<Channel>;
  /** Declares a queue now (when connected) and on every later connect. */
  declare(name: string, options?: QueueOptions): Promise<void>;
  /**
   * Publishes with a bounded confirm wait. Rejects at once with AmqpUnavailableError while not
   * connected or while the broker blocks publishers; with ConfirmTimeoutError after the wait.
   */
  publish<S extends z.ZodType>(definition: MessageDefinition<S>, payload: z.infer<S>, options?: PublishOptions): Promise<void>;
  consume<S extends z.ZodType>(definition: MessageDefinition<S>, handler: (payload: z.infer<S>, message: ConsumeMessage) => Promise<void>, options: ConsumeOptions<z.infer<S>> & { queue?: QueueOptions }): ManagedConsumer;
  consumeBatch<S extends z.ZodType>(definition: MessageDefinition<S>, handler: (payloads: Array<z.infer<S>>) => Promise<void>, options: BatchConsumeOptions<z.infer<S>> & { queue?: QueueOptions }): ManagedConsumer;
  /** Stops reconnecting and closes the connection (cancel and drain consumers first). */
  close(): Promise<void>;
}

interface Subscription {
  queue: string;
  cancelled: boolean;
  current: Consumer | undefined;
  /** The channel `current` consumes on. */
  channel: ConfirmChannel | undefined;
  start(channel: ConfirmChannel): Promise<Consumer>;
}

interface Live {
  connection: ChannelModel;
  channel: ConfirmChannel;
  generation: number;
}

/**
 * Closes a connection without waiting on a broker that no longer answers: after `timeoutMs` its
 * socket is destroyed (amqplib then fails whatever was pending on it).
 */
async function closeConnection(connection: ChannelModel, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const destroyed = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      destroySocket(connection);
      resolve();
    }, timeoutMs);
  });
  try {
    await Promise.race([connection.close().catch(() => undefined), destroyed]);
  } finally {
    clearTimeout(timer);
  }
}

function destroySocket(connection: ChannelModel): void {
  try {
    (connection as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  } catch {
    // already gone
  }
}

/** The URL with a heartbeat, unless it names one. */
function withHeartbeat(url: string, seconds: number): string {
  try {
    const parsed = new URL(url);
    if (!parsed.searchParams.has('heartbeat')) parsed.searchParams.set('heartbeat', String(seconds));
    return parsed.toString();
  } catch {
    return url;
  }
}

export function createAmqpClient(options: AmqpClientOptions): AmqpClient {
  const { logger } = options;
  const url = withHeartbeat(options.url, options.heartbeatSeconds ?? 10);
  const queues = new Map<string, QueueOptions | undefined>();
  for (const queue of options.queues ?? []) {
    if (typeof queue === 'string') queues.set(queue, undefined);
    else queues.set(queue.name, queue.options);
  }
  const subscriptions: Subscription[] = [];
  const sleeper = new Sleeper();
  let live: Live | undefined;
  let generation = 0;
  let closed = false;
  let blocked: string | undefined;
  let connecting: Promise<void> | undefined;
  let connectAgain = false;
  let waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  // Declarations and subscriptions on a channel run one at a time (prefetch applies to the next consume).
  let serial: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(work: () => Promise<T>): Promise<T> => {
    const next = serial.then(work, work);
    serial = next.catch(() => undefined);
    return next;
  };

  const lost = (gen: number, error: unknown) => {
    if (live?.generation !== gen) return;
    const was = live;
    live = undefined;
    blocked = undefined;
    if (closed) return;
    logger.warn('amqp connection lost; reconnecting', { connection: options.name, err: error });
    void closeConnection(was.connection, 1000);
    scheduleConnect();
  };

  const attach = async (subscription: Subscription, channel: ConfirmChannel) => {
    if (subscription.cancelled || subscription.channel === channel) return;
    subscription.current = await subscription.start(channel);
    subscription.channel = channel;
  };

  const connectOnce = async (): Promise<void> => {
    const gen = ++generation;
    const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    const connection = await amqp.connect(url, { timeout: connectTimeoutMs, clientProperties: { connection_name: options.name ?? 'svc' } });
    // Publishes, acks and confirms' replies of one event-loop turn in one socket write.
    const socket = socketOf(connection);
    if (socket) coalesceWrites(socket);
    // A broker that stops answering half way through the set-up: dropping the socket fails what is pending.
    const setupTimer = setTimeout(() => destroySocket(connection), connectTimeoutMs * 3);
    try {
      connection.on('error', () => undefined);
      connection.on('close', (error?: unknown) => lost(gen, error ?? new Error('connection closed')));
      connection.on('blocked', (reason: string) => {
        if (live?.generation !== gen) return;
        blocked = reason || 'blocked';
        logger.warn('amqp connection blocked by the broker; publishes fail until it unblocks', { connection: options.name, reason });
      });
      connection.on('unblocked', () => {
        if (live?.generation !== gen) return;
        blocked = undefined;
        logger.info('amqp connection unblocked', { connection: options.name });
      });
      const channel = await connection.createConfirmChannel();
      channel.on('error', () => undefined);
      // A channel the broker closed (an error on it) is replaced with its connection.
      channel.on('close', () => lost(gen, new Error('channel closed')));
      await inOrder(async () => {
        for (const [name, queueOptions] of queues) await declareQueue(channel, name, queueOptions);
        for (const subscription of subscriptions) await attach(subscription, channel);
        if (closed) throw new AmqpUnavailableError('amqp client closed');
        // Set inside the serial section: a consumer added from now on attaches to this channel itself.
        live = { connection, channel, generation: gen };
      });
    } catch (error) {
      await closeConnection(connection, 1000);
      throw error;
    } finally {
      clearTimeout(setupTimer);
    }
  };

  const connectLoop = async (): Promise<void> => {
    const startedAt = Date.now();
    for (let attempt = 0; !closed; attempt += 1) {
      try {
        await connectOnce();
        logger.info('amqp connected', { connection: options.name, attempts: attempt + 1, waited_ms: Date.now() - startedAt });
        const ready = waiters;
        waiters = [];
        for (const waiter of ready) waiter.resolve();
        return;
      } catch (error) {
        if (closed) return;
        const delayMs = backoffDelay(attempt, { initialMs: options.reconnect?.initialMs ?? 250, maxMs: options.reconnect?.maxMs ?? 3_000 });
        // Every attempt while it is young, then one line in ten.
        if (attempt < 5 || attempt % 10 === 0) logger.warn('amqp connect failed; retrying', { connection: options.name, attempt: attempt + 1, retry_in_ms: delayMs, err: error });
        await sleeper.sleep(delayMs);
      }
    }
  };

  function scheduleConnect(): void {
    if (closed) return;
    if (connecting) {
      // Lost again before the loop that connected has returned: go again when it has.
      connectAgain = true;
      return;
    }
    connecting = connectLoop().finally(() => {
      connecting = undefined;
      if (connectAgain && !live) {
        connectAgain = false;
        scheduleConnect();
      }
      connectAgain = false;
    });
  }

  const subscribe = (queue: string, queueOptions: QueueOptions | undefined, start: (channel: ConfirmChannel) => Promise<Consumer>): ManagedConsumer => {
    if (!queues.has(queue) || queueOptions) queues.set(queue, queueOptions ?? queues.get(queue));
    const subscription: Subscription = { queue, cancelled: false, current: undefined, channel: undefined, start };
    subscriptions.push(subscription);
    // Connected: subscribe now. Otherwise the next connect subscribes it with the others.
    void inOrder(async () => {
      const now = live;
      if (!now || subscription.channel === now.channel) return;
      try {
        await declareQueue(now.channel, queue, queues.get(queue));
        await attach(subscription, now.channel);
      } catch (error) {
        logger.warn('amqp subscribe failed; reconnecting', { queue, err: error });
        lost(now.generation, error);
      }
    });
    return {
      queue,
      cancel: async () => {
        subscription.cancelled = true;
        const index = subscriptions.indexOf(subscription);
        if (index >= 0) subscriptions.splice(index, 1);
        await subscription.current?.cancel();
      },
      drain: async () => {
        await subscription.current?.drain();
      },
    };
  };

  scheduleConnect();

  return {
    isReady: () => live !== undefined,
    waitReady: (timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        if (live) return resolve();
        if (closed) return reject(new AmqpUnavailableError('amqp client closed'));
        let timer: NodeJS.Timeout | undefined;
        const waiter = {
          resolve: () => {
            if (timer) clearTimeout(timer);
            resolve();
          },
          reject: (error: Error) => {
            if (timer) clearTimeout(timer);
            reject(error);
          },
        };
        waiters.push(waiter);
        if (timeoutMs !== undefined) {
          timer = setTimeout(() => {
            waiters = waiters.filter((other) => other !== waiter);
            reject(new AmqpUnavailableError(`amqp not connected within ${timeoutMs} ms`));
          }, timeoutMs);
        }
      }),
    channel: () => live?.channel,
    createChannel: async () => {
      if (!live) throw new AmqpUnavailableError('amqp not connected');
      return live.connection.createChannel();
    },
    declare: async (name, queueOptions) => {
      queues.set(name, queueOptions);
      const now = live;
      if (now) await inOrder(() => declareQueue(now.channel, name, queueOptions));
    },
    publish: async (definition, payload, publishOptions = {}) => {
      if (!live) throw new AmqpUnavailableError('amqp not connected (reconnecting)');
      if (blocked) throw new AmqpUnavailableError(`amqp connection blocked by the broker: ${blocked}`);
      await publish(live.channel, definition, payload, { confirmTimeoutMs: options.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS, ...publishOptions });
    },
    consume: (definition, handler, consumeOptions) => {
      const { queue, ...rest } = consumeOptions;
      return subscribe(definition.name, queue, (channel) => consume(channel, definition, handler, { ...rest, onBrokerCancel: () => recycle(channel) }));
    },
    consumeBatch: (definition, handler, consumeOptions) => {
      const { queue, ...rest } = consumeOptions;
      return subscribe(definition.name, queue, (channel) => consumeBatch(channel, definition, handler, { ...rest, onBrokerCancel: () => recycle(channel) }));
    },
    close: async () => {
      closed = true;
      sleeper.wakeAll();
      const was = live;
      live = undefined;
      const pending = waiters;
      waiters = [];
      for (const waiter of pending) waiter.reject(new AmqpUnavailableError('amqp client closed'));
      if (was) await closeConnection(was.connection, 2000);
      await connecting;
    },
  };

  /** A consumer the broker cancelled (its queue was deleted): start over on a new connection, which declares it again. */
  function recycle(channel: ConfirmChannel): void {
    if (live?.channel === channel) lost(live.generation, new Error('consumer cancelled by the broker'));
  }
}
