#!/usr/bin/env node
// Fills the `skills` of every model in libs/catalog/src/catalog.json from the small profile
// table below and rewrites the file. Deterministic: the same table always gives the same file.
// The committed catalog.json stays the source of truth; run this only to change skill data:
//
//   node libs/catalog/scripts/generate-skills.mjs
//
// A skill is a 0..1 score per kind of work (every tag except `other`) and band (easy, medium,
// hard, frontier). It is a logistic curve of the model's overall strength plus its leaning
// toward the kind's domain, against the band's difficulty, so stronger tiers score higher and
// weak models fall off on the hard and frontier bands. Leanings differ between vendors so that
// routing picks differ by kind of work.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'catalog.json');

/** Kind of work → domain. Same tags and order as TASK_TYPES in src/schema.ts, without `other`. */
const DOMAIN = {
  classification_tagging: 'data',
  'data:extraction': 'data',
  'agent:workflow_execution': 'agent',
  roleplay_fiction: 'writing',
  content_writing: 'writing',
  'data:transformation': 'data',
  'code:general_impl': 'code',
  'agent:multi_step_planning': 'agent',
  qa_knowledge: 'analysis',
  translation: 'language',
  conversational_reply: 'chat',
  'code:debugging': 'code',
  summarization: 'writing',
  'code:file_read_write': 'code',
  customer_support: 'chat',
  'code:review_security': 'code',
  'agent:tool_dispatch': 'agent',
  'code:shell_execution': 'code',
  'agent:memory_extraction': 'agent',
  'code:frontend_ui': 'code',
  finance_trading: 'analysis',
  research_report: 'analysis',
  'agent:web_search': 'agent',
  security_audit: 'analysis',
  'code:repo_scan': 'code',
  math: 'math',
  'code:devops_config': 'code',
  'code:sql_database': 'code',
  devops: 'code',
};

/** Band → difficulty on the strength scale. */
const BAND_DIFFICULTY = { easy: 0.1, medium: 0.35, hard: 0.6, frontier: 0.85 };
const STEEPNESS = 6;

/** Each vendor's leaning per domain (added to strength). */
const VENDOR_LEANING = {
  'vendor-1': { agent: 0.05, math: 0.05, code: 0.03 },
  'vendor-2': { code: 0.1, agent: 0.08, writing: 0.05, math: -0.02 },
  'vendor-3': { analysis: 0.06, data: 0.05, language: 0.08, writing: 0.02 },
  'vendor-4': { writing: 0.03, chat: 0.05, code: -0.08, analysis: -0.05, agent: -0.06, math: -0.06 },
  'vendor-5': { language: 0.1, writing: 0.08, chat: 0.05, code: -0.05 },
  'vendor-6': { code: 0.06, math: 0.1, writing: -0.08, language: -0.06, chat: -0.06 },
  'vendor-7': { analysis: 0.06, chat: 0.08, writing: 0.08, code: -0.02 },
  'vendor-8': { writing: 0.06, chat: 0.06, code: -0.06 },
};

/**
 * Strength (0..1) of every model that carries skill data, with its own leaning on top of the
 * vendor's. Models absent here carry no skills: the named-only models, and the cheap models
 * vendor-4/atlas-3.1-8b, vendor-3/lumen-2.0-flash-lite and vendor-6/quill-3-30b, which auto
 * reaches only through the earlier rule for kind `other`.
 */
