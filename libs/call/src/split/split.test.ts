import { catalog, DECISION_MODEL_ID } from '@svc/catalog';
import { listPricePico, roundPicoToMicros } from '@svc/pricing';
import { parseChatRequest } from '../request/chat-request';
import { DEFAULT_SPLIT_SETTINGS, chooseExtractor, locateSource, splitGate, wholeDocumentAsk } from './gate';
import { excerptObject, excerptText, readExtract } from './prompts';
import { splitObject, splitSavedMicros } from './outcome';
import { withExcerpt } from './run-split';

// 400 numbered lines of about 100 characters: about 10,000 tokens (characters / 4).
const SOURCE = Array.from({ length: 400 }, (_, i) => `Line ${i + 1}: the warehouse ledger records shipment ${1000 + i} with its carrier, weight and date..`).join('\n');
const QUESTION = 'Which carrier handled shipment 1203?';
const body = (extra: Record<string, unknown> = {}) => ({ model: 'auto/best', messages: [{ role: 'user', content: `${SOURCE}\n\n${QUESTION}` }], ...extra });
const request = (extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) => parseChatRequest(body(extra), headers);
const sonnet = catalog.chatModel('vendor-2/lyric-sonnet-4.5')!;
const nano = catalog.chatModel('vendor-1/orion-nano-5')!;
const decision = catalog.chatModel(DECISION_MODEL_ID)!;
const context = { auto: true, job: { task_type: 'qa_knowledge' }, pick: sonnet };

describe('locateSource', () => {
  it('takes the last short paragraph as the question and the rest as the source', () => {
    const location = locateSource(request(), 1000)!;
    expect(location.where).toBe('user');
    expect(location.question).toBe(QUESTION);
    expect(location.source).toBe(SOURCE);
  });
  it('takes a question that comes first', () => {
    const location = locateSource(parseChatRequest({ model: 'auto', messages: [{ role: 'user', content: `${QUESTION}\n\n${SOURCE}` }] }, {}), 1000)!;
    expect(location.question).toBe(QUESTION);
    expect(location.source).toBe(SOURCE);
  });
  it('an instruction before a source that ends in a short paragraph, and a title before the source', () => {
    const translate = locateSource(parseChatRequest({ model: 'auto', messages: [{ role: 'user', content: `Translate the following text into French:\n\n${SOURCE}\n\nSigned, the warehouse team.` }] }, {}), 1000)!;
    expect(translate.question).toBe('Translate the following text into French:');
    const titled = locateSource(parseChatRequest({ model: 'auto', messages: [{ role: 'user', content: `HANDBOOK\n\n${SOURCE}\n\n\n${QUESTION}` }] }, {}), 1000)!;
    expect(titled.question).toBe(QUESTION);
  });
  it('reads a long system prompt as the source when the user message is short', () => {
    const location = locateSource(parseChatRequest({ model: 'auto', messages: [{ role: 'system', content: SOURCE }, { role: 'user', content: QUESTION }] }, {}), 1000)!;
    expect(location).toMatchObject({ where: 'system', source: SOURCE, question: QUESTION });
  });
});

