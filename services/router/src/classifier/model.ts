/**
 * The classifier's weights: one row of OUTPUTS values per hashed feature, covering the kind of
 * work softmax, the sparse part of the difficulty score and the stakes logistic; plus the dense
 * difficulty model (cross-domain features of the text, see difficulty.ts), trained on its own. Stored as JSON with the rows
 * quantized to int8 per output column, deflated and base64-encoded, which keeps the file a
 * few MB (int16 measured no more accurate at three times the size); loaded once into a
 * compact Float32Array.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import { FEATURE_DIM, FEATURE_VERSION, SparseVector } from './features';
import { DIFFICULTY_FEATURES } from './difficulty';
import { LOGITS_WASM } from './logits-wasm';
import { addRows } from './row-sum';

// Kinds of work in the spec's order, from the catalog; the weight layout follows this order.
import { TASK_TYPES, type TaskType } from '@svc/catalog';

export { TASK_TYPES, type TaskType };

export const N_TASK = TASK_TYPES.length;
export const N_DIFFICULTY = 5;
/** Column layout of a weight row: kind-of-work logits, the difficulty score's word part, stakes. */
export const TASK_OFFSET = 0;
export const DIFFICULTY_OFFSET = N_TASK;
export const STAKES_OFFSET = N_TASK + 1;
export const OUTPUTS = N_TASK + 2;

export const WEIGHTS_FORMAT = 'svc-router-classifier/2';

/** The dense half of the difficulty model and the cut points that turn its score into 1-5. */
export interface DifficultyModel {
  /** Weight per dense difficulty feature (difficulty.ts DIFFICULTY_FEATURES order). */
  dense: Float64Array;
  /** Four increasing scores: below cuts[0] is 1, at or above cuts[3] is 5. */
  cuts: number[];
}

/**
 * Weights in the form inference uses: feature index → compact row → OUTPUTS int8 values,
 * scaled per column. Kept as int8 rather than expanded to floats because lookups are
 * scattered: a 32-byte row is half a cache line, and cache misses, not arithmetic, dominate
 * the time of a classification.
 */
export interface Model {
  /** Compact row of each feature index, -1 for features with no weights. */
  rowOf: Int32Array;
  /** rows × OUTPUTS quantized weights, row-major. */
  weights: Int8Array;
  /** Per-column scale: weight = weights[row * OUTPUTS + k] * scales[k]. */
  scales: Float64Array;
  /** Softmax temperature for the kind-of-work head, fitted on the calibration slice. */
  temperature: number;
  difficulty: DifficultyModel;
  meta: Record<string, unknown>;
  /** The SIMD kernel over these weights (absent where WebAssembly SIMD is not there: logits runs in JavaScript). */
  kernel?: LogitsKernel;
}

/** Serialized form (data/weights.json). */
export interface WeightsFile {
  format: string;
  feature_version: string;
  outputs: number;
  labels: { task_type: string[]; difficulty: number[]; stakes: string[] };
  temperature: number;
  difficulty: { features: string[]; dense: number[]; cuts: number[] };
  quantization: 'int8-per-column';
  scales: number[];
  rows: number;
  /** base64(deflate(varint deltas of the feature indices that have weights)). */
  index: string;
  /** base64(deflate(int8, rows × outputs)). */
  values: string;
  meta: Record<string, unknown>;
}

/**
 * logits' kernel (logits.wat, compiled into logits-wasm.ts): WebAssembly SIMD over a memory of the
 * model's own that holds its weights (model.weights is a view of them), the feature rows and values
 * of one call, and the 32 sums. Its memory never grows, so the views stay valid.
 */
export interface LogitsKernel {
  run: (rows: number, values: number, m: number, out: number) => void;
  rows: Int32Array;
  values: Float64Array;
  out: Float64Array;
}

/** Feature rows one kernel call takes; a longer vector (none a request makes) is summed in JavaScript. */
export const KERNEL_ROWS = 1 << 16;
const KERNEL_OUT_AT = 0;
const KERNEL_ROWS_AT = 256;
const KERNEL_VALUES_AT = KERNEL_ROWS_AT + KERNEL_ROWS * 4;
const KERNEL_WEIGHTS_AT = KERNEL_VALUES_AT + KERNEL_ROWS * 8;
const WASM_PAGE = 65536;

/** The part of the WebAssembly API used here (the services compile without the DOM's types). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
};
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

let kernelModule: object | null | undefined;

/**
 * A kernel with `weights` copied into its memory, and the view of them there; undefined when the
 * kernel does not apply (it sums exactly 32 columns) or WebAssembly SIMD is not available.
 */
