import { createRng } from './hash';
import { generateInstance, MAX_INSTANCE_VALUES, MAX_INSTANCE_CHARS, validateInstance } from './schema';

const schemas: Record<string, unknown> = {
  flat: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 3, maxLength: 10 },
      count: { type: 'integer', minimum: 5, maximum: 9 },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      price: { type: 'number', minimum: 10, maximum: 20, multipleOf: 0.5 },
      active: { type: 'boolean' },
      kind: { type: 'string', enum: ['a', 'b', 'c'] },
      fixed: { const: 'same' },
      nothing: { type: 'null' },
    },
    required: ['name', 'count', 'ratio', 'price', 'active', 'kind', 'fixed', 'nothing'],
    additionalProperties: false,
  },
  formats: {
    type: 'object',
    properties: Object.fromEntries(['date-time', 'date', 'email', 'uuid', 'uri', 'ipv4'].map((f) => [f, { type: 'string', format: f }])),
    required: ['date-time', 'date', 'email', 'uuid', 'uri', 'ipv4'],
  },
  arrays: {
    type: 'object',
    properties: {
      tags: { type: 'array', items: { type: 'string' }, minItems: 3, maxItems: 5, uniqueItems: true },
      empty: { type: 'array', items: { type: 'integer' }, maxItems: 0 },
      pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], minItems: 2 },
      matrix: { type: 'array', items: { type: 'array', items: { type: 'number' }, minItems: 2 }, minItems: 1 },
    },
    required: ['tags', 'empty', 'pair', 'matrix'],
  },
  nested: {
    type: 'object',
    properties: {
      user: {
        type: 'object',
        properties: { address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string', maxLength: 5 } }, required: ['city', 'zip'] } },
        required: ['address'],
      },
    },
    required: ['user'],
  },
  unions: {
    type: 'object',
    properties: {
      either: { anyOf: [{ type: 'integer', minimum: 100 }, { type: 'string' }] },
      one: { oneOf: [{ type: 'object', properties: { x: { type: 'number' } }, required: ['x'] }, { type: 'boolean' }] },
      nullable: { type: ['string', 'null'] },
      merged: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } }, required: ['b'] }] },
    },
    required: ['either', 'one', 'nullable', 'merged'],
  },
  refs: {
    $defs: { node: { type: 'object', properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['value'] } },
    type: 'object',
    properties: { root: { $ref: '#/$defs/node' } },
    required: ['root'],
  },
  gemini: {
    type: 'OBJECT',
    properties: { title: { type: 'STRING' }, score: { type: 'NUMBER', minimum: 0, maximum: 1 }, tags: { type: 'ARRAY', items: { type: 'STRING' } }, maybe: { type: 'STRING', nullable: true } },
    required: ['title', 'score'],
    propertyOrdering: ['score', 'title', 'tags'],
  },
};

describe('generateInstance', () => {
  it.each(Object.keys(schemas))('produces valid instances of the %s schema across seeds', (name) => {
    const schema = schemas[name];
    for (let seed = 1; seed <= 40; seed++) {
      const value = generateInstance(schema, createRng(seed));
      expect(validateInstance(schema, value)).toEqual([]);
    }
  });

  it('is deterministic for a seed', () => {
    expect(generateInstance(schemas.flat, createRng(7))).toEqual(generateInstance(schemas.flat, createRng(7)));
  });

  it('takes the first anyOf branch', () => {
    const value = generateInstance({ anyOf: [{ type: 'integer', minimum: 100, maximum: 100 }, { type: 'string' }] }, createRng(3));
    expect(value).toBe(100);
  });

  it('follows Gemini propertyOrdering', () => {
    const value = generateInstance(schemas.gemini, createRng(1)) as Record<string, unknown>;
    expect(Object.keys(value).slice(0, 3)).toEqual(['score', 'title', 'tags']);
  });

  it('terminates on recursive schemas', () => {
    const recursive = { type: 'object', properties: { next: { $ref: '#' }, v: { type: 'string' } }, required: ['next'] };
    expect(() => generateInstance(recursive, createRng(1))).not.toThrow();
  });

  it('gives an empty object for an empty-object tool schema', () => {
    expect(generateInstance({ type: 'object', properties: {} })).toEqual({});
  });

  // A schema is the caller's input: whatever it asks for, one instance costs a bounded amount of work
  // (the simulator has one thread; a tool schema must not stall every other request).
  it.each([
    ['minItems 10^8', { type: 'object', properties: { a: { type: 'array', minItems: 100_000_000, items: { type: 'string' } } }, required: ['a'] }],
    ['minLength 10^9', { type: 'object', properties: { a: { type: 'string', minLength: 1_000_000_000 } }, required: ['a'] }],
    ['10^8 strings of 10^9 characters', { type: 'array', minItems: 100_000_000, items: { type: 'string', minLength: 1_000_000_000 } }],
    ['minProperties 10^8', { type: 'object', minProperties: 100_000_000 }],
    ['nested arrays of 1000', { type: 'array', minItems: 1000, items: { type: 'array', minItems: 1000, items: { type: 'array', minItems: 1000, items: { type: 'integer' } } } }],
    ['two required recursive properties (2^24 nodes)', { type: 'object', properties: { l: { $ref: '#' }, r: { $ref: '#' } }, required: ['l', 'r'] }],
    ['uniqueItems over a const', { type: 'array', minItems: 100_000_000, uniqueItems: true, items: { const: 1 } }],
  ])('bounds the work for %s', (_name, schema) => {
    const started = Date.now();
    const text = JSON.stringify(generateInstance(schema, createRng(1)));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(text.length).toBeLessThan(MAX_INSTANCE_VALUES * 40 + MAX_INSTANCE_CHARS);
  });
});

describe('validateInstance', () => {
  it('reports wrong types, missing fields, bounds and enums', () => {
    const schema = schemas.flat;
    expect(validateInstance(schema, { name: 'ab' }).length).toBeGreaterThan(0);
    expect(validateInstance({ type: 'integer', maximum: 3 }, 4)).toEqual(['$: above maximum']);
    expect(validateInstance({ enum: ['x'] }, 'y')).toEqual(['$: not in enum']);
    expect(validateInstance({ type: 'object', additionalProperties: false }, { z: 1 })).toEqual(['$: unexpected property z']);
    expect(validateInstance({ type: 'string', format: 'uuid' }, 'nope')).toEqual(['$: not a uuid']);
  });
});
