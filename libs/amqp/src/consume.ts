import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { context, propagation, trace, SpanKind, SpanStatusCode, type Context, type Span } from '@opentelemetry/api';
import type { z } from 'zod';
import { throttledWarning, type Logger } from '@svc/logger';
import type { MessageDefinition } from './message';
import { RETRY_EXCHANGE } from './topology';
import { confirmPublish, DEFAULT_CONFIRM_TIMEOUT_MS } from './publish';
import { recordDeadLetter, type DeadLetterReason } from './metrics';
import { backoffDelay, HandlerTimeoutError, isConnectionError, PoisonMessageError, Sleeper, type BackoffOptions } from './failures';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ConsumeOptions<P = any> {
  logger: Logger;
  prefetch?: number;
  /** Tries through the retry queue, after the first, before a failing (non-outage) message goes to the dead queue. */
  maxRetries?: number;
  /**
   * Is this handler error an outage of something the handler depends on? Then the message is
   * held (unacked) and the handler tried again with backoff for as long as the outage lasts; it
   * is never dead-lettered for it. Default: isConnectionError (network-level failures).
   */
  isOutage?: (error: unknown) => boolean;
  /** Waits between tries during an outage (default 250 ms doubling up to 3 s). */
  outageBackoff?: BackoffOptions;
  /** A handler still running after this long counts as an outage (a hung connection) and is tried again. Unset: no limit. */
  handlerTimeoutMs?: number;
  /** Fields that identify a message in log lines (ids only, never content), e.g. its call_id. */
  describe?: (payload: P) => Record<string, unknown>;
  /** Called when the broker cancels the consumer (its queue was deleted); the reconnecting client subscribes again. */
  onBrokerCancel?: () => void;
}

export interface Consumer {
  /** Stops taking messages; a batch held by an outage is handed back to the broker at its next try. */
  cancel(): Promise<void>;
  /** Resolves when every message taken so far has been acked or handed back. */
  drain(): Promise<void>;
}

export interface BatchConsumeOptions<P = unknown> extends ConsumeOptions<P> {
  maxBatch?: number;
  maxWaitMs?: number;
}

interface Item<P> {
  message: ConsumeMessage;
  payload: P;
  span: Span;
}

function retriesOf(message: ConsumeMessage): number {
  const value = message.properties.headers?.['x-retries'];
  return typeof value === 'number' ? value : 0;
}

function parentContext(message: ConsumeMessage): Context {
  return propagation.extract(context.active(), message.properties.headers ?? {});
}

/**
 * One consumer on one channel. Acks, nacks and publishes go through it so that a channel that
 * closed (the connection dropped) is never written to: the broker redelivers what was unacked,
 * to the consumer the reconnecting client subscribes on the next channel.
 */
class Session<P> {
  open = true;
  stopping = false;
  readonly sleeper = new Sleeper();
  readonly outageWarning: (error: unknown, fields?: Record<string, unknown>) => void;
  readonly isOutage: (error: unknown) => boolean;

  constructor(
    readonly channel: ConfirmChannel,
    readonly queue: string,
    readonly options: ConsumeOptions<P>,
  ) {
    this.isOutage = options.isOutage ?? isConnectionError;
    this.outageWarning = throttledWarning(options.logger, 'handler dependency unavailable: holding messages and trying again', { intervalMs: 10_000 });
    channel.once('close', () => {
      this.open = false;
      this.sleeper.wakeAll();
    });
  }

  describe(payload: P): Record<string, unknown> {
    try {
      return this.options.describe?.(payload) ?? {};
    } catch {
      return {};
    }
  }

  ack(message: ConsumeMessage): boolean {
    if (!this.open) return false;
    try {
      this.channel.ack(message);
      return true;
    } catch {
      return false;
    }
  }

  nack(message: ConsumeMessage, requeue: boolean): boolean {
    if (!this.open) return false;
    try {
      this.channel.nack(message, false, requeue);
      return true;
    } catch {
      return false;
    }
  }

  async cancel(consumerTag: string): Promise<void> {
    this.stopping = true;
    this.sleeper.wakeAll();
    if (!this.open) return;
    await this.channel.cancel(consumerTag).catch(() => undefined);
  }

  /** Sends a message to its dead queue (the queue's dead-letter exchange), with an error-level log line and the metric. */
  deadLetter(item: Item<P> | { message: ConsumeMessage; payload?: undefined }, reason: DeadLetterReason, error: unknown): boolean {
    if (!this.nack(item.message, false)) return false;
    recordDeadLetter(this.queue, reason);
    if (reason !== 'invalid_payload') {
      this.options.logger.error('message dead-lettered', {
        queue: this.queue,
        reason,
        retries: retriesOf(item.message),
        ...(item.payload === undefined ? {} : this.describe(item.payload)),
        err: error,
      });
    }
    return true;
  }
}

