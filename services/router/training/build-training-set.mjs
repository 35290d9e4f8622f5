#!/usr/bin/env node
// Rebuilds the router's training set from the fetched public collections (training/sources.mjs),
// the project's own hand-written rows (data/handwritten.jsonl, data/handwritten-chat.jsonl) and a
// capped share of the template corpus (data/corpus.jsonl), deduplicated and checked against the
// judge sets.
//
//   node training/build-training-set.mjs [--out=.corpus/training-set.jsonl]
//
// The fetched text stays on this machine: the set is written under services/router/.corpus/
// (not committed). What is committed is data/SOURCES.md (repository, commit, licence, rows,
// mapping per source) and data/training-set.manifest.json (per-source counts, the set's
// sha256 and a short hash of every row's text, for overlap checks against held-out sets).
// Deterministic: the same snapshots give a byte-identical set.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { SOURCES, hasMirror, headCommit, readJudgeTexts, MIRRORS } from './sources.mjs';

const require = createRequire(import.meta.url);
require('./ts-hook.cjs');
/** How the classifier finds the request around a pasted body (src/classifier/predict.ts). */
const { pastedAsks, WORK_ON_TEXT } = require('../src/classifier/predict.ts');

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => {
  const [k, v] = a.replace(/^--/, '').split('=');
  return [k, v ?? 'true'];
}));
const OUT = args.out ?? join(root, '.corpus', 'training-set.jsonl');
const DATA = join(root, 'data');

/** Rows kept per (source, kind of work); difficulty-labelled collections keep more. */
const CAP = 450;
const CAP_LABELLED = 1800;
/** Template rows kept per kind of work: coverage of languages and rare kinds, not the bulk. */
const TEMPLATE_CAP = 70;
const MAX_CHARS = 6000;

