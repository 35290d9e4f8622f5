// Public labelled prompt collections the router classifier learns from, each read from a
// fetched snapshot of its GitHub repository and mapped to the spec's kinds of work.
//
// A source is { id, repo, licence, ships, group, mapping, read(ctx) }:
//  - repo: owner/name; the snapshot is read with `git show HEAD:<path>` from
//    $SVC_MIRRORS/<owner>+<name>/repo (default /work/.mirror), never copied into the project;
//  - ships: false for licences that do not allow commercial use (or have no licence): such a
//    source is only ever used for evaluation, never to train the weights that ship;
//  - probe: true (with ships: false) for a collection held out on purpose as the real-request
//    probe, measured on its own rather than with the evaluation-only collections;
//  - group: the collection family used by the cross-source split (all sources of one
//    repository share a group, so a test collection shares no repository with training);
//  - mapping: one line per label, the documented mapping (written into data/SOURCES.md);
//  - read(ctx) returns rows { text, system?, tool_result?, task_type, difficulty?, dl?, stakes?, lang? }
//    where dl is a human difficulty label { scale, value } from the collection itself.
import { execFileSync } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const MIRRORS = process.env.SVC_MIRRORS ?? '/work/.mirror';

export function mirrorDir(repo) {
  return join(MIRRORS, repo.replace('/', '+'), 'repo');
}

export function hasMirror(repo) {
  return existsSync(mirrorDir(repo));
}