/** Parses a delivery into an item with its CONSUMER span, or dead-letters it (invalid payload). */
function receive<S extends z.ZodType>(session: Session<z.infer<S>>, definition: MessageDefinition<S>, message: ConsumeMessage): Item<z.infer<S>> | undefined {
  const tracer = trace.getTracer('@svc/amqp');
  const span = tracer.startSpan(
    `${definition.name} process`,
    { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'rabbitmq', 'messaging.destination.name': definition.name, 'messaging.operation.type': 'process' } },
    parentContext(message),
  );
  const parsed = (() => {
    try {
      return definition.schema.safeParse(JSON.parse(message.content.toString()));
    } catch {
      return undefined;
    }
  })();
  if (!parsed?.success) {
    session.options.logger.error('message rejected: invalid payload', { queue: definition.name, issues: parsed?.error.issues.slice(0, 3) ?? [] });
    session.deadLetter({ message }, 'invalid_payload', undefined);
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'invalid payload; dead-lettered' });
    span.end();
    return undefined;
  }
  return { message, payload: parsed.data, span };
}

function withHandlerTimeout(work: Promise<void>, timeoutMs: number | undefined): Promise<void> {
  if (!timeoutMs || timeoutMs <= 0) return work;
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new HandlerTimeoutError(timeoutMs)), timeoutMs);
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A failed message that is not held by an outage: the retry queue (bounded), or the dead queue. */
async function failOne<P>(session: Session<P>, item: Item<P>, error: unknown): Promise<void> {
  const maxRetries = session.options.maxRetries ?? 5;
  const retries = retriesOf(item.message);
  let outcome: 'retried' | 'dead' | 'requeued' | 'abandoned';
  if (error instanceof PoisonMessageError || retries >= maxRetries) {
    outcome = session.deadLetter(item, error instanceof PoisonMessageError ? 'poison' : 'retries_exhausted', error) ? 'dead' : 'abandoned';
  } else if (!session.open) {
    outcome = 'abandoned';
  } else {
    // The original is acked only after the broker confirmed the retry copy, so nothing is lost.
    try {
      const headers = { ...(item.message.properties.headers ?? {}), 'x-retries': retries + 1 };
      await confirmPublish(session.channel, RETRY_EXCHANGE, session.queue, item.message.content, { ...item.message.properties, headers }, DEFAULT_CONFIRM_TIMEOUT_MS);
      session.ack(item.message);
      outcome = 'retried';
    } catch {
      outcome = session.nack(item.message, true) ? 'requeued' : 'abandoned';
    }
  }
  item.span.setStatus({ code: SpanStatusCode.ERROR, message: `handler failed; message ${outcome}` });
  item.span.end();
  session.options.logger.warn('message handler failed', { queue: session.queue, outcome, ...session.describe(item.payload), err: error });
}

/**
 * Runs the handler over `items` until each is acked, sent to the retry or dead queue, or handed
 * back. An outage holds them and tries again with backoff (for as long as it lasts; a stopping
 * consumer hands them back instead). Any other failure of several messages is narrowed down by
 * trying them one at a time, so one bad record never holds the others.
 */
async function processItems<P>(session: Session<P>, items: Array<Item<P>>, invoke: (items: Array<Item<P>>) => Promise<void>): Promise<void> {
  const { logger } = session.options;
  let tries = 0;
  let heldSince: number | undefined;
  for (;;) {
    if (!session.open) {
      // The broker redelivers unacked messages once a consumer is back.
      for (const item of items) {
        item.span.setStatus({ code: SpanStatusCode.ERROR, message: 'channel closed; the broker redelivers' });
        item.span.end();
      }
      return;
    }
    try {
      await withHandlerTimeout(invoke(items), session.options.handlerTimeoutMs);
      for (const item of items) {
        session.ack(item.message);
        item.span.end();
      }
      if (heldSince !== undefined) logger.info('handler dependency back: held messages processed', { queue: session.queue, messages: items.length, held_ms: Date.now() - heldSince, tries: tries + 1 });
      return;
    } catch (error) {
      if (session.isOutage(error)) {
        if (session.stopping) {
          for (const item of items) {
            session.nack(item.message, true);
            item.span.setStatus({ code: SpanStatusCode.ERROR, message: 'dependency unavailable while stopping; handed back' });
            item.span.end();
          }
          return;
        }
        heldSince ??= Date.now();
        session.outageWarning(error, { queue: session.queue, messages: items.length, tries: tries + 1, held_ms: Date.now() - heldSince });
        await session.sleeper.sleep(backoffDelay(tries, session.options.outageBackoff));
        tries += 1;
        continue;
      }
      if (items.length > 1) {
        logger.warn('batch handler failed; trying its messages one by one', { queue: session.queue, size: items.length, err: error });
        for (const item of items) await processItems(session, [item], invoke);
        return;
      }
      await failOne(session, items[0]!, error);
      return;
    }
  }
}

