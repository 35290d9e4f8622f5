#!/usr/bin/env node
// Writes data/corpus.jsonl: the labelled corpus the router classifier is trained on.
// Deterministic: the same seed always produces byte-identical output.
//
//   node scripts/build-corpus.mjs [--seed=20240611] [--per-tag=110]
//
// Row fields: text (last user message), system?, turn ('chat' | 'agent'), tool_result?
// (tool output that follows the user message), turns? (messages in the conversation),
// task_type, difficulty 1..5, stakes ('normal' | 'high'), lang, tpl (template id, used for
// the template-disjoint evaluation).
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng, fnv, clamp, genericSystem, AGENT_SYSTEMS } from './generators/lib.mjs';
import { PHRASES, FRAMES as PHRASE_FRAMES } from './generators/phrases.mjs';
import * as code from './generators/code.mjs';
import * as agent from './generators/agent.mjs';
import * as data from './generators/data.mjs';
import * as writing from './generators/writing.mjs';
import * as knowledge from './generators/knowledge.mjs';
import * as ops from './generators/ops.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const SEED = Number(args.seed ?? 20240611);
const PER_TAG = Number(args['per-tag'] ?? 200);
const OUT = args.out ?? join(here, '..', 'data', 'corpus.jsonl');

export const TEMPLATES = {
  classification_tagging: data.classification,
  'data:extraction': data.extraction,
  'agent:workflow_execution': agent.workflow_execution,
  roleplay_fiction: writing.roleplay,
  content_writing: writing.content_writing,
  'data:transformation': data.transformation,
  'code:general_impl': code.general_impl,
  'agent:multi_step_planning': agent.multi_step_planning,
  qa_knowledge: knowledge.qa_knowledge,
  translation: data.translation,
  conversational_reply: writing.conversational,
  'code:debugging': code.debugging,
  summarization: data.summarization,
  'code:file_read_write': code.file_read_write,
  customer_support: writing.customer_support,
  'code:review_security': code.review_security,
  'agent:tool_dispatch': agent.tool_dispatch,
  'code:shell_execution': code.shell_execution,
  'agent:memory_extraction': agent.memory_extraction,
  'code:frontend_ui': code.frontend_ui,
  finance_trading: knowledge.finance_trading,
  research_report: writing.research_report,
  'agent:web_search': agent.web_search,
  security_audit: ops.security_audit,
  'code:repo_scan': code.repo_scan,
  math: knowledge.math,
  'code:devops_config': code.devops_config,
  'code:sql_database': code.sql_database,
  devops: ops.devops,
  other: knowledge.other,
};

// Light framing people add around a request, per language; agent turns stay unframed
// because they are written by a program, not typed by a person.
const FRAMES = {
  en: [['', '', '', '', 'Hi! ', 'Quick question: ', 'Hey, ', 'Please help. ', 'ok so ', 'Hello, '], ['', '', '', '', ' Thanks!', ' Thanks in advance.', ' ty', ' Be concise.', ' Please explain step by step.']],
  es: [['', '', '', 'Hola, ', 'Por favor, ', 'Oye, ', 'Una pregunta: '], ['', '', '', ' Gracias.', ' ¡Gracias!', ' Sé breve.', ' Explícalo paso a paso.']],
  fr: [['', '', '', 'Bonjour, ', 'Salut, ', 'Petite question : ', "S'il te plaît, "], ['', '', '', ' Merci !', ' Merci d’avance.', ' Sois concis.', ' Explique étape par étape.']],
  de: [['', '', '', 'Hallo, ', 'Hi, ', 'Kurze Frage: ', 'Bitte: '], ['', '', '', ' Danke!', ' Vielen Dank.', ' Bitte kurz.', ' Erklär es Schritt für Schritt.']],
  pt: [['', '', '', 'Oi, ', 'Olá, ', 'Uma dúvida: ', 'Por favor, '], ['', '', '', ' Obrigado!', ' Valeu.', ' Seja breve.', ' Explique passo a passo.']],
  zh: [['', '', '', '你好，', '请问', '麻烦你，'], ['', '', '', '谢谢！', '请简洁回答。', '请一步一步解释。']],
  ja: [['', '', '', 'こんにちは。', 'すみません、', '質問です。'], ['', '', '', 'よろしくお願いします。', 'ありがとうございます。', '簡潔にお願いします。']],
};

function frame(rng, row) {
  const f = FRAMES[row.lang];
  if (!f || row.turn === 'agent') return row.text;
  return rng.pick(f[0]) + row.text + rng.pick(f[1]);
}

/** A template that puts one of the tag's short task phrases into a generic request frame. */
function phraseTemplate(tag) {
  const agent = tag.startsWith('agent:');
  return {
    id: 'phrase',
    gen(r) {
      const [difficulty, phrase, stakes] = r.pick(PHRASES[tag]);
      const frame = r.pick(PHRASE_FRAMES);
      const text = frame.replace('{p}', phrase).replace('{P}', phrase.charAt(0).toUpperCase() + phrase.slice(1));
      return {
        text,
        system: agent ? r.pick([...AGENT_SYSTEMS, undefined]) : genericSystem(r),
        turn: agent ? 'agent' : 'chat',
        difficulty,
        stakes: stakes === 'high' ? 'high' : 'normal',
      };
    },
  };
}

function buildTag(tag, baseTemplates, seen) {
  const rng = new Rng(SEED ^ fnv(tag));
  const phrase = phraseTemplate(tag);
  const templates = [...baseTemplates, phrase];
  const rows = [];
  // English templates appear twice in the rotation so English stays the bulk of the corpus;
  // the phrase template four times, as it carries the widest vocabulary.
  const rotation = templates.flatMap((t) => (t === phrase ? [t, t, t, t] : (t.lang ?? 'en') === 'en' ? [t, t] : [t]));
  let attempts = 0;
  while (rows.length < PER_TAG && attempts < PER_TAG * 60) {
    // Round-robin first so every template is represented, random after collisions.
    const tpl = attempts < PER_TAG ? rotation[rows.length % rotation.length] : rng.pick(rotation);
    attempts++;
    const out = tpl.gen(rng);
    const row = {
      text: '',
      system: out.system,
      turn: out.turn ?? 'chat',
      tool_result: out.tool_result,
      turns: out.turns,
      task_type: tag,
      difficulty: clamp(out.difficulty ?? 2),
      stakes: out.stakes ?? 'normal',
      lang: tpl.lang ?? out.lang ?? 'en',
      tpl: `${tag}/${tpl.id}`,
    };
    row.text = frame(rng, { ...row, text: out.text.trim() });
    // Unique text per corpus: the split hashes the text, so repeated texts would all land on one side.
    const key = row.text;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push(row);
  }
  return rows;
}

function main() {
  const lines = [];
  const counts = {};
  const seen = new Set();
  for (const [tag, templates] of Object.entries(TEMPLATES)) {
    const rows = buildTag(tag, templates, seen);
    counts[tag] = rows.length;
    for (const row of rows) {
      // Drop undefined fields so each line only carries what it has.
      lines.push(JSON.stringify(row, (k, v) => (v === undefined ? undefined : v)));
    }
  }
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, lines.join('\n') + '\n');
  const langs = {};
  for (const l of lines) {
    const { lang } = JSON.parse(l);
    langs[lang] = (langs[lang] ?? 0) + 1;
  }
  console.log(`wrote ${lines.length} rows to ${OUT}`);
  console.log('per tag:', counts);
  console.log('per language:', langs);
}

main();