function logitsKernel(weights: Int8Array): { kernel: LogitsKernel; weights: Int8Array } | undefined {
  if (OUTPUTS !== 32) return undefined;
  if (kernelModule === undefined) {
    try {
      kernelModule = new WebAssembly.Module(LOGITS_WASM);
    } catch {
      kernelModule = null;
    }
  }
  if (kernelModule === null) return undefined;
  const instance = new WebAssembly.Instance(kernelModule, {});
  const memory = instance.exports.memory as WasmMemory;
  memory.grow(Math.ceil((KERNEL_WEIGHTS_AT + weights.length) / WASM_PAGE) - memory.buffer.byteLength / WASM_PAGE);
  const inMemory = new Int8Array(memory.buffer, KERNEL_WEIGHTS_AT, weights.length);
  inMemory.set(weights);
  return {
    kernel: {
      run: instance.exports.logits as LogitsKernel['run'],
      rows: new Int32Array(memory.buffer, KERNEL_ROWS_AT, KERNEL_ROWS),
      values: new Float64Array(memory.buffer, KERNEL_VALUES_AT, KERNEL_ROWS),
      out: new Float64Array(memory.buffer, KERNEL_OUT_AT, OUTPUTS),
    },
    weights: inMemory,
  };
}

/** Scratch for logits in JavaScript: the weight-row offset and value of each feature that has weights. */
let rowBase = new Int32Array(16384);
let rowValue = new Float64Array(16384);

/**
 * Raw logits of all heads for one feature vector: out = x · weights, scaled per column. A first
 * pass looks up each feature's row (the scattered reads, all independent, so the memory system
 * serves many at once); then the rows are taken in blocks of 32, and within a block eight columns
 * at a time are summed over the block's rows, now in cache (row-sum.ts). Each column's sum runs on
 * across blocks and adds the features in order, so the result is bit for bit the sum of a plain
 * loop over the features. The kernel does this with SIMD (two columns an instruction, the int8
 * weights widened eight at a time); JavaScript does the same in eight registers.
 * Measured on a ~3,000-feature message (services/router/README.md): whole columns over every row,
 * 0.7–1.0 ms a call (a column's pass over 3,000 rows leaves the first-level cache before the next
 * column reads them again); blocks in JavaScript, 0.20–0.39 ms; the kernel, 0.10–0.11 ms.
 */
export function logits(model: Model, x: SparseVector, out: Float64Array): Float64Array {
  const { rowOf, weights, scales } = model;
  const kernel = model.kernel && x.n <= KERNEL_ROWS ? model.kernel : undefined;
  if (!kernel && rowBase.length < x.n) {
    rowBase = new Int32Array(x.idx.length);
    rowValue = new Float64Array(x.idx.length);
  }
  // The kernel addresses rows in its own memory, where the weights start at KERNEL_WEIGHTS_AT.
  const bases = kernel ? kernel.rows : rowBase;
  const values = kernel ? kernel.values : rowValue;
  const weightsAt = kernel ? KERNEL_WEIGHTS_AT : 0;
  let m = 0;
  for (let i = 0; i < x.n; i++) {
    const r = rowOf[x.idx[i]];
    if (r < 0) continue;
    bases[m] = weightsAt + r * OUTPUTS;
    values[m++] = x.val[i];
  }
  let sums = out;
  if (kernel) {
    kernel.run(KERNEL_ROWS_AT, KERNEL_VALUES_AT, m, KERNEL_OUT_AT);
    sums = kernel.out;
  } else {
    out.fill(0, 0, OUTPUTS);
    addRows(rowBase, rowValue, m, weights, out, OUTPUTS);
  }
  for (let k = 0; k < OUTPUTS; k++) out[k] = sums[k] * scales[k];
  return out;
}

/** In-place softmax of out[from, from + n) with temperature t. */
export function softmax(z: ArrayLike<number>, from: number, n: number, t: number, out: Float64Array): Float64Array {
  let max = -Infinity;
  for (let k = 0; k < n; k++) if (z[from + k] > max) max = z[from + k];
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const e = Math.exp((z[from + k] - max) / t);
    out[k] = e;
    sum += e;
  }
  for (let k = 0; k < n; k++) out[k] /= sum;
  return out;
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** Difficulty level 1-5 of a score, by the model's cut points. */
export function levelOf(score: number, cuts: ArrayLike<number>): 1 | 2 | 3 | 4 | 5 {
  let level = 1;
  for (let k = 0; k < 4; k++) if (score >= cuts[k]) level = k + 2;
  return level as 1 | 2 | 3 | 4 | 5;
}

