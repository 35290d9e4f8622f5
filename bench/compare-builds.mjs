// Two builds of the gateway side by side in one run, with telemetry off and on: the named and
// auto latency each fleet adds over calling vendor-sim directly and a stream's first byte,
// interleaved request by request so every fleet sees the same machine noise; then the edge's and
// billing's CPU per named call, the fleets' named calls interleaved the same way. "Telemetry on"
// is as deployed: traces exported over OTLP/HTTP (to a sink in this process that reads and drops
// them, sampled at the deployed ratio), the Prometheus exporter on every service and LOG_LEVEL info.
//
//   node bench/compare-builds.mjs --before <checkout> [--requests 1000] [--warmup 2000] [--cpu-calls 1000] [--telemetry both|on|off]
//                                 [--rates 400,600,800 --seconds 5]
//
// --rates: then named calls open loop at each rate through one fleet at a time (the order turned
// each rate): achieved rate, p99 and errors; the highest rate served without errors is reported.
//
// <checkout> is another clone of this repository, installed and built (`npx tsc -b`), e.g. the
// commit before a change: `git worktree add /tmp/svc-before <rev>` then, in it,
// `.svc/tools/node_modules/.bin/pnpm install --offline && npx tsc -b` (or `node scripts/setup.mjs`).
// The current checkout is "after". Both use the benchmarks' database (BENCH_DATABASE_URL); each
// fleet gets its own RabbitMQ vhost and Redis key prefix. `--telemetry on` boots only the two
// fleets with telemetry on (fewer processes sharing the machine).
import { resolve } from 'node:path';
import { Agent } from 'undici';
import { request } from 'undici';
import { atRate, bootSideBySide, cpuMs, otlpSink, root, summarize, ms, timedPost } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const REQUESTS = Number(args.requests ?? 1000);
// Rounds through every fleet before measuring: V8 optimizes the hot path over the first thousands of calls.
const WARMUP = Number(args.warmup ?? 2000);
const CPU_CALLS = Number(args['cpu-calls'] ?? 1000);
const RATES = (args.rates ?? '').split(',').filter(Boolean).map(Number);
const SECONDS = Number(args.seconds ?? 5);
const MODES = args.telemetry === 'on' ? ['on'] : args.telemetry === 'off' ? ['off'] : ['off', 'on'];
if (!args.before) {
  process.stderr.write('usage: node bench/compare-builds.mjs --before <checkout> [--requests 1000] [--warmup 2000] [--cpu-calls 1000] [--telemetry both|on|off] [--rates 400,600 --seconds 5]\n');
  process.exit(2);
}
const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
// Open-loop runs need many connections at once (as deployed.mjs).
const openLoop = new Agent({ connections: 1024, keepAliveTimeout: 30_000, pipelining: 1 });
const namedBody = JSON.stringify({ model: 'vendor-1/orion-mini-5', max_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] });
const autoBody = JSON.stringify({ model: 'auto', max_tokens: 16, messages: [{ role: 'user', content: 'Summarize the following paragraph in one sentence: the committee met twice and agreed on the budget.' }] });
const directBody = JSON.stringify({ model: 'orion-mini-5', max_completion_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] });
const streamBody = JSON.stringify({ model: 'vendor-1/orion-mini-5', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'benchmark' }] });
const directStreamBody = JSON.stringify({ model: 'orion-mini-5', max_completion_tokens: 16, stream: true, messages: [{ role: 'user', content: 'benchmark' }] });

const timed = (url, headers, payload) => timedPost(dispatcher, url, headers, payload);

/** One streamed POST read to its end; its latency in ms to the first body byte. */
async function firstByte(url, headers, payload) {
  const started = process.hrtime.bigint();
  const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload, dispatcher });
  let at;
  for await (const _chunk of response.body) at ??= Number(process.hrtime.bigint() - started) / 1e6;
  if (response.statusCode !== 200) throw new Error(`${url}: status ${response.statusCode}`);
  return at;
}

async function boot(label, checkout, telemetry, sinkUrl) {
  const booted = await bootSideBySide({ label, checkout, telemetry, sinkUrl, ...(telemetry ? { env: { LOG_LEVEL: 'info' } } : {}) });
  return {
    label,
    pids: { edge: booted.fleet.processOf('edge').pid, billing: booted.fleet.processOf('billing').pid },
    url: `${booted.fleet.baseUrl}/chat/completions`,
    directUrl: `http://127.0.0.1:${booted.fleet.ports.vendorSim}/v1/chat/completions`,
    headers: { authorization: `Bearer ${booted.apiKey}` },
    stop: booted.stop,
  };
}

