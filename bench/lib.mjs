// Shared by the benchmarks: boot the fleet on free ports in places of the benchmarks' own (the
// database svc_bench, or BENCH_DATABASE_URL, created and migrated on first use; a RabbitMQ vhost and Redis key prefix
// per run), never the test environment's, so a benchmark and a test run on one machine do not
// touch each other's data. One fleet, or several side by side with telemetry as deployed; an
// organization and key; simple statistics. Run `npm test` (or `node scripts/setup.mjs`) once
// first so everything is built.
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { mkdirSync, readFileSync } from 'node:fs';

export const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);

export const benchEnv = {
  DATABASE_URL: process.env.BENCH_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/svc_bench',
  REDIS_URL: 'redis://127.0.0.1:6379/0',
  REDIS_KEY_PREFIX: `svcbench:${process.pid}:`,
  AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/svc_bench_${process.pid}`,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  OTEL_SDK_DISABLED: 'true',
  // One client address sends everything: keep the per-address check on, with room.
  IP_RATE_LIMIT_PER_MINUTE: '100000000',
};

let prepared = false;

/** The benchmarks' database (created and migrated once per run). */
function prepareBenchPlaces(checkout = root) {
  if (prepared) return;
  execFileSync(process.execPath, [join(checkout, 'libs/db/dist/migrate-cli.js'), '--create-database'], { env: { ...process.env, DATABASE_URL: benchEnv.DATABASE_URL }, stdio: 'ignore' });
  prepared = true;
}

function addVhost(vhost) {
  execFileSync('rabbitmqctl', ['add_vhost', vhost], { stdio: 'ignore' });
  execFileSync('rabbitmqctl', ['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*'], { stdio: 'ignore' });
}

export async function bootFleet(extraEnv = {}, fleetOptions = {}) {
  prepareBenchPlaces();
  const { startFleet } = require(join(root, 'libs/fleet/dist/index.js'));
  const logDir = join(root, '.svc', 'logs', 'bench');
  mkdirSync(logDir, { recursive: true });
  // This run's vhost, removed when the fleet stops (scripts/setup.mjs removes one a killed run left).
  const vhost = `svc_bench_${process.pid}`;
  addVhost(vhost);
  const fleet = await startFleet({ root, env: { ...benchEnv, ...extraEnv }, logDir, restart: false, ...fleetOptions });
  const stopFleet = fleet.stop.bind(fleet);
  fleet.stop = async () => {
    await stopFleet();
    execFileSync('rabbitmqctl', ['delete_vhost', vhost], { stdio: 'ignore' });
  };
  const admin = (...args) => JSON.parse(execFileSync(process.execPath, [join(root, 'services/billing/dist/cli/admin.js'), ...args, '--json'], { env: { ...process.env, ...benchEnv }, encoding: 'utf8' }).trim());
  const org = admin('org', 'create', '--name', `bench-${process.pid}`, '--plan', 'paid', '--credit', '100000000000');
  const key = admin('key', 'create', '--org', org.organization_id, '--rpm', '1000000', '--tpm', '1000000000');
  return { fleet, apiKey: key.key };
}

/** An OTLP/HTTP receiver that reads every export and answers 200 (the collector of "telemetry on"). */
export async function otlpSink() {
  let exports = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}`, exports: () => exports, close: () => new Promise((done) => server.close(done)) };
}

/**
 * One of several fleets in a run: the build in `checkout` (this one, or another installed and
 * built clone), with its own RabbitMQ vhost and Redis key prefix, an organization with credit and
 * a key. With `telemetry` it runs as deployed: traces over OTLP/HTTP to `sinkUrl`, the Prometheus
 * exporter on every service. `nodeArgs` ({service: [flags]}) start services with Node flags (the
 * soak's --trace-gc).
 */
export async function bootSideBySide({ label, checkout = root, telemetry, sinkUrl, env: extraEnv = {}, nodeArgs }) {
  const { startFleet, freePort, SERVICE_NAMES } = require(join(checkout, 'libs/fleet/dist/index.js'));
  const tag = label.replace(/[^a-z0-9]+/gi, '_');
  prepareBenchPlaces();
  const vhost = `svc_bench_${tag}_${process.pid}`;
  addVhost(vhost);
  const env = { ...benchEnv, ...extraEnv, AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${vhost}`, REDIS_KEY_PREFIX: `svcbench:${tag}:${process.pid}:` };
  if (telemetry) {
    delete env.OTEL_SDK_DISABLED;
    env.OTEL_EXPORTER_OTLP_ENDPOINT = sinkUrl;
    // The deployed sampler (k8s/base/config/configmap.yaml), unless the caller sets another.
    env.TRACE_SAMPLE_RATIO = extraEnv.TRACE_SAMPLE_RATIO ?? '0.1';
  }
  const serviceEnv = {};
  if (telemetry && extraEnv.METRICS_PORT !== '0') for (const service of SERVICE_NAMES) serviceEnv[service] = { METRICS_PORT: String(await freePort()) };
  const logDir = join(root, '.svc', 'logs', `bench-${tag}`);
  mkdirSync(logDir, { recursive: true });
  let fleet;
  try {
    fleet = await startFleet({ root: checkout, env, serviceEnv, logDir, restart: false, ...(nodeArgs ? { nodeArgs } : {}) });
  } catch (error) {
    execFileSync('rabbitmqctl', ['delete_vhost', vhost], { stdio: 'ignore' });
    throw error;
  }
  const admin = (...rest) => JSON.parse(execFileSync(process.execPath, [join(checkout, 'services/billing/dist/cli/admin.js'), ...rest, '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim());
  const org = admin('org', 'create', '--name', `bench-${tag}-${process.pid}`, '--plan', 'paid', '--credit', '100000000000');
  const key = admin('key', 'create', '--org', org.organization_id, '--rpm', '1000000', '--tpm', '1000000000');
  return {
    label,
    fleet,
    logDir,
    organizationId: org.organization_id,
    apiKey: key.key,
    stop: async () => {
      await fleet.stop();
      execFileSync('rabbitmqctl', ['delete_vhost', vhost], { stdio: 'ignore' });
    },
  };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

/**
 * Open loop: `rate` calls a second for `seconds`, each started on schedule whatever the ones before
 * are doing; `call` resolves to its latency in ms. The summary of answered calls, errors and the rate
 * achieved.
 */
export async function atRate(rate, seconds, call) {
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latencies = [];
  let errors = 0;
  const started = performance.now();
  const pending = [];
  for (let i = 0; i < total; i += 1) {
    const wait = started + i * interval - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(call().then((latency) => latencies.push(latency), () => (errors += 1)));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  return { ...summarize(latencies), errors, achieved: latencies.length / elapsed };
}

/**
 * utime and stime of a process apart, in ms (USER_HZ is 100 on Linux): system is what the kernel
 * spent for it (syscalls, loopback TCP).
 */
export function cpuSplitMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

/** utime + stime of a process, in ms. */
export function cpuMs(pid) {
  const { user, system } = cpuSplitMs(pid);
  return user + system;
}

export const ms = (value) => `${value.toFixed(3)} ms`;

/** One POST through `dispatcher`, read to the end; its latency in milliseconds (throws on a non-200). */
export async function timedPost(dispatcher, url, headers, payload) {
  const { request } = require('undici');
  const started = process.hrtime.bigint();
  const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload, dispatcher });
  await response.body.arrayBuffer();
  if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}
