import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { DEFAULT_WEIGHTS_PATH, TASK_TYPES, loadClassifier, trainedClassifierId } from './index';
import { deserializeWeights, WeightsFile } from './model';

const DATA = resolve(__dirname, '..', '..', 'data');

/**
 * Floors a little below what the committed weights measured (data/eval.json), so a retrain that
 * loses real accuracy fails here. Cross-source: every test row is from a public collection the
 * model was trained without. Difficulty: Spearman against each collection's own human labels,
 * on rows difficulty training never saw.
 */
const FLOOR = {
  crossSourceAccuracy: 0.52,
  crossSourceMacroF1: 0.34,
  /**
   * 0.183 measured (0.155 with AdaGrad, 0.138 before the hand-written code requests). Plain SGD
   * (train.ts, Optimizer) leaves the fold models more confident on collections they never saw
   * while more accurate on them (55.6 → 56.5 %) and on real requests (54.6 → 62.1 %); the trade
   * was taken for the real requests.
   */
  crossSourceEce: 0.19,
  /** data/chat-probe.jsonl, classified here with the committed weights. */
  chatProbeAccuracy: 0.88,
  /**
   * data/paste-probe.jsonl, classified here: asks around a pasted document (predict.ts, pastedAsks).
   * 0.893 measured: a factual question under the paste is read as one about the paste
   * (extraction) whatever the model reads it as alone, unless it works on the text (translate,
   * summarize…); small talk beside a paste leaves the whole message to decide; a paste without
   * code is named by its ask.
   */
  pasteProbeAccuracy: 0.87,
  /**
   * GAIR-NLP/auto-j's Chatbot Arena requests, held out (data/eval.json real_probe): requests as
   * users sent them, with code and math detection (any code kind for a code request, math for math).
   * 0.621 measured (0.546 with AdaGrad); code detection 0.843 at precision 0.82 (0.896 at 0.61
   * with AdaGrad, which named many requests code that were not), math 0.715 at precision 0.81
   * (0.735 at 0.68).
   */
  realProbeAccuracy: 0.6,
  realProbeCodeRecall: 0.82,
  realProbeMathRecall: 0.7,
  difficultySpearman: { math_level: 0.48, spider: 0.55, bird: 0.6 } as Record<string, number>,
  /**
   * 0.664 measured (0.677 with AdaGrad). Until data/handwritten-chat.jsonl, every multiple-choice question in training
   * was math or a PurpleLlama security question, so CyberMetric's security multiple-choice read
   * as security_audit by its format alone (84 %); with knowledge questions in that format too, the
   * security words must carry it (64 % then).
   */
  evalOnlyAccuracy: 0.64,
};

interface EvalReport {
  training_set: { sha256: string; rows: number };
  cross_source: { n: number; accuracy: number; macro_f1: number; ece: number; per_tag: Record<string, { n: number; accuracy: number }>; top_confusions: Record<string, number> };
  difficulty: Record<string, { n: number; spearman: number }>;
  eval_only: { n: number; accuracy: number };
}

const report = JSON.parse(readFileSync(resolve(DATA, 'eval.json'), 'utf8')) as EvalReport;
const manifest = JSON.parse(readFileSync(resolve(DATA, 'training-set.manifest.json'), 'utf8')) as { sha256: string; rows: number; text_sha256_16: string[] };
const classifier = loadClassifier();
const user = (content: string) => ({ messages: [{ role: 'user', content }] });

