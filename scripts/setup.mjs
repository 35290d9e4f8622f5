// The one set-up both `npm start` and `npm test` run: pnpm, install, generate, build, check the
// servers, create the database and vhost, migrate, and (for development) seed an organization
// with credit and an API key. Idempotent: a second run only re-checks.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const { checkInfrastructure, describeProblems } = createRequire(import.meta.url)('./lib/infra.cjs');

export const root = new URL('..', import.meta.url).pathname;
const toolsDir = join(root, '.svc', 'tools');
const pnpmBin = join(toolsDir, 'node_modules', '.bin', 'pnpm');
const pnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];

const log = (message) => process.stdout.write(`svc setup: ${message}\n`);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...(options.env ?? {}) } });
  if (result.status !== 0) {
    if (options.quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
  }
  return result;
}

/**
 * The environments: development data and the isolated test data (own database, vhost, prefix).
 * SVC_TEST_SUFFIX (letters, digits, _) gives a checkout test environments of its own, so two
 * checkouts' test runs on one machine never share a database (scripts/jest-integration-env.js
 * and test-e2e/support/global-setup.ts read it too).
 */
const testSuffix = /^[a-z0-9_]*$/.test(process.env.SVC_TEST_SUFFIX ?? '') ? (process.env.SVC_TEST_SUFFIX ?? '') : '';
export const environments = {
  development: { database: 'svc', vhost: 'svc', keyPrefix: 'svc:' },
  test: { database: `svc_test${testSuffix}`, vhost: `svc_test${testSuffix}`, keyPrefix: `svctest${testSuffix}:` },
  e2e: { database: `svc_e2e${testSuffix}`, vhost: `svc_e2e${testSuffix}`, keyPrefix: `svce2e${testSuffix}:` },
};

export const servers = {
  postgres: { host: process.env.PGHOST ?? '127.0.0.1', port: Number(process.env.PGPORT ?? 5432), user: process.env.PGUSER ?? 'postgres' },
  redis: { host: '127.0.0.1', port: 6379 },
  amqp: { host: '127.0.0.1', port: 5672, user: 'guest', password: 'guest' },
};

/**
 * The development environment's BYOK_ENCRYPTION_KEY (32 random bytes, base64), made once and kept
 * in .svc/byok-encryption-key so keys set with `npm run admin -- byok set` open after a restart.
 */
