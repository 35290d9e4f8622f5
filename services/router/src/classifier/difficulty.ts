/**
 * Dense features of the difficulty model: properties of a request that carry difficulty across
 * domains (length and structure, rare long words, notation density, multi-part asks,
 * constraints), plus the kind-of-work distribution so each domain gets its own offset and
 * slope for length and notation. Read from the same capped text as the word features, so the
 * cost is bounded whatever the input size.
 */
import { FeatureInput, TEXT_HEAD_CHARS, TEXT_TAIL_CHARS, capText } from './features';
import { TASK_TYPES } from '@svc/catalog';

export const DIFFICULTY_FEATURES = [
  'bias', 'log_chars', 'log_words', 'log_sentences', 'log_lines', 'mean_word_len', 'long_word_share', 'type_token',
  'digit_share', 'math_symbol_share', 'log_latex_cmds', 'log_dollars', 'code_char_share', 'code_fence', 'log_questions',
  'log_enumerations', 'log_constraints', 'log_multi_part', 'log_reasoning_words', 'non_ascii_share', 'log_numbers',
  'has_system', 'after_tool', 'log_conditions', 'p_math', 'p_code', 'p_sql', 'p_agent', 'p_chat', 'p_writing', 'p_security',
  'math_x_chars', 'code_x_chars', 'math_x_latex', 'sql_x_chars', 'math_x_reasoning',
] as const;
export const N_DIFFICULTY_FEATURES = DIFFICULTY_FEATURES.length;

const CONSTRAINT = /\b(must|should|without|at least|at most|exactly|only|ensure|no more than|constraint|constraints|require[sd]?|do not|don't|cannot|never|within|limit|guarantee|strictly)\b/g;
const MULTI_PART = /\b(and then|also|additionally|then|finally|after that|first|second|third|next|moreover|as well as|followed by|step)\b/g;
const REASONING = /\b(prove|proof|show that|derive|optimal|optimi[sz]e|minimum|maximum|minimi[sz]e|maximi[sz]e|probability|expected|complexity|efficient|distributed|concurren\w*|asymptotic|theorem|lemma|integral|derivative|invariant|recursive|dynamic programming|trade-?offs?|edge cases?|scal\w+|nested|correlated|subquery|window function)\b/g;
const CONDITION = /\b(if|unless|when|where|such that|given that|provided|whenever|each|every|for all|per)\b/g;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const seen = new Uint32Array(128);

function count(re: RegExp, s: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(s) !== null) n++;
  return n;
}

function sumWhere(p: ArrayLike<number>, test: (tag: string) => boolean): number {
  let s = 0;
  for (let k = 0; k < TASK_TYPES.length; k++) if (test(TASK_TYPES[k])) s += p[k];
  return s;
}

const WRITING = new Set(['content_writing', 'roleplay_fiction', 'research_report', 'summarization', 'translation']);
const CHAT = new Set(['conversational_reply', 'other', 'customer_support', 'classification_tagging']);

/**
 * Writes the dense difficulty features of `input` into `out` (length N_DIFFICULTY_FEATURES).
 * `pTask` is the kind-of-work distribution in TASK_TYPES order.
 */
