/**
 * The labelled corpus (data/corpus.jsonl) and its deterministic split. The split lives here,
 * next to the row type, so the training script and the accuracy test agree on exactly which
 * rows training never saw.
 */
import { readFileSync } from 'node:fs';
import { FeatureInput } from '../src/classifier/features';

export interface CorpusRow {
  /** The last user message. */
  text: string;
  system?: string;
  turn: 'chat' | 'agent';
  /** Tool output that follows the user message in an agent loop. */
  tool_result?: string;
  /** Messages in the conversation, when more than the single user message. */
  turns?: number;
  /** Kind of work; null for rows that only carry a difficulty label (evaluation). */
  task_type: string;
  /** 1-5, or 0 when the row has no difficulty label. */
  difficulty: 0 | 1 | 2 | 3 | 4 | 5;
  /** Absent on collections that do not label stakes. */
  stakes?: 'normal' | 'high';
  lang: string;
  /** Template the row came from; groups near-duplicates for the template-disjoint check. */
  tpl?: string;
  /** Collection the row came from (training/sources.mjs id, or svc-templates / svc-handwritten). */
  source?: string;
  /** Collection family: the unit of the cross-source split. */
  group?: string;
  /** False for collections whose licence keeps them out of the shipped weights (evaluation only). */
  ships?: boolean;
  /** The collection's own human difficulty label. */
  dl?: { scale: string; value: number };
}

export type Split = 'train' | 'calibration' | 'heldout';

/** Share of each kind of work kept out of training entirely. */
export const HELDOUT_SHARE = 0.2;
/** Share of each kind of work used only to fit the softmax temperature. */
export const CALIBRATION_SHARE = 0.1;

export function readCorpus(path: string): CorpusRow[] {
  const rows: CorpusRow[] = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const row = JSON.parse(line) as CorpusRow;
    if (typeof row.text !== 'string' || typeof row.task_type !== 'string') throw new Error(`corpus line ${i + 1}: missing text or task_type`);
    rows.push(row);
  }
  return rows;
}

export function rowInput(row: CorpusRow): FeatureInput {
  const afterTool = row.tool_result !== undefined;
  return {
    text: row.text,
    system: row.system,
    toolResult: row.tool_result,
    afterTool,
    turns: row.turns ?? (afterTool ? 3 : 1),
  };
}

/** FNV-1a of a string, unsigned. */
export function textHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function rankByHash<T>(items: T[], key: (t: T) => string): T[] {
  return items
    .map((item) => ({ item, k: key(item), h: textHash(key(item)) }))
    .sort((a, b) => a.h - b.h || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((e) => e.item);
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const g = groups.get(k);
    if (g) g.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * Split stratified by kind of work: within each tag, rows ordered by the hash of their text;
 * the first 20% are held out, the next 10% calibrate, the rest train. The same corpus always
 * splits the same way, whatever order its lines are in.
 */
export function splitCorpus(rows: CorpusRow[]): Map<CorpusRow, Split> {
  const split = new Map<CorpusRow, Split>();
  for (const group of groupBy(rows, (r) => r.task_type).values()) {
    const ranked = rankByHash(group, (r) => r.text);
    const nHeld = Math.ceil(ranked.length * HELDOUT_SHARE);
    const nCal = Math.ceil(ranked.length * CALIBRATION_SHARE);
    ranked.forEach((r, i) => split.set(r, i < nHeld ? 'heldout' : i < nHeld + nCal ? 'calibration' : 'train'));
  }
  return split;
}

export function rowsOf(rows: CorpusRow[], split: Map<CorpusRow, Split>, which: Split): CorpusRow[] {
  return rows.filter((r) => split.get(r) === which);
}

/**
 * A harder split for reporting only: whole templates are held out (a quarter of each tag's
 * templates, at least one), so evaluation rows share no template with training rows.
 */
export function templateHoldout(rows: CorpusRow[]): { train: CorpusRow[]; test: CorpusRow[] } {
  const heldTemplates = new Set<string>();
  for (const group of groupBy(rows, (r) => r.task_type).values()) {
    const templates = rankByHash([...new Set(group.map((r) => r.tpl ?? r.task_type))], (t) => t);
    const n = Math.max(1, Math.round(templates.length * 0.25));
    for (const t of templates.slice(0, n)) heldTemplates.add(t);
  }
  const train: CorpusRow[] = [];
  const test: CorpusRow[] = [];
  for (const r of rows) (heldTemplates.has(r.tpl ?? r.task_type) ? test : train).push(r);
  return { train, test };
}
