import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CorpusRow, readCorpus, rowsOf, splitCorpus, templateHoldout } from './corpus';
import { TASK_TYPES } from '../src/classifier/model';
import { deserializeWeights, serializeWeights } from '../src/classifier/model';
import {
  DEFAULT_TRAIN_OPTIONS, encode, evaluateDifficulty, expectedCalibrationError, score, spearman, trainDifficulty, trainWeights,
} from './train';

const DATA = resolve(__dirname, '..', 'data');
// The template corpus (training/build-corpus.mjs): one of the project's own sources.
const rows = readCorpus(resolve(DATA, 'corpus.jsonl'));
const handwritten = readCorpus(resolve(DATA, 'handwritten.jsonl'));

describe('template corpus', () => {
  it('has examples of every kind of work and only known labels', () => {
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.task_type, (counts.get(r.task_type) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...TASK_TYPES].sort());
    for (const r of rows) {
      expect([1, 2, 3, 4, 5]).toContain(r.difficulty);
      expect(['normal', 'high']).toContain(r.stakes);
      expect(['chat', 'agent']).toContain(r.turn);
    }
  });

  it('mixes languages, tool results and system prompts', () => {
    const langs = new Set(rows.map((r) => r.lang));
    for (const lang of ['en', 'es', 'fr', 'de', 'pt', 'zh', 'ja']) expect(langs).toContain(lang);
    expect(rows.some((r) => r.turn === 'agent' && r.tool_result !== undefined)).toBe(true);
  });

  it('has no repeated texts', () => {
    expect(new Set(rows.map((r) => r.text)).size).toBe(rows.length);
  });

  it('splits the same way whatever the order of its lines, and template hold-out keeps templates apart', () => {
    const key = (r: CorpusRow) => `${r.task_type}\u0000${r.text}`;
    const a = rowsOf(rows, splitCorpus(rows), 'heldout').map(key).sort();
    const reversed = [...rows].reverse();
    expect(rowsOf(reversed, splitCorpus(reversed), 'heldout').map(key).sort()).toEqual(a);
    const { train, test } = templateHoldout(rows);
    const trainTemplates = new Set(train.map((r) => r.tpl));
    expect(test.some((r) => trainTemplates.has(r.tpl))).toBe(false);
  });
});

/** Hand-written rows: known kinds of work, difficulty 1-5, stakes, and no text twice. */
function expectLabelledByHand(written: CorpusRow[]): void {
  for (const r of written) {
    expect(TASK_TYPES).toContain(r.task_type);
    expect([1, 2, 3, 4, 5]).toContain(r.difficulty);
    expect(['normal', 'high']).toContain(r.stakes);
  }
  expect(new Set(written.map((r) => r.text)).size).toBe(written.length);
}

describe('hand-written rows', () => {
  it('are labelled with known kinds of work, difficulty and stakes, and have no repeats', () => {
    expect(handwritten.length).toBeGreaterThanOrEqual(100);
    expectLabelledByHand(handwritten);
    expect(handwritten.filter((r) => r.stakes === 'high').length).toBeGreaterThan(20);
  });

  it('leave out the requests the classifier tests use as unseen', () => {
    expect(handwritten.some((r) => r.text.includes('How many orders were placed last week'))).toBe(false);
  });
});

describe('hand-written chat requests (data/handwritten-chat.jsonl)', () => {
  const chat = readCorpus(resolve(DATA, 'handwritten-chat.jsonl'));
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9']+/g) ?? []);
  const jaccard = (a: Set<string>, b: Set<string>) => {
    let shared = 0;
    for (const w of a) if (b.has(w)) shared++;
    return shared / Math.max(1, a.size + b.size - shared);
  };

  it('are labelled chat turns with known kinds, difficulty and stakes, and no repeats', () => {
    expect(chat.length).toBeGreaterThanOrEqual(1500);
    expectLabelledByHand(chat);
    expect(chat.every((r) => r.turn === 'chat')).toBe(true);
  });

  it('share no request with the probes or the other hand-written rows (word overlap at most half)', () => {
    const probes = ['chat-probe.jsonl', 'paste-probe.jsonl'].flatMap((f) => readCorpus(resolve(DATA, f)));
    const others = [...probes, ...handwritten].map((r) => words(r.text));
    const near = chat.filter((r) => {
      const w = words(r.text);
      return others.some((o) => jaccard(w, o) > 0.5);
    });
    expect(near.map((r) => r.text)).toEqual([]);
  });
});

