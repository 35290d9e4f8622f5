// A fresh fleet's first calls, by window (calls 1–10, 11–50, …): what a new replica costs its
// first callers while V8 compiles the hot path. Telemetry on as deployed. Each round sends one
// request straight to vendor-sim, then a named call and an auto call through the fleet; the auto
// calls carry a different request each time (rows of the router's corpus), so each is classified
// afresh rather than reusing a session's decision. With `--env KEY=VALUE,…` a second fleet with
// those settings boots beside the first and is called interleaved (the order turned each round),
// so a change to start-up can be measured against the same machine noise.
//
//   node bench/cold-start.mjs [--rounds 3000] [--env ROUTER_SOMETHING=1]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { bootSideBySide, otlpSink, root, summarize, timedPost } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const ROUNDS = Number(args.rounds ?? 3000);
const WINDOWS = [[0, 10], [10, 50], [50, 200], [200, 500], [500, 1000], [1000, 2000], [2000, 3000], [3000, 5000]].filter(([from]) => from < ROUNDS);
const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
const namedBody = JSON.stringify({ model: 'vendor-1/orion-mini-5', max_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] });
const directBody = JSON.stringify({ model: 'orion-mini-5', max_completion_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] });
const corpus = readFileSync(join(root, 'services/router/data/corpus.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line).text).filter((text) => typeof text === 'string');
const autoBody = (i) => JSON.stringify({ model: 'auto', max_tokens: 16, messages: [{ role: 'user', content: `${corpus[(i * 7919) % corpus.length]} (${i})` }] });

async function main() {
  const sink = await otlpSink();
  const fleets = [];
  try {
    const variant = args.env ? Object.fromEntries(args.env.split(',').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])) : undefined;
    const booted = await Promise.allSettled([
      bootSideBySide({ label: 'as deployed', telemetry: true, sinkUrl: sink.url }),
      ...(variant ? [bootSideBySide({ label: args.env, telemetry: true, sinkUrl: sink.url, env: variant })] : []),
    ]);
    // A fleet that started is stopped (finally, below) even when the other failed to.
    for (const result of booted) if (result.status === 'fulfilled') fleets.push(result.value);
    const failed = booted.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const direct = `http://127.0.0.1:${fleets[0].fleet.ports.vendorSim}/v1/chat/completions`;
    const samples = new Map(fleets.map((fleet) => [fleet.label, { named: [], auto: [] }]));
    for (let i = 0; i < ROUNDS; i += 1) {
      const d = await timedPost(dispatcher, direct, { authorization: 'Bearer sim' }, directBody);
      const order = i % 2 === 0 ? fleets : [...fleets].reverse();
      for (const fleet of order) {
        const url = `${fleet.fleet.baseUrl}/chat/completions`;
        const headers = { authorization: `Bearer ${fleet.apiKey}` };
        const s = samples.get(fleet.label);
        s.named.push((await timedPost(dispatcher, url, headers, namedBody)) - d);
        s.auto.push((await timedPost(dispatcher, url, headers, autoBody(i))) - d);
      }
    }
    process.stdout.write(`added over vendor-sim called directly, p50 (p90), telemetry on as deployed; ${ROUNDS} rounds\n\n`);
    process.stdout.write(`| calls | ${fleets.map((f) => `named, ${f.label}`).join(' | ')} | ${fleets.map((f) => `auto, ${f.label}`).join(' | ')} |\n`);
    process.stdout.write(`|---|${fleets.map(() => '---|').join('')}${fleets.map(() => '---|').join('')}\n`);
    const cell = (values) => {
      const s = summarize(values);
      return `${s.p50.toFixed(2)} (${s.p90.toFixed(2)}) ms`;
    };
    for (const [from, to] of WINDOWS) {
      const named = fleets.map((f) => cell(samples.get(f.label).named.slice(from, to)));
      const auto = fleets.map((f) => cell(samples.get(f.label).auto.slice(from, to)));
      process.stdout.write(`| ${from + 1}–${Math.min(to, ROUNDS)} | ${named.join(' | ')} | ${auto.join(' | ')} |\n`);
    }
  } finally {
    for (const fleet of fleets) await fleet.stop();
    await sink.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  },
);
