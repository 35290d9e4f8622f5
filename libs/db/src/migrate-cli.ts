import { resolve } from 'node:path';
import { discoverSources, readMigrations, migrate, pending, ensureDatabase } from './migrate';

/**
 * `node libs/db/dist/migrate-cli.js [--check] [--create-database]`
 * Applies every service's committed migrations to DATABASE_URL (idempotent). With --check it
 * applies nothing and exits 0 only when the database is up to date (used by pods' init
 * containers so no pod starts before the migration ran).
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    process.stderr.write('migrate: DATABASE_URL is not set\n');
    process.exit(2);
  }
  const root = resolve(process.env.SVC_ROOT ?? resolve(__dirname, '..', '..', '..'));
  const migrations = readMigrations(discoverSources(root));
  if (process.argv.includes('--check')) {
    const missing = await pending(databaseUrl, migrations);
    if (missing.length > 0) {
      process.stderr.write(`migrate: pending: ${missing.join(', ')}\n`);
      process.exit(1);
    }
    process.stdout.write('migrate: up to date\n');
    return;
  }
  if (process.argv.includes('--create-database')) await ensureDatabase(databaseUrl);
  const result = await migrate(databaseUrl, migrations);
  process.stdout.write(`migrate: applied ${result.applied.length} (${result.applied.join(', ') || 'none'}), ${result.skipped} already applied\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`migrate: ${error.message}\n`);
  process.exit(1);
});
