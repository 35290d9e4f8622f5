import type { Prisma } from '../db';

/**
 * Conversation lifecycle (spec): a conversation is deleted at svc.expires_at unless a new turn
 * restarts the retention clock. Deletes every conversation whose expires_at is before `now`,
 * oldest first, `batchSize` at a time until a batch comes back short; its items and stored
 * responses go with it (ON DELETE CASCADE). A conversation row locked by a turn in progress is
 * skipped (SKIP LOCKED): that turn moves its expires_at, and a later sweep sees the new value.
 * Returns how many conversations were deleted.
 */
export const DEFAULT_SWEEP_BATCH = 1000;

export async function sweepExpired(prisma: Prisma, now: Date = new Date(), batchSize: number = DEFAULT_SWEEP_BATCH): Promise<number> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size must be a positive integer, got ${batchSize}`);
  let deleted = 0;
  for (;;) {
    const count = await prisma.$executeRaw`
      WITH doomed AS (
        SELECT id FROM conversations.conversation
         WHERE expires_at < ${now}
         ORDER BY expires_at
         LIMIT ${batchSize}
           FOR UPDATE SKIP LOCKED
      )
      DELETE FROM conversations.conversation c
       USING doomed
       WHERE c.id = doomed.id AND c.expires_at < ${now}`;
    deleted += count;
    if (count < batchSize) return deleted;
  }
}