export function developmentByokKey() {
  const file = join(root, '.svc', 'byok-encryption-key');
  if (!existsSync(file)) {
    mkdirSync(join(root, '.svc'), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

/**
 * The development environment's FILES_ENCRYPTION_KEY (32 random bytes, base64), made once and kept
 * in .svc/files-encryption-key so files uploaded in development open after a restart.
 */
export function developmentFilesKey() {
  const file = join(root, '.svc', 'files-encryption-key');
  if (!existsSync(file)) {
    mkdirSync(join(root, '.svc'), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

export function envFor(name) {
  const target = environments[name];
  return {
    DATABASE_URL: `postgresql://${servers.postgres.user}@${servers.postgres.host}:${servers.postgres.port}/${target.database}`,
    REDIS_URL: `redis://${servers.redis.host}:${servers.redis.port}/0`,
    REDIS_KEY_PREFIX: target.keyPrefix,
    AMQP_URL: `amqp://${servers.amqp.user}:${servers.amqp.password}@${servers.amqp.host}:${servers.amqp.port}/${target.vhost}`,
  };
}

export function ensurePnpm() {
  if (existsSync(pnpmBin)) {
    const version = spawnSync(pnpmBin, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (version === pnpmVersion) return pnpmBin;
  }
  log(`installing pnpm ${pnpmVersion} into .svc/tools`);
  mkdirSync(toolsDir, { recursive: true });
  run('npm', ['install', '--prefix', toolsDir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `pnpm@${pnpmVersion}`]);
  return pnpmBin;
}

export function install(pnpm) {
  log('installing dependencies');
  run(pnpm, ['install', '--frozen-lockfile'], { env: { CI: 'true' }, quiet: true });
}

export function generate() {
  // Prisma's CLI only checks that a schema engine executable exists; migrations are ours.
  const env = { PRISMA_SCHEMA_ENGINE_BINARY: join(root, 'scripts', 'prisma-engine-stub.sh'), PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
  for (const service of ['billing', 'conversations', 'batch']) {
    run(join(root, 'node_modules', '.bin', 'prisma'), ['generate', '--schema', `services/${service}/prisma/schema.prisma`], { env, quiet: true });
  }
}

export function build() {
  log('building (tsc -b)');
  run(join(root, 'node_modules', '.bin', 'tsc'), ['-b']);
}

export async function checkServers() {
  const problems = await checkInfrastructure(servers);
  if (problems.length > 0) {
    process.stderr.write(`${describeProblems(problems)}\n`);
    process.exit(1);
  }
}

/** RabbitMQ vhosts are created with rabbitmqctl (the management API is not assumed). */
export function ensureVhost(vhost) {
  const list = spawnSync('rabbitmqctl', ['list_vhosts', '--quiet', '--no-table-headers'], { encoding: 'utf8' });
  if (list.status !== 0) {
    throw new Error(`cannot list RabbitMQ vhosts with rabbitmqctl (${(list.stderr || list.error?.message || '').trim()}); create vhost '${vhost}' with: rabbitmqctl add_vhost ${vhost} && rabbitmqctl set_permissions -p ${vhost} guest '.*' '.*' '.*'`);
  }
  if (list.stdout.split('\n').map((line) => line.trim()).includes(vhost)) return;
  log(`creating RabbitMQ vhost ${vhost}`);
  execFileSync('rabbitmqctl', ['add_vhost', vhost], { stdio: 'ignore' });
  execFileSync('rabbitmqctl', ['set_permissions', '-p', vhost, servers.amqp.user, '.*', '.*', '.*'], { stdio: 'ignore' });
}

const processAlive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

/**
 * Test runs, chaos fleets and benchmarks make RabbitMQ vhosts named after their process
 * (`svc_e2e_<pid>`, `svc_e2e_chaos_<name>_<pid>_…`, `svc_bench_<pid>`, …) and remove them when they
 * end; a run that was killed leaves its vhost behind, and each one holds broker file descriptors
 * (dozens of them make new connections time out). Removes those whose process is gone.
 */
export function removeStaleVhosts() {
  const list = spawnSync('rabbitmqctl', ['list_vhosts', '--quiet', '--no-table-headers'], { encoding: 'utf8', timeout: 60_000 });
  if (list.status !== 0) return;
  const stale = list.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((vhost) => /^svc_(e2e|bench)_/.test(vhost))
    .filter((vhost) => {
      const pid = vhost.split(/[_-]/).slice(2).find((part) => /^\d+$/.test(part));
      return pid !== undefined && !processAlive(Number(pid));
    });
  for (const vhost of stale) spawnSync('rabbitmqctl', ['delete_vhost', vhost], { stdio: 'ignore', timeout: 60_000 });
  if (stale.length > 0) log(`removed ${stale.length} RabbitMQ vhost(s) left by runs that were killed`);
}

export function migrate(env) {
  run(process.execPath, [join(root, 'libs/db/dist/migrate-cli.js'), '--create-database'], { env, quiet: true });
}

export function seedDevelopment(env, baseUrl) {
  const result = run(process.execPath, [join(root, 'services/billing/dist/cli/admin.js'), 'seed-dev', '--write-env', join(root, '.svc', 'dev.env'), '--base-url', baseUrl, '--json'], { env, quiet: true });
  return JSON.parse(result.stdout.toString().trim().split('\n').pop());
}

/** Where the browser tests find Chromium (Debian's package). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser tests drive Debian's Chromium: installed with apt-get where it is missing (as root,
 * or with passwordless sudo). When it cannot be installed the browser tests fail saying so.
 */
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = (args) => spawnSync(asRoot ? 'apt-get' : 'sudo', asRoot ? args : ['-n', 'apt-get', ...args], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  log('installing Chromium for the browser tests (apt-get install chromium)');
  if (apt(['install', '-y', '-q', 'chromium']).status !== 0) {
    apt(['update', '-q']);
    if (apt(['install', '-y', '-q', 'chromium']).status !== 0) log(`Chromium could not be installed; the browser tests will fail until ${CHROMIUM} exists (apt-get install chromium)`);
  }
}

/** Everything up to a migrated database for each named environment. */
export async function setup({ environmentsToPrepare }) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) throw new Error(`Node 20 or newer is needed (found ${process.versions.node})`);
  const pnpm = ensurePnpm();
  install(pnpm);
  generate();
  build();
  await checkServers();
  if (environmentsToPrepare.includes('e2e')) ensureChromium();
  removeStaleVhosts();
  for (const name of environmentsToPrepare) {
    ensureVhost(environments[name].vhost);
    migrate(envFor(name));
    log(`${name}: database ${environments[name].database} migrated`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice(7);
  const main = async () => {
    if (only === 'migrate') {
      migrate(envFor('development'));
      log('development database migrated');
      return;
    }
    await setup({ environmentsToPrepare: ['development'] });
  };
  main().catch((error) => {
    process.stderr.write(`svc setup: ${error.message}\n`);
    process.exit(1);
  });
}
