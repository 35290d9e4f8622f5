#!/usr/bin/env node
// Trains the router classifier on data/corpus.jsonl and writes data/weights.json and
// data/eval.json. Same corpus + same seed → byte-identical files.
//
//   pnpm --filter @svc/service-router train:router [-- --seed=1337 --epochs=12 --no-template-check]
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
require('./ts-hook.cjs');
const { readCorpus, splitCorpus, rowsOf, templateHoldout } = require('./corpus.ts');
const { trainWeights, fitTemperature, evaluate, DEFAULT_TRAIN_OPTIONS } = require('./train.ts');
const { serializeWeights, deserializeWeights } = require('../src/classifier/model.ts');
const { FEATURE_VERSION } = require('../src/classifier/features.ts');

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = join(here, '..', 'data');
const args = Object.fromEntries(process.argv.slice(2).map((a) => {
  const [k, v] = a.replace(/^--/, '').split('=');
  return [k, v ?? 'true'];
}));
const options = {
  ...DEFAULT_TRAIN_OPTIONS,
  ...(args.seed ? { seed: Number(args.seed) } : {}),
  ...(args.epochs ? { epochs: Number(args.epochs) } : {}),
  ...(args.lr ? { learningRate: Number(args.lr) } : {}),
  ...(args.l2 ? { l2: Number(args.l2) } : {}),
};
const corpusPath = args.corpus ?? join(dataDir, 'corpus.jsonl');
const weightsPath = args.out ?? join(dataDir, 'weights.json');
const evalPath = args.eval ?? join(dataDir, 'eval.json');

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const started = Date.now();

const rows = readCorpus(corpusPath);
const corpusSha = createHash('sha256').update(readFileSync(corpusPath)).digest('hex');
const split = splitCorpus(rows);
const train = rowsOf(rows, split, 'train');
const calibration = rowsOf(rows, split, 'calibration');
const heldout = rowsOf(rows, split, 'heldout');
console.log(`corpus: ${rows.length} rows (train ${train.length}, calibration ${calibration.length}, held out ${heldout.length})`);

const dense = trainWeights(train, options);
const meta = {
  corpus_sha256: corpusSha,
  corpus_rows: rows.length,
  train_rows: train.length,
  options,
};
// Fit the temperature on the quantized weights, exactly as they will be served.
let file = serializeWeights(dense, 1, meta);
const calib = fitTemperature(deserializeWeights(file), calibration);
file = { ...file, temperature: calib.temperature };
const model = deserializeWeights(file);
const json = JSON.stringify(file);
writeFileSync(weightsPath, json + '\n');

const evalUncalibrated = evaluate({ ...model, temperature: 1 }, heldout);
const held = evaluate(model, heldout);
const calEval = evaluate(model, calibration);

let templateCheck;
if (args['no-template-check'] !== 'true') {
  // Harder estimate: train again without a quarter of each tag's templates, test on those.
  const th = templateHoldout(rows);
  const thModel = deserializeWeights(serializeWeights(trainWeights(th.train, options), calib.temperature, {}));
  const e = evaluate(thModel, th.test);
  templateCheck = {
    note: 'rows from templates never seen in training; a closer estimate of accuracy on unseen phrasing than the held-out split',
    n: e.n, accuracy: e.accuracy, difficulty_within_1: e.difficulty_within_1, stakes_accuracy: e.stakes_accuracy, ece: e.ece,
    per_tag: Object.fromEntries(Object.entries(e.per_tag).map(([k, v]) => [k, v.accuracy])),
  };
}

const report = {
  feature_version: FEATURE_VERSION,
  corpus: { path: 'data/corpus.jsonl', sha256: corpusSha, rows: rows.length, train: train.length, calibration: calibration.length, heldout: heldout.length },
  options,
  weights: { path: 'data/weights.json', bytes: Buffer.byteLength(json) + 1, rows_with_weights: file.rows },
  calibration: {
    temperature: calib.temperature,
    nll_before: Math.round(calib.nllBefore * 1e4) / 1e4,
    nll_after: Math.round(calib.nllAfter * 1e4) / 1e4,
    ece_on_calibration_slice: calEval.ece,
  },
  heldout: { ...held, ece_before_temperature: evalUncalibrated.ece },
  ...(templateCheck ? { template_holdout: templateCheck } : {}),
};
writeFileSync(evalPath, JSON.stringify(report, null, 2) + '\n');

console.log('\nheld-out accuracy per kind of work:');
for (const [tag, s] of Object.entries(held.per_tag)) console.log(`  ${tag.padEnd(28)} ${pct(s.accuracy).padStart(6)}  (${s.correct}/${s.n})`);
console.log('\nheld-out accuracy per language:');
for (const [lang, s] of Object.entries(held.per_language)) console.log(`  ${lang.padEnd(28)} ${pct(s.accuracy).padStart(6)}  (${s.correct}/${s.n})`);
console.log(`\noverall accuracy        ${pct(held.accuracy)} (${held.n} held-out rows)`);
console.log(`difficulty exact        ${pct(held.difficulty_exact)}`);
console.log(`difficulty within ±1    ${pct(held.difficulty_within_1)}`);
console.log(`stakes accuracy         ${pct(held.stakes_accuracy)}`);
console.log(`temperature             ${calib.temperature}`);
console.log(`ECE                     ${held.ece.toFixed(4)} (before temperature ${evalUncalibrated.ece.toFixed(4)})`);
if (templateCheck) console.log(`template-disjoint acc.  ${pct(templateCheck.accuracy)} (${templateCheck.n} rows), difficulty ±1 ${pct(templateCheck.difficulty_within_1)}, stakes ${pct(templateCheck.stakes_accuracy)}`);
console.log(`weights                 ${(statSync(weightsPath).size / 1e6).toFixed(2)} MB, ${file.rows} feature rows`);
console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