const PROFILES = {
  'vendor-1/orion-nano-5': { strength: 0.42 },
  'vendor-1/orion-4.1-mini': { strength: 0.4, leaning: { writing: 0.02 } },
  'vendor-1/orion-mini-5': { strength: 0.58 },
  'vendor-1/orion-4.1': { strength: 0.52, leaning: { writing: 0.04, chat: 0.03 } },
  'vendor-1/orion-5': { strength: 0.74 },
  'vendor-1/orion-5-pro': { strength: 0.88, leaning: { math: 0.04 } },
  'vendor-2/lyric-mini-3': { strength: 0.34 },
  'vendor-2/lyric-haiku-4.5': { strength: 0.52 },
  'vendor-2/lyric-sonnet-4.5': { strength: 0.78 },
  'vendor-2/lyric-opus-4.5': { strength: 0.9 },
  'vendor-3/lumen-2.5-flash-lite': { strength: 0.4 },
  'vendor-3/lumen-2.5-flash': { strength: 0.55 },
  'vendor-3/lumen-2.5-pro': { strength: 0.7 },
  'vendor-3/lumen-3-pro': { strength: 0.86, leaning: { math: 0.04 } },
  'vendor-4/atlas-3.3-70b': { strength: 0.4 },
  'vendor-4/atlas-4-maverick': { strength: 0.47 },
  'vendor-4/open-120b': { strength: 0.55, leaning: { math: 0.1, code: 0.06, writing: -0.06 } },
  'vendor-5/breeze-small-3.2': { strength: 0.36 },
  'vendor-5/breeze-code-2': { strength: 0.45, leaning: { code: 0.15, writing: -0.12, chat: -0.06, language: -0.08 } },
  'vendor-5/breeze-medium-3.1': { strength: 0.5 },
  'vendor-5/breeze-large-2.1': { strength: 0.6 },
  'vendor-5/breeze-reason-1.2': { strength: 0.58, leaning: { math: 0.12, analysis: 0.06, writing: -0.08, chat: -0.06 } },
  'vendor-6/deep-v3.2': { strength: 0.5, leaning: { math: 0.04 } },
  'vendor-6/deep-r1': { strength: 0.62, leaning: { math: 0.1, analysis: 0.04 } },
  'vendor-6/quill-3-coder-480b': { strength: 0.58, leaning: { code: 0.14, writing: -0.12, chat: -0.08, language: -0.06, analysis: -0.04 } },
  'vendor-7/vega-4-fast': { strength: 0.56 },
  'vendor-7/vega-code-fast-1': { strength: 0.52, leaning: { code: 0.12, writing: -0.1, chat: -0.05, language: -0.05 } },
  'vendor-7/vega-4': { strength: 0.82 },
  'vendor-8/sable-2': { strength: 0.46 },
};

/** Small per (model, kind) spread in -0.03..0.03 from an FNV-1a hash, the same for every band. */
function jitter(key) {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return ((h % 601) / 600 - 0.5) * 0.06;
}

const round2 = (x) => Math.round(x * 100) / 100;

function skillsFor(model, profile) {
  const skills = {};
  for (const [task, domain] of Object.entries(DOMAIN)) {
    let lean = (VENDOR_LEANING[model.vendor][domain] ?? 0) + (profile.leaning?.[domain] ?? 0);
    // Without tools an agent loop cannot run; without json_schema structured output is by prompting.
    if (domain === 'agent' && !model.capabilities.tools) lean -= 0.15;
    if (domain === 'data' && !model.capabilities.json_schema) lean -= 0.03;
    const strength = profile.strength + lean + jitter(`${model.id}|${task}`);
    const bands = {};
    for (const [band, difficulty] of Object.entries(BAND_DIFFICULTY)) {
      const score = 1 / (1 + Math.exp(-STEEPNESS * (strength - difficulty)));
      bands[band] = Math.min(0.99, Math.max(0.01, round2(score)));
    }
    skills[task] = bands;
  }
  return skills;
}

/** One-line JSON with a space after each comma and colon. */
function inline(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`);
  return entries.length ? `{ ${entries.join(', ')} }` : '{}';
}

/** JSON with short objects and arrays kept on one line. */
function format(value, indent = '') {
  const flat = inline(value);
  if (value === null || typeof value !== 'object' || flat.length + indent.length <= 110) return flat;
  const inner = indent + '  ';
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + format(v, inner)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${format(v, inner)}`);
  return `{\n${entries.join(',\n')}\n${indent}}`;
}

const catalog = JSON.parse(readFileSync(FILE, 'utf8'));
const ids = new Set(catalog.models.map((m) => m.id));
for (const id of Object.keys(PROFILES)) {
  if (!ids.has(id)) throw new Error(`profile for unknown model ${id}`);
}
for (const model of catalog.models) {
  const profile = PROFILES[model.id];
  model.skills = profile && !model.named_only ? skillsFor(model, profile) : {};
}
writeFileSync(FILE, format(catalog) + '\n');
