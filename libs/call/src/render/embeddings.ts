/** encoding_format of POST /v1/embeddings. */
export const ENCODING_FORMATS = ['float', 'base64'] as const;
export type EncodingFormat = (typeof ENCODING_FORMATS)[number];

/** The `base64` encoding_format: the vector as little-endian float32 bytes, whatever the host's byte order. */
export function float32LeBase64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

/** The reverse of float32LeBase64 (what a client does with a base64 embedding). */
export function decodeFloat32LeBase64(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  const out: number[] = [];
  for (let offset = 0; offset + 4 <= bytes.length; offset += 4) out.push(bytes.readFloatLE(offset));
  return out;
}

/**
 * svc on an embedding response (spec: Embedding response). `tokens_estimated` is always present:
 * true when the service counted the tokens itself (one per four characters) and billed that
 * count, false when the vendor's count was used. RULINGS 2 omits only empty fields, and false is
 * a value, so a client can read the field without treating its absence as an answer.
 */
export interface EmbeddingSvc {
  call_id: string;
  vendor: string;
  model_served: string;
  cost_micros: number;
  tokens_estimated: boolean;
}

export interface EmbeddingResponse {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] | string }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
  svc: EmbeddingSvc;
}

/** The embedding response: one item per input in input order; usage.prompt_tokens equals total_tokens. */
export function renderEmbeddings(vectors: readonly number[][], format: EncodingFormat, tokens: number, svc: EmbeddingSvc): EmbeddingResponse {
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: format === 'base64' ? float32LeBase64(vector) : vector })),
    model: svc.model_served,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
    svc,
  };
}