describe('splitGate: each reason in order', () => {
  it('named_model, opt_out (body and header)', () => {
    expect(splitGate(catalog, request(), { ...context, auto: false }).reason).toBe('named_model');
    expect(splitGate(catalog, request({ svc: { split: 'off' } }), context).reason).toBe('opt_out');
    expect(splitGate(catalog, request({}, { 'x-svc-split': 'off' }), context).reason).toBe('opt_out');
  });
  it('not_eligible for tools, streams, json formats, the Responses API and whole-document work', () => {
    expect(splitGate(catalog, request({ stream: true }), context)).toMatchObject({ passes: false, reason: 'not_eligible' });
    expect(splitGate(catalog, request({ tools: [{ type: 'function', function: { name: 'f' } }] }), context).reason).toBe('not_eligible');
    expect(splitGate(catalog, request({ response_format: { type: 'json_object' } }), context).reason).toBe('not_eligible');
    expect(splitGate(catalog, request(), { ...context, shapeProblem: 'responses' }).reason).toBe('not_eligible');
    expect(splitGate(catalog, request(), { ...context, job: { task_type: 'summarization' } }).reason).toBe('not_eligible');
    expect(splitGate(catalog, request(), { ...context, caller: { free_plan: true } }).reason).toBe('not_eligible');
  });
  it('not_eligible when the question asks for work on the whole source, whatever the classifier said', () => {
    const ask = (question: string, before = false) =>
      parseChatRequest({ model: 'auto', messages: [{ role: 'user', content: before ? `${question}\n\n${SOURCE}` : `${SOURCE}\n\n${question}` }] }, {});
    const extraction = { ...context, job: { task_type: 'data:extraction' } };
    expect(splitGate(catalog, ask('Translate the following handbook into French.', true), extraction)).toMatchObject({ passes: false, reason: 'not_eligible' });
    expect(splitGate(catalog, ask('Please summarize the above for the board.'), extraction).reason).toBe('not_eligible');
    expect(splitGate(catalog, ask('Thanks. Now rewrite it in plain English.'), extraction).reason).toBe('not_eligible');
    expect(wholeDocumentAsk('Can you proofread this?')).toBe('proofread');
    // A lookup that only mentions such a word is still a lookup.
    expect(wholeDocumentAsk('Which form does the translation team use, and who converts the invoices?')).toBeUndefined();
    expect(splitGate(catalog, ask('Which form does the translation team use?'), extraction).passes).toBe(true);
  });
  it('below_threshold under SPLIT_MIN_SOURCE_TOKENS', () => {
    const small = parseChatRequest({ model: 'auto', messages: [{ role: 'user', content: `${SOURCE.slice(0, 8000)}\n\n${QUESTION}` }] }, {});
    expect(splitGate(catalog, small, context)).toMatchObject({ passes: false, reason: 'below_threshold', sourceTokens: 2000 });
    expect(splitGate(catalog, small, context).estimate).toBeUndefined();
  });
  it('price_check when the pick is as cheap as the extractor, with the estimate', () => {
    const gate = splitGate(catalog, request(), { ...context, pick: nano });
    expect(gate.reason).toBe('price_check');
    expect(gate.estimate!.split_micros).toBeGreaterThan(gate.estimate!.unsplit_micros * DEFAULT_SPLIT_SETTINGS.maxPriceRatio);
  });
  it('passes on an expensive pick: four steps priced at list price, the cheapest extractor', () => {
    const gate = splitGate(catalog, request(), context);
    expect(gate.passes).toBe(true);
    expect(gate.decision!.id).toBe(DECISION_MODEL_ID);
    expect(gate.extractor!.pricing.input).toBe(0.05);
    const { steps, estimate } = gate;
    expect(estimate!.split_micros).toBe(steps!.questions + steps!.extract + steps!.check + steps!.answer);
    // The whole request on the pick: every input token and the estimated output (600).
    const input = Math.ceil((SOURCE.length + 2 + QUESTION.length) / 4);
    expect(estimate!.unsplit_micros).toBe(roundPicoToMicros(listPricePico(sonnet.pricing, { inputTokens: input, outputTokens: 600, cachedTokens: 0, cacheWriteTokens: 0 })));
    expect(estimate!.split_micros).toBeLessThan(estimate!.unsplit_micros * 0.8);
  });
  it('the extractor respects svc.vendors and a named SPLIT_EXTRACTOR', () => {
    expect(chooseExtractor(catalog, 10_000, { vendors: ['vendor-3'] }, DEFAULT_SPLIT_SETTINGS)!.vendor).toBe('vendor-3');
    expect(chooseExtractor(catalog, 10_000, {}, { ...DEFAULT_SPLIT_SETTINGS, extractor: 'vendor-4/atlas-3.1-8b' })!.id).toBe('vendor-4/atlas-3.1-8b');
    expect(chooseExtractor(catalog, 10_000, {}, { ...DEFAULT_SPLIT_SETTINGS, extractor: 'vendor-9/none' })).toBeUndefined();
  });
});

