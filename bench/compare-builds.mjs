// Two builds of the gateway side by side in one run, with telemetry off and on: the named and
// auto latency each fleet adds over calling vendor-sim directly, interleaved request by request
// so every fleet sees the same machine noise. "Telemetry on" is as deployed: traces exported over
// OTLP/HTTP (to a sink in this process that reads and drops them) and the Prometheus exporter on
// every service.
//
//   node bench/compare-builds.mjs --before <checkout> [--requests 1000]
//
// <checkout> is another clone of this repository, installed and built (`npx tsc -b`), e.g. the
// commit before a change: `git worktree add /tmp/svc-before <rev>` then, in it,
// `.svc/tools/node_modules/.bin/pnpm install --offline && npx tsc -b` (or `node scripts/setup.mjs`).
// The current checkout is "after". Both use the test database; each fleet gets its own RabbitMQ
// vhost and Redis key prefix.
import { resolve } from 'node:path';
import { Agent } from 'undici';
import { bootSideBySide, otlpSink, root, summarize, ms, timedPost } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const REQUESTS = Number(args.requests ?? 1000);
if (!args.before) {
  process.stderr.write('usage: node bench/compare-builds.mjs --before <checkout> [--requests 1000]\n');
  process.exit(2);
}
const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
const namedBody = JSON.stringify({ model: 'vendor-1/orion-mini-5', max_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] });
const autoBody = JSON.stringify({ model: 'auto', max_tokens: 16, messages: [{ role: 'user', content: 'Summarize the following paragraph in one sentence: the committee met twice and agreed on the budget.' }] });
const directBody = JSON.stringify({ model: 'orion-mini-5', max_completion_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] });

const timed = (url, headers, payload) => timedPost(dispatcher, url, headers, payload);

async function boot(label, checkout, telemetry, sinkUrl) {
  const booted = await bootSideBySide({ label, checkout, telemetry, sinkUrl });
  return {
    label,
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
    for (const [label, checkout, telemetry] of [['before-off', before, false], ['after-off', root, false], ['before-on', before, true], ['after-on', root, true]]) fleets.push(await boot(label, checkout, telemetry, sink.url));
    const direct = { url: fleets[0].directUrl, headers: { authorization: 'Bearer sim' } };
    const samples = Object.fromEntries(fleets.flatMap((fleet) => [[`${fleet.label} named`, []], [`${fleet.label} auto`, []]]));
    const directSamples = [];
    for (let i = 0; i < 200; i += 1) for (const fleet of fleets) {
      await timed(fleet.url, fleet.headers, namedBody);
      await timed(fleet.url, fleet.headers, autoBody);
    }
    for (let i = 0; i < REQUESTS; i += 1) {
      directSamples.push(await timed(direct.url, direct.headers, directBody));
      // Rotate the order each round so no fleet always goes first.
      for (let j = 0; j < fleets.length; j += 1) {
        const fleet = fleets[(i + j) % fleets.length];
        samples[`${fleet.label} named`].push(await timed(fleet.url, fleet.headers, namedBody));
        samples[`${fleet.label} auto`].push(await timed(fleet.url, fleet.headers, autoBody));
      }
    }
    const d = summarize(directSamples);
    const result = { requests: REQUESTS, direct: { p50: d.p50, p99: d.p99 }, fleets: {} };
    process.stdout.write(`${REQUESTS} rounds, interleaved; direct to vendor-sim p50 ${ms(d.p50)} p99 ${ms(d.p99)}\n`);
    process.stdout.write('fleet                 p50        p99        added p50 over direct\n');
    for (const [name, values] of Object.entries(samples)) {
      const s = summarize(values);
      result.fleets[name] = { p50: s.p50, p99: s.p99, added_p50: s.p50 - d.p50 };
      process.stdout.write(`${name.padEnd(20)}  ${ms(s.p50).padEnd(10)} ${ms(s.p99).padEnd(10)} ${ms(s.p50 - d.p50)}\n`);
    }
    for (const mode of ['off', 'on']) for (const kind of ['named', 'auto']) {
      const b = result.fleets[`before-${mode} ${kind}`];
      const a = result.fleets[`after-${mode} ${kind}`];
      process.stdout.write(`telemetry ${mode}, ${kind}: added p50 before ${ms(b.added_p50)}, after ${ms(a.added_p50)}, after/before ${(a.added_p50 / b.added_p50).toFixed(3)}\n`);
    }
    process.stdout.write(`OTLP exports received: ${sink.exports()}\n`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    for (const fleet of fleets) await fleet.stop().catch(() => undefined);
    await sink.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
