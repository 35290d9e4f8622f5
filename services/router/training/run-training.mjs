#!/usr/bin/env node
// Trains the router classifier on the training set (.corpus/training-set.jsonl, rebuilt by
// training/build-training-set.mjs from the fetched collections) and writes data/weights.json
// and data/eval.json. Same set + same seed → byte-identical files.
//
//   pnpm --filter @svc/service-router train:router [-- --seed=1337 --epochs=10 --optimizer=sgd|adagrad --lr=1.2 --ensemble=3 --no-cross-source --folds-only --dump=<file>]
//
// What it measures, printed and kept in data/eval.json:
//  - cross_source: the public collections are split by repository into four folds; a model is
//    trained without each fold (on the other folds plus the project's own rows) and tested on
//    it, so every test row comes from a collection the model never saw. Accuracy per kind of
//    work, macro-F1, the worst confusions and the calibration error (ECE) are over the pooled
//    predictions of all four folds;
//  - difficulty: Spearman of the difficulty score against each labelled collection's own
//    labels, on a fifth of the labelled rows (split by problem) that difficulty training never
//    saw, and on whole collections the fold models never saw;
//  - eval_only: the shipped model on the collections whose licence keeps them out of training;
//  - real_probe: the shipped model on the collection held out on purpose (GAIR-NLP/auto-j's
//    Chatbot Arena requests, as users sent them), with code and math detection.
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
require('./ts-hook.cjs');
const { readCorpus, textHash } = require('./corpus.ts');
const {
  trainWeights, trainDifficulty, fitTemperature, predictRows, score, evaluateDifficulty, DEFAULT_TRAIN_OPTIONS, round4,
} = require('./train.ts');
const { serializeWeights, deserializeWeights } = require('../src/classifier/model.ts');
const { FEATURE_VERSION } = require('../src/classifier/features.ts');

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const dataDir = join(root, 'data');
const args = Object.fromEntries(process.argv.slice(2).map((a) => {
  const [k, v] = a.replace(/^--/, '').split('=');
  return [k, v ?? 'true'];
}));
const options = {
  ...DEFAULT_TRAIN_OPTIONS,
  ...(args.seed ? { seed: Number(args.seed) } : {}),
  ...(args.epochs ? { epochs: Number(args.epochs) } : {}),
  ...(args.optimizer ? { optimizer: args.optimizer } : {}),
  ...(args.lr ? { learningRate: Number(args.lr) } : {}),
  ...(args.l2 ? { l2: Number(args.l2) } : {}),
  ...(args['d-l2'] ? { difficultyL2: Number(args['d-l2']) } : {}),
  ...(args['d-epochs'] ? { difficultyEpochs: Number(args['d-epochs']) } : {}),
  ...(args.ensemble ? { ensemble: Number(args.ensemble) } : {}),
};
const setPath = args.set ?? join(root, '.corpus', 'training-set.jsonl');
const weightsPath = args.out ?? join(dataDir, 'weights.json');
const evalPath = args.eval ?? join(dataDir, 'eval.json');
if (!existsSync(setPath)) {
  console.error(`no training set at ${setPath}: run node training/build-training-set.mjs first (it needs the fetched snapshots, see data/SOURCES.md)`);
  process.exit(1);
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const started = Date.now();
const log = (s) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}`);

const rows = readCorpus(setPath);
const setSha = createHash('sha256').update(readFileSync(setPath)).digest('hex');
const ships = rows.filter((r) => r.ships !== false);
const evalOnly = rows.filter((r) => r.ships === false && !r.probe);
/** The real-request probe: a collection held out on purpose (sources.mjs `probe`), scored on its own. */
const realProbe = rows.filter((r) => r.probe);
const bucket = (r, salt) => textHash(`${salt}\u0000${r.text}`) % 10;
/** 10% of the shipped rows fit the temperature only. */
const isCalibration = (r) => bucket(r, 'calibration') === 0;
/** 20% of the rows with a per-item difficulty label are kept from difficulty training. */
// Bucketed on the first 200 characters: variants of one problem (DebugBench's several bugs in
// one LeetCode solution) land on the same side.
const isDifficultyHeldout = (r) => r.dl && r.dl.scale !== 'collection' && textHash(`difficulty\u0000${r.text.slice(0, 200)}`) % 10 < 2;

function trainModel(train, calibration, meta) {
  const W = trainWeights(train, options);
  const difficulty = trainDifficulty(W, train.filter((r) => !isDifficultyHeldout(r)), options);
  let file = serializeWeights(W, 1, meta, difficulty);
  const calib = fitTemperature(deserializeWeights(file), calibration);
  file = { ...file, temperature: calib.temperature };
  return { file, model: deserializeWeights(file), calib };
}

log(`training set: ${rows.length} rows (${ships.length} shipped, ${evalOnly.length} evaluation only, ${realProbe.length} real-request probe), sha256 ${setSha.slice(0, 12)}`);

// ---- cross-source evaluation --------------------------------------------------------------
const REAL = (r) => r.group && r.group !== 'svc';
const groups = [...new Set(ships.filter(REAL).map((r) => r.group))].sort();
// Four folds of whole repositories. A repository goes to the fold where it adds least to the
// kinds of work that fold already tests, with the folds kept near a quarter of the public rows
// each: two collections of one kind (Spider and sql-eval, DebugBench and HumanEvalPack) land in
// different folds where they can, so each is tested by a model that learned the kind from the
// other — tested on a collection it never saw, not on a kind it never saw. Kinds with a single
// public collection are still tested with none of it in training.
const FOLDS = 4;
const foldOfGroup = new Map();
{
  const kindsOf = new Map();
  const size = new Map();
  const kindTotal = new Map();
  for (const r of ships.filter(REAL)) {
    size.set(r.group, (size.get(r.group) ?? 0) + 1);
    if (!kindsOf.has(r.group)) kindsOf.set(r.group, new Map());
    const k = kindsOf.get(r.group);
    k.set(r.task_type, (k.get(r.task_type) ?? 0) + 1);
    kindTotal.set(r.task_type, (kindTotal.get(r.task_type) ?? 0) + 1);
  }
  const total = [...size.values()].reduce((a, b) => a + b, 0);
  const load = new Array(FOLDS).fill(0);
  const kindLoad = Array.from({ length: FOLDS }, () => new Map());
  for (const g of [...size.keys()].sort((a, b) => size.get(b) - size.get(a) || (a < b ? -1 : 1))) {
    let best = 0;
    let bestCost = Infinity;
    for (let f = 0; f < FOLDS; f++) {
      let clash = 0;
      for (const [k, n] of kindsOf.get(g)) clash += (n / size.get(g)) * ((kindLoad[f].get(k) ?? 0) / kindTotal.get(k));
      const over = Math.max(0, load[f] + size.get(g) - total / FOLDS) / (total / FOLDS);
      const cost = clash + 2 * over + load[f] / total;
      if (cost < bestCost) {
        bestCost = cost;
        best = f;
      }
    }
    foldOfGroup.set(g, best);
    load[best] += size.get(g);
    for (const [k, n] of kindsOf.get(g)) kindLoad[best].set(k, (kindLoad[best].get(k) ?? 0) + n);
  }
}
const foldOf = (g) => foldOfGroup.get(g);
for (let f = 0; f < FOLDS; f++) log(`fold ${f} tests ${[...foldOfGroup].filter(([, x]) => x === f).map(([g]) => g).join(', ')}`);
let cross;
if (args['no-cross-source'] !== 'true') {
  const predictions = [];
  const coveredPredictions = [];
  const foldInfo = [];
  const diffHeld = [];
  const dumped = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const testGroups = groups.filter((g) => foldOf(g) === fold);
    const train = ships.filter((r) => !(REAL(r) && foldOf(r.group) === fold));
    const test = ships.filter((r) => REAL(r) && foldOf(r.group) === fold);
    const { model } = trainModel(train.filter((r) => !isCalibration(r)), train.filter(isCalibration), {});
    const foldPredictions = predictRows(model, test);
    predictions.push(...foldPredictions);
    if (args.dump) {
      const labelled = test.filter((r) => r.task_type);
      dumped.push(...foldPredictions.map((p, i) => ({ ...p, fold, text: labelled[i].text.slice(0, 300) })));
    }
    // Kinds of work that still have another public collection in this fold's training.
    const covered = new Set(train.filter(REAL).map((r) => r.task_type));
    coveredPredictions.push(...foldPredictions.filter((p) => covered.has(p.task_type)));
    for (const scale of [...new Set(test.filter((r) => r.dl && r.dl.scale !== 'collection').map((r) => r.dl.scale))]) {
      diffHeld.push({ scale, ...evaluateDifficulty(model, test.filter((r) => r.dl?.scale === scale)) });
    }
    foldInfo.push({ fold, test_collections: testGroups, train_rows: train.length, test_rows: test.length });
    log(`fold ${fold}: trained on ${train.length} rows, tested on ${test.length} rows from ${testGroups.join(', ')}`);
  }
  // --dump=<file>: every cross-source prediction with the start of its text, for reading errors.
  if (args.dump) writeFileSync(args.dump, dumped.map((d) => JSON.stringify(d)).join('\n') + '\n');
  const covered = score(coveredPredictions);
  cross = {
    folds: foldInfo,
    ...score(predictions),
    kinds_with_another_public_collection_in_training: { n: covered.n, accuracy: covered.accuracy, macro_f1: covered.macro_f1, ece: covered.ece },
    difficulty_on_unseen_collections: Object.fromEntries(diffHeld.map(({ scale, ...d }) => [scale, d])),
  };
}

if (args['folds-only'] === 'true') {
  console.log(`cross-source accuracy ${pct(cross.accuracy)}, macro-F1 ${cross.macro_f1.toFixed(3)}, ECE ${cross.ece.toFixed(4)}; covered kinds ${pct(cross.kinds_with_another_public_collection_in_training.accuracy)}`);
  for (const [src, s] of Object.entries(cross.per_source)) console.log(`  ${src.padEnd(28)} ${pct(s.accuracy).padStart(6)}  (${s.correct}/${s.n})`);
  for (const [k, v] of Object.entries(cross.top_confusions)) console.log(`  ${String(v).padStart(5)}  ${k}`);
  process.exit(0);
}

// ---- the shipped model --------------------------------------------------------------------
const train = ships.filter((r) => !isCalibration(r));
const calibration = ships.filter(isCalibration);
const meta = { corpus_sha256: setSha, corpus_rows: rows.length, train_rows: train.length, options };
const { file, model, calib } = trainModel(train, calibration, meta);
const json = JSON.stringify(file);
writeFileSync(weightsPath, json + '\n');
log(`weights written: ${(Buffer.byteLength(json) / 1e6).toFixed(2)} MB, ${file.rows} feature rows`);

const difficulty = {};
for (const scale of [...new Set(ships.filter((r) => r.dl && r.dl.scale !== 'collection').map((r) => r.dl.scale))].sort()) {
  difficulty[scale] = evaluateDifficulty(model, ships.filter((r) => r.dl?.scale === scale && isDifficultyHeldout(r)));
}
// One number across domains: the held-out rows of every labelled collection together, on the 1-5 scale.
const pooled = ships.filter((r) => isDifficultyHeldout(r));
difficulty.pooled_heldout = evaluateDifficulty(model, pooled.map((r) => ({ ...r, dl: { scale: 'pooled', value: r.difficulty } })));

const evalOnlyScore = score(predictRows(model, evalOnly));
const realProbePredictions = realProbe.length ? predictRows(model, realProbe) : undefined;
const realProbeScore = realProbePredictions ? score(realProbePredictions) : undefined;

/**
 * Code and math detection (the family, not the exact tag): of the rows labelled a code kind (or
 * math), the share predicted as any code kind (math) — recall — and of the rows predicted so, the
 * share labelled so — precision.
 */
function families(predictions) {
  const family = (tag) => (tag.startsWith('code:') ? 'code' : tag === 'math' ? 'math' : undefined);
  const out = {};
  for (const name of ['code', 'math']) {
    const labelled = predictions.filter((p) => family(p.task_type) === name);
    const predicted = predictions.filter((p) => family(p.predicted) === name);
    const both = labelled.filter((p) => family(p.predicted) === name).length;
    out[name] = { n: labelled.length, recall: round4(both / Math.max(1, labelled.length)), precision: round4(both / Math.max(1, predicted.length)) };
  }
  return out;
}

// The probes, written by hand for these measures only, one request per line with the kind of
// work a person would name; never trained on (the training set may not contain any of their texts):
//  - data/chat-probe.jsonl: assistant-style requests;
//  - data/paste-probe.jsonl: asks around a pasted document — 14 hand-written documents (a
//    policy, an inventory, minutes, a log, a contract…), each with a lookup question about it
//    and with five whole-document asks (translate, summarize, convert, rewrite, classify) above or
//    below it. The ask decides the kind of work, not what was pasted.
function probeScore(file, source) {
  const probePath = join(dataDir, file);
  if (!existsSync(probePath)) return undefined;
  const probe = readCorpus(probePath).map((r) => ({ ...r, source, turn: 'chat' }));
  const probeTexts = new Set(probe.map((r) => textHash(r.text)));
  const leaked = rows.filter((r) => probeTexts.has(textHash(r.text)));
  if (leaked.length) throw new Error(`${leaked.length} ${source} texts are in the training set: the probe must stay unseen`);
  return probeSummary(score(predictRows(model, probe)));
}
/** What eval.json keeps of a probe's score. */
function probeSummary(s) {
  return { n: s.n, accuracy: s.accuracy, macro_f1: s.macro_f1, per_tag: Object.fromEntries(Object.entries(s.per_tag).map(([k, v]) => [k, { n: v.n, correct: v.correct }])), top_confusions: s.top_confusions };
}
const chatProbe = probeScore('chat-probe.jsonl', 'chat-probe');
const pasteProbe = probeScore('paste-probe.jsonl', 'paste-probe');
const calibrationScore = score(predictRows(model, calibration));

const report = {
  feature_version: FEATURE_VERSION,
  training_set: { path: '.corpus/training-set.jsonl', sha256: setSha, rows: rows.length, shipped: ships.length, evaluation_only: evalOnly.length, real_probe: realProbe.length, train: train.length, calibration: calibration.length },
  options,
  weights: { path: 'data/weights.json', bytes: Buffer.byteLength(json) + 1, rows_with_weights: file.rows },
  calibration: { temperature: calib.temperature, nll_before: round4(calib.nllBefore), nll_after: round4(calib.nllAfter), ece_on_calibration_slice: calibrationScore.ece, accuracy_on_calibration_slice: calibrationScore.accuracy },
  ...(cross ? { cross_source: cross } : {}),
  difficulty,
  eval_only: evalOnlyScore,
  ...(chatProbe ? { chat_probe: chatProbe } : {}),
  ...(pasteProbe ? { paste_probe: pasteProbe } : {}),
  ...(realProbeScore ? { real_probe: { ...probeSummary(realProbeScore), detection: families(realProbePredictions) } } : {}),
};
writeFileSync(evalPath, JSON.stringify(report, null, 2) + '\n');

if (cross) {
  console.log('\ncross-source accuracy per kind of work (collections never seen in training):');
  for (const [tag, s] of Object.entries(cross.per_tag)) console.log(`  ${tag.padEnd(28)} ${pct(s.accuracy).padStart(6)}  F1 ${s.f1.toFixed(2)}  (${s.correct}/${s.n})`);
  console.log('\ncross-source accuracy per collection:');
  for (const [src, s] of Object.entries(cross.per_source)) console.log(`  ${src.padEnd(28)} ${pct(s.accuracy).padStart(6)}  (${s.correct}/${s.n})`);
  console.log('\nworst confusions:');
  for (const [k, v] of Object.entries(cross.top_confusions)) console.log(`  ${String(v).padStart(5)}  ${k}`);
  console.log(`\ncross-source accuracy   ${pct(cross.accuracy)} (${cross.n} rows), macro-F1 ${cross.macro_f1.toFixed(3)}, ECE ${cross.ece.toFixed(4)}`);
  const cv = cross.kinds_with_another_public_collection_in_training;
  console.log(`  where the kind of work has another public collection in training: ${pct(cv.accuracy)} (${cv.n} rows), macro-F1 ${cv.macro_f1.toFixed(3)}, ECE ${cv.ece.toFixed(4)}`);
  for (const [scale, d] of Object.entries(cross.difficulty_on_unseen_collections)) console.log(`difficulty on unseen ${scale.padEnd(10)} Spearman ${d.spearman.toFixed(3)} (${d.n} rows)`);
}
console.log('\ndifficulty (held-out labelled rows):');
for (const [scale, d] of Object.entries(difficulty)) console.log(`  ${scale.padEnd(24)} Spearman ${d.spearman.toFixed(3)}  within ±1 ${pct(d.within_1)}  (${d.n} rows)`);
console.log(`\nevaluation-only collections: accuracy ${pct(evalOnlyScore.accuracy)} (${evalOnlyScore.n} rows), ECE ${evalOnlyScore.ece.toFixed(4)}`);
for (const [src, s] of Object.entries(evalOnlyScore.per_source)) console.log(`  ${src.padEnd(28)} ${pct(s.accuracy).padStart(6)}  (${s.correct}/${s.n})`);
if (chatProbe) console.log(`\nchat probe (hand-written assistant requests, never trained on): accuracy ${pct(chatProbe.accuracy)} (${chatProbe.n} rows), macro-F1 ${chatProbe.macro_f1.toFixed(3)}`);
if (pasteProbe) console.log(`paste probe (asks around a pasted document, never trained on): accuracy ${pct(pasteProbe.accuracy)} (${pasteProbe.n} rows), macro-F1 ${pasteProbe.macro_f1.toFixed(3)}`);
if (realProbeScore) {
  console.log(`real-request probe (a public collection held out on purpose): accuracy ${pct(realProbeScore.accuracy)} (${realProbeScore.n} rows), macro-F1 ${realProbeScore.macro_f1.toFixed(3)}`);
  for (const [tag, s] of Object.entries(realProbeScore.per_tag)) console.log(`  ${tag.padEnd(28)} ${pct(s.accuracy).padStart(6)}  (${s.correct}/${s.n})`);
  for (const [name, d] of Object.entries(families(realProbePredictions))) console.log(`  ${name} detection: recall ${pct(d.recall)} of ${d.n}, precision ${pct(d.precision)}`);
  for (const [k, v] of Object.entries(realProbeScore.top_confusions)) console.log(`  ${String(v).padStart(5)}  ${k}`);
}
console.log(`temperature             ${calib.temperature}`);
console.log(`weights                 ${(statSync(weightsPath).size / 1e6).toFixed(2)} MB, ${file.rows} feature rows`);
log('done');
