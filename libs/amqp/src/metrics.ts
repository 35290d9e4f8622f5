import { metrics, type Counter, type Meter, type MeterProvider } from '@opentelemetry/api';

/**
 * The queue metrics this library records itself, on the process's `svc` meter beside the other
 * svc.* metrics (libs/telemetry). Instruments are created again when the global provider changes
 * (the SDK started after a first use, or a test registered its own).
 */

/** Why a message went to its dead queue. */
export type DeadLetterReason = 'invalid_payload' | 'poison' | 'retries_exhausted';
export type DeadLetterAttributes = { queue: string; reason: DeadLetterReason };
/** Where a message the broker did not take went instead (a publisher's durable fallback, or memory). */
export type PublishFallbackAttributes = { queue: string; via: string };

interface Instruments {
  deadLettered: Counter<DeadLetterAttributes>;
  publishFallbacks: Counter<PublishFallbackAttributes>;
}

let current: { provider: MeterProvider; instruments: Instruments } | undefined;

function create(meter: Meter): Instruments {
  return {
    deadLettered: meter.createCounter('svc.queue.dead_lettered', { description: 'Messages sent to a dead queue (or dead outbox rows), by queue and reason' }),
    publishFallbacks: meter.createCounter('svc.queue.publish_fallbacks', { description: 'Messages the broker did not take (no connection, no confirm in time), by queue and where they went instead' }),
  };
}

function instruments(): Instruments {
  const provider = metrics.getMeterProvider();
  if (current?.provider !== provider) current = { provider, instruments: create(provider.getMeter('svc')) };
  return current.instruments;
}

/** svc.queue.dead_lettered (svc_queue_dead_lettered_total). Every dead letter is also logged at error level by its caller. */
export function recordDeadLetter(queue: string, reason: DeadLetterReason): void {
  instruments().deadLettered.add(1, { queue, reason });
}

/** svc.queue.publish_fallbacks (svc_queue_publish_fallbacks_total): a publish that went `via` a fallback. */
export function recordPublishFallback(queue: string, via: string): void {
  instruments().publishFallbacks.add(1, { queue, via });
}
