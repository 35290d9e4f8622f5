import OpenAI from 'openai';
import { catalog, DECISION_MODEL_ID } from '@svc/catalog';
import { listPriceMicros, listPricePico, percentOfPicoToMicros, roundPicoToMicros } from '@svc/pricing';
import { fleetState, newOrganization } from '../support/fleet-state';
import { handbook } from './source';

/**
 * Split-and-route (spec: svc.split, Split rules, svc.cost): under auto a large plain-text source
 * with a question is answered on a verbatim excerpt when cheaper; every reason and every fallback
 * (forced through vendor-sim's [split:*] triggers, see its README) and the cost arithmetic against
 * the catalog's list prices.
 */
type Svc = Record<string, any>;
const svcOf = (value: unknown) => (value as { svc: Svc }).svc;
const SOURCE = handbook();
const QUESTION = 'Which form number do requests to Payroll in the Lisbon office use, and what is the duty manager extension there?';
const ask = (question: string, source = SOURCE) => [{ role: 'user' as const, content: `${source}\n\n${question}` }];
/**
 * The question with vendor-sim's trigger inside it, before its question mark: still a question
 * (predict.ts reads a factual question under a paste as extraction whatever the trigger's words
 * suggest), so the gate's whole-document check sees the job the test means, not the trigger.
 */
const triggered = (trigger: string) => QUESTION.replace(/\?$/, ` ${trigger}?`);
const price = (model: string, input: number, output: number) => listPricePico(catalog.chatModel(model)!.pricing, { inputTokens: input, outputTokens: output, cachedTokens: 0, cacheWriteTokens: 0 });
const micros = (model: string, input: number, output: number) => roundPicoToMicros(price(model, input, output));

