// What the gateway adds, measured as deployed: two fleets side by side, one with telemetry on as
// deployed (traces over OTLP/HTTP to a local sink with the deployed sampler, Prometheus on every
// service, LOG_LEVEL info) and one with telemetry off, and vendor-sim called directly as the
// baseline. Every round sends each kind of call to vendor-sim and to both fleets, rotating which
// goes first, so all three see the same machine noise.
//
// Kinds: a named chat call, an auto chat call, a stream's first byte, a Responses turn (store on,
// the vendor call is the same chat completion) and an embeddings call. Then open-loop rates through
// each fleet (achieved rate, p99 added over direct at the same rate, errors), the saturation rate
// (the most each fleet served error-free), and the edge's and billing's CPU per named call from
// process CPU time (/proc/<pid>/stat) over a run of named calls.
//
//   node bench/deployed.mjs [--rounds 600] [--warmup 2000] [--rates 250,500,1000,1500,2000] [--seconds 5] [--cpu-calls 1000]
import { Agent, request } from 'undici';
import { atRate, bootSideBySide, cpuMs, otlpSink, summarize } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const ROUNDS = Number(args.rounds ?? 600);
// Calls of each kind through each fleet before anything is measured: until V8 has optimized the
// hot path (with 100, the first measured thousand calls ran partly unoptimized; see bench/README.md, "Warm-up").
const WARMUP = Number(args.warmup ?? 2000);
const RATES = (args.rates ?? '250,500,1000,1500,2000').split(',').map(Number);
const SECONDS = Number(args.seconds ?? 5);
const CPU_CALLS = Number(args['cpu-calls'] ?? 1000);
const dispatcher = new Agent({ connections: 1024, keepAliveTimeout: 30_000, pipelining: 1 });

const json = (value) => JSON.stringify(value);
const KINDS = {
  named: {
    path: '/chat/completions',
    body: json({ model: 'vendor-1/orion-mini-5', max_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] }),
    direct: ['/v1/chat/completions', json({ model: 'orion-mini-5', max_completion_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] })],
  },
  auto: {
    path: '/chat/completions',
    body: json({ model: 'auto', max_tokens: 16, messages: [{ role: 'user', content: 'Summarize the following paragraph in one sentence: the committee met twice and agreed on the budget.' }] }),
    direct: ['/v1/chat/completions', json({ model: 'orion-mini-5', max_completion_tokens: 16, messages: [{ role: 'user', content: 'Summarize the following paragraph in one sentence: the committee met twice and agreed on the budget.' }] })],
  },
  stream_first_byte: {
    path: '/chat/completions',
    stream: true,
    body: json({ model: 'vendor-1/orion-mini-5', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'benchmark' }] }),
    direct: ['/v1/chat/completions', json({ model: 'orion-mini-5', max_completion_tokens: 16, stream: true, messages: [{ role: 'user', content: 'benchmark' }] })],
  },
  responses_turn: {
    path: '/responses',
    body: json({ model: 'vendor-1/orion-mini-5', max_output_tokens: 16, input: 'benchmark' }),
    direct: ['/v1/chat/completions', json({ model: 'orion-mini-5', max_completion_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] })],
  },
  embeddings: {
    path: '/embeddings',
    body: json({ model: 'vendor-1/orion-embed-3-small', input: 'benchmark' }),
    direct: ['/v1/embeddings', json({ model: 'orion-embed-3-small', input: 'benchmark' })],
  },
};

/** One POST; its latency in ms to the whole body, or to the first body byte for a stream. */
async function timed(url, headers, body, firstByte = false) {
  const started = process.hrtime.bigint();
  const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, dispatcher });
  let at;
  if (firstByte) {
    for await (const _chunk of response.body) at ??= Number(process.hrtime.bigint() - started) / 1e6;
  } else {
    await response.body.arrayBuffer();
    at = Number(process.hrtime.bigint() - started) / 1e6;
  }
  if (response.statusCode !== 200) throw new Error(`${url}: status ${response.statusCode}`);
  return at;
}


const f = (value) => (Number.isFinite(value) ? value.toFixed(2) : '—');

