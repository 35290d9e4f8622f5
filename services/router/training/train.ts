/**
 * Training and evaluation of the router classifier. Pure and deterministic: the same rows,
 * options and seed always give bit-identical weights. training/run-training.mjs does the file I/O.
 *
 * Two models share the hashed features:
 *  - kind of work (softmax) and stakes (logistic), trained together by plain SGD with L2 (or
 *    AdaGrad: options.optimizer), each
 *    kind of work weighted so that every kind counts the same whatever its row count; stakes
 *    learn only from rows that label stakes;
 *  - difficulty, trained afterwards and on its own: a regression of the human difficulty
 *    labels (1-5) on a column of the hashed word features plus the dense cross-domain features
 *    of src/classifier/difficulty.ts (which include the kind-of-work distribution), each
 *    labelled collection weighted to count alike. Its cut points are fitted so the levels
 *    it gives keep the label distribution.
 */
import { FEATURE_DIM, SparseVector, extractFeatures, newSparseVector } from '../src/classifier/features';
import { CorpusRow, rowInput } from './corpus';
import {
  DIFFICULTY_OFFSET, Model, N_TASK, OUTPUTS, STAKES_OFFSET, TASK_OFFSET, TASK_TYPES, levelOf, sigmoid, softmax,
} from '../src/classifier/model';
import { N_DIFFICULTY_FEATURES, difficultyFeatures } from '../src/classifier/difficulty';
import { predict, taskLogits } from '../src/classifier/predict';

/**
 * How the kind-of-work weights are fitted. `sgd`: plain stochastic gradient descent, the step
 * `learningRate / (1 + epoch)`, the same for every feature. `adagrad`: per-feature steps scaled by
 * the feature's past gradients, with the weights averaged over the later epochs (the optimizer of
 * the weights before 2026-11-25 at learningRate 0.3, kept to reproduce them and compare).
 *
 * Plain SGD generalizes better to real requests here. AdaGrad gives a feature seen a handful of
 * times (one collection's template word, a hand-written row's odd phrase) steps as large as a
 * common word's, so rare features end up carrying whole decisions; with one step size for all,
 * a feature's weight grows with the evidence for it. Measured on the same training set in full
 * runs, see README.md ("Plain SGD").
 */
export type Optimizer = 'sgd' | 'adagrad';

export interface TrainOptions {
  seed: number;
  epochs: number;
  optimizer: Optimizer;
  learningRate: number;
  l2: number;
  /** Loss weight of the stakes head relative to kind of work. */
  stakesWeight: number;
  difficultyEpochs: number;
  difficultyLearningRate: number;
  /** L2 on the difficulty model's word weights (the dense weights take a tenth of it). */
  difficultyL2: number;
  /** Runs of different shuffles (seed, seed + 1, …) whose weights are averaged. */
  ensemble: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  seed: 1337,
  epochs: 6,
  optimizer: 'sgd',
  learningRate: 1.2,
  l2: 1e-5,
  stakesWeight: 1,
  difficultyEpochs: 10,
  difficultyLearningRate: 0.05,
  difficultyL2: 1e-4,
  ensemble: 3,
};

interface Example {
  x: SparseVector;
  task: number;
  stakes: number;
  weight: number;
}

const TASK_INDEX = new Map<string, number>(TASK_TYPES.map((t, i) => [t, i]));

function copyVector(v: SparseVector): SparseVector {
  return { idx: v.idx.slice(0, v.n), val: v.val.slice(0, v.n), n: v.n };
}

