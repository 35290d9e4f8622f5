import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { startFleet, type Fleet } from '../../libs/fleet/src';
import { ROOT, type FleetState } from './fleet-state';

/**
 * Boots the whole fleet on free ports against the e2e database, vhost and key prefix
 * (prepared by `npm test`'s set-up), seeds an organization with credit and a key, and
 * writes where to reach it for the test files.
 */
export default async function globalSetup(): Promise<void> {
  // A vhost of this run's own: fleets of concurrent runs never consume each other's queues.
  const vhost = `svc_e2e_${process.pid}`;
  execFileSync('rabbitmqctl', ['add_vhost', vhost], { stdio: 'ignore' });
  execFileSync('rabbitmqctl', ['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*'], { stdio: 'ignore' });
  (globalThis as { __svcVhost?: string }).__svcVhost = vhost;
  const env: Record<string, string> = {
    // E2E_DATABASE_URL: a database of its own for a run beside another (migrate it first with
    // `DATABASE_URL=... node libs/db/dist/migrate-cli.js --create-database`).
    // SVC_TEST_SUFFIX: the e2e database of another checkout (see scripts/setup.mjs).
    DATABASE_URL: process.env.E2E_DATABASE_URL || `postgresql://postgres@127.0.0.1:5432/svc_e2e${/^[a-z0-9_]*$/.test(process.env.SVC_TEST_SUFFIX ?? '') ? (process.env.SVC_TEST_SUFFIX ?? '') : ''}`,
    REDIS_URL: 'redis://127.0.0.1:6379/0',
    REDIS_KEY_PREFIX: `svce2e:${process.pid}:`,
    AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${vhost}`,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    SHUTDOWN_GRACE_MS: '10000',
    KEY_CACHE_TTL_MS: '1000',
    // Every test calls from 127.0.0.1: the per-address limit is exercised on edges of its own.
    IP_RATE_LIMIT_PER_MINUTE: '1000000',
    // Fault-injection tests fail models on purpose; provider health is tested on edges of its own.
    HEALTH_FAILURE_THRESHOLD: '1000000',
    // Own vendor keys (BYOK) are sealed under a key made for this run.
    BYOK_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    // Uploaded files are sealed under a master key made for this run.
    FILES_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    // The vendor-batch pool of background responses, time-compressed: a group is sent at 4 lines or
    // after 3 s (responses/background-pool.e2e.test.ts).
    POOL_MAX_LINES: '4',
    POOL_MAX_AGE_MS: '3000',
    POOL_FLUSH_INTERVAL_MS: '200',
    POOL_POLL_INTERVAL_MS: '400',
    // Batches end within a tick of their last line; a cancel closes lines left pending after 3 s.
    BATCH_TICK_MS: '200',
    BATCH_CANCEL_GRACE_MS: '3000',
  };
  const logDir = join(ROOT, '.svc', 'logs', `e2e-${process.pid}`);
  mkdirSync(logDir, { recursive: true });
  const fleet: Fleet = await startFleet({ root: ROOT, env, logDir, restart: false });
  (globalThis as { __svcFleet?: Fleet }).__svcFleet = fleet;
  const admin = (...args: string[]) => JSON.parse(execFileSync(process.execPath, [join(ROOT, 'services/billing/dist/cli/admin.js'), ...args, '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim());
  const org = admin('org', 'create', '--name', 'e2e', '--plan', 'paid', '--credit', '50000000');
  const key = admin('key', 'create', '--org', org.organization_id, '--name', 'e2e');
  const state: FleetState = { baseUrl: fleet.baseUrl, apiKey: key.key, organizationId: org.organization_id, env, ports: { ...fleet.ports } };
  const stateFile = join(ROOT, '.svc', `e2e-fleet-${process.pid}.json`);
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  process.env.SVC_E2E_STATE_FILE = stateFile;
}
