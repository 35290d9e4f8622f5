// Upload throughput of a 100 MiB batch input file through the whole fleet (edge → batch service →
// Postgres), and the content read back, with the batch service's and the edge's RSS growth.
//
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/svc_bench_files node bench/files.mjs [--rounds 3] [--mib 100]
//
// The body is streamed from a file on disk as multipart/form-data (never one buffer), the answer
// read to its end; each round uploads, reads the content back and deletes the file.
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { bootFleet, root } from './lib.mjs';

const require = createRequire(import.meta.url);
const { request } = require(join(root, 'node_modules', 'undici'));
const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const ROUNDS = arg('rounds', 3);
const MIB = arg('mib', 100);

function fixedLine(index, size = 1024) {
  const head = JSON.stringify({ custom_id: `req-${String(index).padStart(7, '0')}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'vendor-1/orion-mini-5', messages: [{ role: 'user', content: '' }] } });
  return `${head.replace('"content":""', `"content":"${'x'.repeat(size - 1 - Buffer.byteLength(head))}"`)}\n`;
}

const rss = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-files-'));
  const path = join(dir, 'input.jsonl');
  const out = createWriteStream(path);
  for (let index = 0; index < MIB * 1024; index += 1) if (!out.write(fixedLine(index))) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  const size = statSync(path).size;
  const { fleet, apiKey } = await bootFleet();
  const pids = { batch: fleet.processes.get('batch').pid, edge: fleet.processes.get('edge').pid };
  const results = [];
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      const boundary = `bench${round}${Date.now()}`;
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="input.jsonl"\r\nContent-Type: application/jsonl\r\n\r\n`);
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      async function* body() {
        yield head;
        for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) yield chunk;
        yield tail;
      }
      const baseline = { batch: rss(pids.batch), edge: rss(pids.edge) };
      const peak = { ...baseline };
      const sampler = setInterval(() => {
        peak.batch = Math.max(peak.batch, rss(pids.batch));
        peak.edge = Math.max(peak.edge, rss(pids.edge));
      }, 20);
      let started = process.hrtime.bigint();
      const response = await request(`${fleet.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) }, body: body() });
      const file = await response.body.json();
      const uploadSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      clearInterval(sampler);
      if (response.statusCode !== 200) throw new Error(`upload answered ${response.statusCode}: ${JSON.stringify(file)}`);
      started = process.hrtime.bigint();
      const content = await request(`${fleet.baseUrl}/files/${file.id}/content`, { headers: { authorization: `Bearer ${apiKey}` } });
      let read = 0;
      for await (const chunk of content.body) read += chunk.length;
      const readSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (read !== size) throw new Error(`read back ${read} bytes of ${size}`);
      await (await request(`${fleet.baseUrl}/files/${file.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } })).body.text();
      results.push({ round: round + 1, upload_s: uploadSeconds, upload_mib_s: size / 1024 / 1024 / uploadSeconds, read_s: readSeconds, read_mib_s: size / 1024 / 1024 / readSeconds, rss_growth_mb: { batch: (peak.batch - baseline.batch) / 1e6, edge: (peak.edge - baseline.edge) / 1e6 } });
      const last = results[results.length - 1];
      process.stdout.write(`round ${last.round}: upload ${last.upload_s.toFixed(2)} s (${last.upload_mib_s.toFixed(1)} MiB/s), read back ${last.read_s.toFixed(2)} s (${last.read_mib_s.toFixed(1)} MiB/s), RSS growth batch ${last.rss_growth_mb.batch.toFixed(1)} MB, edge ${last.rss_growth_mb.edge.toFixed(1)} MB\n`);
    }
  } finally {
    await fleet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const summary = { benchmark: 'files', mib: size / 1024 / 1024, rounds: ROUNDS, upload_mib_s_median: Number(median(results.map((r) => r.upload_mib_s)).toFixed(1)), read_mib_s_median: Number(median(results.map((r) => r.read_mib_s)).toFixed(1)), rss_growth_mb_max: { batch: Number(Math.max(...results.map((r) => r.rss_growth_mb.batch)).toFixed(1)), edge: Number(Math.max(...results.map((r) => r.rss_growth_mb.edge)).toFixed(1)) } };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench files: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
