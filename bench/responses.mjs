// What a Responses turn on a stored conversation adds over the same chat call (issue 13's
// acceptance: "a Responses turn on a 20-turn conversation against the same chat call, same run:
// added median ≤ 2 ms; items list p50").
//
//   node bench/responses.mjs [--requests 1000] [--turns 20] [--telemetry on|off|both] [--before <checkout>]
//
// Per fleet: a conversation of `--turns` turns is built through POST /v1/responses (each turn
// continuing the previous one); then, interleaved request by request (order alternating):
//  (a) a Responses turn continuing it: previous_response_id = the last turn, store true. Every
//      such turn adds a branch off the same parent, so each one's history stays `--turns` turns;
//  (b) the same chat completion: the same model (vendor-1/orion-mini-5) and max tokens, the
//      conversation's messages (the stored user and assistant texts) and the same new user message;
//  (c) GET /v1/conversations/{id}/items?limit=20 and GET /v1/responses/{id} of the last turn;
//  (d) straight to the conversations service over gRPC, through the typed client the edge uses
//      (libs/backends conversations-client.ts): BuildHistory of the same thread and CompleteTurn of
//      a turn shaped like the edge's (another branch off the same parent), against a
//      grpc.health.v1 Check on the same process (the transport's own cost).
// The Responses turn's added latency is Responses − chat (p50 − p50; the median of the pair
// differences is shown too). Telemetry is on by default, as deployed (see compare-builds.mjs):
// traces over OTLP/HTTP to a sink in this process, the Prometheus exporter on every service.
// `--telemetry both` runs one fleet with it off too, interleaved. `--before <checkout>` adds the same
// fleets from another build (installed and built, e.g. a `git worktree` of the commit before a
// change), so before and after are measured in the same run.
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Agent, request } from 'undici';
import { bootSideBySide, otlpSink, root, summarize, ms, timedPost } from './lib.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg, i, all) => (arg.startsWith('--') ? [arg.slice(2), all[i + 1]] : null)).filter(Boolean));
const REQUESTS = Number(args.requests ?? 1000);
const TURNS = Number(args.turns ?? 20);
const WARMUP = Math.min(100, REQUESTS);
const TELEMETRY = args.telemetry ?? 'on';
if (!['off', 'on', 'both'].includes(TELEMETRY)) {
  process.stderr.write('usage: node bench/responses.mjs [--requests 1000] [--turns 20] [--telemetry on|off|both] [--before <checkout>]\n');
  process.exit(2);
}
const GOAL_ADDED_MS = 2;
const MODEL = 'vendor-1/orion-mini-5';
const MAX_TOKENS = 16;
const PROMPT = 'Benchmark: answer this turn briefly.';
const ORGANIZATION_RETENTION_DAYS = 30;

const require = createRequire(import.meta.url);
const requireFrom = (pkg) => createRequire(join(root, pkg, 'package.json'));
const { grpc, callUnary, clientOptions, insecure } = require(join(root, 'libs/grpc/dist/index.js'));
const { createConversationsClient } = require(join(root, 'libs/backends/dist/index.js'));
const protoLoader = requireFrom('libs/protos')('@grpc/proto-loader');
const { protoPath: healthProtoPath } = requireFrom('libs/grpc')('grpc-health-check');
const healthProto = grpc.loadPackageDefinition(protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String }));

const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
const say = (line = '') => process.stdout.write(`${line}\n`);
const elapsedMs = (started) => Number(process.hrtime.bigint() - started) / 1e6;
const round3 = (value) => Math.round(value * 1000) / 1000;
const hex32 = () => randomBytes(16).toString('hex');

/** One POST, its JSON body (throws on a non-200). */
async function postJson(url, headers, body) {
  const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), dispatcher });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`POST ${url}: ${response.statusCode} ${text}`);
  return JSON.parse(text);
}

/** One GET, read to the end; its latency in milliseconds (throws on a non-200). */
async function timedGet(url, headers) {
  const started = process.hrtime.bigint();
  const response = await request(url, { method: 'GET', headers, dispatcher });
  await response.body.arrayBuffer();
  if (response.statusCode !== 200) throw new Error(`GET ${url}: status ${response.statusCode}`);
  return elapsedMs(started);
}

/** A fleet of `checkout` (see lib.mjs bootSideBySide), with gRPC clients of its conversations service. */
async function boot(label, checkout, telemetry, sinkUrl) {
  const booted = await bootSideBySide({ label: `responses ${label}`, checkout, telemetry, sinkUrl });
  const conversationsAddress = `127.0.0.1:${booted.fleet.ports.conversations}`;
  return {
    label,
    baseUrl: booted.fleet.baseUrl,
    headers: { authorization: `Bearer ${booted.apiKey}` },
    organizationId: booted.organizationId,
    conversations: createConversationsClient({ address: conversationsAddress, deadlineMs: 5000 }),
    health: new healthProto.grpc.health.v1.Health(conversationsAddress, insecure(), clientOptions(5000)),
    stop: booted.stop,
  };
}

