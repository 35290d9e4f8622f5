import { catalog } from '@svc/catalog';
import { parseChatRequest } from './request/chat-request';
import { prepareForModel, cutAtStop, DEFAULT_MAX_TOKENS } from './prepare';
import { CACHE_OFF, type CacheDecision } from './cache/cache-policy';

const model = catalog.chatModel('vendor-1/orion-mini-5')!;
const marked: CacheDecision = { ttl: '5m', ttlApplied: '5m', reason: 'marked' };

describe('prepareForModel', () => {
  it('lowers max_tokens to the model maximum and defaults to 16000 capped', () => {
    const explicit = prepareForModel(parseChatRequest({ messages: [{ role: 'user', content: 'x' }], max_tokens: 10_000_000 }, {}), model, marked);
    expect(explicit.request.maxTokens).toBe(model.capabilities.max_output);
    const fallback = prepareForModel(parseChatRequest({ messages: [{ role: 'user', content: 'x' }] }, {}), model, marked);
    expect(fallback.request.maxTokens).toBe(Math.min(DEFAULT_MAX_TOKENS, model.capabilities.max_output));
  });

  it('drops sampling parameters the model does not take and names them', () => {
    const dropping = catalog.chatModels.find((candidate) => candidate.drops.includes('temperature'))!;
    const prepared = prepareForModel(parseChatRequest({ messages: [{ role: 'user', content: 'x' }], temperature: 0.2 }, {}), dropping, marked);
    expect(prepared.request.temperature).toBeUndefined();
    expect(prepared.dropped).toContain('temperature');
  });

  it('keeps stop sequences for the service to cut where the model lacks them', () => {
    const noStop = catalog.chatModels.find((candidate) => !candidate.native_stop)!;
    const prepared = prepareForModel(parseChatRequest({ messages: [{ role: 'user', content: 'x' }], stop: ['END'] }, {}), noStop, marked);
    expect(prepared.request.stop).toBeUndefined();
    expect(prepared.cutStops).toEqual(['END']);
  });

  it('sends the decided ttl to the adapter and keeps the ttl to report', () => {
    const input = parseChatRequest({ messages: [{ role: 'user', content: 'x' }] }, {});
    const cases: Array<[CacheDecision, '5m' | '1h' | 'none', '5m' | '1h' | '']> = [
      [marked, '5m', '5m'],
      [{ ttl: '1h', ttlApplied: '1h', reason: 'marked' }, '1h', '1h'],
      [CACHE_OFF, 'none', ''],
      [{ ttl: 'none', ttlApplied: '', reason: 'first_appearance' }, 'none', ''],
      // Automatic caches ignore the ttl sent and keep prefixes 5 minutes.
      [{ ttl: 'none', ttlApplied: '5m', reason: 'automatic' }, 'none', '5m'],
    ];
    for (const [decision, sent, reported] of cases) {
      const prepared = prepareForModel(input, model, decision);
      expect(prepared.request.cache).toEqual({ ttl: sent });
      expect(prepared.cacheTtl).toBe(reported);
    }
  });
});

describe('cutAtStop', () => {
  it('cuts at the earliest stop sequence', () => {
    expect(cutAtStop('one END two STOP', ['STOP', 'END'])).toEqual({ text: 'one ', cut: true });
    expect(cutAtStop('nothing here', ['END'])).toEqual({ text: 'nothing here', cut: false });
  });
});
