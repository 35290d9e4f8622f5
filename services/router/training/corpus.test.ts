import { resolve } from 'node:path';
import { CorpusRow, readCorpus, rowsOf, splitCorpus, templateHoldout } from './corpus';
import { TASK_TYPES } from '../src/classifier/model';
import { DEFAULT_TRAIN_OPTIONS, encode, expectedCalibrationError, trainWeights } from './train';

const rows = readCorpus(resolve(__dirname, '..', 'data', 'corpus.jsonl'));

describe('corpus', () => {
  it('has many examples of every kind of work and only known labels', () => {
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.task_type, (counts.get(r.task_type) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...TASK_TYPES].sort());
    for (const tag of TASK_TYPES) expect(counts.get(tag)).toBeGreaterThanOrEqual(60);
    expect(rows.length).toBeGreaterThanOrEqual(2000);
    for (const r of rows) {
      expect([1, 2, 3, 4, 5]).toContain(r.difficulty);
      expect(['normal', 'high']).toContain(r.stakes);
      expect(['chat', 'agent']).toContain(r.turn);
      expect(r.text.length).toBeGreaterThan(0);
    }
  });

  it('mixes languages, turns, system prompts, tool results and difficulty levels', () => {
    const langs = new Set(rows.map((r) => r.lang));
    for (const lang of ['en', 'es', 'fr', 'de', 'pt', 'zh', 'ja']) expect(langs).toContain(lang);
    expect(rows.filter((r) => r.lang === 'en').length / rows.length).toBeGreaterThan(0.6);
    expect(rows.some((r) => r.turn === 'agent' && r.tool_result !== undefined)).toBe(true);
    expect(rows.some((r) => r.system !== undefined)).toBe(true);
    for (const d of [1, 2, 3, 4, 5]) expect(rows.filter((r) => r.difficulty === d).length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.stakes === 'high').length).toBeGreaterThan(200);
  });

  it('has no repeated texts, so the hash split cannot put one text on both sides', () => {
    expect(new Set(rows.map((r) => r.text)).size).toBe(rows.length);
  });
});

describe('splitCorpus', () => {
  it('holds out 20% and calibrates on 10% of every kind of work', () => {
    const split = splitCorpus(rows);
    for (const tag of TASK_TYPES) {
      const ofTag = rows.filter((r) => r.task_type === tag);
      const held = ofTag.filter((r) => split.get(r) === 'heldout').length;
      const cal = ofTag.filter((r) => split.get(r) === 'calibration').length;
      expect(held).toBe(Math.ceil(ofTag.length * 0.2));
      expect(cal).toBe(Math.ceil(ofTag.length * 0.1));
    }
  });

  it('does not depend on the order of the corpus lines', () => {
    const key = (r: CorpusRow) => `${r.task_type}\u0000${r.text}`;
    const a = rowsOf(rows, splitCorpus(rows), 'heldout').map(key).sort();
    const reversed = [...rows].reverse();
    const b = rowsOf(reversed, splitCorpus(reversed), 'heldout').map(key).sort();
    expect(b).toEqual(a);
  });

  it('template hold-out keeps templates on one side only', () => {
    const { train, test } = templateHoldout(rows);
    const trainTemplates = new Set(train.map((r) => r.tpl));
    expect(test.length).toBeGreaterThan(0);
    expect(test.some((r) => trainTemplates.has(r.tpl))).toBe(false);
  });
});

describe('training', () => {
  it('gives bit-identical weights for the same rows and seed', () => {
    const subset = rows.filter((_, i) => i % 40 === 0);
    const options = { ...DEFAULT_TRAIN_OPTIONS, epochs: 2 };
    const a = trainWeights(subset, options);
    const b = trainWeights(subset, options);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    expect(a.some((w) => w !== 0)).toBe(true);
  });

  it('encodes every row', () => {
    const encoded = encode(rows.slice(0, 20));
    expect(encoded).toHaveLength(20);
    for (const e of encoded) expect(e.x.n).toBeGreaterThan(3);
  });

  it('computes calibration error as the weighted gap between confidence and accuracy', () => {
    expect(expectedCalibrationError([0.9, 0.9, 0.9, 0.9], [true, true, true, false])).toBeCloseTo(0.15, 6);
    expect(expectedCalibrationError([0.5, 0.5], [true, false])).toBeCloseTo(0, 6);
  });
});
