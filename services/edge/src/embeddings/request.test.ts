import { catalog } from '@svc/catalog';
import { ServiceError } from '@svc/errors';
import type { KeyRecord__Output } from '@svc/protos';
import { MAX_EMBEDDING_INPUTS, parseEmbeddingsRequest, resolveEmbeddingModel } from './request';

const MODEL = 'vendor-1/orion-embed-3-small';

function failure(run: () => unknown): ServiceError {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

const refusal = (body: unknown) => {
  const error = failure(() => parseEmbeddingsRequest(body));
  return { status: error.status, code: error.code, param: error.param };
};

describe('parseEmbeddingsRequest', () => {
  it('takes one string as a one-item list, float by default', () => {
    expect(parseEmbeddingsRequest({ model: MODEL, input: 'hello' })).toEqual({ model: MODEL, inputs: ['hello'], encodingFormat: 'float' });
  });

  it('takes an array of strings, dimensions, base64 and user; ignores svc and unknown fields', () => {
    expect(parseEmbeddingsRequest({ model: MODEL, input: ['a', 'b'], dimensions: 256, encoding_format: 'base64', user: 'u-1', svc: { session_id: 'x' }, extra: 1 })).toEqual({
      model: MODEL,
      inputs: ['a', 'b'],
      dimensions: 256,
      encodingFormat: 'base64',
      user: 'u-1',
    });
  });

  it('treats null optional fields as absent', () => {
    expect(parseEmbeddingsRequest({ model: MODEL, input: 'x', dimensions: null, encoding_format: null, user: null })).toEqual({ model: MODEL, inputs: ['x'], encodingFormat: 'float' });
  });

  it('accepts exactly 2048 inputs', () => {
    expect(parseEmbeddingsRequest({ model: MODEL, input: Array.from({ length: MAX_EMBEDDING_INPUTS }, (_, i) => `t${i}`) }).inputs).toHaveLength(2048);
  });

  it('400 missing_model when the model is absent, null or empty', () => {
    for (const model of [undefined, null, '']) expect(refusal({ model, input: 'x' })).toEqual({ status: 400, code: 'missing_model', param: 'model' });
  });

  it('400 invalid_value param model for a non-string model', () => {
    expect(refusal({ model: 7, input: 'x' })).toEqual({ status: 400, code: 'invalid_value', param: 'model' });
  });

  it('400 invalid_value param input when empty, over 2048 items, or not strings', () => {
    const cases: unknown[] = [undefined, null, '', [], [''], ['a', ''], [1, 2], [[1, 2]], ['a', 3], { text: 'a' }, 5, Array.from({ length: 2049 }, () => 'x')];
    for (const input of cases) expect(refusal({ model: MODEL, input })).toEqual({ status: 400, code: 'invalid_value', param: 'input' });
  });

  it('names the bad item and the count in the message', () => {
    expect(failure(() => parseEmbeddingsRequest({ model: MODEL, input: ['a', 3] })).message).toMatch(/item 1 is not a string/);
    expect(failure(() => parseEmbeddingsRequest({ model: MODEL, input: Array.from({ length: 2049 }, () => 'x') })).message).toMatch(/2049 items/);
  });

  it('400 invalid_value param dimensions unless an integer of at least 1', () => {
    for (const dimensions of [0, -1, 1.5, '256', true, Number.NaN]) expect(refusal({ model: MODEL, input: 'x', dimensions })).toEqual({ status: 400, code: 'invalid_value', param: 'dimensions' });
    expect(parseEmbeddingsRequest({ model: MODEL, input: 'x', dimensions: 1 }).dimensions).toBe(1);
  });

  it('400 invalid_value param encoding_format unless float or base64', () => {
    for (const encoding_format of ['FLOAT', 'binary', '', 1]) expect(refusal({ model: MODEL, input: 'x', encoding_format })).toEqual({ status: 400, code: 'invalid_value', param: 'encoding_format' });
  });

  it('400 invalid_value param user when user is not a string', () => {
    expect(refusal({ model: MODEL, input: 'x', user: 42 })).toEqual({ status: 400, code: 'invalid_value', param: 'user' });
  });

  it('checks fields in table order (model first)', () => {
    expect(refusal({ input: [], encoding_format: 'bad' }).code).toBe('missing_model');
    expect(refusal({ model: MODEL, input: [], encoding_format: 'bad' }).param).toBe('input');
  });

  it('400 invalid_json when the body is not an object', () => {
    for (const body of [null, [], 'x', 3]) expect(refusal(body).code).toBe('invalid_json');
  });
});

describe('resolveEmbeddingModel', () => {
  const key = (overrides: Partial<KeyRecord__Output> = {}): KeyRecord__Output =>
    ({ key_id: 'key_1', organization_id: 'org_1', allowed_models: [], account_disabled_models: [], organization_disabled_models: [], project_disabled_models: [], ...overrides }) as KeyRecord__Output;
  const notFound = (id: string, record = key()) => {
    const error = failure(() => resolveEmbeddingModel(catalog, record, id));
    expect([error.status, error.code, error.param]).toEqual([404, 'model_not_found', 'model']);
    return error.message;
  };

  it('returns every embedding model of the catalog', () => {
    for (const model of catalog.embeddingModels) expect(resolveEmbeddingModel(catalog, key(), model.id)).toBe(model);
  });

  it('404 model_not_found for virtual ids, chat models and unknown ids', () => {
    for (const id of ['auto', 'auto/best', 'auto/balanced', 'auto/cheap']) expect(notFound(id)).toMatch(/virtual model/);
    expect(notFound('vendor-1/orion-mini-5')).toMatch(/not an embedding model/);
    expect(notFound('vendor-1/nope')).toMatch(/does not exist/);
  });

  it('404 model_not_found when any level of model access forbids it, read as an unknown model', () => {
    expect(notFound(MODEL, key({ account_disabled_models: [MODEL] }))).toMatch(/does not exist or you do not have access/);
    expect(notFound(MODEL, key({ organization_disabled_models: [MODEL] }))).toMatch(/does not exist/);
    expect(notFound(MODEL, key({ project_disabled_models: [MODEL] }))).toMatch(/does not exist/);
    expect(notFound(MODEL, key({ allowed_models: ['vendor-1/orion-mini-5'] }))).toMatch(/does not exist/);
    // A forbidden chat model says nothing about being a chat model.
    expect(notFound('vendor-1/orion-mini-5', key({ allowed_models: [MODEL] }))).toMatch(/does not exist/);
    expect(resolveEmbeddingModel(catalog, key({ allowed_models: [MODEL] }), MODEL).id).toBe(MODEL);
  });
});
