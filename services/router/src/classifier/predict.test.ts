import { loadClassifier } from './index';
import { PASTE_MIN_CHARS, QUESTION, holdsCode, pastedAsks } from './predict';

const classifier = loadClassifier();
const user = (content: string) => ({ messages: [{ role: 'user', content }] });

/** A pasted document: a policy full of amounts, the kind of text the model alone reads as math. */
const POLICY = [
  'TRAVEL AND EXPENSE POLICY (rev. 9)',
  '1. Scope. This policy applies to every employee and contractor travelling for the company.',
  '2. Booking. Book flights through the portal at least 21 days ahead; economy is the default, premium economy above 7 hours.',
  '3. Hotels. The nightly cap is 170 EUR, 230 EUR in Oslo, Geneva and Tokyo; breakfast counts towards the cap.',
  '4. Meals. The daily allowance is 48 EUR; alcohol is never refunded.',
  '5. Claims. File form TE-4 within 30 days with every receipt over 15 EUR attached.',
].join('\n');

const CODE = [
  'def merge_intervals(intervals):',
  '    intervals.sort(key=lambda pair: pair[0])',
  '    merged = [intervals[0]]',
  '    for start, end in intervals[1:]:',
  '        if start <= merged[-1][1]:',
  '            merged[-1][1] = max(merged[-1][1], end)',
  '        else:',
  '            merged.append([start, end])',
  '    return merged',
  '',
  'def total_covered(intervals):',
  '    return sum(end - start for start, end in merge_intervals(intervals))',
].join('\n');

describe('pastedAsks', () => {
  it('finds the short first or last paragraph around a longer body', () => {
    expect(pastedAsks(`Translate the following into German.\n\n${POLICY}`)).toEqual(['Translate the following into German.']);
    expect(pastedAsks(`${POLICY}\n\nSummarize the above in three bullet points.\n`)).toEqual(['Summarize the above in three bullet points.']);
    // A first line ending in a colon is an ask even without a blank line after it.
    expect(pastedAsks(`Give me a short summary of this for my manager:\n${POLICY}`)).toEqual(['Give me a short summary of this for my manager:']);
  });

  it('finds the request written on the same line as the code fence after it', () => {
    const code = `public static String doAES(String param, String aesKey) {\n  byte[] key = aesKey.getBytes();\n  return encrypt(param, key);\n}\n`.repeat(4);
    expect(pastedAsks(`convert this java function into golang: \`\`\`${code}\`\`\``)).toEqual(['convert this java function into golang:']);
    // A blank line before the fence is found as before; one after the fence is not the ask's end.
    expect(pastedAsks(`Write unit tests for this.\n\n\`\`\`\n${code}\`\`\``)).toEqual(['Write unit tests for this.']);
    expect(pastedAsks(`Port this: \`\`\`\n${code.replace(/\n/g, '\n\n')}\`\`\``)).toEqual(['Port this:']);
  });

  it('finds nothing in a short message, one without paragraphs, or one whose paragraphs are all long', () => {
    expect(pastedAsks('Summarize this.\n\nThe meeting moved to Tuesday.')).toEqual([]);
    expect(pastedAsks('x'.repeat(PASTE_MIN_CHARS - 1))).toEqual([]);
    expect(pastedAsks(POLICY.replace(/\n/g, ' '))).toEqual([]);
    const long = 'word '.repeat(100).trim();
    expect(pastedAsks(`${long}\n\n${long}\n\n${long}`)).toEqual([]);
  });

  it('reads only the head and tail of a huge paste', () => {
    const middle = 'Revenue rose 4% while costs fell 2%.\n\n'.repeat(30_000);
    expect(pastedAsks(`Translate the following into French.\n\n${middle}Thank you.`)).toEqual(['Translate the following into French.', 'Thank you.']);
    const other = 'Totally different text in the middle, 12 34 56.\n\n'.repeat(30_000);
    expect(pastedAsks(`Translate the following into French.\n\n${other}Thank you.`)).toEqual(pastedAsks(`Translate the following into French.\n\n${middle}Thank you.`));
  });
});

describe('holdsCode', () => {
  it('finds code by a fence or by lines that read as code', () => {
    expect(holdsCode(CODE)).toBe(true);
    expect(holdsCode(`Why does this fail?\n\n\`\`\`\nnpm ERR! code ERESOLVE\n\`\`\``)).toBe(true);
    expect(holdsCode('SELECT id, name\nFROM users\nWHERE active = 1;\nUPDATE users SET seen = now();')).toBe(true);
  });

  it('finds none in prose, numbered rules or a table of amounts', () => {
    expect(holdsCode(POLICY)).toBe(false);
    expect(holdsCode('If you arrive late, sign in at reception.\nFor visitors, badges are issued at the desk.\nReturn the badge when you leave.')).toBe(false);
    expect(holdsCode('Item | Price\nTea | 2.50\nCake | 4.00\nTotal | 6.50')).toBe(false);
  });
});

