import { createRng, seedOf } from './hash';

/** Native width of the simulated embedding models; `dimensions` shortens it. */
export function defaultDimensions(model: string): number {
  return /large/i.test(model) ? 3072 : 1536;
}

/**
 * Deterministic unit vector for a text. Like the real models, a shortened embedding is the
 * native one cut to `dimensions` and renormalized, so the same text agrees across widths.
 */
export function embed(input: string, model: string, dimensions?: number): number[] {
  const native = defaultDimensions(model);
  const width = Math.max(1, Math.min(dimensions ?? native, native));
  const rng = createRng(seedOf(`${model}\0${input}`));
  const values: number[] = [];
  for (let i = 0; i < width; i++) {
    // Box-Muller: Gaussian components give directions uniform on the sphere.
    const u = Math.max(rng.next(), 1e-12);
    const v = rng.next();
    values.push(Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
  }
  const norm = Math.sqrt(values.reduce((sum, x) => sum + x * x, 0)) || 1;
  return values.map((x) => Math.fround(x / norm));
}

/** The base64 encoding_format: little-endian float32, whatever the host's byte order. */
export function toBase64(vector: readonly number[]): string {
  const buffer = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => buffer.writeFloatLE(x, i * 4));
  return buffer.toString('base64');
}

export function fromBase64(text: string): number[] {
  const buffer = Buffer.from(text, 'base64');
  const out: number[] = [];
  for (let i = 0; i + 4 <= buffer.length; i += 4) out.push(buffer.readFloatLE(i));
  return out;
}
