// What authentication and the two limit checks add to one request: two express apps in
// this process, identical except that one runs the per-address limit, the key lookup (a key
// cache hit, as on the hot path) and the per-key bucket check against the real Redis. The same
// request alternates between them; medians and p99 are reported side by side.
//
//   node bench/edge-checks.mjs [--requests 5000]
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { root, summarize, ms } from './lib.mjs';

const require = createRequire(join(root, 'services/edge/package.json'));
const express = require('express');
const { createRedis } = require(join(root, 'libs/redis/dist/index.js'));
const { createLogger } = require(join(root, 'libs/logger/dist/index.js'));
const { createIpLimiter } = require(join(root, 'services/edge/dist/limits/ip-limit.js'));
const { createKeyLimiter, keyLimitsOf } = require(join(root, 'services/edge/dist/limits/key-limits.js'));
const { KeyCache } = require(join(root, 'services/edge/dist/auth/key-cache.js'));
const { requireKey } = require(join(root, 'services/edge/dist/middleware/auth.js'));

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const REQUESTS = Number(args.requests ?? 5000);
const KEY = 'svc_live_' + 'b'.repeat(43);
const record = { key_id: 'key_bench', organization_id: 'org_bench', scopes: ['chat'], expires_at_ms: 0, revoked: false, organization_status: 'active', rpm_limit: 100_000_000, tpm_limit: 1_000_000_000 };

function listen(app) {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

async function main() {
  const redis = createRedis({ url: 'redis://127.0.0.1:6379/0', keyPrefix: `svcbench:checks:${process.pid}:` });
  const logger = createLogger({ service: 'bench', silent: true });
  const ipLimiter = createIpLimiter({ redis, limitPerMinute: 100_000_000, logger });
  const keyLimiter = createKeyLimiter({ redis, logger });
  const cache = new KeyCache(60_000);
  const answer = (_req, res) => res.json({ ok: true });

  const checked = express();
  checked.use(express.json());
  checked.post('/v1/chat/completions', ipLimiter.middleware, requireKey(cache, async () => record), async (_req, res, next) => {
    try {
      const result = await keyLimiter.check(record.key_id, keyLimitsOf(record), 100);
      for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
      answer(_req, res);
    } catch (error) {
      next(error);
    }
  });
  const plain = express();
  plain.use(express.json());
  plain.post('/v1/chat/completions', answer);

  const [checkedServer, plainServer] = await Promise.all([listen(checked), listen(plain)]);
  const dispatcher = new Agent({ connections: 4 });
  const payload = JSON.stringify({ model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: 'hi' }] });
  const call = async (server) => {
    const started = process.hrtime.bigint();
    const response = await request(`http://127.0.0.1:${server.address().port}/v1/chat/completions`, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` }, body: payload });
    await response.body.arrayBuffer();
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  for (let i = 0; i < 500; i += 1) {
    await call(checkedServer);
    await call(plainServer);
  }
  const withChecks = [];
  const without = [];
  const added = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const a = await call(plainServer);
    const b = await call(checkedServer);
    without.push(a);
    withChecks.push(b);
    added.push(b - a);
  }
  const sw = summarize(withChecks);
  const so = summarize(without);
  const sa = summarize(added);
  process.stdout.write(`${REQUESTS} request pairs, interleaved\n`);
  process.stdout.write(`  checks off : p50 ${ms(so.p50)}  p99 ${ms(so.p99)}\n`);
  process.stdout.write(`  checks on  : p50 ${ms(sw.p50)}  p99 ${ms(sw.p99)}\n`);
  process.stdout.write(`  added      : p50 ${ms(sw.p50 - so.p50)} (median of pair differences ${ms(sa.p50)}), p99 ${ms(sw.p99 - so.p99)}\n`);
  checkedServer.close();
  plainServer.close();
  await dispatcher.close();
  redis.disconnect();
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
