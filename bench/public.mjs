// The public documents (issue 18's benchmark: "analyzer p50/p99 per request; status document p50
// served from memory").
//
//   node bench/public.mjs [--requests 500] [--telemetry on|off]
//
// One fleet (telemetry on by default, as deployed). Sequentially, after a warm-up: POST
// /v1/public/analyze with a short named request, a short auto request and a long one (a 4,000
// token system prompt and a few turns), and GET /v1/status; each request's latency as the client
// sees it. The analyzer's time is mostly the router's classification (four Route calls, one per
// line); the status document is served from memory.
import { Agent, request } from 'undici';
import { bootSideBySide, otlpSink, summarize } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const REQUESTS = Number(args.requests ?? 500);
const TELEMETRY = (args.telemetry ?? 'on') === 'on';
const dispatcher = new Agent({ connections: 8, keepAliveTimeout: 30_000 });
const say = (line = '') => process.stdout.write(`${line}\n`);

async function timed(method, url, body) {
  const started = process.hrtime.bigint();
  const response = await request(url, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), dispatcher });
  await response.body.arrayBuffer();
  if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const SHORT_NAMED = { request: { model: 'vendor-1/orion-mini-5', max_tokens: 4000, messages: [{ role: 'user', content: 'Write a SQL query that lists the ten customers with the most orders last month.' }] }, calls_per_month: 100000 };
const SHORT_AUTO = { request: { model: 'auto', messages: [{ role: 'user', content: 'Translate "good morning, how are you?" into French and Spanish.' }] } };
const LONG = {
  request: {
    model: 'auto',
    messages: [
      { role: 'system', content: `You are a support assistant for a large catalogue. ${'Each item has a name, a price, sizes, colours and stock per warehouse. '.repeat(230)}` },
      { role: 'user', content: 'Is the blue rain jacket in stock in size M?' },
      { role: 'assistant', content: 'Yes, in two warehouses.' },
      { role: 'user', content: 'Which one ships faster to Lyon, and what does shipping cost?' },
    ],
  },
};

async function main() {
  const sink = TELEMETRY ? await otlpSink() : undefined;
  const fleet = await bootSideBySide({ label: 'public', telemetry: TELEMETRY, sinkUrl: sink?.url });
  const base = `http://127.0.0.1:${fleet.fleet.ports.edge}/v1`;
  try {
    const cases = [
      ['POST /v1/public/analyze, short named', () => timed('POST', `${base}/public/analyze`, SHORT_NAMED)],
      ['POST /v1/public/analyze, short auto', () => timed('POST', `${base}/public/analyze`, SHORT_AUTO)],
      ['POST /v1/public/analyze, 4k-token prompt', () => timed('POST', `${base}/public/analyze`, LONG)],
      ['GET /v1/status', () => timed('GET', `${base}/status`)],
    ];
    for (const [, run] of cases) for (let i = 0; i < 50; i += 1) await run();
    const samples = cases.map(() => []);
    for (let i = 0; i < REQUESTS; i += 1) for (const [index, [, run]] of cases.entries()) samples[index].push(await run());
    say(`public documents: ${REQUESTS} requests each, interleaved, sequential, telemetry ${TELEMETRY ? 'on' : 'off'}`);
    say('');
    say('| request | p50 | p99 |');
    say('|---|---|---|');
    for (const [index, [label]] of cases.entries()) {
      const summary = summarize(samples[index]);
      say(`| ${label} | ${summary.p50.toFixed(2)} ms | ${summary.p99.toFixed(2)} ms |`);
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