describe('reading the extract', () => {
  const source = 'alpha\nbeta\ngamma\ndelta\nepsilon';
  it('DECLINE and NONE', () => {
    expect(readExtract(source, 'DECLINE')).toEqual({ kind: 'declined' });
    expect(readExtract(source, ' NONE ')).toEqual({ kind: 'empty' });
    expect(readExtract(source, '')).toEqual({ kind: 'empty' });
  });
  it('verbatim lines in source order, the verbatim rate over the answer lines', () => {
    expect(readExtract(source, 'delta\nbeta  \nBeta, roughly')).toEqual({ kind: 'lines', kept: [1, 3], answered: 3, verbatimRate: 0.6667 });
  });
  it('the excerpt marks left-out lines, and its counts', () => {
    expect(excerptText(source, [1, 3])).toBe('[...]\nbeta\n[...]\ndelta\n[...]');
    expect(excerptObject(source, [1, 3], 1)).toEqual({ lines_kept: 2, lines_total: 5, tokens: Math.ceil('[...]\nbeta\n[...]\ndelta\n[...]'.length / 4), verbatim_rate: 1 });
  });
  it('the answer request has the excerpt in place of the source', () => {
    const input = request();
    const gate = splitGate(catalog, input, context);
    const replaced = withExcerpt(input, gate, 'Line 204: x');
    const part = replaced.messages[0].role === 'user' ? replaced.messages[0].content[0] : undefined;
    expect(part).toMatchObject({ type: 'text' });
    expect((part as { text: string }).text).toMatch(/^The source below is an excerpt[^\n]*\nLine 204: x\n\nWhich carrier/);
  });
});

describe('svc.split', () => {
  const gate = splitGate(catalog, request(), context);
  const usage = { inputTokens: 300, outputTokens: 50, cachedTokens: 0, cacheWriteTokens: 0 };
  const step = (role: 'questions' | 'extract' | 'check', billed: boolean) => ({ role, vendor: 'v', model: 'm', input_tokens: 1, output_tokens: 1, micros: 10, billed });
  it('a reason: applied false, no pattern', () => {
    expect(splitObject({ gate: splitGate(catalog, request(), { ...context, auto: false }) })).toEqual({ applied: false, reason: 'named_model' });
  });
  it('jev_no: the questions step shown unbilled, no pattern', () => {
    const object = splitObject({ gate, run: { applied: false, reason: 'jev_no', steps: [step('questions', false)], billed: [], tokens: 2 } });
    expect(object).toMatchObject({ applied: false, reason: 'jev_no', estimate: gate.estimate, steps: [{ role: 'questions', billed: false }] });
  });
  it('a fallback: pattern distill, no reason, every step unbilled', () => {
    const object = splitObject({ gate, run: { applied: false, fallback: 'check_rejected', check_p: 0.2, steps: [step('questions', false), step('extract', false), step('check', false)], billed: [], tokens: 2 } }, { model: sonnet, usage, wholeInputTokens: 10_000, baselinePending: true });
    expect(object).toMatchObject({ applied: false, pattern: 'distill', fallback: 'check_rejected', check_p: 0.2 });
    expect(object.reason).toBeUndefined();
    expect(object.saved_micros).toBeUndefined();
    expect((object.steps as Array<{ billed: boolean }>).every((s) => !s.billed)).toBe(true);
  });
  it('applied: the answer step billed, saved_micros while the baseline is pending', () => {
    const steps = [step('questions', false), step('extract', true), step('check', false)];
    const run = { applied: true, steps, billed: [], tokens: 2, check_p: 0.9, excerpt: { lines_kept: 2, lines_total: 400, tokens: 40, verbatim_rate: 1 } };
    const object = splitObject({ gate, run }, { model: sonnet, usage, wholeInputTokens: 10_000, baselinePending: true });
    const answer = roundPicoToMicros(listPricePico(sonnet.pricing, { ...usage }));
    expect(object.steps).toEqual([...steps, { role: 'answer', vendor: sonnet.vendor, model: sonnet.id, input_tokens: 300, output_tokens: 50, micros: answer, billed: true }]);
    const whole = roundPicoToMicros(listPricePico(sonnet.pricing, { inputTokens: 10_000, outputTokens: 50, cachedTokens: 0, cacheWriteTokens: 0 }));
    expect(object.saved_micros).toBe(whole - 30 - answer);
    expect(splitSavedMicros(sonnet, 10_000, usage, object.steps as never)).toBe(object.saved_micros);
    expect(splitObject({ gate, run }, { model: sonnet, usage, wholeInputTokens: 10_000, baselinePending: false }).saved_micros).toBeUndefined();
  });
});
void decision;
