import { decodeFloat32LeBase64, float32LeBase64, renderEmbeddings, type EmbeddingSvc } from './embeddings';

const SVC: EmbeddingSvc = { call_id: `call_${'a'.repeat(32)}`, vendor: 'vendor-1', model_served: 'vendor-1/orion-embed-3-small', cost_micros: 21, tokens_estimated: false };

/** Reads float32 values little-endian straight from the bytes, independent of the encoder. */
function readLe(text: string): number[] {
  const view = new DataView(new Uint8Array(Buffer.from(text, 'base64')).buffer);
  return Array.from({ length: view.byteLength / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

describe('float32LeBase64', () => {
  it('writes little-endian float32 bytes', () => {
    // 1.0f is 0x3f800000: bytes 00 00 80 3f in little-endian order.
    expect(Buffer.from(float32LeBase64([1]), 'base64')).toEqual(Buffer.from([0x00, 0x00, 0x80, 0x3f]));
    expect(Buffer.from(float32LeBase64([-2, 0.5]), 'base64')).toEqual(Buffer.from([0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x3f]));
    expect(float32LeBase64([])).toBe('');
  });

  it('round-trips float32 values exactly and rounds doubles to float32', () => {
    const vector = [0.1, -0.25, 1e-7, 3.4e38, -0, 0.123456789].map(Math.fround);
    expect(readLe(float32LeBase64(vector))).toEqual(vector);
    expect(decodeFloat32LeBase64(float32LeBase64(vector))).toEqual(vector);
    expect(decodeFloat32LeBase64(float32LeBase64([0.1]))).toEqual([Math.fround(0.1)]);
  });
});

describe('renderEmbeddings', () => {
  const vectors = [[0.5, -0.25].map(Math.fround), [0.125, 1].map(Math.fround)];

  it('renders floats: one item per input in order, model served, equal usage fields, svc', () => {
    expect(renderEmbeddings(vectors, 'float', 7, SVC)).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: vectors[0] },
        { object: 'embedding', index: 1, embedding: vectors[1] },
      ],
      model: 'vendor-1/orion-embed-3-small',
      usage: { prompt_tokens: 7, total_tokens: 7 },
      svc: SVC,
    });
  });

  it('renders base64 strings that decode (float32 LE) to the float rendering', () => {
    const floats = renderEmbeddings(vectors, 'float', 7, SVC);
    const encoded = renderEmbeddings(vectors, 'base64', 7, SVC);
    expect(encoded.data.map((item) => typeof item.embedding)).toEqual(['string', 'string']);
    expect(encoded.data.map((item) => readLe(item.embedding as string))).toEqual(floats.data.map((item) => item.embedding));
    expect({ ...encoded, data: [] }).toEqual({ ...floats, data: [] });
  });

  it('keeps tokens_estimated when false (a value, not an empty field)', () => {
    expect(renderEmbeddings(vectors, 'float', 1, SVC).svc.tokens_estimated).toBe(false);
    expect(renderEmbeddings(vectors, 'float', 1, { ...SVC, tokens_estimated: true }).svc.tokens_estimated).toBe(true);
  });
});
