/**
 * Training and evaluation of the router classifier. Pure and deterministic: the same rows,
 * options and seed always give bit-identical weights. training/run-training.mjs does the file I/O.
 *
 * All three heads share the hashed features and are trained together by AdaGrad with L2:
 * softmax cross-entropy for kind of work and for difficulty (five classes, decoded as the
 * median), logistic loss for stakes.
 */
import { FEATURE_DIM, SparseVector, extractFeatures, newSparseVector } from '../src/classifier/features';
import { CorpusRow, rowInput } from './corpus';
import {
  DIFFICULTY_OFFSET, Model, N_DIFFICULTY, N_TASK, OUTPUTS, STAKES_OFFSET, TASK_OFFSET, TASK_TYPES, sigmoid,
} from '../src/classifier/model';
import { predict, taskLogits } from '../src/classifier/predict';

export interface TrainOptions {
  seed: number;
  epochs: number;
  learningRate: number;
  l2: number;
  /** Loss weights of the difficulty and stakes heads relative to kind of work. */
  difficultyWeight: number;
  stakesWeight: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  seed: 1337,
  epochs: 12,
  learningRate: 0.3,
  l2: 1e-6,
  difficultyWeight: 1,
  stakesWeight: 1,
};

interface Example {
  x: SparseVector;
  task: number;
  difficulty: number;
  stakes: number;
}

const TASK_INDEX = new Map<string, number>(TASK_TYPES.map((t, i) => [t, i]));

export function encode(rows: CorpusRow[]): Example[] {
  const scratch = newSparseVector();
  return rows.map((row) => {
    const task = TASK_INDEX.get(row.task_type);
    if (task === undefined) throw new Error(`unknown task_type ${row.task_type}`);
    extractFeatures(rowInput(row), scratch);
    // Copy out of the shared buffer: every example keeps its own vector.
    const x: SparseVector = { idx: scratch.idx.slice(0, scratch.n), val: scratch.val.slice(0, scratch.n), n: scratch.n };
    return { x, task, difficulty: row.difficulty - 1, stakes: row.stakes === 'high' ? 1 : 0 };
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

/** Trains on `rows`; returns dense weights, FEATURE_DIM × OUTPUTS, row-major. */
export function trainWeights(rows: CorpusRow[], options: TrainOptions = DEFAULT_TRAIN_OPTIONS): Float64Array {
  const examples = encode(rows);
  const W = new Float64Array(FEATURE_DIM * OUTPUTS);
  const G = new Float64Array(FEATURE_DIM * OUTPUTS);
  const z = new Float64Array(OUTPUTS);
  const g = new Float64Array(OUTPUTS);
  const order = examples.map((_, i) => i);
  const rand = prng(options.seed);
  const { learningRate: lr, l2 } = options;

  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      const t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    for (const e of order) {
      const ex = examples[e];
      const { idx, val, n } = ex.x;
      z.fill(0);
      for (let i = 0; i < n; i++) {
        const base = idx[i] * OUTPUTS;
        const v = val[i];
        for (let k = 0; k < OUTPUTS; k++) z[k] += v * W[base + k];
      }
      softmaxGrad(z, TASK_OFFSET, N_TASK, ex.task, 1, g);
      softmaxGrad(z, DIFFICULTY_OFFSET, N_DIFFICULTY, ex.difficulty, options.difficultyWeight, g);
      g[STAKES_OFFSET] = options.stakesWeight * (sigmoid(z[STAKES_OFFSET]) - ex.stakes);

      for (let i = 0; i < n; i++) {
        const base = idx[i] * OUTPUTS;
        const v = val[i];
        for (let k = 0; k < OUTPUTS; k++) {
          const w = W[base + k];
          const grad = v * g[k] + l2 * w;
          if (grad === 0) continue;
          const acc = G[base + k] + grad * grad;
          G[base + k] = acc;
          W[base + k] = w - (lr * grad) / (Math.sqrt(acc) + 1e-8);
        }
      }
    }
  }
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
  const all = rows.map((r) => taskLogits(model, rowInput(r)));
  const targets = rows.map((r) => TASK_INDEX.get(r.task_type) ?? 0);
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
}

export interface Evaluation {
  n: number;
  accuracy: number;
  per_tag: Record<string, TagScore>;
  per_language: Record<string, TagScore>;
  difficulty_exact: number;
  difficulty_within_1: number;
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

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

function score(map: Record<string, TagScore>, key: string, ok: boolean): void {
  const s = (map[key] ??= { n: 0, correct: 0, accuracy: 0 });
  s.n++;
  if (ok) s.correct++;
}

function finish(map: Record<string, TagScore>): Record<string, TagScore> {
  const out: Record<string, TagScore> = {};
  for (const key of Object.keys(map).sort()) out[key] = { ...map[key], accuracy: map[key].n > 0 ? round4(map[key].correct / map[key].n) : 0 };
  return out;
}

/** Scores `model` on `rows` through the same prediction path the gateway uses. */
export function evaluate(model: Model, rows: CorpusRow[]): Evaluation {
  const perTag: Record<string, TagScore> = {};
  const perLang: Record<string, TagScore> = {};
  const confusions: Record<string, number> = {};
  const confidences: number[] = [];
  const correctness: boolean[] = [];
  let correct = 0;
  let dExact = 0;
  let dWithin = 0;
  let stakesOk = 0;
  for (const t of TASK_TYPES) perTag[t] = { n: 0, correct: 0, accuracy: 0 };
  for (const row of rows) {
    const c = predict(model, rowInput(row), { noReason: true });
    const ok = c.taskType === row.task_type;
    if (ok) correct++;
    else {
      const key = `${row.task_type} -> ${c.taskType}`;
      confusions[key] = (confusions[key] ?? 0) + 1;
    }
    score(perTag, row.task_type, ok);
    score(perLang, row.lang, ok);
    if (c.difficulty === row.difficulty) dExact++;
    if (Math.abs(c.difficulty - row.difficulty) <= 1) dWithin++;
    if (c.stakes === row.stakes) stakesOk++;
    confidences.push(c.confidence);
    correctness.push(ok);
  }
  const n = Math.max(1, rows.length);
  const top = Object.entries(confusions).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
  return {
    n: rows.length,
    accuracy: round4(correct / n),
    per_tag: finish(perTag),
    per_language: finish(perLang),
    difficulty_exact: round4(dExact / n),
    difficulty_within_1: round4(dWithin / n),
    stakes_accuracy: round4(stakesOk / n),
    ece: round4(expectedCalibrationError(confidences, correctness)),
    mean_confidence: round4(confidences.reduce((s, x) => s + x, 0) / n),
    top_confusions: Object.fromEntries(top),
  };
}