/** Rows with a known kind of work, featurized, each weighted so every kind counts alike. */
export function encode(rows: CorpusRow[]): Example[] {
  const scratch = newSparseVector();
  const labelled = rows.filter((r) => r.task_type);
  const perTag = new Map<string, number>();
  const perTagSource = new Map<string, number>();
  const sourcesOfTag = new Map<string, Set<string>>();
  for (const r of labelled) {
    perTag.set(r.task_type, (perTag.get(r.task_type) ?? 0) + 1);
    const ts = `${r.task_type}\u0000${r.source ?? ''}`;
    perTagSource.set(ts, (perTagSource.get(ts) ?? 0) + 1);
    if (!sourcesOfTag.has(r.task_type)) sourcesOfTag.set(r.task_type, new Set());
    sourcesOfTag.get(r.task_type)!.add(r.source ?? '');
  }
  const mean = labelled.length / Math.max(1, perTag.size);
  return labelled.map((row) => {
    const task = TASK_INDEX.get(row.task_type);
    if (task === undefined) throw new Error(`unknown task_type ${row.task_type}`);
    extractFeatures(rowInput(row), scratch);
    // Every kind of work counts alike, and within a kind every collection counts alike, so no
    // single collection's phrasing defines a kind; a rare kind or collection is boosted at most 4x.
    const tagWeight = Math.min(4, Math.max(0.25, mean / (perTag.get(row.task_type) ?? 1)));
    const perSource = (perTag.get(row.task_type) ?? 1) / (sourcesOfTag.get(row.task_type)?.size ?? 1);
    const sourceWeight = Math.min(4, Math.max(0.25, perSource / (perTagSource.get(`${row.task_type}\u0000${row.source ?? ''}`) ?? 1)));
    const weight = tagWeight * sourceWeight;
    return { x: copyVector(scratch), task, stakes: row.stakes === 'high' ? 1 : row.stakes === 'normal' ? 0 : -1, weight };
  });
}

/** mulberry32, for the epoch shuffles. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(order: number[], rand: () => number): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

/**
 * Trains kind of work and stakes on `rows`; returns dense weights, FEATURE_DIM × OUTPUTS, row-major.
 * The mean of `ensemble` runs that differ only in the order the rows are seen: one run's accuracy
 * on unseen collections moves by about two points with its shuffle (seeds 1337 and 7: 51.9 and
 * 53.8 %), and averaging the runs' weights (their logits) takes most of that chance out.
 */
export function trainWeights(rows: CorpusRow[], options: TrainOptions = DEFAULT_TRAIN_OPTIONS): Float64Array {
  const examples = encode(rows);
  const runs = Math.max(1, options.ensemble);
  if (runs === 1) return trainRun(examples, options.seed, options);
  const mean = new Float64Array(FEATURE_DIM * OUTPUTS);
  for (let r = 0; r < runs; r++) {
    const W = trainRun(examples, options.seed + r, options);
    for (let i = 0; i < mean.length; i++) mean[i] += W[i] / runs;
  }
  return mean;
}

