import { ServiceError } from '@svc/errors';
import type { Catalog, EmbeddingModel } from '@svc/catalog';
import type { KeyRecord__Output } from '@svc/protos';
import { visibleTo } from '../models/model-object';

/** Spec (Limits): "Embeddings input: 1 to 2048 strings". */
export const MAX_EMBEDDING_INPUTS = 2048;

import { ENCODING_FORMATS, type EncodingFormat } from '@svc/call';

export { ENCODING_FORMATS, type EncodingFormat };

export interface EmbeddingsInput {
  model: string;
  /** Always a list: a single string becomes one item. */
  inputs: string[];
  dimensions?: number;
  encodingFormat: EncodingFormat;
  user?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A null optional field counts as absent, as clients of the common API shapes send it. */
const given = (value: unknown): boolean => value !== undefined && value !== null;

const invalid = (param: string, message: string) => new ServiceError('invalid_value', message, { param });

/**
 * The POST /v1/embeddings body (spec: POST /v1/embeddings, Limits). Fields are checked in table
 * order, so the first failing field is the one reported. Unknown fields, and the `svc` object
 * (which does not apply here), are ignored.
 *
 * `input` is one string or an array of 1 to 2048 strings. An empty string, alone or in the
 * array, is refused too (there is nothing to embed); token arrays are not accepted.
 */
export function parseEmbeddingsRequest(body: unknown): EmbeddingsInput {
  if (!isObject(body)) throw new ServiceError('invalid_json', 'The request body must be a JSON object.');

  const model = body.model;
  if (!given(model) || model === '') throw new ServiceError('missing_model', "'model' is required: name one of the embedding models (GET /v1/models, svc.embedding true).", { param: 'model' });
  if (typeof model !== 'string') throw invalid('model', "'model' must be a string.");

  const inputs = parseInputs(body.input);

  let dimensions: number | undefined;
  if (given(body.dimensions)) {
    const value = body.dimensions;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalid('dimensions', "'dimensions' must be an integer of at least 1.");
    dimensions = value;
  }

  const format = given(body.encoding_format) ? body.encoding_format : 'float';
  if (!(ENCODING_FORMATS as readonly unknown[]).includes(format)) throw invalid('encoding_format', "'encoding_format' must be 'float' or 'base64'.");

  if (given(body.user) && typeof body.user !== 'string') throw invalid('user', "'user' must be a string.");

  return {
    model,
    inputs,
    ...(dimensions !== undefined ? { dimensions } : {}),
    encodingFormat: format as EncodingFormat,
    ...(typeof body.user === 'string' ? { user: body.user } : {}),
  };
}

function parseInputs(input: unknown): string[] {
  const shape = `'input' must be a non-empty string or an array of 1 to ${MAX_EMBEDDING_INPUTS} non-empty strings`;
  if (typeof input === 'string') {
    if (input === '') throw invalid('input', `${shape}; it is an empty string.`);
    return [input];
  }
  if (!Array.isArray(input)) throw invalid('input', `${shape}.`);
  if (input.length === 0) throw invalid('input', `${shape}; the array is empty.`);
  if (input.length > MAX_EMBEDDING_INPUTS) throw invalid('input', `${shape}; it has ${input.length} items.`);
  const bad = input.findIndex((item) => typeof item !== 'string' || item === '');
  if (bad >= 0) throw invalid('input', `${shape}; item ${bad} is ${typeof input[bad] === 'string' ? 'an empty string' : 'not a string'}.`);
  return input as string[];
}

/**
 * The embedding model a request names (spec: "never auto"; 404 model_not_found when not an
 * embedding model or not allowed). Access is checked at account, organization, project and key
 * level before anything about the model is said, so a forbidden model reads as an unknown one.
 */
export function resolveEmbeddingModel(catalog: Catalog, key: KeyRecord__Output, id: string): EmbeddingModel {
  const notFound = (detail: string) => new ServiceError('model_not_found', `The model '${id}' ${detail}`, { param: 'model' });
  if (catalog.isVirtual(id)) throw notFound('is a virtual model; embeddings need a named embedding model (GET /v1/models, svc.embedding true).');
  const model = catalog.model(id);
  if (!model || !visibleTo(key, model.id)) throw notFound('does not exist or you do not have access to it.');
  if (model.kind !== 'embedding') throw notFound('is not an embedding model; embeddings need an embedding model (GET /v1/models, svc.embedding true).');
  return model;
}
