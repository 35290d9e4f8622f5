import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * Applies the committed SQL migrations of every owning service (Prisma's layout:
 * services/<service>/prisma/migrations/<name>/migration.sql), in name order, each in its own
 * transaction, under a Postgres advisory lock so concurrent runners (two pods, a Job and a
 * developer) never apply one twice. Applied migrations are recorded with a checksum; an edited
 * migration that was already applied is refused rather than silently skipped.
 */
export interface MigrationSource {
  service: string;
  dir: string;
}

export interface Migration {
  service: string;
  name: string;
  sql: string;
  checksum: string;
}

const LOCK_ID = 727_204_001;

export function readMigrations(sources: MigrationSource[]): Migration[] {
  const migrations: Migration[] = [];
  for (const source of sources) {
    if (!existsSync(source.dir)) continue;
    for (const name of readdirSync(source.dir).sort()) {
      const file = join(source.dir, name, 'migration.sql');
      if (!existsSync(file)) continue;
      const sql = readFileSync(file, 'utf8');
      migrations.push({ service: source.service, name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
    }
  }
  return migrations;
}

/** The migration folders of every service that owns data, found under `root`. */
export function discoverSources(root: string): MigrationSource[] {
  const servicesDir = join(root, 'services');
  return readdirSync(servicesDir)
    .sort()
    .map((service) => ({ service, dir: join(servicesDir, service, 'prisma', 'migrations') }))
    .filter((source) => existsSync(source.dir));
}

async function ensureTable(client: Client): Promise<void> {
  await client.query(`CREATE TABLE IF NOT EXISTS public.svc_migrations (
    service TEXT NOT NULL,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (service, name)
  )`);
}

async function applied(client: Client): Promise<Map<string, string>> {
  const { rows } = await client.query<{ service: string; name: string; checksum: string }>('SELECT service, name, checksum FROM public.svc_migrations');
  return new Map(rows.map((row) => [`${row.service}/${row.name}`, row.checksum]));
}

export interface MigrateResult {
  applied: string[];
  skipped: number;
}

export async function migrate(databaseUrl: string, migrations: Migration[]): Promise<MigrateResult> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    await ensureTable(client);
    const done = await applied(client);
    const result: MigrateResult = { applied: [], skipped: 0 };
    for (const migration of migrations) {
      const id = `${migration.service}/${migration.name}`;
      const checksum = done.get(id);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) throw new Error(`migration ${id} was changed after it was applied; add a new migration instead`);
        result.skipped += 1;
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO public.svc_migrations (service, name, checksum) VALUES ($1, $2, $3)', [migration.service, migration.name, migration.checksum]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${id} failed: ${(error as Error).message}`);
      }
      result.applied.push(id);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => undefined);
    await client.end();
  }
}

/** Migrations not yet applied (empty when the database is up to date). */
export async function pending(databaseUrl: string, migrations: Migration[]): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const exists = await client.query("SELECT to_regclass('public.svc_migrations') AS t");
    const done = exists.rows[0].t ? await applied(client) : new Map<string, string>();
    return migrations.map((m) => `${m.service}/${m.name}`).filter((id) => !done.has(id));
  } finally {
    await client.end();
  }
}

/** Creates the database named in `databaseUrl` when it does not exist (development and tests). */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unsupported database name: ${name}`);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  admin.search = '';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    await client.query(`CREATE DATABASE "${name}"`);
    return true;
  } catch (error) {
    // Two runners racing to create it: the other one won.
    if ((error as { code?: string }).code === '42P04') return false;
    throw error;
  } finally {
    await client.end();
  }
}