/** Consumes the queue: every valid delivery becomes an item for `onItem`; a broker cancel is reported. */
async function subscribe<S extends z.ZodType>(channel: ConfirmChannel, definition: MessageDefinition<S>, session: Session<z.infer<S>>, options: ConsumeOptions<z.infer<S>>, onItem: (item: Item<z.infer<S>>) => void): Promise<string> {
  const { consumerTag } = await channel.consume(definition.name, (message) => {
    if (!message) {
      options.logger.warn('consumer cancelled by the broker', { queue: definition.name });
      options.onBrokerCancel?.();
      return;
    }
    const item = receive(session, definition, message);
    if (item) onItem(item);
  });
  return consumerTag;
}

/**
 * Consumes one message at a time per delivery (up to `prefetch` in flight) and acks after the
 * handler finished. A dependency outage holds the message and retries it with backoff; another
 * failure goes through the retry queue (bounded by maxRetries), then to the dead queue; an
 * invalid payload goes to the dead queue at once. Every dead letter is logged at error level
 * and counted (svc.queue.dead_lettered).
 */
export async function consume<S extends z.ZodType>(channel: ConfirmChannel, definition: MessageDefinition<S>, handler: (payload: z.infer<S>, message: ConsumeMessage) => Promise<void>, options: ConsumeOptions<z.infer<S>>): Promise<Consumer> {
  const session = new Session<z.infer<S>>(channel, definition.name, options);
  const inFlight = new Set<Promise<void>>();
  const invoke = ([item]: Array<Item<z.infer<S>>>) => context.with(trace.setSpan(context.active(), item!.span), () => handler(item!.payload, item!.message));
  await channel.prefetch(options.prefetch ?? 16);
  const consumerTag = await subscribe(channel, definition, session, options, (item) => {
    const work = processItems(session, [item], invoke);
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  return {
    cancel: () => session.cancel(consumerTag),
    drain: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * Consumes in batches: collects up to `maxBatch` messages or `maxWaitMs`, hands them to the
 * handler together, then acks them all. A dependency outage holds the batch and tries it again
 * with backoff for as long as it lasts (new deliveries wait behind it, up to the prefetch); any
 * other failure tries the batch's messages one by one, so one bad record never blocks the
 * others: a message that still fails goes through the retry queue, then to the dead queue.
 * Handlers must be idempotent (a redelivery may repeat part of a batch).
 *
 * Each message gets a CONSUMER span whose parent is the trace context in its headers, open
 * from delivery to ack (or retry). The handler runs inside the first message's span, so its
 * own spans (the database write) join that message's trace; the other messages' spans link
 * to it.
 */
export async function consumeBatch<S extends z.ZodType>(channel: ConfirmChannel, definition: MessageDefinition<S>, handler: (payloads: Array<z.infer<S>>) => Promise<void>, options: BatchConsumeOptions<z.infer<S>>): Promise<Consumer> {
  const maxBatch = options.maxBatch ?? 200;
  const maxWaitMs = options.maxWaitMs ?? 20;
  const session = new Session<z.infer<S>>(channel, definition.name, options);
  let pending: Array<Item<z.infer<S>>> = [];
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();

  const invoke = (items: Array<Item<z.infer<S>>>) => context.with(trace.setSpan(context.active(), items[0]!.span), () => handler(items.map((item) => item.payload)));

  channel.once('close', () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    for (const item of pending) {
      item.span.setStatus({ code: SpanStatusCode.ERROR, message: 'channel closed; the broker redelivers' });
      item.span.end();
    }
    pending = [];
  });

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return running;
    running = running.then(async () => {
      const lead = batch[0]!.span;
      for (const item of batch) {
        item.span.setAttribute('messaging.batch.message_count', batch.length);
        if (item.span !== lead) item.span.addLink({ context: lead.spanContext() });
      }
      await processItems(session, batch, invoke).catch((error: unknown) => options.logger.error('batch consumer failed', { queue: definition.name, err: error }));
    });
    return running;
  };

  await channel.prefetch(maxBatch * 2);
  const consumerTag = await subscribe(channel, definition, session, options, (item) => {
    pending.push(item);
    if (pending.length >= maxBatch) void flush();
    else if (!timer) timer = setTimeout(() => void flush(), maxWaitMs);
  });
  return {
    cancel: () => session.cancel(consumerTag),
    drain: async () => {
      await flush();
      await running;
    },
  };
}
