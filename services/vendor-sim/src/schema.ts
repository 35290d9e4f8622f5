import { createRng, type Rng } from './hash';
import { isRecord } from './request';

/**
 * A small JSON-schema instance generator: given a tool's parameters or a response schema it
 * produces a value valid against it, deterministically from the rng. It covers the subset
 * vendors accept for tools and structured output (OpenAI strict schemas, Anthropic
 * input_schema, Gemini's OpenAPI-style schemas with upper-case types).
 */

type Schema = Record<string, unknown>;

const WORDS = ['alpha', 'amber', 'blue', 'cedar', 'delta', 'ember', 'falcon', 'garnet', 'harbor', 'iris', 'juniper', 'kestrel', 'lumen', 'maple', 'nova', 'onyx', 'pine', 'quartz', 'river', 'sable', 'tide', 'umber', 'vale', 'willow'];

/** Beyond this depth optional properties are left out, so recursive schemas terminate. */
const OPTIONAL_DEPTH = 4;
const MAX_DEPTH = 24;
/**
 * Most values, and most string characters, one instance may hold: a schema asking for more
 * (minItems 10^8, minLength 10^9, several required recursive properties: exponential) gets a
 * value cut short — as a vendor's answer is cut at its output limit — instead of holding the
 * simulator's one thread (and every other request) for minutes. Generation is linear in the
 * budget.
 */
export const MAX_INSTANCE_VALUES = 10_000;
export const MAX_INSTANCE_CHARS = 100_000;

interface Budget {
  /** Values still allowed. */
  left: number;
  /** String characters still allowed (minLength is met only while they last). */
  chars: number;
}

export function generateInstance(schema: unknown, rng: Rng = createRng(1)): unknown {
  return generate(schema, schema, rng, 0, { left: MAX_INSTANCE_VALUES, chars: MAX_INSTANCE_CHARS });
}

function resolveRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return {};
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isRecord(node) ? node[key] : undefined;
  }
  return node ?? {};
}

/** Lower-cased first non-null type; Gemini writes "OBJECT", JSON schema allows type lists. */
export function schemaType(schema: Schema): string | undefined {
  const raw = schema.type;
  const types = (Array.isArray(raw) ? raw : [raw]).filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase());
  const chosen = types.find((t) => t !== 'null') ?? types[0];
  if (chosen && chosen !== 'type_unspecified') return chosen;
  if (isRecord(schema.properties) || Array.isArray(schema.required)) return 'object';
  if (schema.items !== undefined || Array.isArray(schema.prefixItems)) return 'array';
  if (typeof schema.minimum === 'number' || typeof schema.maximum === 'number') return 'number';
  return undefined;
}

function mergeAllOf(schema: Schema, root: unknown): Schema {
  const parts = (schema.allOf as unknown[]).map((part) => {
    const s = isRecord(part) && typeof part.$ref === 'string' ? resolveRef(root, part.$ref) : part;
    return isRecord(s) ? s : {};
  });
  const merged: Schema = { ...schema };
  delete merged.allOf;
  const properties: Schema = {};
  const required = new Set<string>(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const part of parts) {
    for (const [k, v] of Object.entries(part)) {
      if (k === 'properties' && isRecord(v)) Object.assign(properties, v);
      else if (k === 'required' && Array.isArray(v)) v.forEach((r) => typeof r === 'string' && required.add(r));
      else if (merged[k] === undefined) merged[k] = v;
    }
  }
  if (isRecord(schema.properties)) Object.assign(properties, schema.properties);
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

function generate(node: unknown, root: unknown, rng: Rng, depth: number, budget: Budget): unknown {
  if (node === false) return null;
  if (budget.left <= 0) return null;
  budget.left -= 1;
  if (!isRecord(node)) return rng.pick(WORDS);
  if (depth > MAX_DEPTH) return null;
  let schema: Schema = node;
  if (typeof schema.$ref === 'string') return generate(resolveRef(root, schema.$ref), root, rng, depth + 1, budget);
  if (Array.isArray(schema.allOf)) schema = mergeAllOf(schema, root);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return rng.pick(schema.enum);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) {
      const { [key]: _dropped, ...rest } = schema;
      const branch = isRecord(branches[0]) ? branches[0] : {};
      return generate({ ...rest, ...branch }, root, rng, depth + 1, budget);
    }
  }
  switch (schemaType(schema)) {
    case 'object':
      return generateObject(schema, root, rng, depth, budget);
    case 'array':
      return generateArray(schema, root, rng, depth, budget);
    case 'integer':
      return generateInteger(schema, rng);
    case 'number':
      return generateNumber(schema, rng);
    case 'boolean':
      return rng.next() < 0.5;
    case 'null':
      return null;
    default:
      return generateString(schema, rng, budget);
  }
}