describe('split-and-route under auto', () => {
  const state = fleetState();
  // A fresh key: its baseline is pending, so svc.split.saved_micros is shown.
  const org = newOrganization();
  const client = new OpenAI({ baseURL: state.baseUrl, apiKey: org.apiKey, maxRetries: 0 });
  const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(`${state.baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${org.apiKey}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('answers on an excerpt: steps, billed flags, excerpt, check_p, saved_micros, and the cost from list prices', async () => {
    const completion = await client.chat.completions.create({ model: 'auto/best', messages: ask(QUESTION) });
    const svc = svcOf(completion);
    const split = svc.split;
    expect(split).toMatchObject({ applied: true, pattern: 'distill' });
    expect(split.reason).toBeUndefined();
    expect(split.fallback).toBeUndefined();
    expect(split.steps.map((step: Svc) => step.role)).toEqual(['questions', 'extract', 'check', 'answer']);
    expect(split.steps.map((step: Svc) => step.billed)).toEqual([false, true, false, true]);
    const [questions, extract, check, answer] = split.steps;
    expect(questions.model).toBe(DECISION_MODEL_ID);
    expect(check.model).toBe(DECISION_MODEL_ID);
    expect(answer.model).toBe(svc.model_served);
    expect(catalog.chatModel(extract.model)!.pricing.input).toBeLessThan(catalog.chatModel(answer.model)!.pricing.input);
    for (const step of split.steps) expect(step.micros).toBe(micros(step.model, step.input_tokens, step.output_tokens));
    // The excerpt: the Lisbon Payroll lines, verbatim, a small share of the source.
    expect(split.excerpt.verbatim_rate).toBe(1);
    // The source as located: the handbook without its trailing blank line.
    expect(split.excerpt.lines_total).toBe(SOURCE.trimEnd().split('\n').length);
    expect(split.excerpt.lines_kept).toBeGreaterThan(0);
    expect(split.excerpt.lines_kept).toBeLessThan(split.excerpt.lines_total / 4);
    expect(split.excerpt.tokens).toBeLessThan(Math.ceil(SOURCE.length / 4) * 0.4);
    expect(split.check_p).toBeGreaterThanOrEqual(0.6);
    expect(split.estimate.split_micros).toBeLessThan(split.estimate.unsplit_micros);
    // The answer read the excerpt, not the source.
    expect(answer.input_tokens).toBeLessThan(completion.usage!.prompt_tokens + 1);
    expect(answer.input_tokens).toBeLessThan(Math.ceil(SOURCE.length / 4) / 2);

    // svc.cost: the extract and the answer at list price, the plan fee on each, the auto fee once.
    const fee = catalog.data.plans.paid.service_fee_percent;
    const extractPico = price(extract.model, extract.input_tokens, extract.output_tokens);
    const answerPico = price(answer.model, answer.input_tokens, answer.output_tokens);
    const vendor = roundPicoToMicros(extractPico) + roundPicoToMicros(answerPico);
    const serviceFee = percentOfPicoToMicros(extractPico, fee) + percentOfPicoToMicros(answerPico, fee);
    expect(svc.cost).toMatchObject({ vendor_micros: vendor, service_fee_micros: serviceFee, call_fee_micros: catalog.data.auto_call_fee_micros, classifier_micros: 0 });
    expect(svc.cost_micros).toBe(vendor + serviceFee + catalog.data.auto_call_fee_micros);
    expect(svc.cost.baseline).toMatchObject({ pending: true });
    expect(svc.cost.saved_micros).toBeUndefined();
    // saved_micros: the whole request on the answer's model, less every split call (list price).
    const whole = micros(answer.model, Math.ceil((SOURCE.length + 2 + QUESTION.length) / 4), answer.output_tokens);
    expect(split.saved_micros).toBe(whole - split.steps.reduce((sum: number, step: Svc) => sum + step.micros, 0));
    expect(split.saved_micros).toBeGreaterThan(0);
  });

  it('named_model on a named model, opt_out by body and by header', async () => {
    const named = svcOf(await client.chat.completions.create({ model: 'vendor-2/lyric-sonnet-4.5', messages: ask(QUESTION) }));
    expect(named.split).toEqual({ applied: false, reason: 'named_model' });
    const body = await (await post({ model: 'auto/best', messages: ask(QUESTION), svc: { split: 'off' } })).json();
    expect(svcOf(body).split).toEqual({ applied: false, reason: 'opt_out' });
    const header = await (await post({ model: 'auto/best', messages: ask(QUESTION) }, { 'x-svc-split': 'off' })).json();
    expect(svcOf(header).split).toEqual({ applied: false, reason: 'opt_out' });
    const bad = await post({ model: 'auto/best', messages: ask(QUESTION) }, { 'x-svc-split': 'on' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ code: 'invalid_value', param: 'svc.split' });
  });

  it('not_eligible: whole-document work, a stream; below_threshold: a small source', async () => {
    const client = new OpenAI({ baseURL: state.baseUrl, apiKey: newOrganization().apiKey, maxRetries: 0 });
    const summary = svcOf(await client.chat.completions.create({ model: 'auto/best', messages: ask('Summarize this handbook in five bullet points.') }));
    expect(summary.split.applied).toBe(false);
    expect(['not_eligible', 'jev_no']).toContain(summary.split.reason);
    const translation = svcOf(await client.chat.completions.create({ model: 'auto/best', messages: [{ role: 'user', content: `Translate the following handbook into French.\n\n${SOURCE}` }] }));
    expect(translation.split.applied).toBe(false);
    expect(['not_eligible', 'jev_no']).toContain(translation.split.reason);
    const stream = await client.chat.completions.create({ model: 'auto/best', messages: ask(QUESTION), stream: true });
    let last: Svc | undefined;
    for await (const chunk of stream) if ((chunk as unknown as { svc?: Svc }).svc) last = (chunk as unknown as { svc: Svc }).svc;
    expect(last!.split).toEqual({ applied: false, reason: 'not_eligible' });
    const small = svcOf(await client.chat.completions.create({ model: 'auto/best', messages: ask(QUESTION, SOURCE.slice(0, 6000)) }));
    expect(small.split).toEqual({ applied: false, reason: 'below_threshold' });
  });

  it('price_check: the split is not cheaper on the cheap line; the estimate is shown', async () => {
    // A key allowed one chat model (and the check model): the pick and the extractor are then the
    // same cheap model whatever the classifier makes of the request, so reading the whole source
    // to extract it costs about what answering on it would, and the split cannot be cheaper.
    const cheap = 'vendor-1/orion-nano-5';
    const own = new OpenAI({ baseURL: state.baseUrl, apiKey: newOrganization({ keyFlags: ['--models', `${cheap},${DECISION_MODEL_ID}`] }).apiKey, maxRetries: 0 });
    const completion = await own.chat.completions.create({ model: 'auto/cheap', messages: ask(QUESTION) });
    const svc = svcOf(completion);
    expect(completion.model).toBe(cheap);
    expect(svc.split).toMatchObject({ applied: false, reason: 'price_check' });
    expect(svc.split.estimate.split_micros).toBeGreaterThan(svc.split.estimate.unsplit_micros * 0.8);
    expect(svc.split.steps).toBeUndefined();
  });

  it('jev_no and jev_failed: the questions step, unbilled, and the request whole', async () => {
    for (const [trigger, reason] of [['[split:jev-no]', 'jev_no'], ['[split:jev-fail]', 'jev_failed']]) {
      const own = new OpenAI({ baseURL: state.baseUrl, apiKey: newOrganization().apiKey, maxRetries: 0 });
      const svc = svcOf(await own.chat.completions.create({ model: 'auto/best', messages: ask(triggered(trigger)) }));
      expect(svc.split).toMatchObject({ applied: false, reason });
      expect(svc.split.pattern).toBeUndefined();
      expect(svc.split.estimate).toBeDefined();
      expect(svc.split.steps).toEqual([expect.objectContaining({ role: 'questions', model: DECISION_MODEL_ID, billed: false })]);
    }
  });

  const fallbacks: Array<[string, string, string[]]> = [
    ['[split:decline]', 'extractor_declined', ['questions', 'extract']],
    ['[split:empty]', 'empty_extract', ['questions', 'extract']],
    ['[split:too-big]', 'extract_too_big', ['questions', 'extract']],
    ['[split:paraphrase]', 'low_verbatim', ['questions', 'extract']],
    ['[split:extract-fail]', 'extract_failed', ['questions', 'extract']],
    ['[split:reject]', 'check_rejected', ['questions', 'extract', 'check']],
    ['[split:need-more]', 'need_more_source', ['questions', 'extract', 'check']],
    ['[split:check-fail]', 'check_failed', ['questions', 'extract', 'check']],
  ];
  it.each(fallbacks)('%s: fallback %s, every step unbilled, the request whole at the unsplit price', async (trigger, fallback, roles) => {
    // A key of its own: each whole request is about 30,000 tokens against the key's tokens per minute.
    const own = new OpenAI({ baseURL: state.baseUrl, apiKey: newOrganization().apiKey, maxRetries: 0 });
    const completion = await own.chat.completions.create({ model: 'auto/best', messages: ask(triggered(trigger)) });
    const svc = svcOf(completion);
    expect(svc.split).toMatchObject({ applied: false, pattern: 'distill', fallback });
    expect(svc.split.reason).toBeUndefined();
    expect(svc.split.saved_micros).toBeUndefined();
    expect(svc.split.steps.map((step: Svc) => step.role)).toEqual(roles);
    expect(svc.split.steps.every((step: Svc) => step.billed === false)).toBe(true);
    // The whole request on the routed model: every prompt token, billed at its list price alone
    // (with the vendor's prompt cache where the routed model has one: these tests send one source).
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(Math.ceil(SOURCE.length / 4) * 0.9);
    const vendor = listPriceMicros(catalog.chatModel(svc.model_served)!.pricing, {
      inputTokens: completion.usage!.prompt_tokens,
      outputTokens: completion.usage!.completion_tokens,
      cachedTokens: svc.cache?.read_tokens ?? 0,
      cacheWriteTokens: svc.cache?.write_tokens ?? 0,
      cacheTtl: (svc.cache?.ttl_applied ?? '') as '5m' | '1h' | '',
    });
    expect(svc.cost.vendor_micros).toBe(vendor);
  });
});
