// Memory soak: one fleet with telemetry on as deployed, a steady open-loop rate of mixed calls
// (named, auto, streamed, Responses turns, embeddings) for a warm-up (--warmup minutes) and then
// --minutes measured minutes, every service's RSS sampled from /proc every --every seconds.
//
// A Node process's RSS is a sawtooth, not a line: V8's old space fills with garbage between major
// collections (minutes apart in a service that allocates little) and is given back only in part.
// So growth is measured on the peaks: the highest RSS in the first --window minutes after the
// warm-up against the highest in the last --window minutes, each window at least one collection
// cycle long; a leak raises the peaks. Every service also runs with --trace-gc, and the live heap
// after each major collection (Mark-Compact) is read back from its log: the first after the
// warm-up against the last — the direct leak indicator. The goal: every service's peak RSS grows
// less than 5 %. Prints a table (peaks, medians by minute, live heap) and one JSON line; exits 1
// when a service grew 5 % or more or a call failed.
//
//   node bench/soak.mjs [--minutes 10] [--warmup 3] [--window 3] [--rate 100] [--every 5]
import { Agent, request } from 'undici';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { bootSideBySide, otlpSink } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const MEASURED = Number(args.minutes ?? 10);
const WARMUP = Number(args.warmup ?? 3);
const WINDOW = Number(args.window ?? 3);
const MINUTES = WARMUP + MEASURED;
const RATE = Number(args.rate ?? 100);
const EVERY = Number(args.every ?? 5);
const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 30_000 });

const json = (value) => JSON.stringify(value);
const CALLS = [
  ['/chat/completions', () => json({ model: 'vendor-1/orion-mini-5', max_tokens: 16, messages: [{ role: 'user', content: `soak ${Math.random()}` }] })],
  ['/chat/completions', () => json({ model: 'auto', max_tokens: 16, messages: [{ role: 'user', content: `Summarize in one sentence: the committee met ${Math.floor(Math.random() * 1e6)} times.` }] })],
  ['/chat/completions', () => json({ model: 'vendor-1/orion-mini-5', max_tokens: 16, stream: true, messages: [{ role: 'user', content: `soak ${Math.random()}` }] })],
  ['/responses', () => json({ model: 'vendor-1/orion-mini-5', max_output_tokens: 16, input: `soak ${Math.random()}` })],
  ['/embeddings', () => json({ model: 'vendor-1/orion-embed-3-small', input: `soak ${Math.random()}` })],
];

