import amqp, { type ChannelModel, type ConfirmChannel, type ConsumeMessage, type Options } from 'amqplib';
import { context, propagation, trace, SpanKind, SpanStatusCode, type Context, type Span } from '@opentelemetry/api';
import type { z } from 'zod';
import type { Logger } from '@svc/logger';

/**
 * One definition per message type: its name in noun.verb form (also the queue name),
 * a version and a zod schema. Publishers and consumers share the definition, so the wire
 * shape has one source of truth.
 */
export interface MessageDefinition<S extends z.ZodType> {
  name: string;
  version: number;
  schema: S;
}

export function defineMessage<S extends z.ZodType>(name: string, version: number, schema: S): MessageDefinition<S> {
  return { name, version, schema };
}

export const DEAD_LETTER_EXCHANGE = 'svc.dlx';
export const RETRY_EXCHANGE = 'svc.retry';

export interface AmqpConnection {
  connection: ChannelModel;
  channel: ConfirmChannel;
  close(): Promise<void>;
}

/** Connects and opens a confirm channel (publishes resolve only once the broker has the message). */
export async function connectAmqp(url: string, onClose?: (error?: unknown) => void): Promise<AmqpConnection> {
  const connection = await amqp.connect(url);
  const channel = await connection.createConfirmChannel();
  let closing = false;
  connection.on('close', (error) => {
    if (!closing) onClose?.(error);
  });
  connection.on('error', () => undefined);
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

export interface QueueOptions {
  /** Delay before a failed message is tried again. */
  retryDelayMs?: number;
}

/**
 * Declares a durable quorum queue for the message, its retry queue (messages wait there
 * for `retryDelayMs`, then dead-letter back) and its dead queue (`<name>.dead`) for
 * messages that ran out of retries. Idempotent.
 */
export async function declareQueue(channel: ConfirmChannel, name: string, options: QueueOptions = {}): Promise<void> {
  await channel.assertExchange(DEAD_LETTER_EXCHANGE, 'direct', { durable: true });
  await channel.assertExchange(RETRY_EXCHANGE, 'direct', { durable: true });
  await channel.assertQueue(name, {
    durable: true,
    arguments: { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': DEAD_LETTER_EXCHANGE, 'x-dead-letter-routing-key': `${name}.dead` },
  });
  await channel.assertQueue(`${name}.dead`, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.bindQueue(`${name}.dead`, DEAD_LETTER_EXCHANGE, `${name}.dead`);
  await channel.assertQueue(`${name}.retry`, {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-message-ttl': options.retryDelayMs ?? 2000,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': name,
    },
  });
  await channel.bindQueue(`${name}.retry`, RETRY_EXCHANGE, name);
}

/** Publishes a message and waits for the broker's confirm. Trace context travels in headers. */
export async function publish<S extends z.ZodType>(channel: ConfirmChannel, definition: MessageDefinition<S>, payload: z.infer<S>, options: Options.Publish = {}): Promise<void> {
  const headers: Record<string, unknown> = { ...(options.headers ?? {}), 'x-message-version': definition.version };
  propagation.inject(context.active(), headers);
  const body = Buffer.from(JSON.stringify(definition.schema.parse(payload)));
  await new Promise<void>((resolve, reject) => {
    channel.publish('', definition.name, body, { persistent: true, contentType: 'application/json', type: definition.name, ...options, headers }, (error) => (error ? reject(error) : resolve()));
  });
}

export interface ConsumeOptions {
  logger: Logger;
  prefetch?: number;
  /** Tries after the first before the message goes to the dead queue. */
  maxRetries?: number;
}

function retriesOf(message: ConsumeMessage): number {
  const value = message.properties.headers?.['x-retries'];
  return typeof value === 'number' ? value : 0;
}

function parentContext(message: ConsumeMessage): Context {
  return propagation.extract(context.active(), message.properties.headers ?? {});
}

/**
 * Hands a failed message to the retry queue (bounded), or dead-letters it. The original
 * is acked only after the broker confirmed the retry copy, so nothing is lost.
 */
async function retryOrDeadLetter(channel: ConfirmChannel, queue: string, message: ConsumeMessage, maxRetries: number): Promise<'retried' | 'dead'> {
  const retries = retriesOf(message);
  if (retries >= maxRetries) {
    channel.nack(message, false, false);
    return 'dead';
  }
  await new Promise<void>((resolve, reject) => {
    channel.publish(RETRY_EXCHANGE, queue, message.content, { ...message.properties, headers: { ...(message.properties.headers ?? {}), 'x-retries': retries + 1 } }, (error) => (error ? reject(error) : resolve()));
  });
  channel.ack(message);
  return 'retried';
}

export interface Consumer {
  cancel(): Promise<void>;
  /** Resolves when every message taken so far has been acked or handed back. */
  drain(): Promise<void>;
}

/**
 * Consumes one message at a time per delivery (up to `prefetch` in flight), acks after the
 * handler finished, retries with delay on failure (bounded), dead-letters bad payloads.
 */
export async function consume<S extends z.ZodType>(channel: ConfirmChannel, definition: MessageDefinition<S>, handler: (payload: z.infer<S>, message: ConsumeMessage) => Promise<void>, options: ConsumeOptions): Promise<Consumer> {
  const tracer = trace.getTracer('@svc/amqp');
  const inFlight = new Set<Promise<void>>();
  await channel.prefetch(options.prefetch ?? 16);
  const { consumerTag } = await channel.consume(definition.name, (message) => {
    if (!message) return;
    const work = context.with(parentContext(message), () =>
      tracer.startActiveSpan(`${definition.name} process`, { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'rabbitmq', 'messaging.destination.name': definition.name } }, async (span) => {
        try {
          const parsed = (() => {
            try {
              return definition.schema.safeParse(JSON.parse(message.content.toString()));
            } catch {
              return undefined;
            }
          })();
          if (!parsed?.success) {
            options.logger.error('message rejected: invalid payload', { queue: definition.name, issues: parsed?.error.issues.slice(0, 3) ?? [] });
            channel.nack(message, false, false);
            return;
          }
          await handler(parsed.data, message);
          channel.ack(message);
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          const outcome = await retryOrDeadLetter(channel, definition.name, message, options.maxRetries ?? 5).catch(() => 'requeued' as const);
          if (outcome === 'requeued') channel.nack(message, false, true);
          options.logger.warn('message handler failed', { queue: definition.name, outcome, err: error });
        } finally {
          span.end();
        }
      }),
    );
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  return {
    cancel: async () => {
      await channel.cancel(consumerTag).catch(() => undefined);
    },
    drain: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

export interface BatchConsumeOptions extends ConsumeOptions {
  maxBatch?: number;
  maxWaitMs?: number;
}

/**
 * Consumes in batches: collects up to `maxBatch` messages or `maxWaitMs`, hands them to the
 * handler together, then acks them all. A failed batch is retried message by message through
 * the retry queue, so one bad record never blocks the others for long. Handlers must be
 * idempotent (a redelivery may repeat part of a batch).
 *
 * Each message gets a CONSUMER span whose parent is the trace context in its headers, open
 * from delivery to ack (or retry). The handler runs inside the first message's span, so its
 * own spans (the database write) join that message's trace; the other messages' spans link
 * to it.
 */
export async function consumeBatch<S extends z.ZodType>(channel: ConfirmChannel, definition: MessageDefinition<S>, handler: (payloads: Array<z.infer<S>>) => Promise<void>, options: BatchConsumeOptions): Promise<Consumer> {
  const maxBatch = options.maxBatch ?? 200;
  const maxWaitMs = options.maxWaitMs ?? 20;
  const tracer = trace.getTracer('@svc/amqp');
  await channel.prefetch(maxBatch * 2);
  let pending: Array<{ message: ConsumeMessage; payload: z.infer<S>; span: Span }> = [];
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();

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
      try {
        await context.with(trace.setSpan(context.active(), lead), () => handler(batch.map((item) => item.payload)));
        for (const item of batch) {
          channel.ack(item.message);
          item.span.end();
        }
      } catch (error) {
        options.logger.warn('batch handler failed; retrying messages one by one', { queue: definition.name, size: batch.length, err: error });
        for (const item of batch) {
          const outcome = await retryOrDeadLetter(channel, definition.name, item.message, options.maxRetries ?? 5).catch(() => 'requeued' as const);
          if (outcome === 'requeued') channel.nack(item.message, false, true);
          item.span.setStatus({ code: SpanStatusCode.ERROR, message: `batch handler failed; message ${outcome}` });
          item.span.end();
        }
      }
    });
    return running;
  };

  const { consumerTag } = await channel.consume(definition.name, (message) => {
    if (!message) return;
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
      options.logger.error('message rejected: invalid payload', { queue: definition.name });
      channel.nack(message, false, false);
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'invalid payload; dead-lettered' });
      span.end();
      return;
    }
    pending.push({ message, payload: parsed.data, span });
    if (pending.length >= maxBatch) void flush();
    else if (!timer) timer = setTimeout(() => void flush(), maxWaitMs);
  });
  return {
    cancel: async () => {
      await channel.cancel(consumerTag).catch(() => undefined);
    },
    drain: async () => {
      await flush();
      await running;
    },
  };
}