describe('loadClassifier', () => {
  it('loads the committed weights, trained on the training set the manifest and eval.json describe', () => {
    expect(classifier.meta.corpus_sha256).toBe(manifest.sha256);
    expect(report.training_set.sha256).toBe(manifest.sha256);
    expect(report.training_set.rows).toBe(manifest.rows);
    expect(manifest.text_sha256_16).toHaveLength(manifest.rows);
    expect(DEFAULT_WEIGHTS_PATH).toBe(resolve(DATA, 'weights.json'));
  });

  it('is named by the weights file it was loaded from, so two trainings of one set differ', () => {
    const sha = createHash('sha256').update(readFileSync(DEFAULT_WEIGHTS_PATH)).digest('hex');
    expect(trainedClassifierId(classifier.meta)).toBe(`svc-router-classifier/1@${sha.slice(0, 8)}`);
    // A model built in memory (tests, evaluation) is named by its training set.
    expect(trainedClassifierId({ corpus_sha256: 'feedface00000000' })).toBe('svc-router-classifier/1@feedface');
    expect(trainedClassifierId(undefined)).toBe('svc-router-classifier/1');
  });

  it('refuses weights built for different features', () => {
    const file = JSON.parse(readFileSync(DEFAULT_WEIGHTS_PATH, 'utf8')) as WeightsFile;
    expect(() => deserializeWeights({ ...file, feature_version: 'something-else' })).toThrow(/retrain/);
    expect(() => deserializeWeights({ ...file, difficulty: { ...file.difficulty, features: ['bias'] } })).toThrow(/retrain/);
    expect(() => loadClassifier(resolve(DATA, 'does-not-exist.json'))).toThrow();
  });
});

describe('the evaluation kept in data/eval.json', () => {
  it('meets the cross-source floors (collections never seen in training)', () => {
    expect(report.cross_source.n).toBeGreaterThan(5000);
    expect(report.cross_source.accuracy).toBeGreaterThanOrEqual(FLOOR.crossSourceAccuracy);
    expect(report.cross_source.macro_f1).toBeGreaterThanOrEqual(FLOOR.crossSourceMacroF1);
    expect(report.cross_source.ece).toBeLessThanOrEqual(FLOOR.crossSourceEce);
    expect(Object.keys(report.cross_source.top_confusions).length).toBeGreaterThan(0);
  });

  it('meets the difficulty floors on held-out labelled sets of two domains', () => {
    for (const [scale, floor] of Object.entries(FLOOR.difficultySpearman)) {
      const d = report.difficulty[scale];
      expect(d.n).toBeGreaterThan(50);
      if (d.spearman < floor) throw new Error(`${scale}: Spearman ${d.spearman} below ${floor}`);
    }
  });

  /** A probe file's rows and the share the committed weights classify right, measured here. */
  const measureProbe = (file: string) => {
    const probe = readFileSync(resolve(DATA, file), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { text: string; task_type: string });
    const accuracy = probe.filter((r) => classifier.classify(user(r.text)).taskType === r.task_type).length / probe.length;
    return { probe, accuracy };
  };

  it('meets the floor on the chat probe (hand-written assistant requests, never trained on), measured here', () => {
    const { probe, accuracy } = measureProbe('chat-probe.jsonl');
    expect(probe.length).toBeGreaterThan(100);
    expect(accuracy).toBeGreaterThanOrEqual(FLOOR.chatProbeAccuracy);
    expect((report as unknown as { chat_probe: { accuracy: number } }).chat_probe.accuracy).toBeCloseTo(accuracy, 3);
  });

  it('meets the floor on the paste probe (asks around a pasted document, never trained on), measured here', () => {
    const { probe, accuracy } = measureProbe('paste-probe.jsonl');
    expect(probe.length).toBe(84);
    // Every document appears under six asks of six kinds: the ask decides the label, not the paste.
    expect(new Set(probe.map((r) => r.task_type)).size).toBe(6);
    expect(accuracy).toBeGreaterThanOrEqual(FLOOR.pasteProbeAccuracy);
    expect((report as unknown as { paste_probe: { accuracy: number } }).paste_probe.accuracy).toBeCloseTo(accuracy, 3);
  });

  it('meets the floor on the real-request probe, a public collection never trained on', () => {
    const probe = (report as unknown as { real_probe: { n: number; accuracy: number; detection: Record<'code' | 'math', { n: number; recall: number; precision: number }> } }).real_probe;
    expect(probe.n).toBeGreaterThan(2000);
    expect(probe.accuracy).toBeGreaterThanOrEqual(FLOOR.realProbeAccuracy);
    expect(probe.detection.code.n).toBeGreaterThan(200);
    expect(probe.detection.code.recall).toBeGreaterThanOrEqual(FLOOR.realProbeCodeRecall);
    expect(probe.detection.math.n).toBeGreaterThan(100);
    expect(probe.detection.math.recall).toBeGreaterThanOrEqual(FLOOR.realProbeMathRecall);
  });

  it('meets the floor on the evaluation-only collections', () => {
    expect(report.eval_only.n).toBeGreaterThan(500);
    expect(report.eval_only.accuracy).toBeGreaterThanOrEqual(FLOOR.evalOnlyAccuracy);
  });
});

