// Where the fleet spends CPU per call: boots one fleet with telemetry as deployed (OTLP traces to a
// local sink, Prometheus on every service, production log level), the edge and billing under V8's
// CPU profiler, sends named (and, with --auto, auto) chat calls one after another, and prints each
// profiled service's CPU per call (process CPU time deltas) and its top frames by self time, folded
// by function and by package. The .cpuprofile files stay in .svc/profiles/ for a closer look in
// Chrome DevTools. --responses sends Responses turns instead: each continues the head of a 20-turn
// conversation (previous_response_id, store true), as bench/responses.mjs does.
//
//   node bench/profile.mjs [--requests 3000] [--warmup 2000] [--services edge,billing] [--auto | --responses] [--top 25]
//                          [--telemetry on|off|traces|metrics] [--env K=V,...] [--checkout <dir>] [--profile on|off|perf]
// --profile perf: Linux perf instead of V8's profiler (V8's puts time after a syscall on the native
// write it returned from: 40 % "writev"/"writeBuffer" for 0.15 ms of kernel time a call).
import { Agent, request } from 'undici';
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolve } from 'node:path';
import { benchEnv, cpuSplitMs, otlpSink, root as here, timedPost } from './lib.mjs';

const require = createRequire(import.meta.url);
const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]?.startsWith('--') || all[i + 1] === undefined ? 'true' : all[i + 1]] : null)).filter(Boolean));
const REQUESTS = Number(args.requests ?? 3000);
const WARMUP = Number(args.warmup ?? 2000);
const SERVICES = (args.services ?? 'edge,billing').split(',');
const TOP = Number(args.top ?? 25);
// --checkout <dir>: profile another built clone (e.g. the commit before a change) with this script.
const root = args.checkout ? `${resolve(args.checkout)}/` : here;
const AUTO = args.auto === 'true';
const RESPONSES = args.responses === 'true';
const TELEMETRY = args.telemetry !== 'off';
const PERF = args.profile === 'perf';
const PROFILE = args.profile !== 'off' && !PERF;

/** Self time per node, folded by `fold(node)`, as a share of all sampled time. */
function fold(profile, key, window) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    at += deltas[i] ?? 0;
    // Only the measured calls: start-up, warm-up and shutdown are left out.
    if (window && (at < window.from || at > window.to)) continue;
    const node = byId.get(profile.samples[i]);
    const k = key(node.callFrame);
    self.set(k, (self.get(k) ?? 0) + (deltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return { total, rows: [...self.entries()].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, us, share: us / total })) };
}