describe('training set manifest and SOURCES.md', () => {
  const manifest = JSON.parse(readFileSync(resolve(DATA, 'training-set.manifest.json'), 'utf8')) as {
    rows: number; sources: Array<{ id: string; repo: string; commit: string | null; ships: boolean; rows: Record<string, number> }>; text_sha256_16: string[];
  };
  const sources = readFileSync(resolve(DATA, 'SOURCES.md'), 'utf8');

  it('names every source with its repository, commit and licence, and counts add up', () => {
    let total = 0;
    for (const s of manifest.sources) {
      expect(sources).toContain(`| ${s.id} | ${s.repo} |`);
      if (s.repo !== 'this repository') expect(s.commit).toMatch(/^[0-9a-f]{40}$/);
      total += Object.values(s.rows).reduce((a, b) => a + b, 0);
    }
    expect(total).toBe(manifest.rows);
    expect(new Set(manifest.text_sha256_16).size).toBe(manifest.rows);
  });

  it('keeps evaluation-only sources marked so', () => {
    for (const id of ['wizardlm-testset', 'financebench', 'cybermetric', 'securityeval', 'nl2bash']) {
      const s = manifest.sources.find((x) => x.id === id);
      if (s) expect(s.ships).toBe(false);
    }
  });

  it('keeps the real-request probe out of training', () => {
    const probe = manifest.sources.find((x) => x.id === 'auto-j') as { ships: boolean; probe?: boolean } | undefined;
    expect(probe).toMatchObject({ ships: false, probe: true });
  });
});

describe('training', () => {
  const subset = rows.filter((_, i) => i % 40 === 0);
  const options = { ...DEFAULT_TRAIN_OPTIONS, epochs: 2, difficultyEpochs: 2 };

  it('gives bit-identical weights for the same rows and seed', () => {
    const a = trainWeights(subset, options);
    const b = trainWeights(subset, options);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    expect(a.some((w) => w !== 0)).toBe(true);
  });

  it('averages the weights of runs that differ only in their shuffle', () => {
    const single = { ...options, ensemble: 1 };
    const a = trainWeights(subset, { ...single, seed: 11 });
    const b = trainWeights(subset, { ...single, seed: 12 });
    const mean = trainWeights(subset, { ...options, seed: 11, ensemble: 2 });
    let differ = 0;
    let worst = 0;
    for (let i = 0; i < mean.length; i++) {
      worst = Math.max(worst, Math.abs(mean[i] - (a[i] / 2 + b[i] / 2)));
      if (a[i] !== b[i]) differ++;
    }
    expect(worst).toBeLessThan(1e-12);
    expect(differ).toBeGreaterThan(0);
  });

  it('trains difficulty on labelled rows only and orders it with the labels', () => {
    const labelled = subset.map((r) => ({ ...r, dl: { scale: 'test', value: r.difficulty } }));
    const W = trainWeights(labelled, options);
    const fit = trainDifficulty(W, labelled, { ...options, difficultyEpochs: 6 });
    expect(fit.cuts).toHaveLength(4);
    for (let k = 1; k < 4; k++) expect(fit.cuts[k]).toBeGreaterThan(fit.cuts[k - 1]);
    const model = deserializeWeights(serializeWeights(W, 1, {}, fit));
    expect(evaluateDifficulty(model, labelled).spearman).toBeGreaterThan(0.3);
  });

  it('encodes every labelled row and weighs kinds of work alike', () => {
    const encoded = encode(rows.slice(0, 200));
    expect(encoded).toHaveLength(200);
    for (const e of encoded) expect(e.x.n).toBeGreaterThan(3);
    expect(encode([{ ...rows[0], task_type: null as unknown as string }])).toHaveLength(0);
  });

  it('computes calibration error, Spearman and macro-F1', () => {
    expect(expectedCalibrationError([0.9, 0.9, 0.9, 0.9], [true, true, true, false])).toBeCloseTo(0.15, 6);
    expect(expectedCalibrationError([0.5, 0.5], [true, false])).toBeCloseTo(0, 6);
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 6);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 6);
    expect(spearman([1, 1, 2, 2], [1, 2, 3, 4])).toBeCloseTo(0.894427, 5);
    const s = score([
      { task_type: 'math', predicted: 'math', confidence: 0.9, source: 'a', predictedStakes: 'normal' },
      { task_type: 'math', predicted: 'translation', confidence: 0.6, source: 'a', predictedStakes: 'normal' },
      { task_type: 'translation', predicted: 'translation', confidence: 0.8, source: 'b', predictedStakes: 'normal' },
    ]);
    expect(s.accuracy).toBeCloseTo(0.6667, 4);
    // math: precision 1, recall 0.5 → 0.6667; translation: precision 0.5, recall 1 → 0.6667.
    expect(s.macro_f1).toBeCloseTo(0.6667, 4);
    expect(s.top_confusions).toEqual({ 'math -> translation': 1 });
  });
});