export function difficultyFeatures(input: FeatureInput, pTask: ArrayLike<number>, out: Float64Array): Float64Array {
  const full = input.text;
  const s = capText(full, TEXT_HEAD_CHARS, TEXT_TAIL_CHARS);
  const n = Math.max(1, s.length);
  let digits = 0;
  let mathSym = 0;
  let codeChars = 0;
  let nonAscii = 0;
  let lines = 1;
  let sentences = 0;
  let questions = 0;
  let dollars = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c === 0x2b || c === 0x2d || c === 0x2a || c === 0x2f || c === 0x3d || c === 0x3c || c === 0x3e || c === 0x5e || c === 0x5f) mathSym++;
    else if (c === 0x7b || c === 0x7d || c === 0x28 || c === 0x29 || c === 0x3b || c === 0x5b || c === 0x5d) codeChars++;
    else if (c === 0x0a) lines++;
    else if (c === 0x2e || c === 0x21) sentences++;
    else if (c === 0x3f) {
      questions++;
      sentences++;
    } else if (c === 0x24) dollars++;
    else if (c > 0x7f) nonAscii++;
  }
  // Words: split on anything that is not a letter or digit; at most the capped text's words.
  let words = 0;
  let wordChars = 0;
  let longWords = 0;
  // Distinct words counted by hash in a 4096-bit table (collisions are rare at these sizes),
  // so no string is cut per word.
  seen.fill(0);
  let distinct = 0;
  let numbers = 0;
  let start = -1;
  let h = FNV_OFFSET;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 0x20;
    const w = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c > 0x7f;
    if (w) {
      if (start < 0) {
        start = i;
        h = FNV_OFFSET;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
    } else if (start >= 0) {
      const len = i - start;
      words++;
      wordChars += len;
      if (len >= 9) longWords++;
      const first = s.charCodeAt(start);
      if (first >= 0x30 && first <= 0x39) numbers++;
      const bit = (h ^ (h >>> 12)) & 4095;
      if ((seen[bit >>> 5] & (1 << (bit & 31))) === 0) {
        seen[bit >>> 5] |= 1 << (bit & 31);
        distinct++;
      }
      start = -1;
    }
  }
  let latex = 0;
  for (let i = 0; i + 1 < s.length; i++) if (s.charCodeAt(i) === 0x5c && s.charCodeAt(i + 1) >= 0x61 && s.charCodeAt(i + 1) <= 0x7a) latex++;
  let enumerations = 0;
  for (let i = 0; i < s.length; i++) {
    if (i === 0 || s.charCodeAt(i - 1) === 0x0a) {
      let j = i;
      while (j < s.length && s.charCodeAt(j) === 0x20) j++;
      const c = s.charCodeAt(j);
      if (c === 0x2d || c === 0x2a || ((c >= 0x30 && c <= 0x39) && (s.charCodeAt(j + 1) === 0x2e || s.charCodeAt(j + 1) === 0x29)) || (c === 0x28 && s.charCodeAt(j + 2) === 0x29)) enumerations++;
    }
  }
  const logChars = Math.log1p(full.length) / 8;
  const logLatex = Math.log1p(latex) / 3;
  const logReasoning = Math.log1p(count(REASONING, s)) / 2;
  const pMath = sumWhere(pTask, (t) => t === 'math');
  const pSql = sumWhere(pTask, (t) => t === 'code:sql_database');
  const pCode = sumWhere(pTask, (t) => t.startsWith('code:') && t !== 'code:sql_database');
  const pAgent = sumWhere(pTask, (t) => t.startsWith('agent:'));
  const pChat = sumWhere(pTask, (t) => CHAT.has(t));
  const pWriting = sumWhere(pTask, (t) => WRITING.has(t));
  const pSecurity = sumWhere(pTask, (t) => t === 'security_audit' || t === 'code:review_security');

  let k = 0;
  out[k++] = 1;
  out[k++] = logChars;
  out[k++] = Math.log1p(words) / 6;
  out[k++] = Math.log1p(sentences) / 3;
  out[k++] = Math.log1p(lines) / 3;
  out[k++] = words > 0 ? wordChars / words / 10 : 0;
  out[k++] = words > 0 ? longWords / words : 0;
  out[k++] = words > 0 ? distinct / words : 0;
  out[k++] = (digits / n) * 5;
  out[k++] = (mathSym / n) * 10;
  out[k++] = logLatex;
  out[k++] = Math.log1p(dollars) / 3;
  out[k++] = (codeChars / n) * 10;
  out[k++] = s.includes('```') ? 1 : 0;
  out[k++] = Math.log1p(questions) / 2;
  out[k++] = Math.log1p(enumerations) / 2;
  out[k++] = Math.log1p(count(CONSTRAINT, s)) / 2;
  out[k++] = Math.log1p(count(MULTI_PART, s)) / 2;
  out[k++] = logReasoning;
  out[k++] = nonAscii / n;
  out[k++] = Math.log1p(numbers) / 3;
  out[k++] = input.system ? 1 : 0;
  out[k++] = input.afterTool ? 1 : 0;
  out[k++] = Math.log1p(count(CONDITION, s)) / 2;
  out[k++] = pMath;
  out[k++] = pCode;
  out[k++] = pSql;
  out[k++] = pAgent;
  out[k++] = pChat;
  out[k++] = pWriting;
  out[k++] = pSecurity;
  out[k++] = pMath * logChars;
  out[k++] = pCode * logChars;
  out[k++] = pMath * logLatex;
  out[k++] = pSql * logChars;
  out[k++] = pMath * logReasoning;
  return out;
}