export function normalize(s) {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

export function textKey(s) {
  return createHash('sha256').update(normalize(s)).digest('hex').slice(0, 16);
}

function fnv(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Maps a human label onto the router's 1-5 difficulty; see data/SOURCES.md. */
export const DIFFICULTY_SCALES = {
  math_level: (v) => [0, 2, 3, 3, 4, 5][v],
  spider: (v) => [0, 2, 3, 4, 5][v],
  bird: (v) => [0, 3, 4, 5][v],
  leetcode: (v) => [0, 2, 3, 4][v],
  k8s: (v) => [0, 2, 3, 4][v],
  crwd: (v) => [0, 3, 4, 5][v],
  collection: (v) => v,
};

/** Kinds of work the request around a paste names on its own, whatever the pasted text is. */
const ASK_NAMES_KIND = new Set([...WORK_ON_TEXT, 'data:extraction']);

/**
 * The request of a hand-written row with a pasted body, as the classifier reads it (predict.ts
 * classifies that request alone and lets it name the work): the row again as the request alone,
 * so the model learns the requests themselves ("polish the paper below:"), not only with the
 * pasted words around them. Only where one request is found (with two, one may be the paste's own
 * last paragraph), and not a question about the paste: the classifier reads those as knowledge
 * questions and maps them to extraction itself. No difficulty label: the request alone is easier
 * than the whole.
 */
function askOfPaste(row) {
  if (!ASK_NAMES_KIND.has(row.task_type)) return undefined;
  const asks = pastedAsks(row.text);
  if (asks.length !== 1) return undefined;
  if (row.task_type === 'data:extraction' && /[?？]\s*$/.test(asks[0])) return undefined;
  return asks[0];
}

function main() {
  const started = Date.now();
  const judge = readJudgeTexts();
  const judgeKeys = new Set(judge.map((j) => textKey(j.text)));
  const judgePrefixes = new Set(judge.map((j) => normalize(j.text).slice(0, 60)).filter((p) => p.length >= 40));

  const seen = new Map();
  const out = [];
  const report = [];
  let judgeOverlap = 0;

  const accept = (row, src) => {
    if (typeof row.text !== 'string') return false;
    let t = row.text.replace(/\r\n/g, '\n').trim();
    if (t.length < 3) return false;
    if (t.length > MAX_CHARS) t = t.slice(0, MAX_CHARS);
    const key = textKey(t);
    if (judgeKeys.has(key) || judgePrefixes.has(normalize(t).slice(0, 60))) {
      judgeOverlap++;
      return false;
    }
    const prev = seen.get(key);
    if (prev) {
      // The same text under two kinds of work teaches nothing: keep the first, mark the clash.
      if (prev.task_type !== row.task_type) prev.conflict = true;
      return false;
    }
    const dl = row.dl && DIFFICULTY_SCALES[row.dl.scale] ? row.dl : undefined;
    const r = {
      text: t,
      ...(row.system ? { system: row.system } : {}),
      ...(row.tool_result ? { tool_result: row.tool_result } : {}),
      turn: row.task_type?.startsWith('agent:') || row.tool_result ? 'agent' : 'chat',
      task_type: row.task_type,
      difficulty: dl ? DIFFICULTY_SCALES[dl.scale](dl.value) : row.difficulty ?? 0,
      ...(row.stakes ? { stakes: row.stakes } : {}),
      lang: row.lang ?? 'en',
      source: src.id,
      group: src.group,
      ships: src.ships,
      ...(src.probe ? { probe: true } : {}),
      ...(dl ? { dl: { scale: dl.scale, value: dl.value } } : {}),
      ...(row.sub ? { sub: String(row.sub) } : {}),
      ...(row.tpl ? { tpl: row.tpl } : {}),
    };
    seen.set(key, r);
    out.push(r);
    return true;
  };

  for (const src of SOURCES) {
    if (!hasMirror(src.repo)) {
      console.warn(`skipped ${src.id}: no snapshot of ${src.repo} under ${MIRRORS} (fetch it first)`);
      report.push({ id: src.id, repo: src.repo, commit: null, licence: src.licence, ships: src.ships, rows: {}, mapping: src.mapping, group: src.group });
      continue;
    }
    let rows = src.read();
    if (src.exclude) {
      const banned = new Set(src.exclude().map(textKey));
      rows = rows.filter((r) => !banned.has(textKey(r.text)));
    }
    // Deterministic sample per kind of work: order by text hash, keep the cap.
    const byTag = new Map();
    for (const r of rows) {
      const k = r.task_type ?? '(difficulty only)';
      if (!byTag.has(k)) byTag.set(k, []);
      byTag.get(k).push(r);
    }
    let kept = 0;
    for (const list of [...byTag.entries()].sort().map(([, l]) => l)) {
      const cap = list.some((r) => r.dl && r.dl.scale !== 'collection') ? CAP_LABELLED : CAP;
      const ranked = list.map((r) => ({ r, h: fnv(r.text) })).sort((a, b) => a.h - b.h || (a.r.text < b.r.text ? -1 : 1));
      let n = 0;
      for (const { r } of ranked) {
        if (n >= cap) break;
        if (accept({ ...r, task_type: r.task_type ?? null }, src)) n++;
      }
      kept += n;
    }
    report.push({ id: src.id, repo: src.repo, commit: headCommit(src.repo), licence: src.licence, ships: src.ships, ...(src.probe ? { probe: true } : {}), rows: {}, mapping: src.mapping, group: src.group });
    console.log(`${src.id.padEnd(20)} ${kept} rows`);
  }

  // The project's own rows: hand-written (data/handwritten.jsonl, data/handwritten-chat.jsonl with
  // the requests of its pasted rows alone) and a capped share of the templates.
  const own = [
    {
      id: 'svc-handwritten', group: 'svc', file: 'handwritten.jsonl', cap: Infinity,
      mapping: 'data/handwritten.jsonl: written for the router where public data is thin (memory extraction, file read/write, repository scans, trading, content writing, data transformation, conversation, other, stakes); labelled by hand',
    },
    // Requests written the way people type them into a chat assistant (lowercase, typos, context
    // before the ask, personas, pasted material) for the kinds real chat traffic is mostly made
    // of, where the public collections are templates (T0) or long benchmark prompts (WritingBench,
    // HelloBench). A collection of its own, so within each kind it weighs as one more collection.
    {
      id: 'svc-chat', group: 'svc', file: 'handwritten-chat.jsonl', cap: Infinity,
      mapping: 'data/handwritten-chat.jsonl: chat requests written for the router in the way people type them (content writing, roleplay and fiction, conversation, knowledge questions and advice, rewriting and reformatting, extraction, classification, summarization); labelled by hand, rewriting and reformatting pasted text as data:transformation; a row with a pasted body whose one request around it names the work (writing, rewriting, translation, summary, classification, extraction other than a question) is also a row as that request alone, without a difficulty label',
    },
    {
      id: 'svc-templates', group: 'svc', file: 'corpus.jsonl', cap: TEMPLATE_CAP,
      mapping: `data/corpus.jsonl (training/build-corpus.mjs templates), at most ${TEMPLATE_CAP} rows per kind of work: the languages other than English and agent turns with tool results`,
    },
  ];
  for (const o of own) {
    const path = join(DATA, o.file);
    if (!existsSync(path)) continue;
    const rows = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    const perTag = {};
    const ranked = rows.map((r) => ({ r, h: fnv(r.text) })).sort((a, b) => a.h - b.h || (a.r.text < b.r.text ? -1 : 1));
    for (const { r } of ranked) {
      if ((perTag[r.task_type] ?? 0) >= o.cap) continue;
      const labelled = o.id !== 'svc-templates' && r.difficulty >= 1 ? { ...r, dl: { scale: 'collection', value: r.difficulty } } : r;
      if (accept(labelled, { id: o.id, group: o.group, ships: true })) {
        perTag[r.task_type] = (perTag[r.task_type] ?? 0) + 1;
        const ask = o.id === 'svc-chat' ? askOfPaste(r) : undefined;
        if (ask !== undefined) accept({ text: ask, task_type: r.task_type, stakes: r.stakes, lang: r.lang, sub: 'ask of a paste' }, { id: o.id, group: o.group, ships: true });
      }
    }
    report.push({ id: o.id, repo: 'this repository', commit: null, licence: 'the project\'s own', ships: true, rows: {}, group: o.group, mapping: [o.mapping] });
  }

  const conflicts = out.filter((r) => r.conflict).length;
  const final = out.filter((r) => !r.conflict);
  // Each source's counts, per kind of work, are of the set as written (after clashing rows are dropped).
  const counts = new Map(report.map((e) => [e.id, {}]));
  for (const r of final) {
    const c = counts.get(r.source);
    const tag = r.task_type ?? '(difficulty only)';
    c[tag] = (c[tag] ?? 0) + 1;
  }
  for (const entry of report) {
    const c = counts.get(entry.id);
    entry.rows = Object.fromEntries(Object.keys(c).sort().map((k) => [k, c[k]]));
  }
  const lines = final.map((r) => JSON.stringify(r));
  const body = lines.join('\n') + '\n';
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, body);
  const sha = createHash('sha256').update(body).digest('hex');

  const manifest = {
    note: 'Counts and text hashes of the training set built by training/build-training-set.mjs; the set itself is rebuilt from the snapshots and not committed.',
    sha256: sha,
    rows: final.length,
    dropped: { duplicate_text_with_other_label: conflicts, overlapping_judge_sets: judgeOverlap },
    judge_sets_checked: [...new Set(judge.map((j) => j.set))],
    sources: report.map(({ mapping, ...r }) => r),
    text_sha256_16: final.map((r) => textKey(r.text)).sort(),
  };
  writeFileSync(join(DATA, 'training-set.manifest.json'), JSON.stringify(manifest, null, 0).replace(/,"text_sha256_16"/, ',\n"text_sha256_16"') + '\n');
  writeFileSync(join(DATA, 'SOURCES.md'), sourcesMarkdown(report, manifest));
  console.log(`\nwrote ${final.length} rows to ${OUT} (sha256 ${sha.slice(0, 12)}), ${conflicts} dropped for clashing labels, ${judgeOverlap} for overlapping a judge set; ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function sourcesMarkdown(report, manifest) {
  const total = (r) => Object.values(r.rows).reduce((a, b) => a + b, 0);
  let s = `# Training sources of the router classifier\n\n`;
  s += `Generated by \`training/build-training-set.mjs\` (do not edit by hand). The public collections are read from snapshots of their GitHub repositories (the commit below); their text is not committed here: the script rebuilds the set (\`.corpus/training-set.jsonl\`, ${manifest.rows} rows, sha256 \`${manifest.sha256.slice(0, 16)}…\`) from the snapshots, and \`training-set.manifest.json\` keeps the per-source counts and a hash of every row's text.\n\n`;
  s += `Sources marked **eval only** have a non-commercial licence or none: they never train the weights that ship; they only measure them. The one marked **probe only** is held out on purpose, licence notwithstanding: the real-request probe, measured on its own. The held-out judge sets (MT-Bench and Vicuna-bench questions, Arena-Hard, MATH-500 and the MATH test split, FLASK) are never used; the MATH test split and whichever judge sets have a snapshot on the machine (${manifest.judge_sets_checked.length ? manifest.judge_sets_checked.join(', ') : 'none this build'}) are read only to drop overlapping rows (${manifest.dropped.overlapping_judge_sets} dropped). The WizardLM test set (human difficulty 1–10) is not used even for evaluation: FLASK contains it.\n\n`;
  s += `Difficulty labels (a human label in the collection) map onto the router's 1–5: MATH level 1–5 → 2,3,3,4,5; Spider easy/medium/hard/extra → 2,3,4,5; BIRD simple/moderate/challenging → 3,4,5; LeetCode (DebugBench) easy/medium/hard → 2,3,4; k8s-ai-bench easy/medium/hard → 2,3,4; CrowdStrike malware questions easy/medium/hard → 3,4,5; Collections without per-item labels carry one collection-level value where it is plain (banking and assistant intents 1, grade-school math and search questions 2, MBPP 2, HumanEval 3).\n\n`;
  s += `| source | repository | commit | licence | ships | rows (by kind of work) |\n|---|---|---|---|---|---|\n`;
  for (const r of report) {
    const rows = Object.entries(r.rows).map(([k, v]) => `${k} ${v}`).join(', ');
    s += `| ${r.id} | ${r.repo} | ${r.commit ? `\`${r.commit.slice(0, 12)}\`` : '—'} | ${r.licence} | ${r.ships ? 'yes' : r.probe ? '**probe only**' : '**eval only**'} | ${total(r)}: ${rows || 'not built'} |\n`;
  }
  s += `\n## Mapping to kinds of work\n\n`;
  for (const r of report) {
    s += `### ${r.id} (${r.repo})\n\n`;
    for (const m of r.mapping ?? []) s += `- ${m}\n`;
    s += '\n';
  }
  return s;
}

main();
