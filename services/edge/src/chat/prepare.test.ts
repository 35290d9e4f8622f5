import { catalog } from '@svc/catalog';
import { parseChatRequest } from './request';
import { prepareForModel, cutAtStop, DEFAULT_MAX_TOKENS } from './prepare';

const model = catalog.chatModel('vendor-1/orion-mini-5')!;

describe('prepareForModel', () => {
  it('lowers max_tokens to the model maximum and defaults to 16000 capped', () => {
    const explicit = prepareForModel(parseChatRequest({ messages: [{ role: 'user', content: 'x' }], max_tokens: 10_000_000 }, {}), model);
    expect(explicit.request.maxTokens).toBe(model.capabilities.max_output);
    const fallback = prepareForModel(parseChatRequest({ messages: [{ role: 'user', content: 'x' }] }, {}), model);
    expect(fallback.request.maxTokens).toBe(Math.min(DEFAULT_MAX_TOKENS, model.capabilities.max_output));
  });

  it('drops sampling parameters the model does not take and names them', () => {
    const dropping = catalog.chatModels.find((candidate) => candidate.drops.includes('temperature'))!;
    const prepared = prepareForModel(parseChatRequest({ messages: [{ role: 'user', content: 'x' }], temperature: 0.2 }, {}), dropping);
    expect(prepared.request.temperature).toBeUndefined();
    expect(prepared.dropped).toContain('temperature');
  });

  it('keeps stop sequences for the service to cut where the model lacks them', () => {
    const noStop = catalog.chatModels.find((candidate) => !candidate.native_stop)!;
    const prepared = prepareForModel(parseChatRequest({ messages: [{ role: 'user', content: 'x' }], stop: ['END'] }, {}), noStop);
    expect(prepared.request.stop).toBeUndefined();
    expect(prepared.cutStops).toEqual(['END']);
  });

  it('turns caching off with breakpoints none', () => {
    const prepared = prepareForModel(parseChatRequest({ messages: [{ role: 'user', content: 'x' }], svc: { cache: { breakpoints: 'none' } } }, {}), model);
    expect(prepared.request.cache).toEqual({ ttl: 'none' });
    expect(prepared.cacheTtl).toBe('');
  });
});

describe('cutAtStop', () => {
  it('cuts at the earliest stop sequence', () => {
    expect(cutAtStop('one END two STOP', ['STOP', 'END'])).toEqual({ text: 'one ', cut: true });
    expect(cutAtStop('nothing here', ['END'])).toEqual({ text: 'nothing here', cut: false });
  });
});