describe('the ask around a pasted document names the kind of work', () => {
  it('reads the pasted policy alone as something else than the asks below', () => {
    expect(classifier.classify(user(POLICY)).taskType).not.toBe('translation');
  });

  it.each([
    ['Translate the following into German, keeping the numbering.', 'translation', 'above'],
    ['Summarize the above in three bullet points.', 'summarization', 'below'],
    ['Rewrite the above as a short blog post for our staff newsletter.', 'content_writing', 'below'],
  ])('%s → %s', (ask, kind, where) => {
    const c = classifier.classify(user(where === 'above' ? `${ask}\n\n${POLICY}` : `${POLICY}\n\n${ask}`));
    expect(c.taskType).toBe(kind);
    expect(c.reason).toMatch(/request around the pasted text/);
  });

  it('quotes the words of the ask that won, read once with the rest, whichever side it is on', () => {
    const quotes = (reason: string) => [...reason.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    const translate = 'Translate the following into German, keeping the numbering.';
    const alone = classifier.classify(user(translate));
    expect(quotes(alone.reason).length).toBeGreaterThan(0);
    // The other candidate (a closing line under the paste) is read too; its words are not quoted.
    for (const text of [`${translate}\n\n${POLICY}\n\nThanks a lot, see you tomorrow.`, `Thanks a lot.\n\n${POLICY}\n\n${translate}`]) {
      const c = classifier.classify(user(text));
      expect(c.taskType).toBe('translation');
      expect(quotes(c.reason)).toEqual(quotes(alone.reason));
    }
  });

  it('keeps difficulty and stakes of the whole message, not of the ask alone', () => {
    const asked = classifier.classify(user(`Translate the following into German.\n\n${POLICY}`), { probabilities: true });
    const askAlone = classifier.classify(user('Translate the following into German.'), { probabilities: true });
    // Difficulty reads the whole message (the ask with its ten numbered rules), not the one-line ask.
    expect(asked.difficultyScore!).toBeGreaterThan(askAlone.difficultyScore! + 0.5);
    expect(asked.difficulty).toBeGreaterThan(askAlone.difficulty);
    expect(asked.stakes).toBe(classifier.classify(user(POLICY)).stakes);
  });

  it('leaves pasted code to the whole message unless the ask works on it as text', () => {
    const question = classifier.classify(user(`What does this do, and is it correct?\n\n${CODE}`));
    expect(question.taskType).toMatch(/^code:/);
    const translated = classifier.classify(user(`Translate the comments and names of this code into Spanish.\n\n${CODE}`));
    expect(translated.taskType).toBe('translation');
  });

  // The mapping of a confident question to extraction; how often asks are read right is the paste
  // probe's measure (data/eval.json), not this test's.
  it('names a question about the paste extraction, with the probability of the question', () => {
    const c = classifier.classify(user(`${POLICY}\n\nWhat is the nightly hotel cap in Oslo?`), { probabilities: true });
    expect(c.taskType).toBe('data:extraction');
    expect(c.probabilities?.['data:extraction']).toBeCloseTo(c.confidence, 3);
    expect(c.probabilities?.qa_knowledge).toBe(0);
  });

  /** Short questions about a document's own terms: alone, the model reads them as many kinds. */
  const QUESTIONS = ['Is alcohol ever refunded?', 'Which form do I file my claim with?', 'What is the nightly hotel cap in Oslo?', 'How many days ahead must flights be booked?'];
  /** Read alone as something other than a knowledge question or extraction, or unsure. */
  const readAloneAsElse = (question: string) => {
    const alone = classifier.classify(user(question));
    return alone.confidence < 0.5 || !['qa_knowledge', 'data:extraction'].includes(alone.taskType);
  };

  it('names a factual question under a paste extraction even when the question alone reads as something else', () => {
    // Which of them the model misreads alone moves from one training to the next; under a paste
    // every one of them is a question about it.
    expect(QUESTIONS.some(readAloneAsElse)).toBe(true);
    for (const question of QUESTIONS) {
      const c = classifier.classify(user(`${POLICY}\n\n${question}`), { probabilities: true });
      expect(c.taskType).toBe('data:extraction');
      expect(c.probabilities?.['data:extraction']).toBeCloseTo(c.confidence, 3);
      expect(c.probabilities?.qa_knowledge).toBe(0);
    }
  });

  it('finds the factual question below a document whose title line is its own first paragraph', () => {
    // The title is a candidate ask too; being no question, it must not hide the question below.
    const titled = POLICY.replace('TRAVEL AND EXPENSE POLICY (rev. 9)\n', 'TRAVEL AND EXPENSE POLICY (rev. 9)\n\n');
    for (const question of QUESTIONS) {
      expect(pastedAsks(`${titled}\n\n${question}`)).toEqual(['TRAVEL AND EXPENSE POLICY (rev. 9)', question]);
      expect(classifier.classify(user(`${titled}\n\n${question}`)).taskType).toBe('data:extraction');
    }
  });

  it('keeps a question that does something to the text as that work', () => {
    const c = classifier.classify(user(`${POLICY}\n\nCould you translate all of this into German?`));
    expect(c.taskType).toBe('translation');
  });

  it('reads a question that first names the pasted text as a factual question', () => {
    expect(QUESTION.test('Based on the handbook above, which extension handles escalations from Denver?')).toBe(true);
    expect(QUESTION.test('According to this policy, is alcohol ever refunded?')).toBe(true);
    expect(QUESTION.test('Using the table below, how many rows have a null id?')).toBe(true);
    expect(QUESTION.test('Based on the handbook above, write a summary.')).toBe(false);
    expect(QUESTION.test('Thoughts?')).toBe(false);
  });

  it('leaves the whole message to decide when the ask is small talk or unsure', () => {
    // Alone, these read as conversation or as nothing in particular; next to a paste they ask for
    // no work of their own.
    const whole = classifier.classify(user(POLICY));
    for (const ask of ['Any comments?', 'See below.', 'Thoughts?', 'Over to you.']) {
      const c = classifier.classify(user(`${POLICY}\n\n${ask}`));
      expect(c.reason).not.toMatch(/request around the pasted text/);
      expect(c.taskType).not.toBe('conversational_reply');
    }
    expect(whole.taskType).not.toBe('conversational_reply');
  });

  it('gives the probabilities of the ask when they are asked for', () => {
    const c = classifier.classify(user(`Translate the following into German.\n\n${POLICY}`), { probabilities: true });
    expect(c.probabilities?.translation).toBeCloseTo(c.confidence, 3);
    expect(c.difficultyScore).toBeDefined();
  });
});