export function headCommit(repo) {
  return execFileSync('git', ['-C', mirrorDir(repo), 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
}

/** A file of the snapshot at HEAD, or at an earlier commit `rev` of its history. */
function show(repo, path, rev = 'HEAD') {
  return execFileSync('git', ['-C', mirrorDir(repo), 'show', `${rev}:${path}`], { maxBuffer: 64 << 20 });
}

function text(repo, path, rev) {
  return show(repo, path, rev).toString('utf8');
}

function json(repo, path) {
  return JSON.parse(text(repo, path));
}

function jsonl(repo, path, rev) {
  return text(repo, path, rev).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/** The code kind a request names (SQL, a shell, a web page), else general implementation. */
function codeKindNamed(text) {
  if (/\bSQL\b|\bquery\b.*\btable\b/i.test(text)) return 'code:sql_database';
  if (/\b(shell|bash)\b/i.test(text)) return 'code:shell_execution';
  if (/\b(HTML|CSS|React|Vue|web page|webpage)\b/i.test(text) && !/\bserver\b/i.test(text)) return 'code:frontend_ui';
  return 'code:general_impl';
}

function ls(repo, dir) {
  return execFileSync('git', ['-C', mirrorDir(repo), 'ls-tree', '-r', '--name-only', 'HEAD', dir], { encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\n')
    .filter(Boolean);
}

/**
 * CSV text as objects keyed by the header row (csv-parse; quotes, doubled quotes and newlines
 * inside quotes per RFC 4180). Rows whose field count differs from the header's are dropped.
 */
export function parseCsv(s) {
  const [head, ...body] = parse(s, { relax_quotes: true, relax_column_count: true, skip_empty_lines: true });
  return body.filter((r) => r.length === head.length).map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
}

const clip = (s, n) => (s.length > n ? s.slice(0, n) : s);

/** Tool list as an agent framework would put it in the system prompt. */
function toolsSystem(functions) {
  const lines = functions.slice(0, 8).map((f) => `- ${f.name}: ${clip(String(f.description ?? '').replace(/\s+/g, ' '), 160)}`);
  return `You are an assistant that can call tools. Available tools:\n${lines.join('\n')}`;
}

/** "I am rigid, insecure, pessimistic." — a sentence that only lists adjectives after "I am". */
function isTraitList(sentence) {
  if (!sentence.startsWith('I am ') || !sentence.endsWith('.')) return false;
  const words = sentence.slice(5, -1).split(/,\s*|\s+and\s+/);
  return words.length >= 2 && words.every((w) => /^[a-z-]+$/i.test(w));
}

const firstUser = (question) => {
  const turn = Array.isArray(question?.[0]) ? question[0] : question;
  const m = (turn ?? []).find((x) => x.role === 'user');
  return m ? m.content : '';
};

// ---------------------------------------------------------------------------------------------

export const SOURCES = [
  {
    id: 'math-train',
    repo: 'aiwaves-cn/agents',
    group: 'hendrycks-math',
    licence: 'MIT (MATH dataset); repository Apache-2.0',
    ships: true,
    mapping: ['MATH training split (src/agents/datasets/data/math/train/, never test/): every problem → `math`; "Level 1–5" is the human difficulty label (scale math_level)'],
    read() {
      const files = ls(this.repo, 'src/agents/datasets/data/math/train');
      const rows = [];
      for (const f of files) {
        if (!f.endsWith('.json')) continue;
        const r = JSON.parse(text(this.repo, f));
        const level = Number(String(r.level).replace(/\D/g, ''));
        if (!(level >= 1 && level <= 5)) continue;
        rows.push({ text: r.problem, task_type: 'math', dl: { scale: 'math_level', value: level }, sub: r.type });
      }
      return rows;
    },
    /** MATH test problems: read only to drop any training problem that also appears there. */
    exclude() {
      return ls(this.repo, 'src/agents/datasets/data/math/test').filter((f) => f.endsWith('.json')).map((f) => JSON.parse(text(this.repo, f)).problem);
    },
  },
  {
    id: 'gsm8k-train',
    repo: 'openai/grade-school-math',
    group: 'gsm8k',
    licence: 'MIT',
    ships: true,
    mapping: ['grade_school_math/data/train.jsonl questions → `math` (grade-school word problems; collection-level difficulty 2)'],
    read() {
      return jsonl(this.repo, 'grade_school_math/data/train.jsonl').map((r) => ({ text: r.question, task_type: 'math', dl: { scale: 'collection', value: 2 } }));
    },
  },
  {
    id: 'flan-cot',
    repo: 'google-research/FLAN',
    group: 'flan',
    licence: 'Apache-2.0',
    ships: true,
    mapping: [
      'flan/v2/cot_data/aqua_train.tsv (algebra word problems with options) → `math`',
      'strategyqa_train.tsv, qasc_train.tsv, ecqa_train.tsv, creak_train.tsv (commonsense and science questions) → `qa_knowledge`',
    ],
    read() {
      const rows = [];
      const tsv = (f) => text(this.repo, `flan/v2/cot_data/${f}`).split('\n').filter(Boolean).map((l) => l.split('\t')[0].replace(/\\n/g, '\n'));
      for (const q of tsv('aqua_train.tsv')) rows.push({ text: q, task_type: 'math' });
      for (const f of ['strategyqa_train.tsv', 'qasc_train.tsv', 'ecqa_train.tsv', 'creak_train.tsv']) for (const q of tsv(f)) rows.push({ text: q, task_type: 'qa_knowledge', sub: f });
      return rows;
    },
  },
  {
    id: 'nq-open',
    repo: 'google-research-datasets/natural-questions',
    group: 'natural-questions',
    licence: 'CC-BY-SA-3.0 (data); repository Apache-2.0',
    ships: true,
    mapping: ['nq_open/NQ-open.dev.jsonl search-engine questions → `qa_knowledge` (collection-level difficulty 2)'],
    read() {
      return jsonl(this.repo, 'nq_open/NQ-open.dev.jsonl').map((r) => {
        const q = r.question.trim();
        return { text: q.endsWith('?') ? q : `${q.charAt(0).toUpperCase()}${q.slice(1)}?`, task_type: 'qa_knowledge', dl: { scale: 'collection', value: 2 } };
      });
    },
  },
  {
    id: 't0-templates',
    repo: 'yizhongw/self-instruct',
    group: 'self-instruct',
    licence: 'Apache-2.0 (repository); underlying datasets as listed by the T0 prompts',
    ships: true,
    mapping: [
      'data/finetuning/t0_train_50k/data_per_template: ag_news, amazon_polarity, imdb, rotten_tomatoes, dbpedia_14, trec, app_reviews (rating) templates → `classification_tagging`',
      'cnn_dailymail (summary templates), gigaword (summary/title), xsum, samsum (summary templates), multi_news (summary) → `summarization`',
      'common_gen (sentence from concepts), app_reviews_generate_review → `content_writing`',
      'duorc build_story_around, cnn_dailymail generate_story, samsum Write_a_dialogue → `roleplay_fiction`',
      'wiki_bio key_content / who, quoref Read_And_Extract, duorc extract → `data:extraction`',
      'sciq closed-book, commonsense_qa, kilt_tasks_hotpotqa, wiki_qa → `qa_knowledge`',
      'paws Rewrite, gigaword reverse, common_gen sentence_to_concepts → `data:transformation`',
    ],
    read() {
      const dir = 'data/finetuning/t0_train_50k/data_per_template';
      const rules = [
        [/^(ag_news|amazon_polarity|imdb|rotten_tomatoes|dbpedia_14|trec)_/, 'classification_tagging'],
        [/^app_reviews_(categorize|convert)/, 'classification_tagging'],
        [/^cnn_dailymail_3_0_0_(2_or_3_sentences|news_summary|sum_in_brief|tldr_summary|write_an_outline|news_card_view)/, 'summarization'],
        [/^gigaword_(generate_summary|write_a_title|make_a_title|in_a_nutshell|TLDR|write_its_sentence)/, 'summarization'],
        [/^(xsum)_(?!.*(title|generate_story))/, 'summarization'],
        [/^samsum_(?!Write_a_dialogue)/, 'summarization'],
        [/^multi_news_(summary|what_are_the_key|summarize|distill|synthesize)/, 'summarization'],
        [/^common_gen_(Example_prompt|Given_concepts|Put_together|choice_in_concept|random_task|topic_to_sentence)/, 'content_writing'],
        [/^app_reviews_generate_review/, 'content_writing'],
        [/^(duorc_\w+_build_story_around|cnn_dailymail_3_0_0_generate_story|samsum_Write_a_dialogue)/, 'roleplay_fiction'],
        [/^(wiki_bio_(key_content|who)|quoref_Read_And_Extract|duorc_\w+_extract)/, 'data:extraction'],
        [/^(sciq_(Direct_Question_Closed_Book|Multiple_Choice_Closed_Book)|commonsense_qa_(answer_given_question_without|answer_to|most_suitable)|kilt_tasks_hotpotqa_)/, 'qa_knowledge'],
        [/^(paws_labeled_final_Rewrite|gigaword_reverse|common_gen_sentence_to_concepts|common_gen_topics_from)/, 'data:transformation'],
      ];
      const rows = [];
      for (const f of ls(this.repo, dir)) {
        const name = f.slice(dir.length + 1).replace(/\.jsonl$/, '');
        const rule = rules.find(([re]) => re.test(name));
        if (!rule) continue;
        const items = jsonl(this.repo, f);
        for (const r of items.slice(0, 60)) rows.push({ text: r.prompt.replace(/\\n/g, '\n').trim(), task_type: rule[1], sub: name.replace(/_.*$/, '') });
      }
      return rows;
    },
  },
  {
    id: 'self-instruct-seed',
    repo: 'yizhongw/self-instruct',
    group: 'self-instruct',
    licence: 'Apache-2.0',
    ships: true,
    mapping: ['data/seed_tasks.jsonl tasks marked is_classification → `classification_tagging` (instruction and its first instance)'],
    read() {
      const rows = [];
      for (const r of jsonl(this.repo, 'data/seed_tasks.jsonl')) {
        if (!r.is_classification) continue;
        const inst = r.instances?.[0]?.input ?? '';
        rows.push({ text: inst ? `${r.instruction}\n${inst}` : r.instruction, task_type: 'classification_tagging' });
      }
      return rows;
    },
  },
  {
    id: 'humanevalpack',
    repo: 'bigcode-project/octopack',
    group: 'humaneval',
    licence: 'MIT',
    ships: true,
    mapping: [
      'evaluation/create/humaneval-x/data/<lang>/data/humanevalpack.jsonl `instruction` (write the function) → `code:general_impl`',
      'the same problems with `buggy_solution` ("fix the bugs", bug_type, failure_symptoms) → `code:debugging`',
    ],
    read() {
      const rows = [];
      for (const lang of ['python', 'js', 'java', 'go', 'cpp', 'rust']) {
        const items = jsonl(this.repo, `evaluation/create/humaneval-x/data/${lang}/data/humanevalpack.jsonl`);
        for (const r of items) {
          rows.push({ text: r.instruction, task_type: 'code:general_impl', dl: { scale: 'collection', value: 3 }, sub: lang });
          const buggy = `${r.declaration}${r.buggy_solution}`;
          rows.push({ text: `Fix bugs in ${r.entry_point}.\n${clip(buggy, 1800)}\n${clip(r.test ?? '', 400)}`, task_type: 'code:debugging', sub: lang });
        }
      }
      return rows;
    },
  },
  {
    id: 'intercode',
    repo: 'princeton-nlp/intercode',
    group: 'intercode',
    licence: 'MIT (repository); Spider CC-BY-SA-4.0, BIRD CC-BY-SA-4.0, MBPP CC-BY-4.0',
    ships: true,
    mapping: [
      'data/python/mbpp/ic_mbpp.json queries → `code:general_impl` (collection-level difficulty 2)',
      'data/sql/spider/ic_spider_dev.json questions (with their tables) → `code:sql_database`; hardness easy/medium/hard/extra is the human label (scale spider)',
      'data/sql/bird/ic_bird.json questions (with evidence) → `code:sql_database`; difficulty simple/moderate/challenging (scale bird)',
      'data/ctf/ic_ctf.json capture-the-flag tasks → `security_audit`',
    ],
    read() {
      const rows = [];
      for (const r of json(this.repo, 'data/python/mbpp/ic_mbpp.json')) rows.push({ text: r.query, task_type: 'code:general_impl', dl: { scale: 'collection', value: 2 }, sub: 'mbpp' });
      for (const r of json(this.repo, 'data/sql/spider/ic_spider_dev.json')) {
        const tables = Object.entries(r.db_tables ?? {}).map(([t, cols]) => `${t}(${cols.join(', ')})`).join('; ');
        const hardness = { easy: 1, medium: 2, hard: 3, extra: 4 }[r.hardness];
        rows.push({ text: `${r.query}\nTables: ${clip(tables, 600)}`, task_type: 'code:sql_database', dl: hardness ? { scale: 'spider', value: hardness } : undefined, sub: 'spider' });
      }
      for (const r of json(this.repo, 'data/sql/bird/ic_bird.json')) {
        const d = { simple: 1, moderate: 2, challenging: 3 }[r.difficulty];
        rows.push({ text: r.evidence ? `${r.query}\nHint: ${r.evidence}` : r.query, task_type: 'code:sql_database', dl: d ? { scale: 'bird', value: d } : undefined, sub: 'bird' });
      }
      for (const r of json(this.repo, 'data/ctf/ic_ctf.json')) rows.push({ text: r.query, task_type: 'security_audit', sub: 'ctf' });
      return rows;
    },
  },
  {
    id: 'sql-eval',
    repo: 'defog-ai/sql-eval',
    group: 'sql-eval',
    licence: 'Apache-2.0',
    ships: true,
    mapping: ['data/questions_gen_postgres.csv, instruct_basic_postgres.csv, instruct_advanced_postgres.csv, idk.csv questions, asked as sql-eval asks them ("Generate a SQL query to answer this question: …", with their instructions) → `code:sql_database`'],
    read() {
      const rows = [];
      for (const f of ['questions_gen_postgres.csv', 'instruct_basic_postgres.csv', 'instruct_advanced_postgres.csv', 'idk.csv']) {
        for (const r of parseCsv(text(this.repo, `data/${f}`))) {
          if (!r.question) continue;
          // Asked the way sql-eval itself asks it: a SQL query that answers the question.
          const q = `Generate a SQL query to answer this question: ${r.question}`;
          rows.push({ text: r.instructions ? `${q}\n${r.instructions}` : q, task_type: 'code:sql_database', sub: f });
        }
      }
      return rows;
    },
  },
  {
    id: 'debugbench',
    repo: 'thunlp/DebugBench',
    group: 'debugbench',
    licence: 'Apache-2.0',
    ships: true,
    mapping: ['benchmark/*.json: the buggy solution with its problem statement ("find and fix the bug") → `code:debugging`; level easy/medium/hard is the human label (scale leetcode)'],
    read() {
      const rows = [];
      for (const f of ls(this.repo, 'benchmark')) {
        if (!/_(double|triple|quadruple)\.json$|error\.json$|indexing\.json$|comment\.json$|indentation\.json$|keywords\.json$|colons\.json$|= or =\.json$|parentheses\.json$|string\.json$|methods\.json$|objects\.json$/.test(f)) continue;
        for (const r of json(this.repo, f)) {
          const level = { easy: 1, medium: 2, hard: 3 }[r.level];
          const lang = f.slice('benchmark/'.length).split('_')[0];
          rows.push({
            text: `${clip(r.description, 1200)}\n\nThis ${lang} solution has a bug. Find and fix it:\n${clip(r.buggy_code, 1600)}`,
            task_type: 'code:debugging',
            dl: level ? { scale: 'leetcode', value: level } : undefined,
            sub: lang,
          });
        }
      }
      return rows;
    },
  },
  {
    id: 'tldr',
    repo: 'tldr-pages/tldr',
    group: 'tldr',
    licence: 'CC-BY-4.0',
    ships: true,
    mapping: ['pages/common, pages/linux, pages/osx: the first two example descriptions of each page, asked as "How do I <description> with `<command>`?" → `code:shell_execution`'],
    read() {
      const rows = [];
      for (const dir of ['pages/common', 'pages/linux', 'pages/osx']) {
        const files = ls(this.repo, dir).filter((f) => f.endsWith('.md'));
        for (const f of files.slice(0, 700)) {
          const page = text(this.repo, f);
          const cmd = f.slice(f.lastIndexOf('/') + 1, -3);
          const examples = [...page.matchAll(/^- (.+?):?\s*$/gm)].map((m) => m[1].replace(/\[([a-zA-Z]+)\]/g, '$1').replace(/\[([^\]]*)\]/g, '$1'));
          for (const e of examples.slice(0, 2)) rows.push({ text: `How do I ${e.charAt(0).toLowerCase()}${e.slice(1)} with \`${cmd}\`?`, task_type: 'code:shell_execution', sub: dir });
        }
      }
      return rows;
    },
  },
  {
    id: 'bfcl',
    repo: 'ShishirPatil/gorilla',
    group: 'gorilla',
    licence: 'Apache-2.0',
    ships: true,
    mapping: [
      'berkeley-function-call-leaderboard/bfcl_eval/data BFCL_v4_simple_*, multiple, parallel, parallel_multiple, live_simple, live_multiple, live_parallel: the user turn with the offered functions as a tool list in the system prompt → `agent:tool_dispatch`',
      'BFCL_v4_multi_turn_base first turns: GorillaFileSystem only → `code:file_read_write`; TradingBot only → `finance_trading`; other API mixes (travel, tickets, messages, vehicle) → `agent:workflow_execution`',
      'BFCL_v4_web_search questions → `agent:web_search`',
      'memory_prereq_conversation/*.json user turns that share personal facts, under a memory-keeping system prompt → `agent:memory_extraction`',
    ],
    read() {
      const base = 'berkeley-function-call-leaderboard/bfcl_eval/data';
      const rows = [];
      for (const f of ['simple_python', 'simple_java', 'simple_javascript', 'multiple', 'parallel', 'parallel_multiple', 'live_simple', 'live_multiple', 'live_parallel', 'live_parallel_multiple']) {
        for (const r of jsonl(this.repo, `${base}/BFCL_v4_${f}.json`)) {
          const q = firstUser(r.question);
          if (!q || !Array.isArray(r.function)) continue;
          rows.push({ text: q, system: toolsSystem(r.function), task_type: 'agent:tool_dispatch', sub: f });
        }
      }
      for (const r of jsonl(this.repo, `${base}/BFCL_v4_multi_turn_base.json`)) {
        const q = firstUser(r.question);
        const classes = r.involved_classes ?? [];
        const tag = classes.length === 1 && classes[0] === 'GorillaFileSystem' ? 'code:file_read_write'
          : classes.length === 1 && classes[0] === 'TradingBot' ? 'finance_trading' : 'agent:workflow_execution';
        rows.push({ text: q, system: `You are an agent operating these APIs: ${classes.join(', ')}. Carry out the user's request step by step with tool calls.`, task_type: tag, sub: 'multi_turn' });
      }
      for (const r of jsonl(this.repo, `${base}/BFCL_v4_web_search.json`)) rows.push({ text: firstUser(r.question), task_type: 'agent:web_search', sub: 'web_search' });
      for (const f of ls(this.repo, `${base}/memory_prereq_conversation`)) {
        for (const r of jsonl(this.repo, f)) {
          for (const turn of (r.question ?? []).slice(0, 6)) {
            const m = (turn ?? []).find((x) => x.role === 'user');
            if (!m || m.content.length < 80) continue;
            rows.push({
              text: m.content,
              system: 'You keep a long-term memory of the user. After each message, extract the facts worth remembering (preferences, personal details, plans) and save them with the memory tools.',
              task_type: 'agent:memory_extraction',
              sub: 'memory',
            });
          }
        }
      }
      return rows;
    },
  },
  {
    id: 'taskbench',
    repo: 'microsoft/JARVIS',
    group: 'jarvis',
    licence: 'MIT',
    ships: true,
    mapping: ['taskbench/data_{dailylifeapis,huggingface,multimedia}/user_requests.json, typed by alignment_ids.json: single-tool requests → `agent:tool_dispatch`; chain and DAG requests → `agent:multi_step_planning`'],
    read() {
      const rows = [];
      for (const d of ['data_dailylifeapis', 'data_huggingface', 'data_multimedia']) {
        const ids = json(this.repo, `taskbench/${d}/alignment_ids.json`).node_alignment_id ?? {};
        const kind = new Map();
        for (const [k, list] of Object.entries(ids)) for (const id of list) kind.set(String(id), k);
        for (const r of jsonl(this.repo, `taskbench/${d}/user_requests.json`)) {
          const k = kind.get(String(r.id));
          if (!k) continue;
          rows.push({
            text: r.user_request,
            system: 'You are an agent that completes requests by calling the available tools.',
            task_type: k === 'single' ? 'agent:tool_dispatch' : 'agent:multi_step_planning',
            sub: `${d}/${k}`,
          });
        }
      }
      return rows;
    },
  },
  {
    id: 'tau-bench',
    repo: 'sierra-research/tau-bench',
    group: 'tau-bench',
    licence: 'MIT',
    ships: true,
    mapping: ['tau_bench/envs/{retail,airline}/tasks*.py user instructions, rewritten from the simulated user\'s second person ("You are X… you want…") into a request to the agent → `agent:workflow_execution`'],
    read() {
      const rows = [];
      for (const f of ['tau_bench/envs/retail/tasks_train.py', 'tau_bench/envs/retail/tasks_test.py', 'tau_bench/envs/airline/tasks_test.py']) {
        const src = text(this.repo, f);
        for (const m of src.matchAll(/instruction="((?:[^"\\]|\\.)*)"/g)) {
          let s = m[1].replace(/\\'/g, "'").replace(/\\"/g, '"');
          s = s.replace(/^You are [^.]*?(?:\.|,)\s*/, '').replace(/\b[Yy]ou are\b/g, 'I am').replace(/\b[Yy]ou were\b/g, 'I was').replace(/\b[Yy]ou're\b/g, "I'm").replace(/\byou\b/g, 'I').replace(/\bYou\b/g, 'I').replace(/\byour\b/g, 'my').replace(/\bYour\b/g, 'My');
          // The simulated user's personality ("I am rigid, insecure, …") is direction for the
          // simulator, not part of the request.
          s = s.split(/(?<=\.)\s+/).filter((x) => !isTraitList(x.trim())).join(' ');
          rows.push({
            text: s,
            system: `You are a ${f.includes('airline') ? 'airline' : 'retail'} customer service agent with tools to look up users, orders and reservations and to change them. Follow the policy.`,
            task_type: 'agent:workflow_execution',
            sub: f.includes('airline') ? 'airline' : 'retail',
          });
        }
      }
      return rows;
    },
  },
  {
    id: 'webarena',
    repo: 'web-arena-x/webarena',
    group: 'webarena',
    licence: 'Apache-2.0',
    ships: true,
    mapping: ['config_files/test.raw.json intents (tasks on shopping, admin, forum, GitLab and map sites) → `agent:workflow_execution`'],
    read() {
      return json(this.repo, 'config_files/test.raw.json').map((r) => ({
        text: r.intent,
        system: 'You are a browser agent. You can click, type, scroll and navigate pages to complete the task.',
        task_type: 'agent:workflow_execution',
        sub: (r.sites ?? []).join('+'),
      }));
    },
  },
  {
    id: 'banking77',
    repo: 'PolyAI-LDN/task-specific-datasets',
    group: 'polyai',
    licence: 'CC-BY-4.0',
    ships: true,
    mapping: ['banking_data/train.csv online-banking customer queries (77 intents) → `customer_support` (collection-level difficulty 1)'],
    read() {
      return parseCsv(text(this.repo, 'banking_data/train.csv')).map((r) => ({ text: r.text, task_type: 'customer_support', dl: { scale: 'collection', value: 1 }, sub: r.category }));
    },
  },
  {
    id: 'clinc-oos',
    repo: 'clinc/oos-eval',
    group: 'clinc',
    licence: 'CC-BY-3.0',
    ships: true,
    mapping: [
      'data/data_full.json train: small_talk and meta intents (greeting, thank_you, tell_joke, yes, no, …) → `conversational_reply`',
      'banking and credit_cards intents → `customer_support`; translate → `translation`; calculator → `math`; definition → `qa_knowledge`',
      'utility and home assistant commands (timer, alarm, reminder, calendar, play_music, smart_home, text, make_call, shopping_list, todo_list) → `agent:tool_dispatch`',
      'exchange_rate, interest_rate, rollover_401k, taxes, income → `finance_trading`',
      'not used: the out-of-scope queries (oos_train). Out of scope for a banking and home assistant is not a kind of work: most are knowledge questions ("when did camus die", "how many sides are in a hexagon"), and labelling them `other` taught the model that short factual questions are `other`',
    ],
    read() {
      const d = json(this.repo, 'data/data_full.json');
      const domains = json(this.repo, 'data/domains.json');
      const domainOf = new Map();
      for (const [dom, intents] of Object.entries(domains)) for (const i of intents) domainOf.set(i, dom);
      const tool = new Set(['timer', 'alarm', 'reminder', 'reminder_update', 'calendar', 'calendar_update', 'play_music', 'smart_home', 'text', 'make_call', 'shopping_list', 'shopping_list_update', 'todo_list', 'todo_list_update', 'update_playlist', 'next_song', 'share_location', 'find_phone', 'schedule_meeting', 'order', 'uber', 'book_flight', 'book_hotel', 'restaurant_reservation', 'pay_bill', 'transfer']);
      const finance = new Set(['exchange_rate', 'interest_rate', 'rollover_401k', 'taxes', 'income']);
      const rows = [];
      for (const [q, intent] of d.train) {
        const dom = domainOf.get(intent);
        let tag;
        if (dom === 'small_talk' || dom === 'meta') tag = 'conversational_reply';
        else if (tool.has(intent)) tag = 'agent:tool_dispatch';
        else if (dom === 'banking' || dom === 'credit_cards') tag = 'customer_support';
        else if (intent === 'translate') tag = 'translation';
        else if (intent === 'calculator') tag = 'math';
        else if (intent === 'definition') tag = 'qa_knowledge';
        else if (finance.has(intent)) tag = 'finance_trading';
        if (!tag) continue;
        rows.push({ text: q, task_type: tag, dl: { scale: 'collection', value: 1 }, sub: intent, ...(tag === 'agent:tool_dispatch' ? { system: 'You are a personal assistant with tools for the phone, calendar, reminders, music, smart home and messaging.' } : {}) });
      }
      return rows;
    },
  },
  {
    id: 'alma',
    repo: 'fe1ixxu/ALMA',
    group: 'alma',
    licence: 'MIT (repository); WMT human-written test sets',
    ships: true,
    mapping: ['human_written_data/<pair>/test.<src>-<tgt>.json sentence pairs, asked as "Translate this from <src> to <tgt>: <sentence>" (the request ALMA itself uses) → `translation`'],
    read() {
      const names = { en: 'English', de: 'German', cs: 'Czech', is: 'Icelandic', zh: 'Chinese', ru: 'Russian', ja: 'Japanese', uk: 'Ukrainian' };
      const rows = [];
      for (const [dir, pairs] of [['deen', ['de-en', 'en-de']], ['csen', ['cs-en', 'en-cs']], ['isen', ['is-en', 'en-is']], ['zhen', ['zh-en', 'en-zh']], ['ruen', ['ru-en', 'en-ru']]]) {
        for (const p of pairs) {
          const [s, t] = p.split('-');
          let items;
          try {
            items = json(this.repo, `human_written_data/${dir}/test.${p}.json`);
          } catch {
            continue;
          }
          for (const r of items.slice(0, 90)) {
            const src = r.translation?.[s];
            if (!src) continue;
            rows.push({ text: `Translate this from ${names[s]} to ${names[t]}:\n${names[s]}: ${src}\n${names[t]}:`, task_type: 'translation', lang: s === 'en' ? 'en' : s, sub: p });
          }
        }
      }
      return rows;
    },
  },
  {
    id: 'qmsum',
    repo: 'Yale-LILY/QMSum',
    group: 'qmsum',
    licence: 'MIT (repository); its meetings come from the AMI and ICSI meeting corpora (CC-BY-4.0) and Welsh and Canadian parliamentary committee records',
    ships: true,
    mapping: ['data/ALL/train/*.json (never val/ or test/), disfluency and noise marks removed: each query that asks for a summary ("Summarize the whole meeting", "Summarize the discussion about …"; not the "What did B think about …?" questions), asked over the first 1,200 characters of its meeting transcript as a user would paste it → `summarization` (query-focused meeting summarization)'],
    read() {
      const rows = [];
      for (const f of ls(this.repo, 'data/ALL/train/')) {
        if (!f.endsWith('.json')) continue;
        const d = json(this.repo, f);
        // The transcripts mark disfluencies and noises ({disfmarker}, {vocalsound}); a pasted transcript has none.
        const said = (t) => String(t.content ?? '').replace(/\{[a-z_]+\}/g, '').replace(/\s+([,.?!])/g, '$1').replace(/\s+/g, ' ').trim();
        const transcript = clip((d.meeting_transcripts ?? []).map((t) => `${t.speaker}: ${said(t)}`).filter((l) => !/: ?$/.test(l)).join('\n'), 1200);
        for (const q of [...(d.general_query_list ?? []), ...(d.specific_query_list ?? [])]) {
          // Only the asks for a summary: "What did B think about …?" over a transcript is a
          // question about part of a document, and a model taught it is a summary would keep
          // split-and-route (which sends whole-document work whole) away from document lookups.
          if (typeof q.query !== 'string' || !/^\s*(summari[sz]e|sum up|give (me )?a summary|provide a summary|write a summary)/i.test(q.query)) continue;
          rows.push({ text: `${q.query.trim()}\n\nMeeting transcript:\n${transcript}`, task_type: 'summarization', sub: f.split('/').pop().replace(/\.json$/, '') });
        }
      }
      return rows;
    },
  },
  {
    id: 'rpbench',
    repo: 'boson-ai/RPBench-Auto',
    group: 'rpbench',
    licence: 'Apache-2.0',
    ships: true,
    mapping: ['data/rpbench_character.jsonl and rpbench_scene.jsonl: the character or scene card as the system prompt and the opening user line → `roleplay_fiction`'],
    read() {
      const rows = [];
      for (const f of ['data/rpbench_character.jsonl', 'data/rpbench_scene.jsonl']) {
        for (const r of jsonl(this.repo, f)) {
          const profile = typeof r.npc_profile === 'object' && r.npc_profile ? r.npc_profile : {};
          const who = profile.name ? `${profile.name}: ` : '';
          const card = clip(String(profile.long_definition_text || profile.personality || profile.short_definition_text || ''), 700);
          const scene = clip(String(r.plot_recap ?? r.background ?? ''), 500);
          const opener = Array.isArray(r.conversation) ? (r.conversation[0]?.sentences ?? []).join(' ') : '';
          const textBody = f.includes('scene')
            ? `Let's roleplay. You play ${who || 'the other character'}${card}\nSetting:\n${scene}${opener ? `\nYou open with: ${clip(opener, 300)}` : ''}`
            : `Roleplay with me and stay in character. ${who}${card}${opener ? `\nStart with: ${clip(opener, 300)}` : ''}`;
          rows.push({ text: textBody, system: r.background && !f.includes('scene') ? r.background : undefined, task_type: 'roleplay_fiction', sub: f.includes('scene') ? 'scene' : 'character' });
        }
      }
      return rows;
    },
  },
  {
    id: 'gpteacher',
    repo: 'teknium1/GPTeacher',
    group: 'gpteacher',
    licence: 'MIT',
    ships: true,
    mapping: [
      'Roleplay/roleplay-simple-deduped-roleplay-instruct.json (act as a person or character, in their voice) → `roleplay_fiction`',
      'Codegen/codegen-instruct.json by what the instruction asks: fix / debug / find the error → `code:debugging`; an SQL query → `code:sql_database`; a shell or Bash script or command → `code:shell_execution`; HTML, CSS or a React component → `code:frontend_ui`; other write / implement / create code → `code:general_impl` (explain-this-code rows are left out)',
      'Toolformer/toolformer-similarity-0.6-dataset.json: the tool card as the system prompt and the request; only retrieval tools (search, news, wikipedia) → `agent:web_search`; any other tool among them (python, shell, wolfram, weather, request) → `agent:tool_dispatch`',
    ],
    read() {
      const rows = [];
      const withInput = (r) => (r.input && String(r.input).trim() ? `${r.instruction}\n${clip(String(r.input), 1500)}` : r.instruction);
      for (const r of json(this.repo, 'Roleplay/roleplay-simple-deduped-roleplay-instruct.json')) {
        rows.push({ text: withInput(r), task_type: 'roleplay_fiction', sub: 'roleplay' });
      }
      for (const r of json(this.repo, 'Codegen/codegen-instruct.json')) {
        const ask = String(r.instruction);
        if (/^(explain|what does|describe what|what is the (output|purpose))/i.test(ask) || /\bexplain\b/i.test(ask)) continue;
        const kind = /\b(fix|debug|bug|errors?|correct the|mistake|wrong with|identify (and|the) (issue|problem))\b/i.test(ask) ? 'code:debugging' : codeKindNamed(ask);
        rows.push({ text: withInput(r), task_type: kind, sub: 'codegen' });
      }
      for (const r of json(this.repo, 'Toolformer/toolformer-similarity-0.6-dataset.json')) {
        const lines = String(r.instruction).split('\n').filter((l) => l.trim() && !/^toolformer:/i.test(l));
        const access = (lines.find((l) => /^toolformer access:/i.test(l)) ?? '').replace(/^toolformer access:\s*/i, '').trim();
        const ask = lines[lines.length - 1];
        const card = lines.slice(0, -1).filter((l) => !/^toolformer access:/i.test(l)).join('\n');
        if (!access || !ask || !card) continue;
        const tools = access.split(/,\s*/);
        rows.push({
          text: ask,
          system: `You can call these tools:\n${card}`,
          task_type: tools.every((t) => t === 'search' || t === 'news' || t === 'wikipedia') ? 'agent:web_search' : 'agent:tool_dispatch',
          sub: `toolformer/${access}`,
        });
      }
      return rows;
    },
  },
  {
    id: 'hellobench',
    repo: 'Quehry/HelloBench',
    group: 'hellobench',
    licence: 'MIT',
    ships: true,
    mapping: [
      'Requests written the way people write them, from Quora- and Reddit-style sources, labelled with the kind a person would name under this project\'s kinds of work (fiction is `roleplay_fiction`, as in the chat probe); held out as the real-request probe until GAIR-NLP/auto-j\'s larger set of Chatbot Arena requests took that place',
      'data/main_data/open_ended_qa.jsonl raw_text (open questions on science, tech, health, food, travel, music, books …) → `qa_knowledge`',
      'data/main_data/chat.jsonl raw_text by category: creative_write, script_write, continue_write → `roleplay_fiction` when the request asks for a story, scene, screenplay or other fiction, else `content_writing`; character_creation → `roleplay_fiction`; academic_write, guide_generation, idea_generation, curriculum_development, question_generation → `content_writing`; report_write → `research_report`; question_answering, explanation → `qa_knowledge`; science_problem_solve → `math`; rewrite → `data:transformation`; data_analysis and erotic requests left out',
      'data/main_data/heuristic_text_generation.jsonl: argumentative and keyword writing → `content_writing`; story, screenplay and role-play writing → `roleplay_fiction`',
      'Left out: data/main_data/text_completion.jsonl (continue, imitate or restyle a story given in full) and the summarization instructions (a dialogue, news, report, article or blog given in full): a fixed instruction around long pasted text, which teaches the model to read the paste rather than the ask (the paste probe fell 78.6 → 69.0 % with them, 77.4 % without; the real-request probe 43.2 % with them, 42.2 % without)',
    ],
    read() {
      const rows = [];
      const lewd = /\b(erotic|sexual|sex|nsfw|porn)/i;
      const fiction = (s) => /\b(story|stories|tale|fiction|fictional|novel|chapter|scene|screenplay|script for (a|an) (film|movie|episode)|episode|plot|fairy)\b/i.test(s.slice(0, 400));
      /**
       * One file's rows: the request in `field`, its kind from `kindOf` (undefined leaves it out);
       * with `screen`, erotic requests are left out (the questions and summaries need no screen).
       */
      const add = (file, field, prefix, kindOf, screen = true) => {
        for (const r of jsonl(this.repo, file)) {
          const text = r[field];
          const kind = kindOf(r, text);
          if (kind && !(screen && lewd.test(text))) rows.push({ text, task_type: kind, sub: prefix ? `${prefix}/${r.category}` : 'summarization' });
        }
      };
      add('data/main_data/open_ended_qa.jsonl', 'raw_text', 'qa', () => 'qa_knowledge', false);
      const chatKind = {
        academic_write: 'content_writing', guide_generation: 'content_writing', idea_generation: 'content_writing', curriculum_development: 'content_writing', question_generation: 'content_writing',
        report_write: 'research_report', character_creation: 'roleplay_fiction', question_answering: 'qa_knowledge', explanation: 'qa_knowledge', science_problem_solve: 'math', rewrite: 'data:transformation',
      };
      const written = new Set(['creative_write', 'script_write', 'continue_write']);
      add('data/main_data/chat.jsonl', 'raw_text', 'chat', (r, text) => (written.has(r.category) ? (fiction(text) ? 'roleplay_fiction' : 'content_writing') : chatKind[r.category]));
      const generationKind = { argumentative_writing: 'content_writing', keyword_writing: 'content_writing', story_writing: 'roleplay_fiction', screenplay_writing: 'roleplay_fiction', roleplaying_writing: 'roleplay_fiction' };
      add('data/main_data/heuristic_text_generation.jsonl', 'instruction', 'htg', (r) => generationKind[r.category]);
      return rows;
    },
  },
  {
    id: 'longbench-write',
    repo: 'THUDM/LongWriter',
    group: 'longbench-write',
    licence: 'Apache-2.0',
    ships: true,
    mapping: [
      'evaluation/longbench_write_en.jsonl prompts (writing requests as users sent them, each with the length it asks for), by type: Literature and Creative Writing → `roleplay_fiction` when the request asks for a story, scene, dialogue or novel, else `content_writing`; Academic and Monograph → `research_report` when it asks for a research report, paper or thesis, else `content_writing`; Popular Science, Functional Writing, News Report, Community Forum, Education and Training → `content_writing`',
    ],
    read() {
      const fiction = /\b(story|stories|novel|fanfiction|dialogue|scene|tale)\b/i;
      const report = /\b(research report|paper|thesis)\b/i;
      return jsonl(this.repo, 'evaluation/longbench_write_en.jsonl').map((r) => {
        const text = String(r.prompt ?? '').trim();
        const kind =
          r.type === 'Literature and Creative Writing' ? (fiction.test(text) ? 'roleplay_fiction' : 'content_writing') : r.type === 'Academic and Monograph' ? (report.test(text) ? 'research_report' : 'content_writing') : 'content_writing';
        return { text, task_type: kind, sub: r.type };
      });
    },
  },
  {
    id: 'writingbench',
    repo: 'X-PLUG/WritingBench',
    group: 'writingbench',
    licence: 'Apache-2.0',
    ships: true,
    mapping: [
      'benchmark_query/requirement/{format,style,length}/*_subset.jsonl and *_subset_C.jsonl queries (English writing requests, most with the material to write from pasted in; the `_C` files repeat the same queries with other checklists; the format and style files read at commit b05ee7b2212b, where the snapshot still holds them), each distinct query once, by its domain2: Novel Manuscript, Plot Development, Screenplay → `roleplay_fiction`; Market Analysis, User Research, Regulatory Analysis, Financial Reports, Engineering Report, Experiments, Educational Report → `research_report`; every other genre (speeches, official documents, blog posts, product descriptions, lesson plans, reviews, letters, slogans, poetry, abstracts …) → `content_writing`',
    ],
    read() {
      const fiction = new Set(['Novel Manuscript', 'Plot Development', 'Screenplay']);
      const report = new Set(['Market Analysis', 'User Research', 'Regulatory Analysis', 'Financial Reports', 'Engineering Report', 'Experiments', 'Educational Report']);
      const files = [
        ['b05ee7b2212bf5e70cc65a88ede46b56f72fb219', 'format/format_subset'], ['b05ee7b2212bf5e70cc65a88ede46b56f72fb219', 'style/style_subset'],
        ['HEAD', 'length/length_subset'],
      ];
      const seen = new Set();
      const rows = [];
      for (const [rev, base] of files) {
        for (const suffix of ['', '_C']) {
          for (const r of jsonl(this.repo, `benchmark_query/requirement/${base}${suffix}.jsonl`, rev)) {
            const text = String(r.query ?? '').trim();
            if (!text || seen.has(text)) continue;
            seen.add(text);
            const kind = fiction.has(r.domain2) ? 'roleplay_fiction' : report.has(r.domain2) ? 'research_report' : 'content_writing';
            rows.push({ text, task_type: kind, sub: `${r.domain1}/${r.domain2}` });
          }
        }
      }
      return rows;
    },
  },
  {
    id: 'biggen-bench',
    repo: 'prometheus-eval/prometheus-eval',
    group: 'biggen-bench',
    licence: 'Apache-2.0',
    ships: true,
    mapping: [
      'BiGGen-Bench/sample_responses.json instances (system prompt and input), by task: planning travel_plan, personal_assistant, constrained_planning, compositional_planning and refinement replanning → `agent:multi_step_planning`; grounding json_csv_xml and refinement essay_revision → `data:transformation`; writing_a_speech, education_content_creation, poem_writing → `content_writing`; robust_translation → `translation`; competition_mwp, high_school_mwp, math_proof → `math`; grounding role_playing → `roleplay_fiction`; tool_usage search_engine and web_browsing → `agent:web_search`; false_presupposition, faithful_explanation → `qa_knowledge`; the other tasks (judging, safety probes, meta tests, puzzles) are left out',
    ],
    read() {
      const kinds = {
        travel_plan: 'agent:multi_step_planning', personal_assistant: 'agent:multi_step_planning', constrained_planning: 'agent:multi_step_planning', compositional_planning: 'agent:multi_step_planning', replanning: 'agent:multi_step_planning',
        json_csv_xml: 'data:transformation', essay_revision: 'data:transformation',
        writing_a_speech: 'content_writing', education_content_creation: 'content_writing', poem_writing: 'content_writing',
        robust_translation: 'translation', competition_mwp: 'math', high_school_mwp: 'math', math_proof: 'math', role_playing: 'roleplay_fiction',
        search_engine: 'agent:web_search', web_browsing: 'agent:web_search', false_presupposition: 'qa_knowledge', faithful_explanation: 'qa_knowledge',
      };
      const rows = [];
      for (const r of Object.values(json(this.repo, 'BiGGen-Bench/sample_responses.json'))) {
        const kind = kinds[r.task];
        if (!kind || typeof r.input !== 'string') continue;
        const system = typeof r.system_prompt === 'string' && r.system_prompt.trim() ? clip(r.system_prompt, 1500) : undefined;
        rows.push({ text: r.input, ...(system ? { system } : {}), task_type: kind, sub: `${r.capability}/${r.task}` });
      }
      return rows;
    },
  },
  {
    id: 'travelplanner',
    repo: 'OSU-NLP-Group/TravelPlanner',
    group: 'travelplanner',
    licence: 'MIT',
    ships: true,
    mapping: ['postprocess/example_evaluation.jsonl validation queries (a trip to plan: cities, dates, budget, constraints) → `agent:multi_step_planning`; every other row, the queries share one template'],
    read() {
      return jsonl(this.repo, 'postprocess/example_evaluation.jsonl')
        .filter((_, i) => i % 2 === 0)
        .map((r) => ({ text: r.query, task_type: 'agent:multi_step_planning', sub: 'validation' }));
    },
  },
  {
    id: 'deep-research-bench',
    repo: 'Ayanami0730/deep_research_bench',
    group: 'deep-research-bench',
    licence: 'Apache-2.0',
    ships: true,
    mapping: ['data/prompt_data/query.jsonl research tasks written by domain experts (English and Chinese) → `research_report`'],
    read() {
      return jsonl(this.repo, 'data/prompt_data/query.jsonl').map((r) => ({ text: r.prompt, task_type: 'research_report', lang: r.language === 'zh' ? 'zh' : 'en', sub: r.topic }));
    },
  },
  {
    id: 'workbench',
    repo: 'olly-styles/WorkBench',
    group: 'workbench',
    licence: 'MIT',
    ships: true,
    mapping: ['data/processed/queries_and_answers/*_queries_and_answers.csv workplace requests (email, calendar, CRM, project management, analytics) with the tool card as the system prompt: a request whose gold answer is one tool call → `agent:tool_dispatch`, several calls or a conditional request over several domains → `agent:workflow_execution`; at most three rows per paraphrase template'],
    read() {
      const rows = [];
      const system = 'You are a workplace assistant with tools for email, calendar, the customer relationship manager, project management and website analytics. Use the tools to do what the user asks.';
      for (const f of ls(this.repo, 'data/processed/queries_and_answers').filter((x) => x.endsWith('_queries_and_answers.csv'))) {
        const perTemplate = new Map();
        for (const r of parseCsv(text(this.repo, f))) {
          const n = perTemplate.get(r.chosen_template) ?? 0;
          if (n >= 3) continue;
          perTemplate.set(r.chosen_template, n + 1);
          const calls = (String(r.answer).match(/\.func\(/g) ?? []).length;
          const multi = f.includes('multi_domain') || calls > 1;
          rows.push({ text: r.query, system, task_type: multi ? 'agent:workflow_execution' : 'agent:tool_dispatch', sub: f.split('/').pop().replace('_queries_and_answers.csv', '') });
        }
      }
      return rows;
    },
  },
  {
    id: 'k8s-ai-bench',
    repo: 'gke-labs/k8s-ai-bench',
    group: 'k8s-ai-bench',
    licence: 'Apache-2.0',
    ships: true,
    mapping: ['tasks/*/task.yaml prompts: create-*, horizontal-pod-autoscaler, setup-*, rolling-update and resize tasks (write manifests) → `code:devops_config`; fix-*, debug-*, scale-*, list-* and traffic tasks (operate a cluster) → `devops`; difficulty easy/medium/hard is the human label (scale k8s)'],
    read() {
      const rows = [];
      for (const f of ls(this.repo, 'tasks').filter((x) => x.endsWith('task.yaml'))) {
        const y = text(this.repo, f);
        const name = f.split('/')[1];
        const difficulty = { easy: 1, medium: 2, hard: 3 }[(y.match(/difficulty:\s*"?(\w+)/) ?? [])[1]];
        for (const m of y.matchAll(/prompt:\s*(?:"((?:[^"\\]|\\.)*)"|\|\s*\n((?:\s{4,}.*\n?)+))/g)) {
          const p = (m[1] ?? m[2] ?? '').replace(/\\n/g, '\n').replace(/^\s+/gm, '').trim();
          if (!p) continue;
          const config = /^(create|horizontal|setup|rolling|resize|multi-container|statefulset|gatekeeper)/.test(name);
          rows.push({ text: p, task_type: config ? 'code:devops_config' : 'devops', dl: difficulty ? { scale: 'k8s', value: difficulty } : undefined, sub: name });
        }
      }
      return rows;
    },
  },
  {
    id: 'purplellama',
    repo: 'meta-llama/PurpleLlama',
    group: 'purplellama',
    licence: 'MIT (CybersecurityBenchmarks)',
    ships: true,
    mapping: [
      'CybersecurityBenchmarks/datasets/crwd_meta/malware_analysis/questions.json and threat_intel_reasoning/report_questions.json (malware and threat-intelligence analysis questions) → `security_audit`; malware difficulty easy/medium/hard (scale crwd)',
      'datasets/instruct/instruct.json `origin_code` (real code with a known CWE), asked as "Review this code for security vulnerabilities" → `code:review_security`',
    ],
    read() {
      const rows = [];
      for (const r of json(this.repo, 'CybersecurityBenchmarks/datasets/crwd_meta/malware_analysis/questions.json')) {
        const d = { easy: 1, medium: 2, hard: 3 }[r.difficulty];
        rows.push({ text: `${r.question}\n${(r.options ?? []).join('\n')}`, task_type: 'security_audit', dl: d ? { scale: 'crwd', value: d } : undefined, sub: 'malware' });
      }
      for (const r of json(this.repo, 'CybersecurityBenchmarks/datasets/crwd_meta/threat_intel_reasoning/report_questions.json')) {
        rows.push({ text: `${r.question_text}\n${(r.options ?? []).join('\n')}`, task_type: 'security_audit', sub: 'threat_intel' });
      }
      const seen = new Set();
      for (const r of json(this.repo, 'CybersecurityBenchmarks/datasets/instruct/instruct.json')) {
        const code = String(r.origin_code ?? '').trim();
        if (code.length < 120 || seen.has(r.cwe_identifier + r.language) && seen.size > 400) continue;
        seen.add(r.cwe_identifier + r.language);
        rows.push({ text: `Review this ${r.language} code for security vulnerabilities and explain how to fix them:\n\`\`\`\n${clip(code, 1500)}\n\`\`\``, task_type: 'code:review_security', sub: r.language });
      }
      return rows;
    },
  },
  {
    id: 'webapp1k',
    repo: 'onekq/WebApp1k',
    group: 'webapp1k',
    licence: 'MIT',
    ships: true,
    mapping: ['tests/react/<app>/scenario.json: each scenario of an app (overview, feature name and description) asked as a React feature to build → `code:frontend_ui`'],
    read() {
      const rows = [];
      for (const f of ls(this.repo, 'tests/react').filter((x) => x.endsWith('scenario.json'))) {
        const s = json(this.repo, f);
        for (const c of s.categories ?? []) {
          for (const sc of c.scenarios ?? []) rows.push({ text: `Build the "${sc.name}" feature as a React component for ${s.overview.charAt(0).toLowerCase()}${s.overview.slice(1)} ${sc.description}`, task_type: 'code:frontend_ui', sub: f.split('/')[2] });
        }
      }
      return rows;
    },
  },
  // ---- evaluation only: licences that do not allow shipping, or no licence at all ----
  {
    id: 'financebench',
    repo: 'patronus-ai/financebench',
    group: 'financebench',
    licence: 'CC-BY-NC-4.0 (no licence file in the repository; the dataset card says non-commercial)',
    ships: false,
    mapping: ['data/financebench_open_source.jsonl questions about public companies\' filings → `finance_trading`'],
    read() {
      return jsonl(this.repo, 'data/financebench_open_source.jsonl').map((r) => ({ text: r.question, task_type: 'finance_trading', sub: r.question_type }));
    },
  },
  {
    id: 'cybermetric',
    repo: 'cybermetric/CyberMetric',
    group: 'cybermetric',
    licence: 'none stated',
    ships: false,
    mapping: ['CyberMetric-500-v1.json multiple-choice security questions → `security_audit`'],
    read() {
      return json(this.repo, 'CyberMetric-500-v1.json').questions.map((q) => ({ text: `${q.question}\n${Object.entries(q.answers).map(([k, v]) => `${k}) ${v}`).join('\n')}`, task_type: 'security_audit' }));
    },
  },
  {
    id: 'securityeval',
    repo: 's2e-lab/SecurityEval',
    group: 'securityeval',
    licence: 'none stated',
    ships: false,
    mapping: ['dataset.jsonl `Insecure_code`, asked as a security review → `code:review_security`'],
    read() {
      return jsonl(this.repo, 'dataset.jsonl').map((r) => ({ text: `Is this code safe? Point out any vulnerability:\n\`\`\`python\n${clip(r.Insecure_code, 1500)}\n\`\`\``, task_type: 'code:review_security' }));
    },
  },
  {
    id: 'nl2bash',
    repo: 'TellinaTool/nl2bash',
    group: 'nl2bash',
    licence: 'GPL-3.0',
    ships: false,
    mapping: ['data/bash/all.nl descriptions (or the manual-judgement files) → `code:shell_execution`'],
    read() {
      let lines = [];
      try {
        lines = text(this.repo, 'data/bash/all.nl').split('\n');
      } catch {
        lines = parseCsv(text(this.repo, 'data/bash/manual_judgements/manual.evaluations.test.stc.csv')).map((r) => r.description ?? r.nl ?? Object.values(r)[0]);
      }
      return lines.filter((l) => l && l.length > 10).slice(0, 1500).map((l) => ({ text: l.trim(), task_type: 'code:shell_execution' }));
    },
  },
  {
    id: 'auto-j',
    repo: 'GAIR-NLP/auto-j',
    group: 'auto-j',
    licence: 'none stated (queries mostly from lmsys/chatbot_arena_conversations)',
    ships: false,
    probe: true,
    mapping: [
      'The **real-request probe** (never trained on: no licence is stated for the data): Chatbot Arena users\' requests as they sent them, with the scenario the Auto-J authors labelled each with, from other_resources/scenario_classifier_data/{traindata,testdata}.jsonl (instruction + input, category), data/test/testdata_{pairwise,critique}.jsonl (prompt, scenario) and data/training/single_independent/usescenario.jsonl (meta.prompt, meta.scenario), each distinct request once',
      'Scenario → kind of work: functional_writing, writing_personal_essay, writing_presentation_script, writing_email, writing_social_media_post, writing_blog_post, writing_job_application, writing_legal_document, writing_advertisement, writing_product_description, writing_news_article, writing_technical_document, writing_marketing_materials, writing_biography, writing_song_lyrics, title_generation, brainstorming → `content_writing`; creative_writing → `roleplay_fiction` when it asks for a story, scene or dialogue, else `content_writing`; roleplay → `roleplay_fiction`; open_question, explaining_general, verifying_fact, solving_exam_question_without_math, asking_how_to_question, seeking_advice, recommendation → `qa_knowledge` (requests that name code, a program or a programming tool left out: by this project\'s kinds they are code work); instructional_rewriting, paraphrasing, text_correction, language_polishing, text_simplification → `data:transformation`; text_summarization, note_summarization, post_summarization → `summarization`; math_reasoning, solving_exam_question_with_math → `math`; code_generation, code_to_code_translation → `code:sql_database`, `code:shell_execution`, `code:frontend_ui` by what the request names, else `code:general_impl`; code_correction_rewriting → `code:debugging`; text_to_text_translation → `translation`; classification_identification, topic_modeling → `classification_tagging`; chitchat → `conversational_reply`; information_extraction, keywords_extraction → `data:extraction`; writing_scientific_paper → `research_report`',
      'Left out as no one kind of work: default, value_judgement, analyzing_general, explaining_code, question_generation, planning, ranking, rejecting, counterfactual, data_analysis, reading_comprehension, writing_cooking_recipe, code_simplification, peer_review, others',
    ],
    read() {
      const writing = ['functional_writing', 'writing_personal_essay', 'writing_presentation_script', 'writing_email', 'writing_social_media_post', 'writing_blog_post', 'writing_job_application', 'writing_legal_document', 'writing_advertisement', 'writing_product_description', 'writing_news_article', 'writing_technical_document', 'writing_marketing_materials', 'writing_biography', 'writing_song_lyrics', 'title_generation', 'brainstorming'];
      const kinds = {
        ...Object.fromEntries(writing.map((s) => [s, 'content_writing'])),
        roleplay: 'roleplay_fiction',
        open_question: 'qa_knowledge', explaining_general: 'qa_knowledge', verifying_fact: 'qa_knowledge', solving_exam_question_without_math: 'qa_knowledge', asking_how_to_question: 'qa_knowledge', seeking_advice: 'qa_knowledge', recommendation: 'qa_knowledge',
        instructional_rewriting: 'data:transformation', paraphrasing: 'data:transformation', text_correction: 'data:transformation', language_polishing: 'data:transformation', text_simplification: 'data:transformation',
        text_summarization: 'summarization', note_summarization: 'summarization', post_summarization: 'summarization',
        math_reasoning: 'math', solving_exam_question_with_math: 'math',
        code_correction_rewriting: 'code:debugging', text_to_text_translation: 'translation',
        classification_identification: 'classification_tagging', topic_modeling: 'classification_tagging', chitchat: 'conversational_reply',
        information_extraction: 'data:extraction', keywords_extraction: 'data:extraction', writing_scientific_paper: 'research_report',
      };
      const fiction = /\b(story|stories|tale|fiction|novel|chapter|scene|screenplay|dialogue|plot|fairy)\b/i;
      const codeish = /```|\b(code|coding|program|programming|python|javascript|typescript|java|c\+\+|c#|rust|golang|sql|html|css|react|function|compile|compiler|script|api|regex|xcode|linux|bash|excel formula|git)\b/i;
      const kindOf = (scenario, t) => {
        if (scenario === 'creative_writing') return fiction.test(t.slice(0, 400)) ? 'roleplay_fiction' : 'content_writing';
        if (scenario === 'code_generation' || scenario === 'code_to_code_translation') return codeKindNamed(t);
        const kind = kinds[scenario];
        if (kind === 'qa_knowledge' && codeish.test(t)) return undefined;
        return kind;
      };
      const found = [];
      for (const file of ['traindata', 'testdata']) {
        for (const r of jsonl(this.repo, `other_resources/scenario_classifier_data/${file}.jsonl`)) found.push([r.category, [r.instruction, r.input].filter(Boolean).join(' ')]);
      }
      for (const file of ['pairwise', 'critique']) for (const r of jsonl(this.repo, `data/test/testdata_${file}.jsonl`)) found.push([r.scenario, r.prompt]);
      for (const r of jsonl(this.repo, 'data/training/single_independent/usescenario.jsonl')) found.push([r.meta?.scenario, r.meta?.prompt]);
      const seen = new Set();
      const rows = [];
      for (const [scenario, raw] of found) {
        const t = String(raw ?? '').trim();
        if (!t || seen.has(t)) continue;
        seen.add(t);
        const kind = kindOf(scenario, t);
        if (kind) rows.push({ text: t, task_type: kind, sub: scenario });
      }
      return rows;
    },
  },
];

/** Held-out judge sets: read only to make sure no training row overlaps them; never trained on. */
export const JUDGE_SETS = [
  { id: 'mt-bench', repo: 'lm-sys/FastChat', paths: ['fastchat/llm_judge/data/mt_bench/question.jsonl', 'fastchat/llm_judge/data/vicuna_bench/question.jsonl'], field: (r) => (r.turns ?? []).join('\n') },
  { id: 'arena-hard', repo: 'lmarena/arena-hard-auto', paths: ['data/arena-hard-v0.1/question.jsonl', 'data/arena-hard-v2.0/question.jsonl'], field: (r) => r.prompt ?? r.turns?.[0]?.content ?? '' },
  { id: 'flask', repo: 'kaistAI/FLASK', paths: ['evaluation_set/flask_evaluation.jsonl', 'evaluation_set/flask_hard_evaluation.jsonl'], field: (r) => r.instruction ?? r.text ?? '' },
];

export function readJudgeTexts() {
  const out = [];
  for (const j of JUDGE_SETS) {
    if (!hasMirror(j.repo)) continue;
    for (const p of j.paths) {
      try {
        for (const r of jsonl(j.repo, p)) out.push({ set: j.id, text: j.field(r) });
      } catch {
        // path absent in this snapshot
      }
    }
  }
  return out;
}