function generateObject(schema: Schema, root: unknown, rng: Rng, depth: number, budget: Budget): Record<string, unknown> {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const ordering = Array.isArray(schema.propertyOrdering) ? schema.propertyOrdering.filter((r): r is string => typeof r === 'string') : [];
  const names = [...new Set([...ordering, ...Object.keys(properties), ...required])];
  const out: Record<string, unknown> = {};
  for (const name of names) {
    if (budget.left <= 0) break;
    if (!(name in properties) && !required.includes(name)) continue;
    if (depth >= OPTIONAL_DEPTH && !required.includes(name)) continue;
    out[name] = generate(properties[name] ?? {}, root, rng, depth + 1, budget);
  }
  const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
  const extra = isRecord(schema.additionalProperties) ? schema.additionalProperties : {};
  let count = Object.keys(out).length;
  for (let i = 1; count < minProperties && schema.additionalProperties !== false && budget.left > 0; i++) {
    if (!(`key${i}` in out)) count += 1;
    out[`key${i}`] = generate(extra, root, rng, depth + 1, budget);
  }
  return out;
}

function generateArray(schema: Schema, root: unknown, rng: Rng, depth: number, budget: Budget): unknown[] {
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? (schema.items as unknown[]) : [];
  const items = Array.isArray(schema.items) ? (schema.additionalItems ?? {}) : (schema.items ?? {});
  const minItems = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 1, tuple.length);
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : Math.max(minItems, 1) + 2;
  const lo = Math.max(0, Math.min(minItems, maxItems));
  const hi = Math.max(lo, Math.min(maxItems, lo + 2));
  const count = depth >= OPTIONAL_DEPTH ? lo : rng.int(lo, hi);
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (let i = 0; out.length < count && i < count * 10 + 10 && budget.left > 0; i++) {
    const index = out.length;
    const value = generate(index < tuple.length ? tuple[index] : items, root, rng, depth + 1, budget);
    if (schema.uniqueItems === true) {
      const key = JSON.stringify(value);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(value);
  }
  return out;
}

interface Bounds {
  lo: number;
  hi: number;
}

function numericBounds(schema: Schema, integer: boolean): Bounds {
  const step = integer ? 1 : 0.01;
  let lo = typeof schema.minimum === 'number' ? schema.minimum : -Infinity;
  let hi = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
  if (typeof schema.exclusiveMinimum === 'number') lo = Math.max(lo, schema.exclusiveMinimum + step);
  else if (schema.exclusiveMinimum === true && Number.isFinite(lo)) lo += step;
  if (typeof schema.exclusiveMaximum === 'number') hi = Math.min(hi, schema.exclusiveMaximum - step);
  else if (schema.exclusiveMaximum === true && Number.isFinite(hi)) hi -= step;
  if (!Number.isFinite(lo) && !Number.isFinite(hi)) return { lo: 0, hi: 100 };
  if (!Number.isFinite(lo)) lo = Math.min(0, hi - 100);
  if (!Number.isFinite(hi)) hi = Math.max(lo + 100, 100);
  return { lo, hi: Math.max(lo, hi) };
}

function generateInteger(schema: Schema, rng: Rng): number {
  const { lo, hi } = numericBounds(schema, true);
  const multiple = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : 1;
  const first = Math.ceil(lo / multiple);
  const last = Math.floor(hi / multiple);
  if (last < first) return Math.ceil(lo);
  return rng.int(first, last) * multiple;
}

function generateNumber(schema: Schema, rng: Rng): number {
  const { lo, hi } = numericBounds(schema, false);
  if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0) {
    const m = schema.multipleOf;
    const first = Math.ceil(lo / m);
    const last = Math.floor(hi / m);
    return last < first ? lo : Number((rng.int(first, last) * m).toPrecision(12));
  }
  const value = Math.round((lo + rng.next() * (hi - lo)) * 100) / 100;
  return Math.min(hi, Math.max(lo, value));
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