function trainRun(examples: Example[], seed: number, options: TrainOptions): Float64Array {
  const W = new Float64Array(FEATURE_DIM * OUTPUTS);
  const adagrad = options.optimizer === 'adagrad';
  /** AdaGrad's sums of squared gradients (unused by plain SGD). */
  const G = new Float64Array(adagrad ? FEATURE_DIM * OUTPUTS : 0);
  const z = new Float64Array(OUTPUTS);
  const g = new Float64Array(OUTPUTS);
  const order = examples.map((_, i) => i);
  const rand = prng(seed);
  const { learningRate: lr, l2 } = options;
  // AdaGrad's weights are averaged: the weights returned are the mean of the weights after every
  // step of the later epochs (kept lazily: U sums (c - 1) · change at step c, mean = W - U / C),
  // which steadies what rare features end up weighing from one build to the next. Plain SGD's
  // decaying step does that itself.
  const averageFrom = adagrad ? Math.min(options.epochs - 1, Math.floor(options.epochs / 2)) : options.epochs;
  const U = new Float64Array(adagrad ? W.length : 0);
  let c = 0;

  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffle(order, rand);
    const averaging = epoch >= averageFrom;
    const step = lr / (1 + epoch);
    for (const e of order) {
      const ex = examples[e];
      const { idx, val, n } = ex.x;
      if (averaging) c++;
      z.fill(0);
      for (let i = 0; i < n; i++) {
        const base = idx[i] * OUTPUTS;
        const v = val[i];
        for (let k = 0; k < OUTPUTS; k++) z[k] += v * W[base + k];
      }
      softmaxGrad(z, TASK_OFFSET, N_TASK, ex.task, ex.weight, g);
      g[DIFFICULTY_OFFSET] = 0;
      g[STAKES_OFFSET] = ex.stakes < 0 ? 0 : options.stakesWeight * (sigmoid(z[STAKES_OFFSET]) - ex.stakes);

      for (let i = 0; i < n; i++) {
        const base = idx[i] * OUTPUTS;
        const v = val[i];
        for (let k = 0; k < OUTPUTS; k++) {
          if (k === DIFFICULTY_OFFSET) continue;
          const w = W[base + k];
          const grad = v * g[k] + l2 * w;
          if (grad === 0) continue;
          let change: number;
          if (adagrad) {
            const acc = G[base + k] + grad * grad;
            G[base + k] = acc;
            change = -(lr * grad) / (Math.sqrt(acc) + 1e-8);
          } else {
            change = -step * grad;
          }
          W[base + k] = w + change;
          if (averaging) U[base + k] += (c - 1) * change;
        }
      }
    }
  }
  if (c > 0) for (let i = 0; i < W.length; i++) W[i] -= U[i] / c;
  return W;
}

/** Writes weight * (softmax - onehot) of z[from, from + n) into g[from, from + n). */
function softmaxGrad(z: Float64Array, from: number, n: number, target: number, weight: number, g: Float64Array): void {
  let max = -Infinity;
  for (let k = 0; k < n; k++) if (z[from + k] > max) max = z[from + k];
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const e = Math.exp(z[from + k] - max);
    g[from + k] = e;
    sum += e;
  }
  for (let k = 0; k < n; k++) g[from + k] = weight * (g[from + k] / sum - (k === target ? 1 : 0));
}

/** A row's difficulty target on the 1-5 scale, or 0 when it has none. */
export function difficultyTarget(row: CorpusRow): number {
  return row.dl && row.difficulty >= 1 ? row.difficulty : 0;
}

export interface DifficultyFit {
  dense: Float64Array;
  cuts: number[];
}

/**
 * Trains the difficulty model in place: writes the word column of `W` and returns the dense
 * weights and cut points. Rows are those with a difficulty label; each labelled scale weighs
 * the same in total, so the big collections do not set the scale for the small ones.
 */