describe('classify', () => {
  it('returns a well-formed classification', () => {
    const c = classifier.classify(user('Write a Rust function that parses an ISO 8601 duration.'), { probabilities: true });
    expect(TASK_TYPES).toContain(c.taskType);
    expect([1, 2, 3, 4, 5]).toContain(c.difficulty);
    expect(['normal', 'high']).toContain(c.stakes);
    expect(c.confidence).toBeGreaterThan(0);
    expect(c.confidence).toBeLessThanOrEqual(1);
    const probabilities = Object.values(c.probabilities ?? {});
    expect(probabilities).toHaveLength(TASK_TYPES.length);
    expect(probabilities.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 6);
    expect(c.probabilities?.[c.taskType]).toBeCloseTo(c.confidence, 3);
    expect(Number.isFinite(c.difficultyScore)).toBe(true);
  });

  it('is deterministic, across calls and across loads', () => {
    const input = {
      system: 'You are a helpful assistant.',
      messages: [{ role: 'user', content: 'Our Kubernetes pods are in CrashLoopBackOff after the deploy, what do we check first?' }],
    };
    const first = classifier.classify(input, { probabilities: true });
    expect(classifier.classify(input, { probabilities: true })).toEqual(first);
    expect(loadClassifier().classify(input, { probabilities: true })).toEqual(first);
  });

  it('writes one English sentence as the reason', () => {
    for (const text of ['hola, ¿qué tal?', 'Prove that there are infinitely many primes.', '帮我翻译这句话：谢谢你的帮助']) {
      const { reason } = classifier.classify(user(text));
      expect(reason).toMatch(/^Looks like [^\n]+\.$/);
      expect(reason).toMatch(/difficulty [1-5]/);
    }
  });

  // Hand-written requests, none of them in the training set.
  const cases: Array<[string, string | string[]]> = [
    ['My Django view raises "DoesNotExist: Order matching query does not exist" on the second page load. What is going on?', ['code:debugging', 'code:sql_database']],
    ['Write a Kotlin function that returns the n-th Fibonacci number iteratively.', 'code:general_impl'],
    ['Translate "please sign the attached form" into Italian.', 'translation'],
    ['good night, talk tomorrow!', 'conversational_reply'],
    ['Prove that the product of two odd integers is odd.', 'math'],
    ['Write a SQL query listing departments whose average salary is above the company average.', 'code:sql_database'],
    ['Is now a good moment to put half of my savings into Nvidia shares?', 'finance_trading'],
    ['Summarize this in three sentences: the city voted a budget to renovate schools, add bike lanes and expand the public library.', 'summarization'],
    ['Classify each of these reviews as positive or negative: "Love it", "Broke after a day", "Works as advertised".', 'classification_tagging'],
    ['How do I find all files larger than 100 MB under /var and delete them?', 'code:shell_execution'],
    ['I lost my debit card yesterday, how do I block it?', 'customer_support'],
  ];
  it.each(cases)('%s → %s', (text, expected) => {
    const c = classifier.classify(user(text));
    expect(Array.isArray(expected) ? expected : [expected]).toContain(c.taskType);
  });

  it('rates competition math harder than arithmetic, and a greeting easiest', () => {
    const hard = classifier.classify(user('Let $f$ be a polynomial of degree 4 with real coefficients such that $f(1)=f(2)=f(3)=0$ and $f(0)=12$. Find the minimum of $\\int_0^4 f(x)^2\\,dx$ and prove it is attained.'));
    const easy = classifier.classify(user('What is 7 plus 5?'));
    const chat = classifier.classify(user('hi!'));
    expect(hard.difficulty).toBeGreaterThan(easy.difficulty);
    expect(easy.difficulty).toBeGreaterThanOrEqual(chat.difficulty);
  });

  it('is confident on a plain agent request with a clear kind of work, so tool turns reuse the decision', () => {
    const c = classifier.classify({
      system: 'You are an assistant with tools: count_orders(start, end), get_customer(id).',
      messages: [{ role: 'user', content: 'How many orders were placed last week? Use the tool.' }],
    });
    expect(c.taskType).toBe('agent:tool_dispatch');
    expect(c.confidence).toBeGreaterThanOrEqual(0.5);
    const bare = classifier.classify(user('How many orders were placed last week? Use the tool.'));
    expect(bare.taskType).toBe('agent:tool_dispatch');
    expect(bare.confidence).toBeGreaterThanOrEqual(0.5);
  });

  it('uses the tool-result context of an agent turn', () => {
    const c = classifier.classify({
      system: 'You are a research agent. Tools available: web_search(query), fetch_url(url).',
      messages: [
        { role: 'user', content: 'Find out when the next Ubuntu LTS is released and link the announcement.' },
        { role: 'assistant', content: '' },
        { role: 'tool', content: 'web_search -> [1] ubuntu.com — release schedule ...' },
      ],
    });
    expect(c.taskType).toBe('agent:web_search');
    expect(c.reason).toContain('after a tool result');
  });

  it('still returns on a 100-message conversation and on a huge paste', () => {
    const messages = Array.from({ length: 100 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `turn ${i}: ${'we went back and forth on the migration timeline and the budget. '.repeat(20)}`,
    }));
    const long = classifier.classify({ system: 'You are a helpful assistant.', messages });
    expect(TASK_TYPES).toContain(long.taskType);
    const paste = classifier.classify(user(`${'Quarterly revenue rose while costs fell. '.repeat(20_000)}\nSummarize the above.`));
    expect(TASK_TYPES).toContain(paste.taskType);
  });

  it('reads a bounded head and tail of any input: the middle of a 1 MB prompt changes nothing', () => {
    // Bounded work, shown without a clock: two 1 MB prompts that differ only past the first
    // few thousand and before the last few hundred characters classify identically, so the
    // classifier never looked there. The same holds for one unbroken 1 MB token.
    const MB = 1 << 20;
    const base = `Please summarize the following report. ${'The plant output rose again this quarter. '.repeat(MB / 42)} End of report. What are the three main findings?`;
    const middle = `${base.slice(0, 4000)}${'q'.repeat(base.length - 5000)}${base.slice(-1000)}`;
    expect(middle).toHaveLength(base.length);
    expect(classifier.classify(user(base), { probabilities: true })).toEqual(classifier.classify(user(middle), { probabilities: true }));
    const token = 'x'.repeat(MB);
    const other = `${'x'.repeat(4000)}${'y'.repeat(MB - 5000)}${'x'.repeat(1000)}`;
    expect(classifier.classify(user(token), { probabilities: true })).toEqual(classifier.classify(user(other), { probabilities: true }));
    const system = classifier.classify({ system: 'y'.repeat(MB), messages: [{ role: 'user', content: 'hello' }] }, { probabilities: true });
    const system2 = classifier.classify({ system: `${'y'.repeat(1000)}${'q'.repeat(MB - 1000)}`, messages: [{ role: 'user', content: 'hello' }] }, { probabilities: true });
    expect(system).toEqual(system2);
  });

  it('copes with odd inputs', () => {
    expect(TASK_TYPES).toContain(classifier.classify({ messages: [] }).taskType);
    expect(TASK_TYPES).toContain(classifier.classify(user('')).taskType);
    expect(TASK_TYPES).toContain(classifier.classify(user('🙂🙂🙂')).taskType);
  });
});
