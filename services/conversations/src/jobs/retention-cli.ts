import { parseConfig } from '@svc/config';
import { conversationsConfigSchema } from '../config';
import { createPrisma } from '../db';
import { DEFAULT_SWEEP_BATCH, sweepExpired } from '../retention/sweep';

/**
 * `node services/conversations/dist/jobs/retention-cli.js`: the hourly retention sweep
 * (CronJob workers-retention-sweep). Deletes the conversations past their expires_at in
 * batches of 1000, prints one JSON line {deleted} and exits 0; on any error prints one line to
 * stderr and exits 1.
 */
async function main(): Promise<void> {
  const config = parseConfig('conversations', conversationsConfigSchema);
  const prisma = createPrisma(config.DATABASE_URL);
  try {
    const deleted = await sweepExpired(prisma, new Date(), DEFAULT_SWEEP_BATCH);
    process.stdout.write(`${JSON.stringify({ deleted })}\n`);
  } finally {
    await prisma.$disconnect();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`retention-sweep: ${message.replace(/\s+/g, ' ').trim()}\n`);
    process.exit(1);
  },
);
