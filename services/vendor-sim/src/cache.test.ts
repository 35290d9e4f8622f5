import { PromptCache, TTL_MS } from './cache';
import type { PromptBlock } from './request';
import { accountPrompt } from './usage';

function fakeClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const tokens = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => (i + offset) % 50_000);

describe('PromptCache.automatic (OpenAI style)', () => {
  const options = { min: 1024, step: 128, ttlMs: TTL_MS['5m'] };

  it('reads nothing the first time and the longest grid prefix the second time', () => {
    const cache = new PromptCache({ now: fakeClock().now });
    const prompt = tokens(1500);
    expect(cache.automatic('m', prompt, options)).toBe(0);
    // 1024 + 3 * 128 = 1408 is the longest grid prefix within 1500 tokens.
    expect(cache.automatic('m', prompt, options)).toBe(1408);
  });

  it('reads a shared prefix of a longer prompt, and nothing below the minimum', () => {
    const cache = new PromptCache({ now: fakeClock().now });
    cache.automatic('m', tokens(1200), options);
    expect(cache.automatic('m', [...tokens(1200), ...tokens(400, 7)], options)).toBe(1152);
    const short = new PromptCache();
    short.automatic('m', tokens(1000), options);
    expect(short.automatic('m', tokens(1000), options)).toBe(0);
  });

  it('keeps models apart and forgets after the ttl', () => {
    const clock = fakeClock();
    const cache = new PromptCache({ now: clock.now });
    const prompt = tokens(1100);
    cache.automatic('a', prompt, options);
    expect(cache.automatic('b', prompt, options)).toBe(0);
    clock.advance(TTL_MS['5m'] - 1);
    expect(cache.automatic('a', prompt, options)).toBe(1024);
    clock.advance(TTL_MS['5m'] + 1);
    expect(cache.automatic('a', prompt, options)).toBe(0);
  });

  it('bounds its size', () => {
    const cache = new PromptCache({ maxEntries: 10 });
    for (let i = 0; i < 30; i++) cache.put(`k${i}`, 1000);
    expect(cache.size).toBe(10);
    expect(cache.has('k29')).toBe(true);
    expect(cache.has('k0')).toBe(false);
  });
});

describe('PromptCache.explicit (Anthropic style)', () => {
  const system = (n: number, ttl?: '5m' | '1h'): PromptBlock => ({ text: 'word '.repeat(n).trim(), cache: ttl });

  it('writes the marked prefix once, then reads it within the ttl', () => {
    const clock = fakeClock();
    const cache = new PromptCache({ now: clock.now });
    const blocks = [system(1500, '5m'), { text: 'question one' }];
    const first = accountPrompt(cache, 's', blocks, { kind: 'explicit', min: 1024 });
    expect(first).toMatchObject({ promptTokens: 1502, cachedTokens: 0, write5mTokens: 1500, write1hTokens: 0 });
    clock.advance(60_000);
    const second = accountPrompt(cache, 's', [blocks[0] as PromptBlock, { text: 'another question here' }], { kind: 'explicit', min: 1024 });
    expect(second).toMatchObject({ cachedTokens: 1500, write5mTokens: 0 });
    clock.advance(TTL_MS['5m'] + 1);
    expect(accountPrompt(cache, 's', blocks, { kind: 'explicit', min: 1024 })).toMatchObject({ cachedTokens: 0, write5mTokens: 1500 });
  });

  it('keeps 1h entries for an hour', () => {
    const clock = fakeClock();
    const cache = new PromptCache({ now: clock.now });
    const blocks = [system(1200, '1h'), { text: 'q' }];
    expect(accountPrompt(cache, 's', blocks, { kind: 'explicit', min: 1024 })).toMatchObject({ write1hTokens: 1200, write5mTokens: 0 });
    clock.advance(30 * 60_000);
    expect(accountPrompt(cache, 's', blocks, { kind: 'explicit', min: 1024 })).toMatchObject({ cachedTokens: 1200, write1hTokens: 0 });
  });

  it('caches nothing under the minimum prefix', () => {
    const cache = new PromptCache();
    const blocks = [system(500, '5m'), { text: 'q' }];
    expect(accountPrompt(cache, 's', blocks, { kind: 'explicit', min: 1024 })).toMatchObject({ cachedTokens: 0, write5mTokens: 0 });
    expect(accountPrompt(cache, 's', blocks, { kind: 'explicit', min: 1024 })).toMatchObject({ cachedTokens: 0, write5mTokens: 0 });
    expect(accountPrompt(cache, 's', blocks, { kind: 'explicit', min: 100 })).toMatchObject({ write5mTokens: 500 });
  });

  it('reads an earlier breakpoint when the marker moves to the end of a growing conversation', () => {
    const cache = new PromptCache();
    const turn1: PromptBlock[] = [{ text: 'word '.repeat(1100).trim() }, { text: 'first question', cache: '5m' }];
    const w1 = accountPrompt(cache, 's', turn1, { kind: 'explicit', min: 1024 });
    const turn2: PromptBlock[] = [{ text: 'word '.repeat(1100).trim() }, { text: 'first question' }, { text: 'first answer' }, { text: 'second question', cache: '5m' }];
    const w2 = accountPrompt(cache, 's', turn2, { kind: 'explicit', min: 1024 });
    expect(w2.cachedTokens).toBe(w1.write5mTokens);
    expect(w2.write5mTokens).toBe(w2.promptTokens - w2.cachedTokens);
  });

  it('splits a write between 1h and 5m breakpoints', () => {
    const cache = new PromptCache();
    const blocks: PromptBlock[] = [system(1100, '1h'), system(300, '5m'), { text: 'q' }];
    expect(accountPrompt(cache, 's', blocks, { kind: 'explicit', min: 1024 })).toMatchObject({ write1hTokens: 1100, write5mTokens: 300 });
  });

  it('does nothing without markers', () => {
    const cache = new PromptCache();
    expect(accountPrompt(cache, 's', [system(3000)], { kind: 'explicit', min: 1024 })).toMatchObject({ cachedTokens: 0, write5mTokens: 0, write1hTokens: 0 });
  });
});
