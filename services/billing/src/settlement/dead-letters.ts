import type { ConfirmChannel, GetMessage } from 'amqplib';
import { confirmPublish, connectAmqp } from '@svc/amqp';
import { usageSettle } from '@svc/messages';
import type { Prisma } from '../db';

/**
 * Dead usage records, where they are and how they go back: messages in `usage.settle.dead` (the
 * queue's poison after its retries) and outbox rows marked dead. Replaying is safe at any time —
 * settlement is idempotent on call_id — and is what the runbook says to do once the cause
 * (a bug, a bad deploy) is fixed. Used by the admin CLI (`usage dead`, `usage replay`).
 */
export interface DeadLetter {
  source: 'queue' | 'outbox';
  call_id: string;
  organization_id: string;
  cost_micros: number | null;
  /** Why it died: the broker's x-first-death-reason (rejected: poison or retries used up), or the outbox row's last error. */
  reason: string;
  retries: number;
}

export interface DeadLetterDeps {
  amqpUrl: string;
  prisma: Prisma;
  /** The queue (its dead queue is `<queue>.dead`); default usage.settle. */
  queue?: string;
}

const HEADERS_DROPPED_ON_REPLAY = /^x-(retries|death|first-death-.*|last-death-.*)$/;

function summary(message: GetMessage): DeadLetter {
  let record: Record<string, unknown> = {};
  try {
    record = JSON.parse(message.content.toString()) as Record<string, unknown>;
  } catch {
    record = {};
  }
  const headers = message.properties.headers ?? {};
  return {
    source: 'queue',
    call_id: typeof record.call_id === 'string' ? record.call_id : '(unreadable)',
    organization_id: typeof record.organization_id === 'string' ? record.organization_id : '',
    cost_micros: typeof record.cost_micros === 'number' ? record.cost_micros : null,
    reason: String(headers['x-first-death-reason'] ?? 'rejected'),
    retries: typeof headers['x-retries'] === 'number' ? headers['x-retries'] : 0,
  };
}

/** Runs `work` on the queue's channel; `empty` when its dead queue does not exist (billing never declared it: nothing died). */
async function withChannel<T>(deps: DeadLetterDeps, empty: T, work: (channel: ConfirmChannel, queue: string) => Promise<T>): Promise<T> {
  const queue = deps.queue ?? usageSettle.name;
  const amqp = await connectAmqp(deps.amqpUrl);
  try {
    try {
      await amqp.channel.checkQueue(`${queue}.dead`);
    } catch (error) {
      if ((error as { code?: unknown }).code === 404) return empty;
      throw error;
    }
    return await work(amqp.channel, queue);
  } finally {
    await amqp.close();
  }
}

/** Up to `limit` dead records of each source, left where they are. */
export async function listDeadLetters(deps: DeadLetterDeps, limit = 100): Promise<DeadLetter[]> {
  const fromQueue = await withChannel(deps, [] as DeadLetter[], async (channel, queue) => {
    const taken: GetMessage[] = [];
    try {
      for (let index = 0; index < limit; index += 1) {
        const message = await channel.get(`${queue}.dead`, { noAck: false });
        if (!message) break;
        taken.push(message);
      }
      return taken.map(summary);
    } finally {
      // Back to the dead queue, untouched.
      for (const message of taken) channel.nack(message, false, true);
    }
  });
  const rows = await deps.prisma.$queryRaw<Array<{ call_id: string; record: unknown; last_error: string | null; attempts: number }>>`
    SELECT call_id, record, last_error, attempts FROM billing.usage_outbox WHERE dead_at IS NOT NULL ORDER BY created_at LIMIT ${limit}`;
  const fromOutbox = rows.map((row): DeadLetter => {
    const record = (typeof row.record === 'string' ? JSON.parse(row.record) : row.record) as Record<string, unknown> | null;
    return {
      source: 'outbox',
      call_id: row.call_id,
      organization_id: typeof record?.organization_id === 'string' ? record.organization_id : '',
      cost_micros: typeof record?.cost_micros === 'number' ? record.cost_micros : null,
      reason: row.last_error ?? '',
      retries: row.attempts,
    };
  });
  return [...fromQueue, ...fromOutbox];
}

export interface ReplayResult {
  /** Messages moved from `<queue>.dead` back to `<queue>`. */
  queue_replayed: number;
  /** Dead outbox rows made pending again (the sweep settles them). */
  outbox_replayed: number;
}

/**
 * Moves dead messages back to the queue with a fresh retry budget (x-retries and the x-death
 * history dropped, x-replayed counted) — each acked off the dead queue only after the broker
 * confirmed its copy — and makes dead outbox rows pending again. At most the messages dead when
 * it started (a record that dies again is not replayed twice in one run), and at most `limit`.
 */
export async function replayDeadLetters(deps: DeadLetterDeps, limit = Number.MAX_SAFE_INTEGER): Promise<ReplayResult> {
  const queueReplayed = await withChannel(deps, 0, async (channel, queue) => {
    const dead = `${queue}.dead`;
    const bound = Math.min(limit, (await channel.checkQueue(dead)).messageCount);
    let moved = 0;
    while (moved < bound) {
      const message = await channel.get(dead, { noAck: false });
      if (!message) break;
      const headers = Object.fromEntries(Object.entries(message.properties.headers ?? {}).filter(([name]) => !HEADERS_DROPPED_ON_REPLAY.test(name)));
      const replayed = typeof headers['x-replayed'] === 'number' ? headers['x-replayed'] : 0;
      try {
        await confirmPublish(channel, '', queue, message.content, { ...message.properties, headers: { ...headers, 'x-replayed': replayed + 1 } });
      } catch (error) {
        channel.nack(message, false, true);
        throw error;
      }
      channel.ack(message);
      moved += 1;
    }
    return moved;
  });
  const outboxReplayed = await deps.prisma.$executeRaw`
    UPDATE billing.usage_outbox SET dead_at = NULL, attempts = 0
     WHERE call_id IN (SELECT call_id FROM billing.usage_outbox WHERE dead_at IS NOT NULL ORDER BY created_at LIMIT ${Math.min(limit, 1_000_000)})`;
  return { queue_replayed: queueReplayed, outbox_replayed: outboxReplayed };
}
