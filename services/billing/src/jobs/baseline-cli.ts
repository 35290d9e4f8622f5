import { catalog } from '@svc/catalog';
import { parseConfig } from '@svc/config';
import { billingConfigSchema } from '../config';
import { createPrisma } from '../db';
import { recomputeBaselines } from '../baselines/recompute';

/**
 * `node services/billing/dist/jobs/baseline-cli.js`: the nightly baseline recompute (CronJob
 * billing-baseline-recompute). Prints one JSON line {keys, computed_at} and exits 0; on any
 * error prints one line to stderr and exits 1.
 */
async function main(): Promise<void> {
  const config = parseConfig('billing', billingConfigSchema);
  const prisma = createPrisma(config.DATABASE_URL);
  try {
    const result = await recomputeBaselines(prisma, catalog);
    process.stdout.write(`${JSON.stringify({ keys: result.keys, computed_at: result.computedAt.toISOString() })}\n`);
  } finally {
    await prisma.$disconnect();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`baseline-recompute: ${message.replace(/\s+/g, ' ').trim()}\n`);
    process.exit(1);
  },
);
