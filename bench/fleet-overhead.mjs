// What the gateway adds to a named-model chat call: the same request sent straight to
// vendor-sim and through the whole fleet (edge → router + billing over gRPC → vendor-sim →
// confirmed usage publish), interleaved one by one so both see the same machine noise.
// Also: the highest request rate whose p99 added latency stays within 5 ms, and streaming
// time to first byte through the fleet versus direct.
//
//   node bench/fleet-overhead.mjs [--requests 2000] [--warmup 2000] [--rates 250,500,1000,1500,2000]
import { Agent, request } from 'undici';
import { atRate, bootFleet, summarize, ms, timedPost } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const REQUESTS = Number(args.requests ?? 2000);
// Calls before measuring: V8 optimizes the hot path over the first thousands of calls.
const WARMUP = Number(args.warmup ?? 2000);
const RATES = (args.rates ?? '250,500,1000,1500,2000').split(',').map(Number);
const MODEL = 'vendor-1/orion-mini-5';
const body = JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] });
const directBody = JSON.stringify({ model: 'orion-mini-5', max_completion_tokens: 16, messages: [{ role: 'user', content: 'benchmark' }] });
const dispatcher = new Agent({ connections: 512, keepAliveTimeout: 30_000 });

const timed = (url, headers, payload) => timedPost(dispatcher, url, headers, payload);

async function firstByte(url, headers, payload) {
  const started = process.hrtime.bigint();
  const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload, dispatcher });
  let at;
  for await (const _chunk of response.body) at ??= Number(process.hrtime.bigint() - started) / 1e6;
  if (at === undefined) throw new Error('empty stream');
  return at;
}

async function main() {
  const { fleet, apiKey } = await bootFleet();
  const edgeUrl = `${fleet.baseUrl}/chat/completions`;
  const directUrl = `http://127.0.0.1:${fleet.ports.vendorSim}/v1/chat/completions`;
  const edgeHeaders = { authorization: `Bearer ${apiKey}` };
  const directHeaders = { authorization: 'Bearer sim' };
  try {
    for (let i = 0; i < WARMUP; i += 1) {
      await timed(edgeUrl, edgeHeaders, body);
      await timed(directUrl, directHeaders, directBody);
    }
    const direct = [];
    const through = [];
    const added = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      const d = await timed(directUrl, directHeaders, directBody);
      const t = await timed(edgeUrl, edgeHeaders, body);
      direct.push(d);
      through.push(t);
      added.push(t - d);
    }
    const sd = summarize(direct);
    const st = summarize(through);
    process.stdout.write(`sequential, ${REQUESTS} pairs (interleaved)\n`);
    process.stdout.write(`  direct to vendor-sim : p50 ${ms(sd.p50)}  p99 ${ms(sd.p99)}\n`);
    process.stdout.write(`  through the fleet    : p50 ${ms(st.p50)}  p99 ${ms(st.p99)}\n`);
    process.stdout.write(`  added (median of pairs ${ms(summarize(added).p50)}; p50 difference ${ms(st.p50 - sd.p50)}; p99 difference ${ms(st.p99 - sd.p99)})\n`);

    // Auto against named, same run, interleaved: what classification, the session read/write and
    // the auto line's routing add on top of a named call.
    const autoBody = JSON.stringify({ model: 'auto', max_tokens: 16, messages: [{ role: 'user', content: 'Summarize the following paragraph in one sentence: the committee met twice and agreed on the budget.' }] });
    const named = [];
    const autos = [];
    const directAgain = [];
    for (let i = 0; i < Math.min(REQUESTS, 1000); i += 1) {
      directAgain.push(await timed(directUrl, directHeaders, directBody));
      named.push(await timed(edgeUrl, edgeHeaders, body));
      autos.push(await timed(edgeUrl, edgeHeaders, autoBody));
    }
    const sn = summarize(named);
    const sau = summarize(autos);
    const sd2 = summarize(directAgain);
    process.stdout.write(`auto vs named (interleaved): named p50 ${ms(sn.p50)} p99 ${ms(sn.p99)}; auto p50 ${ms(sau.p50)} p99 ${ms(sau.p99)}; auto adds ${ms(sau.p50 - sn.p50)} over named, ${ms(sau.p50 - sd2.p50)} over direct (p50)\n`);

    const streamBody = JSON.stringify({ model: MODEL, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'benchmark' }] });
    const directStream = JSON.stringify({ model: 'orion-mini-5', max_completion_tokens: 16, stream: true, messages: [{ role: 'user', content: 'benchmark' }] });
    const ttfbDirect = [];
    const ttfbThrough = [];
    for (let i = 0; i < Math.min(REQUESTS, 500); i += 1) {
      ttfbDirect.push(await firstByte(directUrl, directHeaders, directStream));
      ttfbThrough.push(await firstByte(edgeUrl, edgeHeaders, streamBody));
    }
    const fd = summarize(ttfbDirect);
    const ft = summarize(ttfbThrough);
    process.stdout.write(`streaming first byte: direct p50 ${ms(fd.p50)}, through p50 ${ms(ft.p50)}, added ${ms(ft.p50 - fd.p50)} (p99 ${ms(ft.p99 - fd.p99)})\n`);

    process.stdout.write('open-loop rates (5 s each): rate → achieved, p50/p99 through, p99 direct at the same rate, errors\n');
    let best = 0;
    for (const rate of RATES) {
      const throughRun = await atRate(rate, 5, () => timed(edgeUrl, edgeHeaders, body));
      const directRun = await atRate(rate, 2, () => timed(directUrl, directHeaders, directBody));
      const addedP99 = throughRun.p99 - directRun.p99;
      process.stdout.write(`  ${rate}/s → ${throughRun.achieved.toFixed(0)}/s, ${ms(throughRun.p50)} / ${ms(throughRun.p99)}, direct p99 ${ms(directRun.p99)}, added p99 ${ms(addedP99)}, errors ${throughRun.errors}\n`);
      if (throughRun.errors === 0 && addedP99 <= 5) best = rate;
    }
    process.stdout.write(`highest rate with p99 added ≤ 5 ms and no errors: ${best}/s\n`);
  } finally {
    await fleet.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
