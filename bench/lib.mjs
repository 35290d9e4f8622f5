// Shared by the benchmarks: boot the fleet on free ports against the test environment,
// create an organization and key, and simple statistics. Run `npm test` (or
// `node scripts/setup.mjs`) once first so everything is built and migrated.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';

export const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);

export const benchEnv = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/svc_test',
  REDIS_URL: 'redis://127.0.0.1:6379/0',
  REDIS_KEY_PREFIX: `svcbench:${process.pid}:`,
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672/svc_test',
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  OTEL_SDK_DISABLED: 'true',
  // One client address sends everything: keep the per-address check on, with room.
  IP_RATE_LIMIT_PER_MINUTE: '100000000',
};

export async function bootFleet(extraEnv = {}) {
  const { startFleet } = require(join(root, 'libs/fleet/dist/index.js'));
  const logDir = join(root, '.svc', 'logs', 'bench');
  mkdirSync(logDir, { recursive: true });
  const fleet = await startFleet({ root, env: { ...benchEnv, ...extraEnv }, logDir, restart: false });
  const admin = (...args) => JSON.parse(execFileSync(process.execPath, [join(root, 'services/billing/dist/cli/admin.js'), ...args, '--json'], { env: { ...process.env, ...benchEnv }, encoding: 'utf8' }).trim());
  const org = admin('org', 'create', '--name', `bench-${process.pid}`, '--plan', 'paid', '--credit', '100000000000');
  const key = admin('key', 'create', '--org', org.organization_id, '--rpm', '1000000', '--tpm', '1000000000');
  return { fleet, apiKey: key.key };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
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
