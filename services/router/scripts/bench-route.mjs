#!/usr/bin/env node
// Auto-routing latency, three measurements:
//   1. classification in process: p50/p99 of classify() on corpus requests (chat and agent
//      turns) with the same input shape the router builds from a RouteRequest;
//   2. route() in process with the real Redis session store (no gRPC), first call and
//      tool-result turn: the router's own share of an RPC;
//   3. the Route RPC: p50/p99 of a gRPC call, one at a time, against a real router process
//      (dist/main.js, built here with tsc -b) on a free port with the real Redis, for
//      - auto, first call of a new session (classify, one Redis GET, one SET),
//      - auto, a tool-result turn of that session (cache_hit: GET and SET, no classification),
//      - a named model (no classifier, no Redis).
//
//   node services/router/scripts/bench-route.mjs [--n=3000] [--classify=10000]
//
// Needs Redis at REDIS_URL (default redis://127.0.0.1:6379/0). Keys go under a prefix of
// their own and are deleted at the end.
import { readFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const serviceDir = join(here, '..');
const root = join(serviceDir, '..', '..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const N = Number(args.n ?? 3000);
const N_CLASSIFY = Number(args.classify ?? 10000);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const PREFIX = `svcbench:router:${process.pid}:`;

const out = (line) => process.stdout.write(`${line}\n`);
const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
const report = (name, samples) => {
  const sorted = Float64Array.from(samples).sort();
  out(`${name.padEnd(44)} n=${String(sorted.length).padEnd(6)} p50 ${quantile(sorted, 0.5).toFixed(3)} ms   p99 ${quantile(sorted, 0.99).toFixed(3)} ms`);
};

// Build first so the in-process part and the process part run the same compiled code.
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc', { paths: [root] }), '-b', 'services/router'], { cwd: root, stdio: 'inherit' });

// ---- 1. classification in process ---------------------------------------------------------
const { loadClassifier } = require(join(serviceDir, 'dist/classifier/index.js'));
const classifier = loadClassifier();
// The corpus's prompts as sample inputs (training code is not in the build: read the JSONL directly).
const rows = readFileSync(join(serviceDir, 'data/corpus.jsonl'), 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
const routeMessages = (row) => {
  const messages = [{ role: 'user', text: row.text }];
  if (row.tool_result !== undefined) messages.push({ role: 'assistant', text: '[tool call]' }, { role: 'tool', text: row.tool_result });
  return messages;
};
const inputs = rows.map((row) => ({ system: row.system, messages: routeMessages(row).map((m) => ({ role: m.role, content: m.text })) }));
for (let i = 0; i < 2000; i++) classifier.classify(inputs[i % inputs.length]);
const classifyTimes = [];
for (let i = 0; i < N_CLASSIFY; i++) {
  const input = inputs[(i * 7919) % inputs.length];
  const t0 = process.hrtime.bigint();
  classifier.classify(input);
  classifyTimes.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
report('classification (in process)', classifyTimes);

// ---- 2. route() in process with the real Redis (no gRPC): the router's own share ----------
{
  const { catalog } = require(join(root, 'libs/catalog/dist/index.js'));
  const { createRedis: connectRedis, waitReady } = require(join(root, 'libs/redis/dist/index.js'));
  const { createRouter } = require(join(serviceDir, 'dist/routing/route.js'));
  const { redisSessionStore } = require(join(serviceDir, 'dist/routing/sessions.js'));
  const redis = connectRedis({ url: REDIS_URL, keyPrefix: PREFIX, failFast: true });
  await waitReady(redis);
  const router = createRouter({ catalog, classifier, sessions: redisSessionStore(redis), sessionTimeoutMs: 1000 });
  const request = (session, messages) => ({
    organization_id: 'org_bench', key_id: 'key_bench', model: 'auto', access: null, vendors: [], needs: { tools: true, vision: false, json_schema: false, input_tokens: 2000 },
    fallback: '', session_id: session, system_prompt: 'You are a coding agent.', messages, free_plan: false, reasoning_effort: '',
  });
  const first = [];
  const tool = [];
  for (let i = -300; i < N; i++) {
    const user = { role: 'user', text: rows[((i + 300) * 7919) % rows.length].text };
    let t0 = process.hrtime.bigint();
    await router.route(request(`inproc-${i}`, [user]));
    if (i >= 0) first.push(Number(process.hrtime.bigint() - t0) / 1e6);
    t0 = process.hrtime.bigint();
    await router.route(request(`inproc-${i}`, [user, { role: 'assistant', text: '[tool call]' }, { role: 'tool', text: 'ok' }]));
    if (i >= 0) tool.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  report('route() in process + Redis, first call', first);
  report('route() in process + Redis, tool-result turn', tool);
  await redis.quit();
}

// ---- 3. Route RPC against a router process -----------------------------------------------
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const port = await freePort();
const child = spawn(process.execPath, [join(serviceDir, 'dist/main.js')], {
  cwd: root,
  env: { ...process.env, ROUTER_HOST: '127.0.0.1', ROUTER_PORT: String(port), REDIS_URL, REDIS_KEY_PREFIX: PREFIX, NODE_ENV: 'production', LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const childExit = new Promise((resolve) => child.once('exit', resolve));

const grpc = require(require.resolve('@grpc/grpc-js', { paths: [join(root, 'libs/protos')] }));
const { loadRouterProto } = require(join(root, 'libs/protos/dist/index.js'));
const { createRedis } = require(join(root, 'libs/redis/dist/index.js'));
const proto = loadRouterProto();
const client = new proto.RouterService(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
const routeCall = (request) =>
  new Promise((resolve, reject) => client.Route(request, (error, response) => (error ? reject(error) : resolve(response))));

async function ready() {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      // A first auto call also waits until the router's Redis client is connected (before that
      // the router fails open and reports no_prior_decision on every call).
      const session = `ready-${Date.now()}`;
      await routeCall(base(session, [{ role: 'user', text: 'ready?' }]));
      const again = await routeCall(base(session, [{ role: 'user', text: 'ready?' }, { role: 'assistant', text: '[tool call]' }, { role: 'tool', text: 'ok' }]));
      if (again.routing?.trigger === 'cache_hit' || again.routing?.trigger === 'low_confidence_prior') return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('router did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function base(sessionId, messages, model = 'auto') {
  return {
    organization_id: 'org_bench',
    key_id: 'key_bench',
    model,
    access: { account_disabled: [], organization_disabled: [], project_disabled: [], key_allowed: [] },
    vendors: [],
    needs: { tools: true, vision: false, json_schema: false, input_tokens: 2000 },
    fallback: 'cross_vendor',
    session_id: sessionId,
    system_prompt: 'You are a coding agent. Use the tools to read, edit and test files in the repository.',
    messages,
    free_plan: false,
    reasoning_effort: '',
  };
}

async function timed(request) {
  const t0 = process.hrtime.bigint();
  const response = await routeCall(request);
  return [Number(process.hrtime.bigint() - t0) / 1e6, response];
}

let failed = false;
try {
  await ready();
  const texts = rows.map((row) => row.text);
  const firstTurn = (i) => base(`bench-${process.pid}-${i}`, [{ role: 'user', text: texts[(i * 7919) % texts.length] }]);
  const toolTurn = (i) => base(`bench-${process.pid}-${i}`, [
    { role: 'user', text: texts[(i * 7919) % texts.length] },
    { role: 'assistant', text: '[tool call read_file]' },
    { role: 'tool', text: 'export function total(lines) { return lines.reduce((a, l) => a + l.amount, 0) }' },
  ]);
  for (let i = 0; i < 300; i++) {
    await routeCall(firstTurn(-i - 1));
    await routeCall(toolTurn(-i - 1));
    await routeCall(base('', [{ role: 'user', text: 'warm up' }], 'vendor-1/orion-mini-5'));
  }
  const first = [];
  const tool = [];
  const named = [];
  const triggers = {};
  for (let i = 0; i < N; i++) {
    const [a, firstResponse] = await timed(firstTurn(i));
    first.push(a);
    const [b, toolResponse] = await timed(toolTurn(i));
    tool.push(b);
    const trigger = toolResponse.routing?.trigger ?? '';
    triggers[trigger] = (triggers[trigger] ?? 0) + 1;
    if (firstResponse.routing?.trigger !== 'no_prior_decision') throw new Error(`unexpected first-turn trigger ${firstResponse.routing?.trigger}`);
    const [c] = await timed(base('', [{ role: 'user', text: texts[i % texts.length] }], 'vendor-1/orion-mini-5'));
    named.push(c);
  }
  report('Route RPC, auto, first call of a session', first);
  report('Route RPC, auto, tool-result turn', tool);
  report('Route RPC, named model', named);
  out(`tool-result turn triggers: ${JSON.stringify(triggers)}`);
} catch (error) {
  failed = true;
  process.stderr.write(`bench-route: ${error.stack ?? error}\n`);
} finally {
  client.close();
  child.kill('SIGTERM');
  await childExit;
  const redis = createRedis({ url: REDIS_URL });
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}
process.exit(failed ? 1 : 0);