function writeVarint(bytes: number[], v: number): void {
  while (v >= 0x80) {
    bytes.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  bytes.push(v);
}

/**
 * Serializes dense training weights (FEATURE_DIM × OUTPUTS). Rows that are all zero are left
 * out; each column is quantized to int8 against its own largest magnitude.
 */
export function serializeWeights(
  dense: Float32Array | Float64Array, temperature: number, meta: Record<string, unknown>,
  difficulty: { dense: ArrayLike<number>; cuts: number[] } = { dense: new Float64Array(DIFFICULTY_FEATURES.length), cuts: [1.5, 2.5, 3.5, 4.5] },
): WeightsFile {
  const scales: number[] = new Array(OUTPUTS).fill(0);
  const rows: number[] = [];
  for (let j = 0; j < FEATURE_DIM; j++) {
    const base = j * OUTPUTS;
    let any = false;
    for (let k = 0; k < OUTPUTS; k++) {
      const a = Math.abs(dense[base + k]);
      if (a > 0) any = true;
      if (a > scales[k]) scales[k] = a;
    }
    if (any) rows.push(j);
  }
  for (let k = 0; k < OUTPUTS; k++) scales[k] = scales[k] > 0 ? Math.fround(scales[k] / 127) : 1;

  // Rows whose every quantized weight is -1, 0 or 1 move no decision: leave them out, which
  // halves the file and its load time.
  const kept = rows.filter((j) => {
    const base = j * OUTPUTS;
    for (let k = 0; k < OUTPUTS; k++) if (Math.abs(Math.round(dense[base + k] / scales[k])) > 1) return true;
    return false;
  });
  rows.length = 0;
  for (const j of kept) rows.push(j);
  const idxBytes: number[] = [];
  let prev = 0;
  for (const j of rows) {
    writeVarint(idxBytes, j - prev);
    prev = j;
  }
  const q = new Int8Array(rows.length * OUTPUTS);
  for (let r = 0; r < rows.length; r++) {
    const base = rows[r] * OUTPUTS;
    for (let k = 0; k < OUTPUTS; k++) q[r * OUTPUTS + k] = Math.round(dense[base + k] / scales[k]);
  }
  const valueBytes = Buffer.from(q.buffer, q.byteOffset, q.byteLength);

  return {
    format: WEIGHTS_FORMAT,
    feature_version: FEATURE_VERSION,
    outputs: OUTPUTS,
    labels: { task_type: [...TASK_TYPES], difficulty: [1, 2, 3, 4, 5], stakes: ['normal', 'high'] },
    temperature,
    difficulty: {
      features: [...DIFFICULTY_FEATURES],
      dense: Array.from(difficulty.dense, (w) => Math.round(w * 1e6) / 1e6),
      cuts: difficulty.cuts.map((c) => Math.round(c * 1e6) / 1e6),
    },
    quantization: 'int8-per-column',
    scales,
    rows: rows.length,
    index: deflateSync(Buffer.from(idxBytes), { level: 9 }).toString('base64'),
    values: deflateSync(valueBytes, { level: 9 }).toString('base64'),
    meta,
  };
}

/** Rebuilds the inference model from its serialized form, checking it matches this code. */
export function deserializeWeights(file: WeightsFile): Model {
  if (file.format !== WEIGHTS_FORMAT) throw new Error(`classifier weights: unsupported format ${String(file.format)}`);
  if (file.feature_version !== FEATURE_VERSION) {
    throw new Error(`classifier weights were trained with features ${file.feature_version}, code extracts ${FEATURE_VERSION}; retrain`);
  }
  if (file.outputs !== OUTPUTS || file.labels.task_type.join() !== TASK_TYPES.join()) {
    throw new Error('classifier weights: label set does not match this code; retrain');
  }
  const idxBytes = inflateSync(Buffer.from(file.index, 'base64'));
  const valueBytes = inflateSync(Buffer.from(file.values, 'base64'));
  if (valueBytes.length !== file.rows * OUTPUTS) throw new Error('classifier weights: value block has the wrong size');

  const rowOf = new Int32Array(FEATURE_DIM).fill(-1);
  let pos = 0;
  let j = 0;
  for (let r = 0; r < file.rows; r++) {
    let shift = 0;
    let delta = 0;
    for (;;) {
      const b = idxBytes[pos++];
      delta += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
      shift += 7;
    }
    j += delta;
    if (j >= FEATURE_DIM) throw new Error('classifier weights: feature index out of range');
    rowOf[j] = r;
  }
  const weights = new Int8Array(valueBytes.buffer.slice(valueBytes.byteOffset, valueBytes.byteOffset + valueBytes.byteLength));
  if (file.scales.length !== OUTPUTS) throw new Error('classifier weights: wrong number of scales');
  if (!file.difficulty || file.difficulty.features.join() !== DIFFICULTY_FEATURES.join() || file.difficulty.cuts.length !== 4) {
    throw new Error('classifier weights: difficulty features do not match this code; retrain');
  }
  const withKernel = logitsKernel(weights);
  return {
    rowOf, weights: withKernel?.weights ?? weights, scales: Float64Array.from(file.scales), temperature: file.temperature,
    ...(withKernel ? { kernel: withKernel.kernel } : {}),
    difficulty: { dense: Float64Array.from(file.difficulty.dense), cuts: [...file.difficulty.cuts] },
    meta: file.meta,
  };
}
