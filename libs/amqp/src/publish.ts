import type { ConfirmChannel, Options } from 'amqplib';
import { context, propagation } from '@opentelemetry/api';
import type { z } from 'zod';
import type { MessageDefinition } from './message';
import { ConfirmTimeoutError } from './failures';

/** How long a publish waits for the broker's confirm unless told otherwise. */
export const DEFAULT_CONFIRM_TIMEOUT_MS = 5000;

export interface PublishOptions extends Options.Publish {
  /** Reject with ConfirmTimeoutError when the broker has not confirmed within this long (default 5 s). */
  confirmTimeoutMs?: number;
}

/**
 * Publishes raw content and waits for the broker's confirm, at most `timeoutMs`. Rejects on a
 * nack, on a channel that closed (amqplib fails unconfirmed publishes then), and on the time
 * limit — never waits forever. A plain timer bounds the wait (it is kept alive by the pending
 * publish, unlike an AbortSignal.timeout that can be collected).
 */
export function confirmPublish(channel: ConfirmChannel, exchange: string, routingKey: string, content: Buffer, options: Options.Publish, timeoutMs: number = DEFAULT_CONFIRM_TIMEOUT_MS): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => finish(new ConfirmTimeoutError(timeoutMs)), timeoutMs);
    try {
      channel.publish(exchange, routingKey, content, options, (error) => finish(error ?? undefined));
    } catch (error) {
      finish(error);
    }
  });
}

/**
 * Publishes a message to its queue and waits for the broker's confirm (bounded: see
 * `confirmTimeoutMs`). The payload is validated (unknown fields stripped) before anything goes on
 * the wire; trace context travels in headers.
 */
export async function publish<S extends z.ZodType>(channel: ConfirmChannel, definition: MessageDefinition<S>, payload: z.infer<S>, options: PublishOptions = {}): Promise<void> {
  const { confirmTimeoutMs, ...publishOptions } = options;
  const headers: Record<string, unknown> = { ...(publishOptions.headers ?? {}), 'x-message-version': definition.version };
  propagation.inject(context.active(), headers);
  const body = Buffer.from(JSON.stringify(definition.schema.parse(payload)));
  await confirmPublish(channel, '', definition.name, body, { persistent: true, contentType: 'application/json', type: definition.name, ...publishOptions, headers }, confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS);
}