export function trainDifficulty(W: Float64Array, rows: CorpusRow[], options: TrainOptions = DEFAULT_TRAIN_OPTIONS): DifficultyFit {
  const labelled = rows.filter((r) => difficultyTarget(r) > 0);
  const perScale = new Map<string, number>();
  for (const r of labelled) perScale.set(r.dl!.scale, (perScale.get(r.dl!.scale) ?? 0) + 1);
  const meanScale = labelled.length / Math.max(1, perScale.size);

  // The kind-of-work distribution the dense features read comes from the trained task head.
  const scratch = newSparseVector();
  const zt = new Float64Array(N_TASK);
  const p = new Float64Array(N_TASK);
  const examples = labelled.map((row) => {
    const input = rowInput(row);
    extractFeatures(input, scratch);
    zt.fill(0);
    for (let i = 0; i < scratch.n; i++) {
      const base = scratch.idx[i] * OUTPUTS;
      for (let k = 0; k < N_TASK; k++) zt[k] += scratch.val[i] * W[base + TASK_OFFSET + k];
    }
    softmax(zt, 0, N_TASK, 1, p);
    const d = difficultyFeatures(input, p, new Float64Array(N_DIFFICULTY_FEATURES));
    return { x: copyVector(scratch), d, y: difficultyTarget(row), weight: Math.min(3, meanScale / (perScale.get(row.dl!.scale) ?? 1)) };
  });

  const dense = new Float64Array(N_DIFFICULTY_FEATURES);
  const Gd = new Float64Array(N_DIFFICULTY_FEATURES);
  const Gw = new Float64Array(FEATURE_DIM);
  dense[0] = 3; // start at the middle of the scale
  const order = examples.map((_, i) => i);
  const rand = prng(options.seed ^ 0x5bd1e995);
  const lr = options.difficultyLearningRate;
  const l2 = options.difficultyL2;
  for (let epoch = 0; epoch < options.difficultyEpochs; epoch++) {
    shuffle(order, rand);
    for (const e of order) {
      const ex = examples[e];
      let score = 0;
      for (let i = 0; i < ex.x.n; i++) score += ex.x.val[i] * W[ex.x.idx[i] * OUTPUTS + DIFFICULTY_OFFSET];
      for (let k = 0; k < N_DIFFICULTY_FEATURES; k++) score += dense[k] * ex.d[k];
      const err = ex.weight * (score - ex.y);
      for (let i = 0; i < ex.x.n; i++) {
        const j = ex.x.idx[i];
        const at = j * OUTPUTS + DIFFICULTY_OFFSET;
        const grad = err * ex.x.val[i] + l2 * W[at];
        const acc = Gw[j] + grad * grad;
        Gw[j] = acc;
        W[at] -= (lr * grad) / (Math.sqrt(acc) + 1e-8);
      }
      for (let k = 0; k < N_DIFFICULTY_FEATURES; k++) {
        const grad = err * ex.d[k] + (k === 0 ? 0 : (l2 / 10) * dense[k]);
        const acc = Gd[k] + grad * grad;
        Gd[k] = acc;
        dense[k] -= ((lr * 4) * grad) / (Math.sqrt(acc) + 1e-8);
      }
    }
  }

  // Cut points by quantile matching: the share of rows predicted at or below level k equals
  // the share labelled at or below k.
  const scores = examples.map((ex) => {
    let score = 0;
    for (let i = 0; i < ex.x.n; i++) score += ex.x.val[i] * W[ex.x.idx[i] * OUTPUTS + DIFFICULTY_OFFSET];
    for (let k = 0; k < N_DIFFICULTY_FEATURES; k++) score += dense[k] * ex.d[k];
    return score;
  });
  const sorted = [...scores].sort((a, b) => a - b);
  const cuts: number[] = [];
  for (let level = 1; level <= 4; level++) {
    const share = examples.filter((ex) => ex.y <= level + 0.25).length / Math.max(1, examples.length);
    const at = Math.min(sorted.length - 1, Math.max(0, Math.floor(share * sorted.length)));
    const prev = cuts.length ? cuts[cuts.length - 1] + 1e-3 : -Infinity;
    cuts.push(Math.max(prev, sorted.length ? sorted[at] : level + 0.5));
  }
  return { dense, cuts };
}

/** Mean negative log-likelihood of the true kind of work at temperature t. */
function nllAt(all: Float64Array[], targets: number[], t: number): number {
  let total = 0;
  for (let i = 0; i < all.length; i++) {
    const z = all[i];
    let max = -Infinity;
    for (let k = 0; k < z.length; k++) if (z[k] / t > max) max = z[k] / t;
    let sum = 0;
    for (let k = 0; k < z.length; k++) sum += Math.exp(z[k] / t - max);
    total += -(z[targets[i]] / t - max - Math.log(sum));
  }
  return total / Math.max(1, all.length);
}

