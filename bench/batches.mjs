// A batch end to end through the whole fleet on vendor-sim with no injected latency (issue 15:
// 50,000 lines ≤ 60 s): the input file uploaded, the batch created, polled until it ends, its
// output file read back and checked (every line once, all answered), and the ledger checked
// (one entry per line, billed once).
//
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/svc_bench_batches node bench/batches.mjs [--lines 50000]
//
// Prints the phases (upload, validating → in_progress, lines, finalizing → completed, content read
// back) and one JSON line.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bootFleet, benchEnv, root } from './lib.mjs';

const require = createRequire(import.meta.url);
const { Client } = require(join(root, 'node_modules', 'pg'));
const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const LINES = arg('lines', 50_000);
const MODEL = 'vendor-1/orion-mini-5';

function input(lines) {
  const parts = [];
  for (let index = 0; index < lines; index += 1) {
    parts.push(JSON.stringify({ custom_id: `line-${index}`, method: 'POST', url: '/v1/chat/completions', body: { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: `Reply with the number ${index}.` }] } }));
  }
  return `${parts.join('\n')}\n`;
}

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function main() {
  const { fleet, apiKey } = await bootFleet({ BATCH_TICK_MS: '200', LOG_LEVEL: 'warn', ...(process.env.BATCH_LINE_CONCURRENCY ? { BATCH_LINE_CONCURRENCY: process.env.BATCH_LINE_CONCURRENCY } : {}), ...(process.env.BATCH_CHUNK_PREFETCH ? { BATCH_CHUNK_PREFETCH: process.env.BATCH_CHUNK_PREFETCH } : {}) }, { nodeArgs: { workers: [...(process.env.BENCH_WORKER_NODE_ARGS ? process.env.BENCH_WORKER_NODE_ARGS.split(' ') : []), ...(process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [])] } });
  const auth = { authorization: `Bearer ${apiKey}` };
  const t = (start) => Number(process.hrtime.bigint() - start) / 1e6;
  try {
    const text = input(LINES);
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([text], { type: 'application/jsonl' }), 'bench.jsonl');
    const total = process.hrtime.bigint();
    const file = await (await fetch(`${fleet.baseUrl}/files`, { method: 'POST', headers: auth, body: form })).json();
    const uploadMs = t(total);
    if (!file.id) throw new Error(`upload failed: ${JSON.stringify(file)}`);
    const pids = Object.fromEntries([...fleet.processes.entries()].map(([name, child]) => [name, child.pid]));
    const cpuBefore = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
    const runStart = process.hrtime.bigint();
    let batch = await (await fetch(`${fleet.baseUrl}/batches`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }) })).json();
    if (!batch.id) throw new Error(`create failed: ${JSON.stringify(batch)}`);
    let lastReport = 0;
    while (!['completed', 'failed', 'expired', 'cancelled'].includes(batch.status)) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      batch = await (await fetch(`${fleet.baseUrl}/batches/${batch.id}`, { headers: auth })).json();
      if (t(runStart) - lastReport > 5000) {
        lastReport = t(runStart);
        process.stdout.write(`  ${(lastReport / 1000).toFixed(1)} s: ${batch.status} ${JSON.stringify(batch.request_counts)}\n`);
      }
    }
    const runMs = t(runStart);
    const cpu = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, Number((cpuSeconds(pid) - cpuBefore[name]).toFixed(1))]));
    if (batch.status !== 'completed') throw new Error(`batch ended ${batch.status}: ${JSON.stringify(batch.errors ?? batch.request_counts)}`);
    const readStart = process.hrtime.bigint();
    const content = await (await fetch(`${fleet.baseUrl}/files/${batch.output_file_id}/content`, { headers: auth })).text();
    const readMs = t(readStart);
    const out = content.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    const ids = new Set(out.map((line) => line.custom_id));
    const answered = out.filter((line) => line.response?.status_code === 200).length;
    // The ledger: one entry per line (settlement may trail the batch's end by a moment).
    const db = new Client({ connectionString: benchEnv.DATABASE_URL });
    await db.connect();
    const callIds = out.map((line) => `call_${line.response.body.id.slice('chatcmpl-'.length)}`);
    let ledger = 0;
    for (let wait = 0; wait < 60; wait += 1) {
      const rows = await db.query('SELECT count(*)::int AS n FROM billing.ledger_entry WHERE call_id = ANY($1::text[])', [callIds]);
      ledger = rows.rows[0].n;
      if (ledger >= callIds.length) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await db.end();
    const result = {
      lines: LINES,
      upload_ms: Math.round(uploadMs),
      batch_ms: Math.round(runMs),
      phases_s: { in_progress: batch.in_progress_at - batch.created_at, finalizing: batch.finalizing_at - batch.created_at, completed: batch.completed_at - batch.created_at },
      lines_per_s: Math.round(LINES / (runMs / 1000)),
      output_read_ms: Math.round(readMs),
      output_lines: out.length,
      unique_custom_ids: ids.size,
      answered,
      ledger_entries: ledger,
      request_counts: batch.request_counts,
      cpu_s: cpu,
      billed_micros: batch.svc.cost.billed_micros,
      goal_met: runMs <= 60_000 && answered === LINES && ids.size === LINES && ledger === LINES,
    };
    process.stdout.write(`\nbatch of ${LINES} lines: ${(runMs / 1000).toFixed(1)} s from POST /v1/batches to completed (goal ≤ 60 s), ${result.lines_per_s} lines/s; upload ${(uploadMs / 1000).toFixed(1)} s; output read back in ${(readMs / 1000).toFixed(1)} s; ${answered} answered, ${ids.size} unique custom_ids, ${ledger} ledger entries\n`);
    process.stdout.write(`CPU seconds during the batch, by service: ${JSON.stringify(cpu)}\n`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    if (!result.goal_met) process.exitCode = 1;
  } finally {
    await fleet.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