function generateFormatted(format: string, rng: Rng): string | undefined {
  const date = `${rng.int(2020, 2029)}-${pad2(rng.int(1, 12))}-${pad2(rng.int(1, 28))}`;
  const time = `${pad2(rng.int(0, 23))}:${pad2(rng.int(0, 59))}:${pad2(rng.int(0, 59))}`;
  const hex = (n: number) => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');
  switch (format) {
    case 'date-time':
      return `${date}T${time}Z`;
    case 'date':
      return date;
    case 'time':
      return `${time}Z`;
    case 'duration':
      return `P${rng.int(1, 30)}D`;
    case 'email':
    case 'idn-email':
      return `${rng.pick(WORDS)}${rng.int(1, 99)}@example.com`;
    case 'hostname':
    case 'idn-hostname':
      return `${rng.pick(WORDS)}.example.com`;
    case 'ipv4':
      return `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
    case 'ipv6':
      return `fd00::${hex(4)}`;
    case 'uri':
    case 'url':
    case 'iri':
    case 'uri-reference':
      return `https://example.com/${rng.pick(WORDS)}`;
    case 'uuid':
      return `${hex(8)}-${hex(4)}-4${hex(3)}-${rng.pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
    default:
      return undefined;
  }
}

function generateString(schema: Schema, rng: Rng, budget: Budget): string {
  const formatted = typeof schema.format === 'string' ? generateFormatted(schema.format, rng) : undefined;
  let text = formatted ?? Array.from({ length: rng.int(1, 3) }, () => rng.pick(WORDS)).join(' ');
  const minLength = typeof schema.minLength === 'number' ? Math.min(schema.minLength, Math.max(0, budget.chars)) : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  if ([...text].length < minLength) text = text + 'x'.repeat(minLength - [...text].length);
  if ([...text].length > maxLength) text = [...text].slice(0, Math.max(0, maxLength)).join('');
  budget.chars -= text.length;
  return text;
}

/**
 * Checks a value against the same schema subset; returns the problems found (empty when valid).
 * Used by the tests to prove the generator's output, and handy when debugging a tool schema.
 */
export function validateInstance(schema: unknown, value: unknown): string[] {
  const errors: string[] = [];
  check(schema, schema, value, '$', errors, 0);
  return errors;
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return true;
  }
}

const FORMAT_PATTERNS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  uri: /^[a-z][a-z0-9+.-]*:/i,
  ipv4: /^(\d{1,3}\.){3}\d{1,3}$/,
};

function check(node: unknown, root: unknown, value: unknown, path: string, errors: string[], depth: number): void {
  if (depth > MAX_DEPTH * 2 || node === true || node === undefined) return;
  if (node === false) {
    errors.push(`${path}: no value allowed`);
    return;
  }
  if (!isRecord(node)) return;
  const schema = node;
  if (typeof schema.$ref === 'string') return check(resolveRef(root, schema.$ref), root, value, path, errors, depth + 1);
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) check(part, root, value, path, errors, depth + 1);
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((b) => validateBranch(b, root, value, depth))) errors.push(`${path}: matches no anyOf branch`);
  if (Array.isArray(schema.oneOf) && !schema.oneOf.some((b) => validateBranch(b, root, value, depth))) errors.push(`${path}: matches no oneOf branch`);
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) errors.push(`${path}: not the const value`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) errors.push(`${path}: not in enum`);
  const rawTypes = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const types = rawTypes.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase());
  if (schema.nullable === true) types.push('null');
  if (types.length > 0 && !types.some((t) => typeMatches(t, value))) {
    errors.push(`${path}: expected ${types.join('|')}`);
    return;
  }
  if (isRecord(value)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) for (const r of schema.required) if (typeof r === 'string' && !(r in value)) errors.push(`${path}: missing ${r}`);
    for (const [key, inner] of Object.entries(value)) {
      if (key in properties) check(properties[key], root, inner, `${path}.${key}`, errors, depth + 1);
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected property ${key}`);
      else if (isRecord(schema.additionalProperties)) check(schema.additionalProperties, root, inner, `${path}.${key}`, errors, depth + 1);
    }
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) errors.push(`${path}: fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) errors.push(`${path}: more than ${schema.maxItems} items`);
    const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
    value.forEach((item, i) => check(i < tuple.length ? tuple[i] : Array.isArray(schema.items) ? schema.additionalItems : schema.items, root, item, `${path}[${i}]`, errors, depth + 1));
    if (schema.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) errors.push(`${path}: items not unique`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) errors.push(`${path}: shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) errors.push(`${path}: longer than ${schema.maxLength}`);
    const pattern = typeof schema.format === 'string' ? FORMAT_PATTERNS[schema.format] : undefined;
    if (pattern && !pattern.test(value)) errors.push(`${path}: not a ${String(schema.format)}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${path}: below minimum`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${path}: above maximum`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) errors.push(`${path}: not above exclusiveMinimum`);
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) errors.push(`${path}: not below exclusiveMaximum`);
    if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0) {
      const ratio = value / schema.multipleOf;
      if (Math.abs(ratio - Math.round(ratio)) > 1e-9) errors.push(`${path}: not a multiple of ${schema.multipleOf}`);
    }
  }
}

function validateBranch(branch: unknown, root: unknown, value: unknown, depth: number): boolean {
  const errors: string[] = [];
  check(branch, root, value, '$', errors, depth + 1);
  return errors.length === 0;
}