const packageOf = ({ url, functionName }) => {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  const at = url.indexOf(root);
  const path = at >= 0 ? url.slice(at + root.length) : url;
  return path.split('/').slice(0, 2).join('/');
};
const frameOf = ({ url, functionName, lineNumber }) => {
  const short = url ? url.replace(/^file:\/\//, '').replace(root, '').replace(/.*node_modules\//, '') : '';
  return `${functionName || '(anonymous)'} ${short}${short ? `:${lineNumber + 1}` : ''}`;
};

// The measured window on the monotonic clock in µs, the clock V8's profiles are stamped with.
const window = { from: 0, to: 0 };

async function main() {
  const { startFleet } = require(join(root, 'libs/fleet/dist/index.js'));
  const { freePort, SERVICE_NAMES } = require(join(root, 'libs/fleet/dist/index.js'));
  execFileSync(process.execPath, [join(root, 'libs/db/dist/migrate-cli.js'), '--create-database'], { env: { ...process.env, DATABASE_URL: benchEnv.DATABASE_URL }, stdio: 'ignore' });
  const vhost = `svc_bench_profile_${process.pid}`;
  execFileSync('rabbitmqctl', ['add_vhost', vhost], { stdio: 'ignore' });
  execFileSync('rabbitmqctl', ['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*'], { stdio: 'ignore' });
  const sink = await otlpSink();
  const dir = join(root, '.svc', 'profiles');
  rmSync(dir, { recursive: true, force: true });
  const env = { ...benchEnv, AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${vhost}`, LOG_LEVEL: 'info' };
  const serviceEnv = {};
  if (TELEMETRY) {
    delete env.OTEL_SDK_DISABLED;
    if (args.telemetry !== 'metrics') env.OTEL_EXPORTER_OTLP_ENDPOINT = sink.url;
    env.TRACE_SAMPLE_RATIO = '0.1'; // as deployed (k8s/base/config/configmap.yaml); --env overrides
    if (args.telemetry !== 'traces') for (const service of SERVICE_NAMES) serviceEnv[service] = { METRICS_PORT: String(await freePort()) };
  }
  // --env K=V,K=V: settings for every service (e.g. TRACE_SAMPLE_RATIO=1).
  for (const pair of (args.env ?? '').split(',').filter(Boolean)) env[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1);
  const nodeArgs = {};
  // --profile perf: Linux perf samples the process (user and kernel, no signal-timing bias); the
  // JIT writes /tmp/perf-<pid>.map so JavaScript frames have names.
  for (const service of PERF ? SERVICES : []) nodeArgs[service] = ['--perf-basic-prof-only-functions'];
  for (const service of PROFILE ? SERVICES : []) {
    mkdirSync(join(dir, service), { recursive: true });
    nodeArgs[service] = ['--cpu-prof', '--cpu-prof-dir', join(dir, service), '--cpu-prof-interval', '200'];
  }
  const fleet = await startFleet({ root, env, serviceEnv, nodeArgs, logDir: join(root, '.svc', 'logs', 'bench-profile'), restart: false });
  const admin = (...rest) => JSON.parse(execFileSync(process.execPath, [join(root, 'services/billing/dist/cli/admin.js'), ...rest, '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim());
  const org = admin('org', 'create', '--name', `bench-profile-${process.pid}`, '--plan', 'paid', '--credit', '100000000000');
  const key = admin('key', 'create', '--org', org.organization_id, '--rpm', '1000000', '--tpm', '1000000000');
  const dispatcher = new Agent({ connections: 16, keepAliveTimeout: 30_000 });
  const url = `${fleet.baseUrl}/${RESPONSES ? 'responses' : 'chat/completions'}`;
  const headers = { authorization: `Bearer ${key.key}` };
  let named = JSON.stringify({ model: 'vendor-1/orion-mini-5', max_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] });
  if (RESPONSES) {
    // A 20-turn conversation; every measured turn continues its head (a branch each, so the history stays 20 turns).
    let head;
    for (let turn = 0; turn < 20; turn += 1) {
      const response = await request(`${fleet.baseUrl}/responses`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ model: 'vendor-1/orion-mini-5', max_output_tokens: 16, input: `Turn ${turn}: answer this turn briefly.`, ...(head ? { previous_response_id: head } : {}) }), dispatcher });
      head = (await response.body.json()).id;
    }
    named = JSON.stringify({ model: 'vendor-1/orion-mini-5', max_output_tokens: 16, input: 'Benchmark: answer this turn briefly.', previous_response_id: head });
  }
  const auto = JSON.stringify({ model: 'auto', max_tokens: 16, messages: [{ role: 'user', content: 'Summarize the following paragraph in one sentence: the committee met twice and agreed on the budget.' }] });
  const cpuOf = (service) => cpuSplitMs(fleet.processOf(service)?.pid);
  try {
    for (let i = 0; i < WARMUP; i += 1) await timedPost(dispatcher, url, headers, AUTO && i % 2 ? auto : named);
    const before = Object.fromEntries(SERVICES.map((service) => [service, cpuOf(service)]));
    const recorders = PERF ? SERVICES.map((service) => {
      mkdirSync(join(dir, service), { recursive: true });
      return spawn('perf', ['record', '-F', '1999', '-g', '-o', join(dir, service, 'perf.data'), '-p', String(fleet.processOf(service)?.pid)], { stdio: 'ignore' });
    }) : [];
    if (PERF) await new Promise((resolve) => setTimeout(resolve, 500));
    const started = performance.now();
    window.from = Number(process.hrtime.bigint() / 1000n);
    for (let i = 0; i < REQUESTS; i += 1) await timedPost(dispatcher, url, headers, AUTO && i % 2 ? auto : named);
    const elapsed = performance.now() - started;
    window.to = Number(process.hrtime.bigint() / 1000n);
    for (const recorder of recorders) {
      const exited = new Promise((resolve) => recorder.once('exit', resolve));
      recorder.kill('SIGINT');
      await exited;
    }
    process.stdout.write(`${REQUESTS} ${RESPONSES ? 'Responses turns' : AUTO ? 'named and auto (alternating)' : 'named'} calls in ${(elapsed / 1000).toFixed(1)} s, telemetry ${TELEMETRY ? 'on as deployed' : 'off'}${PROFILE ? ', under the profiler' : PERF ? ', under perf' : ''}\n`);
    for (const service of SERVICES) {
      const now = cpuOf(service);
      const user = (now.user - before[service].user) / REQUESTS;
      const system = (now.system - before[service].system) / REQUESTS;
      process.stdout.write(`  ${service}: ${(user + system).toFixed(2)} ms CPU per call (user ${user.toFixed(2)}, kernel ${system.toFixed(2)})\n`);
    }
  } finally {
    await fleet.stop();
    await sink.close();
    await dispatcher.close();
    execFileSync('rabbitmqctl', ['delete_vhost', vhost], { stdio: 'ignore' });
  }
  for (const service of PERF ? SERVICES : []) {
    const report = execFileSync('perf', ['report', '-i', join(dir, service, 'perf.data'), '--no-children', '--sort', 'dso,sym', '--stdio', '-g', 'none', '--percent-limit', '0.4'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
    process.stdout.write(`\n${service}: perf samples of the measured calls by shared object and symbol (self)\n`);
    for (const line of report.split('\n').filter((l) => /^\s+\d/.test(l)).slice(0, TOP)) process.stdout.write(`  ${line.trim().replace(/\s+/g, ' ')}\n`);
  }
  for (const service of PROFILE ? SERVICES : []) {
    const file = readdirSync(join(dir, service)).find((name) => name.endsWith('.cpuprofile'));
    if (!file) {
      process.stdout.write(`\n${service}: no profile written\n`);
      continue;
    }
    const profile = JSON.parse(readFileSync(join(dir, service, file), 'utf8'));
    const byPackage = fold(profile, packageOf, window);
    const byFrame = fold(profile, frameOf, window);
    const idle = byPackage.rows.find((row) => row.name === '(idle)')?.us ?? 0;
    const busy = byPackage.total - idle;
    const perCall = (us) => `${(us / 1000 / REQUESTS).toFixed(3)} ms`;
    process.stdout.write(`\n${service} (${join('.svc/profiles', service, file)}): the measured calls only, busy ${perCall(busy)} a call; share of busy time and self time a call\n`);
    process.stdout.write('  by package:\n');
    for (const row of byPackage.rows.filter((r) => r.name !== '(idle)').slice(0, 20)) process.stdout.write(`    ${((row.us / busy) * 100).toFixed(1).padStart(5)} %  ${perCall(row.us).padStart(9)}  ${row.name}\n`);
    process.stdout.write('  top frames (self time):\n');
    for (const row of byFrame.rows.filter((r) => !r.name.startsWith('(idle)')).slice(0, TOP)) process.stdout.write(`    ${((row.us / busy) * 100).toFixed(1).padStart(5)} %  ${perCall(row.us).padStart(9)}  ${row.name}\n`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
