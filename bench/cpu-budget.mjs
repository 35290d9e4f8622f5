// Where the machine's CPU goes per named call, every process counted: one fleet with telemetry as
// deployed (traces over OTLP/HTTP to a sink in this process, sampled as deployed; Prometheus on
// every service), named chat calls sent open loop at a fixed rate, and the CPU time each process
// used over the measured window (/proc/<pid>/stat): each service of the fleet, vendor-sim,
// RabbitMQ (beam.smp), Redis, every Postgres process, and this process (load generator and sink).
// Per call and as a share of the whole, so the saturation rate can be read off it: two cores give
// 2,000 ms of CPU a second, so a fleet that needs C ms a call saturates near 2000 / C calls a second.
//
//   node bench/cpu-budget.mjs [--rate 300] [--seconds 10] [--telemetry on|off] [--env K=V,...]
import { Agent } from 'undici';
import { readdirSync, readFileSync } from 'node:fs';
import { atRate, bootSideBySide, cpuMs, otlpSink, timedPost } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const RATE = Number(args.rate ?? 300);
const SECONDS = Number(args.seconds ?? 10);
const TELEMETRY = (args.telemetry ?? 'on') !== 'off';
// Extra environment for every service of the fleet (e.g. METRICS_PORT=0 to measure traces alone).
const EXTRA_ENV = Object.fromEntries((args.env ?? '').split(',').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const say = (line = '') => process.stdout.write(`${line}\n`);

/** cpuMs of a process, 0 when it has gone (a Postgres backend that ended). */
const cpuOf = (pid) => {
  try {
    return cpuMs(pid);
  } catch {
    return 0;
  }
};

/** The pids whose command line passes `test`. */
function pidsMatching(test) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (test(readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '))) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/**
 * Postgres: every process's own CPU, listed at each reading (backends come and go), plus what
 * ended backends left in the postmaster's cutime/cstime.
 */
function postgresCpu() {
  const all = pidsMatching((command) => command.startsWith('postgres:') || command.includes('bin/postgres'));
  const postmaster = pidsMatching((command) => command.includes('bin/postgres'))[0];
  let total = all.reduce((sum, pid) => sum + cpuOf(pid), 0);
  if (postmaster) {
    const fields = readFileSync(`/proc/${postmaster}/stat`, 'utf8').split(') ')[1].split(' ');
    total += (Number(fields[13]) + Number(fields[14])) * 10;
  }
  return total;
}

const sink = await otlpSink();
const fleet = await bootSideBySide({ label: TELEMETRY ? 'cpu-on' : 'cpu-off', telemetry: TELEMETRY, sinkUrl: sink.url, env: EXTRA_ENV });
try {
  const edgeUrl = `http://127.0.0.1:${fleet.fleet.ports.edge}/v1/chat/completions`;
  const headers = { authorization: `Bearer ${fleet.apiKey}` };
  const payload = JSON.stringify({ model: 'vendor-1/orion-mini-5', max_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] });
  const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 30_000 });
  const call = () => timedPost(dispatcher, edgeUrl, headers, payload);
  // Warm-up: JIT, connection pools, prepared statements.
  await atRate(Math.min(RATE, 200), 3, call);

  const groups = {};
  for (const [service, child] of fleet.fleet.processes) groups[service] = [child.pid];
  groups.rabbitmq = pidsMatching((command) => command.includes('beam.smp'));
  groups.redis = pidsMatching((command) => command.startsWith('redis-server'));
  groups['load generator + OTLP sink'] = [process.pid];
  const read = () => ({ ...Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, pids.reduce((sum, pid) => sum + cpuOf(pid), 0)])), postgres: postgresCpu() });

  const before = read();
  const started = performance.now();
  const result = await atRate(RATE, SECONDS, call);
  const seconds = (performance.now() - started) / 1000;
  const after = read();
  const calls = result.n;
  const rows = Object.keys(after)
    .map((name) => ({ name, ms: after[name] - before[name] }))
    .sort((a, b) => b.ms - a.ms);
  const total = rows.reduce((sum, row) => sum + row.ms, 0);
  say(`${calls} named calls at ${RATE}/s offered (${result.achieved.toFixed(0)}/s achieved, ${result.errors} errors) over ${seconds.toFixed(1)} s, telemetry ${TELEMETRY ? 'on as deployed' : 'off'}`);
  say(`p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms through the fleet`);
  say('');
  say('| process | CPU per call | share |');
  say('|---|---|---|');
  for (const row of rows) say(`| ${row.name} | ${(row.ms / calls).toFixed(3)} ms | ${((100 * row.ms) / total).toFixed(1)} % |`);
  say(`| **all** | **${(total / calls).toFixed(3)} ms** | machine busy ${((100 * total) / (seconds * 1000 * 2)).toFixed(0)} % of two cores |`);
  say('');
  say(`saturation estimate from the whole: about ${Math.round(2000 / (total / calls))} calls/s on two cores`);
  say(JSON.stringify({ bench: 'cpu-budget', rate: RATE, seconds, telemetry: TELEMETRY, calls, achieved: result.achieved, errors: result.errors, per_call_ms: Object.fromEntries(rows.map((row) => [row.name, row.ms / calls])), total_per_call_ms: total / calls }));
  await dispatcher.close();
} finally {
  await fleet.stop();
  await sink.close();
}
