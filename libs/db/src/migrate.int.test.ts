import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { discoverSources, ensureDatabase, migrate, pending, readMigrations, type Migration } from './migrate';

// Runs the real migrations against a throwaway database (svc_migrate_<pid>_<random>) on the
// test server, never against svc or svc_test. Tests that need an empty database wipe it
// (resetDatabase); the database is dropped in afterAll.

const REPO_ROOT = resolve(__dirname, '..', '..', '..');
const SERVER = new URL(process.env.DATABASE_URL!);
const RUN = `${process.pid}_${randomBytes(3).toString('hex')}`;
/** The advisory lock key migrate() takes (LOCK_ID in migrate.ts). */
const MIGRATION_LOCK_ID = 727_204_001;

function databaseUrl(name: string): string {
  const url = new URL(SERVER.toString());
  url.pathname = `/${name}`;
  url.search = '';
  return url.toString();
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function recorded(url: string): Promise<Array<{ id: string; checksum: string }>> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ id: string; checksum: string }>("SELECT service || '/' || name AS id, checksum FROM public.svc_migrations ORDER BY service, name");
    return rows;
  });
}

async function tableExists(url: string, qualified: string): Promise<boolean> {
  return withClient(url, async (client) => (await client.query('SELECT to_regclass($1) AS t', [qualified])).rows[0].t !== null);
}

describe('migrate (real Postgres, a throwaway database)', () => {
  const sources = discoverSources(REPO_ROOT);
  const migrations = readMigrations(sources);
  const ids = migrations.map((m) => `${m.service}/${m.name}`);
  const name = `svc_migrate_${RUN}`;
  const url = databaseUrl(name);
  let created = false;

  /** Back to an empty database: no service schemas, an empty public schema. */
  async function resetDatabase(): Promise<void> {
    await withClient(url, async (client) => {
      await client.query('DROP SCHEMA IF EXISTS billing, conversations, batch, public CASCADE');
      await client.query('CREATE SCHEMA public');
    });
    expect(await pending(url, migrations)).toEqual(ids);
  }

  beforeAll(async () => {
    created = await ensureDatabase(url);
  }, 30_000);

  afterAll(async () => {
    if (!created) return;
    await withClient(databaseUrl('postgres'), (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }, 30_000);

  it('finds the committed migrations of every service that owns data, in name order', () => {
    expect(sources.map((source) => source.service)).toEqual(['batch', 'billing', 'conversations']);
    expect(sources.map((source) => source.dir)).toEqual(['batch', 'billing', 'conversations'].map((service) => join(REPO_ROOT, 'services', service, 'prisma', 'migrations')));
    expect(ids).toEqual(['batch/0001_init', 'batch/0002_file_chunks', 'batch/0003_batches', 'billing/0001_init', 'billing/0002_key_baseline', 'billing/0003_limits_free_byok', 'billing/0004_usage_outbox', 'conversations/0001_init', 'conversations/0002_threads', 'conversations/0003_response_pool', 'conversations/0004_complete_turn', 'conversations/0005_thread_totals', 'conversations/0006_turn_totals_at_insert']);
    for (const migration of migrations) expect(migration.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ensureDatabase creates a missing database once', async () => {
    expect(created).toBe(true);
    expect(await withClient(databaseUrl('postgres'), async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount)).toBe(1);
    expect(await ensureDatabase(url)).toBe(false);
    await expect(ensureDatabase(databaseUrl('bad-name;'))).rejects.toThrow('unsupported database name: bad-name;');
  });

  describe('on a fresh database', () => {
    beforeAll(() => resetDatabase());

    it('applies every migration once, records its checksum, and a second run applies none', async () => {
      expect(await pending(url, migrations)).toEqual(ids);

      const first = await migrate(url, migrations);
      expect(first).toEqual({ applied: ids, skipped: 0 });
      expect(await recorded(url)).toEqual(migrations.map((m) => ({ id: `${m.service}/${m.name}`, checksum: m.checksum })));
      for (const table of ['billing.ledger_entry', 'billing.api_key', 'conversations.item', 'batch.file']) expect(await tableExists(url, table)).toBe(true);

      const second = await migrate(url, migrations);
      expect(second).toEqual({ applied: [], skipped: ids.length });
      expect(await pending(url, migrations)).toEqual([]);
      expect(await recorded(url)).toHaveLength(ids.length);
    });

    it('refuses a migration whose text changed after it was applied', async () => {
      const edited: Migration[] = migrations.map((m) => (m.service === 'billing' ? { ...m, sql: `${m.sql}\n-- edited`, checksum: 'f'.repeat(64) } : m));
      await expect(migrate(url, edited)).rejects.toThrow('migration billing/0001_init was changed after it was applied; add a new migration instead');
      // Nothing recorded changed, and the lock was released (the next run is not blocked).
      expect((await recorded(url)).find((row) => row.id === 'billing/0001_init')?.checksum).toBe(migrations.find((m) => m.service === 'billing')!.checksum);
      expect(await migrate(url, migrations)).toEqual({ applied: [], skipped: ids.length });
    });

    it('rolls back a failing migration whole and records nothing for it', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-migrate-'));
      try {
        const write = (name: string, sql: string) => {
          mkdirSync(join(dir, name));
          writeFileSync(join(dir, name, 'migration.sql'), sql);
        };
        write('0001_ok', 'CREATE TABLE public.it_ok (id INT PRIMARY KEY);');
        write('0002_broken', 'CREATE TABLE public.it_half (id INT); SELECT * FROM public.it_missing_table;');
        write('0003_never', 'CREATE TABLE public.it_never (id INT);');
        mkdirSync(join(dir, 'not_a_migration'));
        const extra = readMigrations([{ service: 'ittest', dir }]);
        expect(extra.map((m) => m.name)).toEqual(['0001_ok', '0002_broken', '0003_never']);

        await expect(migrate(url, [...migrations, ...extra])).rejects.toThrow(/^migration ittest\/0002_broken failed: relation "public.it_missing_table" does not exist$/);
        expect(await tableExists(url, 'public.it_ok')).toBe(true);
        expect(await tableExists(url, 'public.it_half')).toBe(false);
        expect(await tableExists(url, 'public.it_never')).toBe(false);
        expect(await pending(url, [...migrations, ...extra])).toEqual(['ittest/0002_broken', 'ittest/0003_never']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  it('two concurrent runs apply each migration exactly once (advisory lock)', async () => {
    await resetDatabase();
    const [a, b] = await Promise.all([migrate(url, migrations), migrate(url, migrations)]);
    // One run applied everything; the other waited for the lock and found nothing to do.
    const results = [a, b].sort((x, y) => y.applied.length - x.applied.length);
    expect(results).toEqual([
      { applied: ids, skipped: 0 },
      { applied: [], skipped: ids.length },
    ]);
    expect((await recorded(url)).map((row) => row.id)).toEqual(ids);
  });

  it('waits while another runner holds the migration lock', async () => {
    await resetDatabase();
    const holder = new Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      let done = false;
      const run = migrate(url, migrations).then((result) => {
        done = true;
        return result;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(done).toBe(false);
      expect(await pending(url, migrations)).toEqual(ids);

      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      expect(await run).toEqual({ applied: ids, skipped: 0 });
      expect(await pending(url, migrations)).toEqual([]);
    } finally {
      await holder.end();
    }
  });
});