const outputText = (response) =>
  response.output
    .filter((item) => item.type === 'message')
    .flatMap((item) => item.content)
    .filter((part) => part.type === 'output_text')
    .map((part) => part.text)
    .join('');

/**
 * The conversation: TURNS turns through POST /v1/responses, each continuing the one before. Keeps
 * the same history as chat messages, the last response (the parent of every measured turn) and a
 * response object shaped like the one the edge gives CompleteTurn.
 */
async function buildConversation(fleet) {
  const messages = [];
  let previous;
  for (let turn = 1; turn <= TURNS; turn += 1) {
    const text = `Turn ${turn} of the benchmark conversation: tell me something about the number ${turn}.`;
    const response = await postJson(`${fleet.baseUrl}/responses`, fleet.headers, { model: MODEL, input: text, max_output_tokens: MAX_TOKENS, store: true, ...(previous ? { previous_response_id: previous.id } : {}) });
    messages.push({ role: 'user', content: text }, { role: 'assistant', content: outputText(response) });
    previous = response;
  }
  fleet.parent = previous.id;
  fleet.conversationId = previous.conversation.id;
  fleet.responsesBody = JSON.stringify({ model: MODEL, input: PROMPT, previous_response_id: previous.id, store: true, max_output_tokens: MAX_TOKENS });
  fleet.chatBody = JSON.stringify({ model: MODEL, max_tokens: MAX_TOKENS, messages: [...messages, { role: 'user', content: PROMPT }] });
  fleet.itemsUrl = `${fleet.baseUrl}/conversations/${fleet.conversationId}/items?limit=20`;
  fleet.responseUrl = `${fleet.baseUrl}/responses/${previous.id}`;
  fleet.template = previous;
  // Same model input both ways (the sanity check behind "the same chat call").
  const viaResponses = await postJson(`${fleet.baseUrl}/responses`, fleet.headers, JSON.parse(fleet.responsesBody));
  const viaChat = await postJson(`${fleet.baseUrl}/chat/completions`, fleet.headers, JSON.parse(fleet.chatBody));
  fleet.sameInput = { responses_input_tokens: viaResponses.usage.input_tokens, chat_prompt_tokens: viaChat.usage.prompt_tokens, responses_output_tokens: viaResponses.usage.output_tokens, chat_completion_tokens: viaChat.usage.completion_tokens };
}

/** CompleteTurn as the edge sends it (services/edge/src/responses/responses.handler.ts storeTurn). */
function completeTurnQuery(fleet) {
  const id = `resp_${hex32()}`;
  const template = fleet.template;
  const response = {
    ...template,
    id,
    created_at: Math.floor(Date.now() / 1000),
    previous_response_id: fleet.parent,
    conversation: null,
    output: template.output.map((item, index) => ({ ...item, id: `msg_${id}_${index}` })),
  };
  return {
    organization_id: fleet.organizationId,
    response_id: id,
    conversation_id: fleet.conversationId,
    parent_response_id: fleet.parent,
    organization_retention_days: ORGANIZATION_RETENTION_DAYS,
    input_items: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: PROMPT }] }],
    response,
  };
}

/** A health check as the fleet's clients make a unary call (libs/grpc callUnary). */
async function healthCheck(client) {
  const reply = await callUnary(client.Check, client, { service: '' }, { deadlineMs: 5000 }, 'conversations_unavailable');
  if (reply.status !== 'SERVING') throw new Error(`health ${reply.status}`);
}

async function timed(fn) {
  const started = process.hrtime.bigint();
  await fn();
  return elapsedMs(started);
}

/** One round on one fleet: every measurement once, the HTTP pair's order alternating. */
async function round(fleet, index, samples) {
  const responses = () => timedPost(dispatcher, `${fleet.baseUrl}/responses`, fleet.headers, fleet.responsesBody);
  const chat = () => timedPost(dispatcher, `${fleet.baseUrl}/chat/completions`, fleet.headers, fleet.chatBody);
  let r;
  let c;
  if (index % 2 === 0) {
    r = await responses();
    c = await chat();
  } else {
    c = await chat();
    r = await responses();
  }
  const items = await timedGet(fleet.itemsUrl, fleet.headers);
  const get = await timedGet(fleet.responseUrl, fleet.headers);
  const check = await timed(() => healthCheck(fleet.health));
  const build = await timed(() => fleet.conversations.buildHistory({ organization_id: fleet.organizationId, previous_response_id: fleet.parent, conversation_id: null }));
  const query = completeTurnQuery(fleet);
  const complete = await timed(() => fleet.conversations.completeTurn(query));
  if (!samples) return;
  samples.responses.push(r);
  samples.chat.push(c);
  samples.pairs.push(r - c);
  samples.items.push(items);
  samples.get.push(get);
  samples.check.push(check);
  samples.build.push(build);
  samples.complete.push(complete);
}

