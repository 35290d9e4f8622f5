// Memory soak: one fleet with telemetry on as deployed, a steady open-loop rate of mixed calls
// (named, auto, streamed, Responses turns, embeddings) for --minutes, every service's RSS sampled
// from /proc every --every seconds. After the warm-up (--warmup minutes) the RSS of each service
// must grow less than 5 %: growth = (median of the last minute − median of the first minute after
// warm-up) / the latter. Prints a table and one JSON line; exits 1 when a service grew 5 % or more
// or a call failed.
//
//   node bench/soak.mjs [--minutes 10] [--warmup 2] [--rate 100] [--every 5]
import { Agent, request } from 'undici';
import { readFileSync } from 'node:fs';
import { bootSideBySide, otlpSink } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const MINUTES = Number(args.minutes ?? 10);
const WARMUP = Number(args.warmup ?? 2);
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
  const soak = await bootSideBySide({ label: 'soak', telemetry: true, sinkUrl: sink.url, env: { LOG_LEVEL: 'info' } });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${soak.apiKey}` };
  const services = soak.fleet.instances.map((instance) => instance.name).filter((name) => name !== 'vendor-sim');
  const series = Object.fromEntries(services.map((name) => [name, []]));
  let sent = 0;
  let failed = 0;
  const failures = new Map();
  try {
    const started = performance.now();
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
  const rows = services.map((name) => {
    const first = median(series[name].filter((s) => s.at >= WARMUP && s.at < WARMUP + 1).map((s) => s.mb));
    const last = median(series[name].filter((s) => s.at >= MINUTES - 1).map((s) => s.mb));
    return { service: name, after_warmup_mb: first, end_mb: last, growth_percent: ((last - first) / first) * 100 };
  });
  process.stdout.write(`${MINUTES} min at ${RATE}/s of mixed calls, telemetry on as deployed: ${sent} sent, ${failed} failed${failures.size ? ` (${[...failures].map(([m, n]) => `${m} × ${n}`).join(', ')})` : ''}\n`);
  process.stdout.write(`| service | RSS after ${WARMUP} min warm-up | RSS in the last minute | growth |\n|---|---|---|---|\n`);
  for (const row of rows) process.stdout.write(`| ${row.service} | ${row.after_warmup_mb.toFixed(1)} MB | ${row.end_mb.toFixed(1)} MB | ${row.growth_percent.toFixed(1)} % |\n`);
  // RSS by minute (medians), to tell growth that levels off from growth that does not.
  const minutes = Array.from({ length: Math.ceil(MINUTES) }, (_, minute) => minute);
  process.stdout.write(`\nRSS by minute (MB): ${minutes.map((m) => m + 1).join(' / ')}\n`);
  for (const name of services) process.stdout.write(`  ${name}: ${minutes.map((m) => median(series[name].filter((s) => s.at >= m && s.at < m + 1).map((s) => s.mb))?.toFixed(0) ?? '—').join(' / ')}\n`);
  process.stdout.write(`${JSON.stringify({ bench: 'soak', minutes: MINUTES, rate: RATE, sent, failed, rows })}\n`);
  process.exit(failed === 0 && rows.every((row) => row.growth_percent < 5) ? 0 : 1);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