/** Temperature minimizing NLL on the calibration rows (golden-section search on log t). */
export function fitTemperature(model: Model, rows: CorpusRow[]): { temperature: number; nllBefore: number; nllAfter: number } {
  const usable = rows.filter((r) => r.task_type);
  const all = usable.map((r) => taskLogits(model, rowInput(r)));
  const targets = usable.map((r) => TASK_INDEX.get(r.task_type) ?? 0);
  let lo = Math.log(0.05);
  let hi = Math.log(20);
  const phi = (Math.sqrt(5) - 1) / 2;
  let a = hi - phi * (hi - lo);
  let b = lo + phi * (hi - lo);
  let fa = nllAt(all, targets, Math.exp(a));
  let fb = nllAt(all, targets, Math.exp(b));
  for (let i = 0; i < 60; i++) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - phi * (hi - lo);
      fa = nllAt(all, targets, Math.exp(a));
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + phi * (hi - lo);
      fb = nllAt(all, targets, Math.exp(b));
    }
  }
  const temperature = Math.round(Math.exp((lo + hi) / 2) * 1e6) / 1e6;
  return { temperature, nllBefore: nllAt(all, targets, 1), nllAfter: nllAt(all, targets, temperature) };
}

export interface TagScore {
  n: number;
  correct: number;
  accuracy: number;
  /** F1 of the tag (precision over the rows predicted as it, recall over its rows). */
  f1?: number;
}

export interface Evaluation {
  n: number;
  accuracy: number;
  macro_f1: number;
  per_tag: Record<string, TagScore>;
  per_source: Record<string, TagScore>;
  /** Rows that label stakes, and the share right. */
  stakes_n: number;
  stakes_accuracy: number;
  /** Expected calibration error of the confidence, 15 equal-width bins. */
  ece: number;
  mean_confidence: number;
  /** Most frequent confusions, "true -> predicted": count. */
  top_confusions: Record<string, number>;
}

const ECE_BINS = 15;

export function expectedCalibrationError(confidences: number[], correct: boolean[]): number {
  const count = new Array<number>(ECE_BINS).fill(0);
  const conf = new Array<number>(ECE_BINS).fill(0);
  const acc = new Array<number>(ECE_BINS).fill(0);
  for (let i = 0; i < confidences.length; i++) {
    const b = Math.min(ECE_BINS - 1, Math.floor(confidences[i] * ECE_BINS));
    count[b]++;
    conf[b] += confidences[i];
    acc[b] += correct[i] ? 1 : 0;
  }
  let ece = 0;
  for (let b = 0; b < ECE_BINS; b++) if (count[b] > 0) ece += (count[b] / confidences.length) * Math.abs(acc[b] / count[b] - conf[b] / count[b]);
  return ece;
}

