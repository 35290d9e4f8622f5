import type { DecisionQuestion } from '@svc/vendors';
import { tokensForCharacters } from '../tokens';

/**
 * What split-and-route asks its steps (the wire text is ours; vendor-sim's README documents how
 * the simulator answers it). Each instruction starts with a fixed first line, `svc-distill <step> v1`.
 */

export const QUESTIONS_INSTRUCTIONS = [
  'svc-distill questions v1',
  'You read a question about a source document and the beginning of that document.',
  'Answer whether answering the question needs the whole document (a summary, a translation, a rewrite, counting or listing every occurrence, an overall judgement) rather than a few passages.',
].join('\n');

export const QUESTIONS_QUESTIONS: DecisionQuestion[] = [{ name: 'needs_whole_source', type: 'boolean', description: 'Answering the question needs the whole document, not a few passages of it.' }];

export const EXTRACT_INSTRUCTIONS = [
  'svc-distill extract v1',
  'Copy, verbatim and in their original order, every line of the source between <<< and >>> that is needed to answer the question, and nothing else.',
  'Copy each line exactly as it is, one per output line; never reword, shorten, merge or number lines, and add no commentary.',
  'If no line is relevant, answer exactly NONE. If the question needs the whole source (a summary, a translation, a rewrite), answer exactly DECLINE.',
].join('\n');

export const CHECK_INSTRUCTIONS = [
  'svc-distill check v1',
  'You read a question and an excerpt copied from a longer source document.',
  'Answer whether the excerpt holds everything needed to answer the question, and whether the answer needs parts of the source that are not in the excerpt.',
].join('\n');

export const CHECK_QUESTIONS: DecisionQuestion[] = [
  { name: 'sufficient', type: 'boolean', description: 'The excerpt holds everything needed to answer the question.' },
  { name: 'needs_more_source', type: 'boolean', description: 'The answer needs parts of the source that are not in the excerpt.' },
];

export const questionsPrompt = (question: string, sourceHead: string) => `Question:\n${question}\n\nBeginning of the source:\n<<<\n${sourceHead}\n>>>`;
export const extractPrompt = (question: string, source: string) => `Question:\n${question}\n\nSource:\n<<<\n${source}\n>>>`;
export const checkPrompt = (question: string, excerpt: string) => `Question:\n${question}\n\nExcerpt:\n<<<\n${excerpt}\n>>>`;

/** What the extractor answered, read against the source. */
export type ExtractReading =
  | { kind: 'declined' }
  | { kind: 'empty' }
  | {
      kind: 'lines';
      /** The source's line numbers (0-based) found verbatim, ascending, without repeats. */
      kept: number[];
      /** Non-empty lines of the answer. */
      answered: number;
      /** Share of the answer's lines found verbatim in the source. */
      verbatimRate: number;
    };

const normal = (line: string) => line.replace(/\s+$/, '');

/** Reads the extract: DECLINE, NONE or nothing, or lines matched verbatim (trailing spaces aside) against the source's lines. */
export function readExtract(source: string, answer: string | null): ExtractReading {
  const text = (answer ?? '').trim();
  if (text === 'DECLINE') return { kind: 'declined' };
  if (text === '' || text === 'NONE') return { kind: 'empty' };
  const index = new Map<string, number[]>();
  source.split('\n').forEach((line, number) => {
    const key = normal(line);
    if (!key.trim()) return;
    const list = index.get(key);
    if (list) list.push(number);
    else index.set(key, [number]);
  });
  const lines = text.split('\n').map(normal).filter((line) => line.trim() !== '');
  const kept = new Set<number>();
  let verbatim = 0;
  for (const line of lines) {
    const found = index.get(line);
    if (!found) continue;
    verbatim += 1;
    // A repeated line keeps its first occurrence not yet kept.
    const next = found.find((number) => !kept.has(number)) ?? found[0];
    kept.add(next);
  }
  return { kind: 'lines', kept: [...kept].sort((a, b) => a - b), answered: lines.length, verbatimRate: lines.length === 0 ? 0 : Math.round((verbatim / lines.length) * 10_000) / 10_000 };
}

/** The excerpt as the answer reads it: the kept lines in order, `[...]` where lines were left out. */
export function excerptText(source: string, kept: readonly number[]): string {
  const lines = source.split('\n');
  const out: string[] = [];
  let previous = -1;
  for (const number of kept) {
    if (number !== previous + 1) out.push('[...]');
    out.push(lines[number] ?? '');
    previous = number;
  }
  if (previous < lines.length - 1) out.push('[...]');
  return out.join('\n');
}

export const EXCERPT_NOTE = 'The source below is an excerpt: the lines of the original needed for the question, copied verbatim; [...] marks left-out lines.';

/** svc.split.excerpt */
export function excerptObject(source: string, kept: readonly number[], verbatimRate: number): { lines_kept: number; lines_total: number; tokens: number; verbatim_rate: number } {
  return { lines_kept: kept.length, lines_total: source.split('\n').length, tokens: tokensForCharacters(excerptText(source, kept).length), verbatim_rate: verbatimRate };
}
