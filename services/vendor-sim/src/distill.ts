import type { OutcomeFault } from './faults';
import type { SimRequest } from './request';

/**
 * The gateway's split-and-route steps (`distill`), as the simulator answers them (README:
 * "Split-and-route"). The gateway's step prompts start with `svc-distill <step> v1`; the question
 * sits between `Question:` and the `<<<` … `>>>` block (the source, its beginning, or the excerpt).
 *
 * Answers are deterministic and content-driven, like a small model would do it:
 * - extract: the source lines sharing the most content words with the question (a line qualifies
 *   with at least half the best line's matches), copied verbatim in source order;
 * - questions (decision model): P(needs_whole_source) 0.92 when the question asks for whole-document
 *   work (summarize, translate, rewrite, every, all, count, overall, ...), else 0.08;
 * - check (decision model): P(sufficient) 0.55 + 0.4 × the share of the question's content words
 *   found in the excerpt; P(needs_more_source) 0.1.
 *
 * Triggers in the question force each path: `[split:decline]`, `[split:empty]`, `[split:too-big]`,
 * `[split:paraphrase]`, `[split:extract-fail]` (extract); `[split:jev-no]`, `[split:jev-fail]`
 * (questions); `[split:reject]`, `[split:need-more]`, `[split:check-fail]` (check).
 */

export type DistillStep = 'questions' | 'extract' | 'check';

const MARKER = /^svc-distill (questions|extract|check) v1/;

export function distillStep(instructions: string | undefined): DistillStep | undefined {
  const match = MARKER.exec(instructions ?? '');
  return match ? (match[1] as DistillStep) : undefined;
}

/** The question and the block of a step prompt. */
export function readPrompt(text: string): { question: string; block: string } {
  const start = text.indexOf('\n<<<\n');
  const end = text.lastIndexOf('\n>>>');
  const head = start >= 0 ? text.slice(0, start) : text;
  const question = head.replace(/^Question:\n/, '').replace(/\n\n[^\n]*:$/, '');
  const block = start >= 0 ? text.slice(start + 5, end > start ? end : undefined) : '';
  return { question, block };
}

const TRIGGER = /\[split:([a-z-]+)\]/g;
export function triggers(question: string): Set<string> {
  return new Set([...question.matchAll(TRIGGER)].map((match) => match[1] as string));
}

const STOP = new Set(
  'the and for are but not you all any can had her was one our out day get has him his how man new now old see two way who boy did its let put say she too use what when where which while with would there their them then than that this these those from have into more most much only other over some such very will your about after again also been before being between both could does doing down during each few further here just like made make many might must once same should since still through under until upon well were whom whose why yet give tell find show list explain describe according document text source answer question please does what which'.split(
    ' ',
  ),
);

export function contentWords(text: string): string[] {
  const words = text.toLowerCase().replace(TRIGGER, ' ').match(/[a-z0-9][a-z0-9'-]*[a-z0-9]|[0-9]/g) ?? [];
  return [...new Set(words.filter((word) => (word.length >= 3 || /^\d+$/.test(word)) && !STOP.has(word)))];
}

const WHOLE = /\b(summar\w*|translat\w*|rewrite|rephrase|paraphrase|proofread|every|each|all|overall|entire|whole|outline|tl;?dr|count|how many|list (all|every))\b/i;

/** The extractor's answer text. */
export function extractAnswer(userText: string): string {
  const { question, block } = readPrompt(userText);
  const flags = triggers(question);
  if (flags.has('decline')) return 'DECLINE';
  if (flags.has('empty')) return 'NONE';
  const lines = block.split('\n');
  if (flags.has('too-big')) return lines.filter((line) => line.trim()).join('\n');
  const words = contentWords(question);
  const scores = lines.map((line) => {
    const lower = ` ${line.toLowerCase()} `;
    return words.reduce((sum, word) => sum + (new RegExp(`[^a-z0-9]${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^a-z0-9]`).test(lower) ? 1 : 0), 0);
  });
  const best = Math.max(0, ...scores);
  if (best === 0) return 'NONE';
  const floor = Math.max(1, Math.ceil(best / 2));
  const kept = lines.filter((line, index) => (scores[index] as number) >= floor && line.trim());
  if (flags.has('paraphrase')) return kept.map((line) => `In short: ${line.toLowerCase().replace(/[.;:,]/g, '')}`).join('\n');
  return kept.join('\n');
}

/** The distribution the decision model gives a distill step's question, or undefined for a question it does not know. */
export function distillProbability(step: DistillStep, questionName: string, userText: string): number | undefined {
  const { question, block } = readPrompt(userText);
  const flags = triggers(question);
  if (step === 'questions' && questionName === 'needs_whole_source') return flags.has('jev-no') || WHOLE.test(question.replace(TRIGGER, ' ')) ? 0.92 : 0.08;
  if (step === 'check' && questionName === 'sufficient') {
    if (flags.has('reject')) return 0.2;
    const words = contentWords(question);
    const excerpt = ` ${block.toLowerCase()} `;
    const found = words.filter((word) => excerpt.includes(word)).length;
    return Math.round((0.55 + 0.4 * (words.length ? found / words.length : 0)) * 10_000) / 10_000;
  }
  if (step === 'check' && questionName === 'needs_more_source') return flags.has('need-more') ? 0.9 : 0.1;
  return undefined;
}

/** A failure a trigger asks of this step (`extract-fail`, `jev-fail`, `check-fail`: a 500). */
export function distillFault(step: DistillStep, userText: string): OutcomeFault | undefined {
  const flags = triggers(readPrompt(userText).question);
  const wanted = step === 'extract' ? 'extract-fail' : step === 'questions' ? 'jev-fail' : 'check-fail';
  return flags.has(wanted) ? { kind: 'status', status: 500 } : undefined;
}

/** The distill step of a chat request: a prompt block (its system text) that starts with the marker. */
export function chatDistillStep(request: Pick<SimRequest, 'blocks'>): DistillStep | undefined {
  for (const block of request.blocks) {
    const step = distillStep(block.text);
    if (step) return step;
  }
  return undefined;
}
