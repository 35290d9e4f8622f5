import { storableJson } from './sql';

describe('storableJson (jsonb takes no NUL and no unpaired surrogate)', () => {
  it('leaves ordinary text, emoji included, exactly as JSON.stringify writes it', () => {
    const value = { text: 'plain 🎉 "quoted" \\u0000 as six characters', list: [1, null, 'ü'] };
    expect(storableJson(value)).toBe(JSON.stringify(value));
  });

  it('replaces a NUL or an unpaired surrogate in a vendor answer with U+FFFD, keeping the rest', () => {
    expect(JSON.parse(storableJson({ output: [{ text: 'a\u0000b' }], id: 'x\ud800', ok: '🎉' }))).toEqual({ output: [{ text: 'a\ufffdb' }], id: 'x\ufffd', ok: '🎉' });
  });
});
