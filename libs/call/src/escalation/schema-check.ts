import { Validator, type Schema } from '@cfworker/json-schema';

/**
 * A JSON value against a JSON schema, for the service's answer check (escalation.ts), with
 * @cfworker/json-schema (draft 2020-12; an interpreter, so a tenant's schema is never compiled to
 * code). Two things are left out on purpose:
 *  - `pattern` and `patternProperties`: a tenant's regular expression run over a model's answer
 *    on the shared event loop is a catastrophic-backtracking risk for every other tenant; a
 *    `patternProperties` object also drops its `additionalProperties` so those properties pass;
 *  - a schema the validator cannot read (a remote `$ref`, an invalid keyword) never fails an
 *    answer: the check replaces an answer only when it is surely wrong.
 * Returns the first mismatch as the validator's location and reason, or undefined when it fits.
 */
export function schemaMismatch(schema: unknown, value: unknown): string | undefined {
  if (schema === undefined || schema === null) return undefined;
  let result;
  try {
    result = new Validator(withoutPatterns(schema) as Schema | boolean, '2020-12', true).validate(value);
  } catch {
    return undefined;
  }
  if (result.valid) return undefined;
  // The innermost error names the failing place; the outer ones only say which keyword led there.
  const error = result.errors[result.errors.length - 1];
  return error ? `${error.instanceLocation}: ${error.error}` : 'does not match the schema';
}

const MAX_DEPTH = 64;

function withoutPatterns(schema: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return true;
  if (Array.isArray(schema)) return schema.map((part) => withoutPatterns(part, depth + 1));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  const source = schema as Record<string, unknown>;
  for (const [key, child] of Object.entries(source)) {
    if (key === 'pattern' || key === 'patternProperties') continue;
    if (key === 'additionalProperties' && 'patternProperties' in source) continue;
    // Values of these keywords are data, not schemas.
    out[key] = key === 'enum' || key === 'const' || key === 'default' || key === 'examples' ? child : withoutPatterns(child, depth + 1);
  }
  return out;
}
