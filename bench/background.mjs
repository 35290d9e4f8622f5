// Background responses end to end (issue 16's benchmark: "1,000 background responses queued at
// once reach completed within a bound you measure and report").
//
//   node bench/background.mjs [--responses 1000] [--concurrency 50] [--telemetry on|off]
//                             [--pool on --pool-max-lines 200 --pool-max-age-ms 2000]
//
// One fleet (telemetry on by default, as deployed: traces over OTLP/HTTP to a sink in this
// process, Prometheus on every service). The responses are queued as fast as `--concurrency`
// clients can POST them (POST /v1/responses, background true, each its own conversation, the
// simulator with no injected latency); then every one is polled with GET until it ended. Reports
// the POST latency (p50/p99: what queueing costs a client), the time until the last one
// completed, the completion rate, and the statuses. Without --pool every turn runs as its own job
// on the workers. With --pool on every turn is batch-bound (x-svc-deadline 24h on a batch-tier
// model) and goes through the organization's vendor-batch pool; the bench watches
// conversations.response_pool while it runs and reports how many vendor batches were sent and
// their sizes (the rows of a batch are marked sent together and stay until its results are read,
// at least one POOL_POLL_INTERVAL_MS later).
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import pg from 'pg';
import { benchEnv, bootSideBySide, otlpSink, summarize } from './lib.mjs';

/** Watches the pool's sent rows: vendor batch id → lines (the bench's organization only). */
function watchPool(organizationId) {
  const batches = new Map();
  const db = new pg.Client({ connectionString: benchEnv.DATABASE_URL });
  let stopped = false;
  const done = (async () => {
    await db.connect();
    while (!stopped) {
      const { rows } = await db.query("SELECT vendor_batch_id, count(*)::int AS lines FROM conversations.response_pool WHERE organization_id = $1 AND state = 'sent' GROUP BY 1", [organizationId]);
      for (const row of rows) batches.set(row.vendor_batch_id, Math.max(batches.get(row.vendor_batch_id) ?? 0, row.lines));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await db.end();
  })();
  return { batches, stop: async () => { stopped = true; await done; } };
}

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const RESPONSES = Number(args.responses ?? 1000);
const CONCURRENCY = Number(args.concurrency ?? 50);
const TELEMETRY = (args.telemetry ?? 'on') === 'on';
const MODEL = 'vendor-1/orion-mini-5';
const POOL = (args.pool ?? 'off') === 'on';
const POOL_ENV = POOL
  ? { POOL_MAX_LINES: String(args['pool-max-lines'] ?? 200), POOL_MAX_AGE_MS: String(args['pool-max-age-ms'] ?? 2000), POOL_FLUSH_INTERVAL_MS: '200', POOL_POLL_INTERVAL_MS: '1000' }
  : {};
const turnHeaders = POOL ? { 'x-svc-deadline': '24h' } : {};
const dispatcher = new Agent({ connections: 128, keepAliveTimeout: 30_000 });
const say = (line = '') => process.stdout.write(`${line}\n`);
const elapsedMs = (started) => Number(process.hrtime.bigint() - started) / 1e6;

async function call(method, url, headers, body) {
  const response = await request(url, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body), dispatcher });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode} ${text}`);
  return JSON.parse(text);
}

async function pool(items, concurrency, work) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  }));
}

async function main() {
  const sink = TELEMETRY ? await otlpSink() : undefined;
  const fleet = await bootSideBySide({ label: 'background', telemetry: TELEMETRY, sinkUrl: sink?.url, env: POOL_ENV });
  const base = `http://127.0.0.1:${fleet.fleet.ports.edge}/v1`;
  const headers = { authorization: `Bearer ${fleet.apiKey}` };
  try {
    // Warm-up: a few turns end to end (own jobs: the pool's batches are counted from a clean start).
    for (let i = 0; i < 5; i += 1) {
      const queued = await call('POST', `${base}/responses`, headers, { model: MODEL, input: 'warm up', max_output_tokens: 256, background: true });
      for (;;) {
        const current = await call('GET', `${base}/responses/${queued.id}`, headers);
        if (current.status !== 'queued') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const watch = POOL ? watchPool(fleet.organizationId) : undefined;
    const postMs = [];
    const ids = new Array(RESPONSES);
    const started = process.hrtime.bigint();
    await pool(Array.from({ length: RESPONSES }, (_, i) => i), CONCURRENCY, async (i) => {
      const sent = process.hrtime.bigint();
      const queued = await call('POST', `${base}/responses`, { ...headers, ...turnHeaders }, { model: MODEL, input: `Background benchmark ${i} ${randomBytes(4).toString('hex')}`, max_output_tokens: 256, background: true });
      postMs.push(elapsedMs(sent));
      ids[i] = queued.id;
    });
    const queuedAllMs = elapsedMs(started);
    const ended = new Map();
    let lastEndMs = 0;
    while (ended.size < RESPONSES && elapsedMs(started) < 15 * 60_000) {
      const open = ids.filter((id) => !ended.has(id));
      await pool(open, CONCURRENCY, async (id) => {
        const current = await call('GET', `${base}/responses/${id}`, headers);
        if (current.status !== 'queued') {
          ended.set(id, current.status);
          lastEndMs = elapsedMs(started);
        }
      });
      if (ended.size < RESPONSES) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await watch?.stop();
    const statuses = {};
    for (const status of ended.values()) statuses[status] = (statuses[status] ?? 0) + 1;
    const posts = summarize(postMs);
    say(`background responses: ${RESPONSES} queued by ${CONCURRENCY} clients, telemetry ${TELEMETRY ? 'on' : 'off'}`);
    say('');
    say('| measure | value |');
    say('|---|---|');
    say(`| POST (queued) p50 | ${posts.p50.toFixed(2)} ms |`);
    say(`| POST (queued) p99 | ${posts.p99.toFixed(2)} ms |`);
    say(`| all ${RESPONSES} queued after | ${(queuedAllMs / 1000).toFixed(2)} s |`);
    say(`| last one ended after | ${(lastEndMs / 1000).toFixed(2)} s |`);
    say(`| completion rate | ${(RESPONSES / (lastEndMs / 1000)).toFixed(1)} responses/s |`);
    say(`| statuses | ${JSON.stringify(statuses)} |`);
    say(`| unended | ${RESPONSES - ended.size} |`);
    if (watch) {
      const sizes = [...watch.batches.values()].sort((a, b) => b - a);
      say(`| pool settings | ${JSON.stringify(POOL_ENV)} |`);
      say(`| vendor batches sent | ${sizes.length} |`);
      say(`| batch sizes (lines) | ${sizes.join(', ')} |`);
      say(`| lines seen in batches | ${sizes.reduce((sum, size) => sum + size, 0)} |`);
    }
  } finally {
    await fleet.stop();
    await sink?.close();
    await dispatcher.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
