import type { Channel } from 'amqplib';

export const DEAD_LETTER_EXCHANGE = 'svc.dlx';
export const RETRY_EXCHANGE = 'svc.retry';

export interface QueueOptions {
  /** Delay before a failed message is tried again. */
  retryDelayMs?: number;
}

/**
 * Declares a durable quorum queue for the message, its retry queue (messages wait there
 * for `retryDelayMs`, then dead-letter back) and its dead queue (`<name>.dead`) for
 * messages that are poison (an invalid payload, or a handler that kept failing for a reason
 * other than an outage). Idempotent.
 */
export async function declareQueue(channel: Channel, name: string, options: QueueOptions = {}): Promise<void> {
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