async function main() {
  const sink = await otlpSink();
  const before = resolve(args.before);
  const fleets = [];
  try {
    for (const mode of MODES) for (const [label, checkout] of [[`before-${mode}`, before], [`after-${mode}`, root]]) fleets.push(await boot(label, checkout, mode === 'on', sink.url));
    const direct = { url: fleets[0].directUrl, headers: { authorization: 'Bearer sim' } };
    const samples = Object.fromEntries(fleets.flatMap((fleet) => [[`${fleet.label} named`, []], [`${fleet.label} auto`, []], [`${fleet.label} stream`, []]]));
    const directSamples = [];
    const directStreamSamples = [];
    for (let i = 0; i < WARMUP; i += 1) for (const fleet of fleets) {
      await timed(fleet.url, fleet.headers, namedBody);
      await timed(fleet.url, fleet.headers, autoBody);
      await firstByte(fleet.url, fleet.headers, streamBody);
    }
    for (let i = 0; i < REQUESTS; i += 1) {
      directSamples.push(await timed(direct.url, direct.headers, directBody));
      directStreamSamples.push(await firstByte(direct.url, direct.headers, directStreamBody));
      // Rotate the order each round so no fleet always goes first.
      for (let j = 0; j < fleets.length; j += 1) {
        const fleet = fleets[(i + j) % fleets.length];
        samples[`${fleet.label} named`].push(await timed(fleet.url, fleet.headers, namedBody));
        samples[`${fleet.label} auto`].push(await timed(fleet.url, fleet.headers, autoBody));
        samples[`${fleet.label} stream`].push(await firstByte(fleet.url, fleet.headers, streamBody));
      }
    }
    // CPU per named call: named calls only, interleaved the same way, each process's CPU time over the window.
    const cpuBefore = fleets.map((fleet) => ({ edge: cpuMs(fleet.pids.edge), billing: cpuMs(fleet.pids.billing) }));
    for (let i = 0; i < CPU_CALLS; i += 1) for (let j = 0; j < fleets.length; j += 1) {
      const fleet = fleets[(i + j) % fleets.length];
      await timed(fleet.url, fleet.headers, namedBody);
    }
    const cpu = Object.fromEntries(fleets.map((fleet, index) => [fleet.label, { edge_ms: (cpuMs(fleet.pids.edge) - cpuBefore[index].edge) / CPU_CALLS, billing_ms: (cpuMs(fleet.pids.billing) - cpuBefore[index].billing) / CPU_CALLS }]));
    const d = summarize(directSamples);
    const ds = summarize(directStreamSamples);
    const result = { requests: REQUESTS, cpu_calls: CPU_CALLS, direct: { p50: d.p50, p99: d.p99 }, direct_stream_first_byte: { p50: ds.p50, p99: ds.p99 }, fleets: {}, cpu };
    process.stdout.write(`${REQUESTS} rounds, interleaved; direct to vendor-sim p50 ${ms(d.p50)} p99 ${ms(d.p99)}; its stream's first byte p50 ${ms(ds.p50)}\n`);
    process.stdout.write('fleet                 p50        p99        added p50 over direct\n');
    for (const [name, values] of Object.entries(samples)) {
      const s = summarize(values);
      const base = name.endsWith('stream') ? ds.p50 : d.p50;
      result.fleets[name] = { p50: s.p50, p99: s.p99, added_p50: s.p50 - base };
      process.stdout.write(`${name.padEnd(20)}  ${ms(s.p50).padEnd(10)} ${ms(s.p99).padEnd(10)} ${ms(s.p50 - base)}\n`);
    }
    for (const mode of MODES) {
      for (const kind of ['named', 'auto', 'stream']) {
        const b = result.fleets[`before-${mode} ${kind}`];
        const a = result.fleets[`after-${mode} ${kind}`];
        process.stdout.write(`telemetry ${mode}, ${kind === 'stream' ? 'stream first byte' : kind}: added p50 before ${ms(b.added_p50)}, after ${ms(a.added_p50)}, after/before ${(a.added_p50 / b.added_p50).toFixed(3)}\n`);
      }
      const b = cpu[`before-${mode}`];
      const a = cpu[`after-${mode}`];
      process.stdout.write(`telemetry ${mode}, CPU per named call (${CPU_CALLS} calls): edge before ${ms(b.edge_ms)}, after ${ms(a.edge_ms)}, after/before ${(a.edge_ms / b.edge_ms).toFixed(3)}; billing before ${ms(b.billing_ms)}, after ${ms(a.billing_ms)}\n`);
    }
    if (RATES.length > 0) {
      result.rates = [];
      const saturation = Object.fromEntries(fleets.map((fleet) => [fleet.label, 0]));
      for (const [index, rate] of RATES.entries()) {
        const row = { rate };
        for (let j = 0; j < fleets.length; j += 1) {
          const fleet = fleets[(index + j) % fleets.length];
          const run = await atRate(rate, SECONDS, () => timedPost(openLoop, fleet.url, fleet.headers, namedBody));
          row[fleet.label] = { achieved: run.achieved, p50_ms: run.p50, p99_ms: run.p99, errors: run.errors };
          if (run.errors === 0) saturation[fleet.label] = Math.max(saturation[fleet.label], run.achieved);
          process.stdout.write(`open loop ${rate}/s, ${fleet.label}: achieved ${run.achieved.toFixed(0)}/s, p50 ${ms(run.p50)}, p99 ${ms(run.p99)}, errors ${run.errors}\n`);
        }
        result.rates.push(row);
      }
      result.saturation = saturation;
      process.stdout.write(`served without errors, highest achieved: ${Object.entries(saturation).map(([label, value]) => `${label} ${value.toFixed(0)}/s`).join(', ')}\n`);
    }
    process.stdout.write(`OTLP exports received: ${sink.exports()}\n`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    for (const fleet of fleets) await fleet.stop().catch(() => undefined);
    await sink.close();
    await openLoop.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