const rssMb = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
};
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function main() {
  const sink = await otlpSink();
  const { SERVICE_NAMES } = createRequire(import.meta.url)('../libs/fleet/dist/index.js');
  const bootedAt = Date.now();
  const soak = await bootSideBySide({ label: 'soak', telemetry: true, sinkUrl: sink.url, env: { LOG_LEVEL: 'info' }, nodeArgs: Object.fromEntries(SERVICE_NAMES.map((name) => [name, ['--trace-gc']])) });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${soak.apiKey}` };
  const services = soak.fleet.instances.map((instance) => instance.name).filter((name) => name !== 'vendor-sim');
  const series = Object.fromEntries(services.map((name) => [name, []]));
  let sent = 0;
  let processAgeMs = 0;
  let failed = 0;
  const failures = new Map();
  try {
    const started = performance.now();
    // The services' own clocks (--trace-gc) count from their start, shortly before this.
    processAgeMs = Date.now() - bootedAt;
    const end = started + MINUTES * 60_000;
    const sampler = setInterval(() => {
      const at = (performance.now() - started) / 60_000;
      for (const name of services) series[name].push({ at, mb: rssMb(soak.fleet.processOf(name).pid) });
    }, EVERY * 1000);
    const pending = new Set();
    for (let i = 0; performance.now() < end; i += 1) {
      const wait = started + (i * 1000) / RATE - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const [path, body] = CALLS[i % CALLS.length];
      sent += 1;
      const call = request(`${soak.fleet.baseUrl}${path}`, { method: 'POST', headers, body: body(), dispatcher })
        .then(async (response) => {
          await response.body.arrayBuffer();
          if (response.statusCode !== 200) throw new Error(`${path} ${response.statusCode}`);
        })
        .catch((error) => {
          failed += 1;
          failures.set(error.message, (failures.get(error.message) ?? 0) + 1);
        })
        .finally(() => pending.delete(call));
      pending.add(call);
    }
    await Promise.all(pending);
    clearInterval(sampler);
  } finally {
    await soak.stop();
    await sink.close();
    await dispatcher.close();
  }
  const inWindow = (name, from, to) => series[name].filter((sample) => sample.at >= from && sample.at < to).map((sample) => sample.mb);
  const peak = (values) => Math.max(...values);
  const rows = services.map((name) => {
    const first = peak(inWindow(name, WARMUP, WARMUP + WINDOW));
    const last = peak(inWindow(name, MINUTES - WINDOW, MINUTES + 1));
    const heap = liveHeap(join(soak.logDir, `${name.replace('#', '-')}.log`), soak.fleet.processOf(name)?.pid, processAgeMs);
    return { service: name, peak_after_warmup_mb: first, peak_last_mb: last, growth_percent: ((last - first) / first) * 100, live_heap: heap };
  });
  process.stdout.write(`${MEASURED} min at ${RATE}/s of mixed calls after a ${WARMUP}-minute warm-up, telemetry on as deployed: ${sent} sent, ${failed} failed${failures.size ? ` (${[...failures].map(([m, n]) => `${m} × ${n}`).join(', ')})` : ''}\n`);
  process.stdout.write(`| service | peak RSS, minutes ${WARMUP}–${WARMUP + WINDOW} | peak RSS, last ${WINDOW} minutes | growth | live heap after major GCs (first → last after warm-up, count) |\n|---|---|---|---|---|\n`);
  for (const row of rows) {
    const heap = row.live_heap.count > 0 ? `${row.live_heap.first_mb.toFixed(1)} → ${row.live_heap.last_mb.toFixed(1)} MB (${row.live_heap.count})` : 'no major GC after warm-up';
    process.stdout.write(`| ${row.service} | ${row.peak_after_warmup_mb.toFixed(1)} MB | ${row.peak_last_mb.toFixed(1)} MB | ${row.growth_percent.toFixed(1)} % | ${heap} |\n`);
  }
  // RSS by minute (medians), to tell growth that levels off from growth that does not.
  const minutes = Array.from({ length: Math.ceil(MINUTES) }, (_, minute) => minute);
  process.stdout.write(`\nRSS by minute (MB, medians): ${minutes.map((m) => m + 1).join(' / ')}\n`);
  for (const name of services) process.stdout.write(`  ${name}: ${minutes.map((m) => median(inWindow(name, m, m + 1))?.toFixed(0) ?? '—').join(' / ')}\n`);
  process.stdout.write(`${JSON.stringify({ bench: 'soak', minutes: MEASURED, warmup: WARMUP, window: WINDOW, rate: RATE, sent, failed, rows })}\n`);
  process.exit(failed === 0 && rows.every((row) => row.growth_percent < 5) ? 0 : 1);
}

/**
 * The live heap after each major collection of one process, from its --trace-gc lines
 * ("[pid:0x…]  164984 ms: Mark-Compact 36.1 (72.0) -> 24.5 (71.0) MB, …"; the time is since the
 * process started): the first and the last after the warm-up.
 */
function liveHeap(logFile, pid, processAgeMs) {
  const after = [];
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return { count: 0 };
  }
  const pattern = /^\[(\d+):0x[0-9a-f]+\]\s+(\d+) ms: Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) /gm;
  for (const match of text.matchAll(pattern)) {
    if (pid !== undefined && Number(match[1]) !== pid) continue;
    // Minutes since the load began (the process started processAgeMs before it).
    const at = (Number(match[2]) - processAgeMs) / 60_000;
    if (at >= WARMUP) after.push(Number(match[3]));
  }
  return after.length === 0 ? { count: 0 } : { count: after.length, first_mb: after[0], last_mb: after[after.length - 1] };
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