async function main() {
  const started = process.hrtime.bigint();
  const sink = await otlpSink();
  const builds = [['', root]];
  if (args.before) builds.unshift(['before ', resolve(args.before)]);
  const modes = TELEMETRY === 'both' ? [false, true] : [TELEMETRY === 'on'];
  const fleets = [];
  try {
    for (const [prefix, checkout] of builds) for (const telemetry of modes) fleets.push(await boot(`${prefix}telemetry ${telemetry ? 'on' : 'off'}`, checkout, telemetry, sink.url));
    for (const fleet of fleets) await buildConversation(fleet);
    for (let i = 0; i < WARMUP; i += 1) for (const fleet of fleets) await round(fleet, i);
    const samples = new Map(fleets.map((fleet) => [fleet, { responses: [], chat: [], pairs: [], items: [], get: [], check: [], build: [], complete: [] }]));
    for (let i = 0; i < REQUESTS; i += 1) {
      // Rotate which fleet goes first, so none always follows the same one.
      for (let j = 0; j < fleets.length; j += 1) {
        const fleet = fleets[(i + j) % fleets.length];
        await round(fleet, i, samples.get(fleet));
      }
    }

    const result = { bench: 'responses', requests: REQUESTS, turns: TURNS, model: MODEL, max_tokens: MAX_TOKENS, goal_added_p50_ms: GOAL_ADDED_MS, fleets: {} };
    say(`responses: ${REQUESTS} interleaved rounds per fleet after ${WARMUP} warm-up; a ${TURNS}-turn conversation, ${MODEL}, max tokens ${MAX_TOKENS}`);
    for (const fleet of fleets) {
      const s = Object.fromEntries(Object.entries(samples.get(fleet)).map(([name, values]) => [name, summarize(values)]));
      const added = s.responses.p50 - s.chat.p50;
      const ratio = s.responses.p50 / s.chat.p50;
      const cells = (stats) => ['p50', 'p90', 'p99'].map((p) => ms(stats[p]).padStart(10)).join(' ');
      const row = (label, stats, note = '') => say(`  ${label.padEnd(52)} ${cells(stats)}${note ? `   ${note}` : ''}`);
      say();
      say(`  ${fleet.label.padEnd(52)} ${['p50', 'p90', 'p99'].map((p) => p.padStart(10)).join(' ')}`);
      row('chat completion, the same history as messages', s.chat);
      row('Responses turn (previous_response_id, store true)', s.responses);
      say(`  ${'  added: Responses − chat'.padEnd(52)} ${ms(added).padStart(10)} ${ms(s.responses.p90 - s.chat.p90).padStart(10)} ${ms(s.responses.p99 - s.chat.p99).padStart(10)}   ratio (p50) ${ratio.toFixed(3)}; pair differences: median ${ms(s.pairs.p50)}, p90 ${ms(s.pairs.p90)}`);
      row('GET /v1/conversations/{id}/items?limit=20', s.items);
      row('GET /v1/responses/{id}', s.get);
      row('conversations gRPC: health Check (transport baseline)', s.check);
      row(`conversations gRPC: BuildHistory (${TURNS} turns)`, s.build, `over Check ${ms(s.build.p50 - s.check.p50)}`);
      row('conversations gRPC: CompleteTurn (2 items)', s.complete, `over Check ${ms(s.complete.p50 - s.check.p50)}`);
      const met = added <= GOAL_ADDED_MS;
      say(`  goal ≤ ${GOAL_ADDED_MS} ms added median: ${ms(added)} ${met ? 'MET' : 'MISSED'}; same model input both ways: ${JSON.stringify(fleet.sameInput)}`);
      const pick = (stats) => ({ p50: round3(stats.p50), p90: round3(stats.p90), p99: round3(stats.p99) });
      result.fleets[fleet.label] = {
        chat_ms: pick(s.chat),
        responses_ms: pick(s.responses),
        added_p50_ms: round3(added),
        added_p90_ms: round3(s.responses.p90 - s.chat.p90),
        ratio_p50: round3(ratio),
        added_pair_median_ms: round3(s.pairs.p50),
        items_list_ms: pick(s.items),
        get_response_ms: pick(s.get),
        grpc_check_ms: pick(s.check),
        build_history_ms: pick(s.build),
        complete_turn_ms: pick(s.complete),
        goal_met: met,
        same_input: fleet.sameInput,
      };
    }
    if (modes.includes(true)) say(`\n  OTLP exports received: ${sink.exports()}`);
    result.seconds = round3(elapsedMs(started) / 1000);
    say(JSON.stringify(result));
  } finally {
    for (const fleet of fleets) {
      // The conversation and every branch the run added (responses and items cascade).
      if (fleet.conversationId) await request(`${fleet.baseUrl}/conversations/${fleet.conversationId}`, { method: 'DELETE', headers: fleet.headers, dispatcher }).then((response) => response.body.dump(), () => undefined);
      fleet.conversations.close();
      fleet.health.close();
      await fleet.stop().catch(() => undefined);
    }
    await sink.close();
    await dispatcher.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
