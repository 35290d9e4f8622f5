import { embed, fromBase64, toBase64 } from './embeddings';

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe('embed', () => {
  it('returns deterministic unit vectors of the native width', () => {
    const a = embed('hello', 'text-embedding-3-small');
    expect(a).toHaveLength(1536);
    expect(norm(a)).toBeCloseTo(1, 5);
    expect(embed('hello', 'text-embedding-3-small')).toEqual(a);
    expect(embed('hello!', 'text-embedding-3-small')).not.toEqual(a);
    expect(embed('hello', 'text-embedding-3-large')).toHaveLength(3072);
  });

  it('shortens to dimensions by cutting and renormalizing', () => {
    const full = embed('text', 'm');
    const short = embed('text', 'm', 8);
    expect(short).toHaveLength(8);
    expect(norm(short)).toBeCloseTo(1, 5);
    const scale = (short[0] as number) / (full[0] as number);
    short.forEach((x, i) => expect(x).toBeCloseTo((full[i] as number) * scale, 5));
  });

  it('round-trips through little-endian float32 base64', () => {
    const v = embed('x', 'm', 16);
    const text = toBase64(v);
    expect(Buffer.from(text, 'base64')).toHaveLength(64);
    expect(fromBase64(text)).toEqual(v);
  });
});