async function main() {
  const sink = await otlpSink();
  const fleets = [];
  try {
    fleets.push(await bootSideBySide({ label: 'telemetry on', telemetry: true, sinkUrl: sink.url, env: { LOG_LEVEL: 'info' } }));
    fleets.push(await bootSideBySide({ label: 'telemetry off', telemetry: false, env: { LOG_LEVEL: 'info' } }));
    const directBase = `http://127.0.0.1:${fleets[0].fleet.ports.vendorSim}`;
    const directHeaders = { authorization: 'Bearer sim' };
    const targets = [
      { label: 'direct', call: (kind) => timed(`${directBase}${kind.direct[0]}`, directHeaders, kind.direct[1], kind.stream) },
      ...fleets.map((fleet) => ({ label: fleet.label, call: (kind) => timed(`${fleet.fleet.baseUrl}${kind.path}`, { authorization: `Bearer ${fleet.apiKey}` }, kind.body, kind.stream) })),
    ];

    // Warm-up: every kind through every fleet (WARMUP rounds), and through vendor-sim.
    for (let i = 0; i < WARMUP; i += 1) for (const kind of Object.values(KINDS)) for (const target of i < 100 ? targets : targets.slice(1)) await target.call(kind);

    // Sequential, interleaved.
    const samples = Object.fromEntries(Object.keys(KINDS).map((name) => [name, Object.fromEntries(targets.map((target) => [target.label, []]))]));
    const added = Object.fromEntries(Object.keys(KINDS).map((name) => [name, Object.fromEntries(fleets.map((fleet) => [fleet.label, []]))]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, kind] of Object.entries(KINDS)) {
        const order = targets.map((_, i) => targets[(i + round) % targets.length]);
        const took = {};
        for (const target of order) took[target.label] = await target.call(kind);
        for (const target of targets) samples[name][target.label].push(took[target.label]);
        for (const fleet of fleets) added[name][fleet.label].push(took[fleet.label] - took.direct);
      }
    }
    const sequential = {};
    for (const name of Object.keys(KINDS)) {
      const direct = summarize(samples[name].direct);
      sequential[name] = { direct_p50_ms: direct.p50, direct_p99_ms: direct.p99 };
      for (const fleet of fleets) {
        const through = summarize(samples[name][fleet.label]);
        const pairs = summarize(added[name][fleet.label]);
        sequential[name][fleet.label] = { p50_ms: through.p50, p99_ms: through.p99, added_p50_ms: pairs.p50, added_p99_ms: through.p99 - direct.p99 };
      }
    }

    // CPU per named call, each fleet on its own.
    const cpu = {};
    for (const fleet of fleets) {
      const pids = { edge: fleet.fleet.processOf('edge').pid, billing: fleet.fleet.processOf('billing').pid };
      const before = { edge: cpuMs(pids.edge), billing: cpuMs(pids.billing) };
      for (let i = 0; i < CPU_CALLS; i += 1) await targets.find((target) => target.label === fleet.label).call(KINDS.named);
      cpu[fleet.label] = { edge_ms: (cpuMs(pids.edge) - before.edge) / CPU_CALLS, billing_ms: (cpuMs(pids.billing) - before.billing) / CPU_CALLS };
    }

    // Open loop: each rate through each fleet, then direct at the same rate.
    const rates = [];
    const saturation = Object.fromEntries(fleets.map((fleet) => [fleet.label, 0]));
    for (const rate of RATES) {
      const row = { rate };
      const direct = await atRate(rate, Math.max(2, SECONDS / 2), () => targets[0].call(KINDS.named));
      row.direct_p99_ms = direct.p99;
      for (const fleet of fleets) {
        const run = await atRate(rate, SECONDS, () => targets.find((target) => target.label === fleet.label).call(KINDS.named));
        row[fleet.label] = { achieved: run.achieved, p50_ms: run.p50, p99_ms: run.p99, added_p99_ms: run.p99 - direct.p99, errors: run.errors };
        if (run.errors === 0) saturation[fleet.label] = Math.max(saturation[fleet.label], run.achieved);
      }
      rates.push(row);
    }

    // The table.
    const labels = fleets.map((fleet) => fleet.label);
    const out = [];
    out.push(`sequential, ${ROUNDS} interleaved rounds (ms; added = through the fleet − direct, median of pairs; p99 added = p99 through − p99 direct)`);
    out.push(`| call | direct p50 | ${labels.map((l) => `${l}: added p50 | p99 added`).join(' | ')} |`);
    out.push(`|---|---|${labels.map(() => '---|---').join('|')}|`);
    for (const [name, row] of Object.entries(sequential)) out.push(`| ${name} | ${f(row.direct_p50_ms)} | ${labels.map((l) => `${f(row[l].added_p50_ms)} | ${f(row[l].added_p99_ms)}`).join(' | ')} |`);
    out.push('');
    out.push(`open loop, named calls, ${SECONDS} s a rate (achieved/s, p99 added ms, errors)`);
    out.push(`| offered/s | ${labels.join(' | ')} |`);
    out.push(`|---|${labels.map(() => '---').join('|')}|`);
    for (const row of rates) out.push(`| ${row.rate} | ${labels.map((l) => `${row[l].achieved.toFixed(0)}/s, ${f(row[l].added_p99_ms)}, ${row[l].errors}`).join(' | ')} |`);
    out.push(`saturation (most served error-free): ${labels.map((l) => `${l} ${saturation[l].toFixed(0)}/s`).join(', ')}`);
    out.push(`CPU per named call (${CPU_CALLS} calls): ${labels.map((l) => `${l}: edge ${f(cpu[l].edge_ms)} ms, billing ${f(cpu[l].billing_ms)} ms`).join('; ')}`);
    out.push(`spans exported by the telemetry-on fleet: ${sink.exports()} OTLP requests`);
    process.stdout.write(`${out.join('\n')}\n`);
    process.stdout.write(`${JSON.stringify({ bench: 'deployed', rounds: ROUNDS, sequential, rates, saturation, cpu })}\n`);
  } finally {
    for (const fleet of fleets) await fleet.stop().catch(() => undefined);
    await sink.close();
    await dispatcher.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
