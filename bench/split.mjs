// Split-and-route measurement over the fixed set of 50 source+question requests (bench/split-set.mjs):
// boots the fleet (bench/lib.mjs, vendor-sim behind every vendor), sends each request on a line
// twice — split on (default) and `x-svc-split: off` — and reports:
//   share split      requests whose svc.split.applied is true (whole-document tasks must stay whole)
//   mean cost        billed cost_micros per request, unsplit (off) vs split (default)
//   excerpt recall   of the annotated lines a lookup needs, the share the excerpt kept. The excerpt
//                    is the extract step's: re-run as the same named call (the chosen extractor, the
//                    pipeline's own extract prompt, vendor-sim deterministic) and read with the
//                    pipeline's own readExtract.
// Usage: node bench/split.mjs [line ...]   (default lines: auto auto/best)
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bootFleet, root } from './lib.mjs';
import { splitSet } from './split-set.mjs';

const require = createRequire(import.meta.url);
const { EXTRACT_INSTRUCTIONS, extractPrompt, readExtract, locateSource, DEFAULT_SPLIT_SETTINGS } = require(join(root, 'libs/call/dist/index.js'));

const lines = process.argv.slice(2).length ? process.argv.slice(2) : ['auto', 'auto/best'];
const set = splitSet();
const { fleet, apiKey } = await bootFleet();
const base = `${fleet.baseUrl ?? fleet.edgeUrl}`;
const url = (path) => `${base.replace(/\/$/, '')}${base.endsWith('/v1') ? '' : '/v1'}${path}`;

async function chat(body, headers = {}) {
  const response = await fetch(url('/chat/completions'), { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const json = await response.json();
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

const results = [];
try {
  for (const line of lines) {
    const rows = [];
    for (const item of set) {
      const messages = [{ role: 'user', content: `${item.source}\n\n${item.question}` }];
      const split = await chat({ model: line, messages });
      const whole = await chat({ model: line, messages }, { 'x-svc-split': 'off' });
      const s = split.svc.split ?? {};
      let recall = null;
      if (s.applied && item.needed.length) {
        const extract = s.steps.find((step) => step.role === 'extract');
        const location = locateSource({ messages: [{ role: 'user', content: [{ type: 'text', text: messages[0].content }] }] }, DEFAULT_SPLIT_SETTINGS.maxQuestionTokens);
        const again = await chat({ model: extract.model, reasoning_effort: 'none', temperature: 0, max_tokens: Math.ceil(Math.ceil(location.source.length / 4) * DEFAULT_SPLIT_SETTINGS.maxExcerptShare) + 64, messages: [{ role: 'system', content: EXTRACT_INSTRUCTIONS }, { role: 'user', content: extractPrompt(location.question, location.source) }] }, { 'x-svc-split': 'off' });
        const reading = readExtract(location.source, again.choices[0].message.content);
        const kept = new Set(reading.kind === 'lines' ? reading.kept.map((n) => location.source.split('\n')[n]) : []);
        recall = item.needed.filter((needed) => kept.has(needed)).length / item.needed.length;
      }
      rows.push({ id: item.id, whole: item.whole, tokens: Math.ceil(item.source.length / 4), applied: Boolean(s.applied), reason: s.reason ?? '', fallback: s.fallback ?? '', split_cost: split.svc.cost_micros, unsplit_cost: whole.svc.cost_micros, recall });
    }
    results.push({ line, rows });
  }
} finally {
  await fleet.stop?.();
}

for (const { line, rows } of results) {
  const applied = rows.filter((row) => row.applied);
  const lookups = rows.filter((row) => !row.whole);
  const wholes = rows.filter((row) => row.whole);
  const mean = (values) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  const recalls = applied.map((row) => row.recall).filter((value) => value !== null);
  const count = (key) => Object.entries(rows.reduce((acc, row) => ((acc[row[key] || '-'] = (acc[row[key] || '-'] ?? 0) + 1), acc), {})).map(([k, v]) => `${k}=${v}`).join(' ');
  console.log(`\nline ${line}: ${rows.length} requests (${lookups.length} lookups, ${wholes.length} whole-document)`);
  console.log(`  share split:           ${applied.length}/${rows.length} = ${(applied.length / rows.length).toFixed(2)} (lookups ${lookups.filter((r) => r.applied).length}/${lookups.length}, whole-document ${wholes.filter((r) => r.applied).length}/${wholes.length})`);
  console.log(`  mean cost (micros):    unsplit ${mean(rows.map((r) => r.unsplit_cost)).toFixed(0)}  split ${mean(rows.map((r) => r.split_cost)).toFixed(0)}  (on split requests: unsplit ${mean(applied.map((r) => r.unsplit_cost)).toFixed(0)}, split ${mean(applied.map((r) => r.split_cost)).toFixed(0)})`);
  console.log(`  excerpt recall:        ${recalls.length ? mean(recalls).toFixed(3) : 'n/a'} over ${recalls.length} split lookups (${recalls.filter((r) => r === 1).length} complete)`);
  console.log(`  reasons:   ${count('reason')}`);
  console.log(`  fallbacks: ${count('fallback')}`);
}
if (process.env.SPLIT_BENCH_ROWS) console.log(JSON.stringify(results, null, 1));
process.exit(0);