export const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** Spearman rank correlation (average ranks for ties). */
export function spearman(x: number[], y: number[]): number {
  const rank = (v: number[]): number[] => {
    const idx = v.map((_, i) => i).sort((a, b) => v[a] - v[b]);
    const r = new Array<number>(v.length);
    for (let i = 0; i < idx.length;) {
      let j = i;
      while (j + 1 < idx.length && v[idx[j + 1]] === v[idx[i]]) j++;
      for (let k = i; k <= j; k++) r[idx[k]] = (i + j) / 2 + 1;
      i = j + 1;
    }
    return r;
  };
  const rx = rank(x);
  const ry = rank(y);
  const n = x.length;
  const mx = rx.reduce((s, v) => s + v, 0) / n;
  const my = ry.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) ** 2;
    syy += (ry[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}

/** One prediction, kept so evaluations can be pooled across models (the cross-source folds). */
export interface Prediction {
  task_type: string;
  predicted: string;
  confidence: number;
  source: string;
  stakes?: 'normal' | 'high';
  predictedStakes: 'normal' | 'high';
}

export function predictRows(model: Model, rows: CorpusRow[]): Prediction[] {
  return rows.filter((r) => r.task_type).map((row) => {
    const c = predict(model, rowInput(row), { noReason: true });
    return { task_type: row.task_type, predicted: c.taskType, confidence: c.confidence, source: row.source ?? '', stakes: row.stakes, predictedStakes: c.stakes };
  });
}

/** Accuracy per tag and per source, macro-F1, stakes, ECE and the worst confusions. */
export function score(predictions: Prediction[]): Evaluation {
  const perTag: Record<string, TagScore> = {};
  const perSource: Record<string, TagScore> = {};
  const predictedAs: Record<string, number> = {};
  const confusions: Record<string, number> = {};
  let correct = 0;
  let stakesN = 0;
  let stakesOk = 0;
  for (const p of predictions) {
    const ok = p.predicted === p.task_type;
    if (ok) correct++;
    else confusions[`${p.task_type} -> ${p.predicted}`] = (confusions[`${p.task_type} -> ${p.predicted}`] ?? 0) + 1;
    const t = (perTag[p.task_type] ??= { n: 0, correct: 0, accuracy: 0 });
    t.n++;
    if (ok) t.correct++;
    const s = (perSource[p.source] ??= { n: 0, correct: 0, accuracy: 0 });
    s.n++;
    if (ok) s.correct++;
    predictedAs[p.predicted] = (predictedAs[p.predicted] ?? 0) + 1;
    if (p.stakes) {
      stakesN++;
      if (p.stakes === p.predictedStakes) stakesOk++;
    }
  }
  let f1Sum = 0;
  const tags = Object.keys(perTag).sort();
  const finishedTags: Record<string, TagScore> = {};
  for (const tag of tags) {
    const t = perTag[tag];
    const precision = predictedAs[tag] ? t.correct / predictedAs[tag] : 0;
    const recall = t.correct / t.n;
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    f1Sum += f1;
    finishedTags[tag] = { n: t.n, correct: t.correct, accuracy: round4(t.correct / t.n), f1: round4(f1) };
  }
  const finishedSources: Record<string, TagScore> = {};
  for (const src of Object.keys(perSource).sort()) finishedSources[src] = { ...perSource[src], accuracy: round4(perSource[src].correct / perSource[src].n) };
  const n = Math.max(1, predictions.length);
  const top = Object.entries(confusions).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 12);
  return {
    n: predictions.length,
    accuracy: round4(correct / n),
    macro_f1: round4(f1Sum / Math.max(1, tags.length)),
    per_tag: finishedTags,
    per_source: finishedSources,
    stakes_n: stakesN,
    stakes_accuracy: round4(stakesN ? stakesOk / stakesN : 0),
    ece: round4(expectedCalibrationError(predictions.map((p) => p.confidence), predictions.map((p) => p.predicted === p.task_type))),
    mean_confidence: round4(predictions.reduce((s, p) => s + p.confidence, 0) / n),
    top_confusions: Object.fromEntries(top),
  };
}

/** Scores `model` on `rows` through the same prediction path the gateway uses. */
export function evaluate(model: Model, rows: CorpusRow[]): Evaluation {
  return score(predictRows(model, rows));
}

export interface DifficultyEvaluation {
  n: number;
  spearman: number;
  /** Share of rows whose level is within one of the label mapped to 1-5. */
  within_1: number;
  exact: number;
}

/** Spearman of the difficulty score against the collection's own labels, plus level agreement. */
export function evaluateDifficulty(model: Model, rows: CorpusRow[]): DifficultyEvaluation {
  const labelled = rows.filter((r) => r.dl);
  const scores: number[] = [];
  const labels: number[] = [];
  let within = 0;
  let exact = 0;
  for (const row of labelled) {
    const c = predict(model, rowInput(row), { noReason: true, probabilities: true });
    scores.push(c.difficultyScore ?? c.difficulty);
    labels.push(row.dl!.value);
    if (row.difficulty >= 1) {
      if (Math.abs(c.difficulty - row.difficulty) <= 1) within++;
      if (c.difficulty === row.difficulty) exact++;
    }
  }
  const n = Math.max(1, labelled.length);
  return { n: labelled.length, spearman: round4(spearman(scores, labels)), within_1: round4(within / n), exact: round4(exact / n) };
}

export { levelOf };
