import { contentWords, distillFault, distillProbability, distillStep, extractAnswer, readPrompt } from './distill';

const SOURCE = ['# Shipping', 'Carrier Northwind handles shipment 1203 from Oslo.', 'Carrier Eastline handles shipment 1204.', 'Returns are accepted within 30 days.'].join('\n');
const prompt = (question: string, block = SOURCE) => `Question:\n${question}\n\nSource:\n<<<\n${block}\n>>>`;

describe('the split-and-route steps as the simulator answers them', () => {
  it('recognises the step markers and reads the prompt', () => {
    expect(distillStep('svc-distill extract v1\nCopy...')).toBe('extract');
    expect(distillStep('svc-distill check v1')).toBe('check');
    expect(distillStep('You are helpful')).toBeUndefined();
    expect(readPrompt(prompt('Who carries 1203?'))).toEqual({ question: 'Who carries 1203?', block: SOURCE });
    expect(contentWords('Which carrier handled shipment 1203? [split:reject]')).toEqual(['carrier', 'handled', 'shipment', '1203']);
  });
  it('extracts the lines sharing the most question words, verbatim', () => {
    // Lines with at least half the best line's matches (carrier, shipment, 1203: 3; the next line 2).
    expect(extractAnswer(prompt('Which carrier handled shipment 1203?'))).toBe('Carrier Northwind handles shipment 1203 from Oslo.\nCarrier Eastline handles shipment 1204.');
    expect(extractAnswer(prompt('What is the refund policy for returns?'))).toBe('Returns are accepted within 30 days.');
    expect(extractAnswer(prompt('Weather on Mars?'))).toBe('NONE');
  });
  it('triggers: decline, empty, too-big, paraphrase', () => {
    expect(extractAnswer(prompt('shipment 1203 [split:decline]'))).toBe('DECLINE');
    expect(extractAnswer(prompt('shipment 1203 [split:empty]'))).toBe('NONE');
    expect(extractAnswer(prompt('shipment 1203 [split:too-big]')).split('\n')).toHaveLength(4);
    expect(extractAnswer(prompt('shipment 1203 [split:paraphrase]'))).toMatch(/^In short: /);
  });
  it('the questions and check distributions, and the failure triggers', () => {
    expect(distillProbability('questions', 'needs_whole_source', prompt('Summarize the document.'))).toBe(0.92);
    expect(distillProbability('questions', 'needs_whole_source', prompt('Which carrier handled shipment 1203?'))).toBe(0.08);
    expect(distillProbability('questions', 'needs_whole_source', prompt('Which carrier? [split:jev-no]'))).toBe(0.92);
    expect(distillProbability('check', 'sufficient', prompt('Which carrier handled shipment 1203?', 'Carrier Northwind handles shipment 1203'))).toBeGreaterThan(0.8);
    expect(distillProbability('check', 'sufficient', prompt('Which carrier? [split:reject]'))).toBe(0.2);
    expect(distillProbability('check', 'needs_more_source', prompt('Which carrier? [split:need-more]'))).toBe(0.9);
    expect(distillFault('extract', prompt('x [split:extract-fail]'))).toEqual({ kind: 'status', status: 500 });
    expect(distillFault('check', prompt('x [split:extract-fail]'))).toBeUndefined();
    expect(distillFault('questions', prompt('x [split:jev-fail]'))).toEqual({ kind: 'status', status: 500 });
  });
});
