import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createRng, type Rng as SimRng } from '../../../services/vendor-sim/src/hash';

/**
 * Hostile requests for the fuzz run, drawn from a seeded PRNG (mulberry32): the same seed gives
 * the same sequence of requests, so a failure is reproduced by its seed and index. Every case is
 * an input a client controls — malformed JSON, wrong types, huge and long values, deep nesting,
 * bad encodings, odd paths and methods, malformed HTTP on a raw socket, bad credentials — never
 * a fault injected into the vendor (no x-sim-* header is ever sent) and never a valid request
 * whose answer the spec makes a 5xx (a capability check on a named model with fallback none).
 */

export interface Rng extends SimRng {
  chance(p: number): boolean;
}

/** vendor-sim's mulberry32 generator, with a coin. */
export function mulberry32(seed: number): Rng {
  const rng = createRng(seed);
  return { ...rng, chance: (p) => rng.next() < p };
}

export interface HttpCase {
  kind: 'http';
  category: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface RawCase {
  kind: 'raw';
  category: string;
  bytes: Buffer;
  /** How many HTTP answers a correct server gives (0: the request is incomplete by design; any answer is still judged). */
  answers: number;
  /** Half-close after writing (the client sends nothing more). */
  end: boolean;
}

export type FuzzCase = HttpCase | RawCase;

export interface Keys {
  /** A key of an organization with credit: requests that pass validation run the whole call. */
  valid: string;
  /**
   * A key of an organization at zero balance that stops at zero: a request that passes parsing
   * and validation ends at admission in 402 insufficient_credits (no vendor call). Used where the
   * point is reading the request (encodings, HTTP, paths, headers), to keep the run fast.
   */
  broke: string;
  /** A key of the same organization without the chat scope. */
  embeddingsOnly: string;
  revoked: string;
}

const MODELS = ['vendor-1/orion-mini-5', 'vendor-2/lyric-haiku-4.5', 'vendor-3/lumen-2.5-flash', 'auto', 'auto/cheap', 'auto/best'] as const;
// Not vendor-3/lumen-embedding-1: no provider serves it yet, which the spec answers 503 no_provider_available.
const EMBEDDING_MODELS = ['vendor-1/orion-embed-3-small', 'vendor-5/breeze-embed'] as const;
const PNG_1PX = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const WEIRD_TEXT = ['\u202e\u202d', '\u0000\u0001\u001f', '\ud83d\ude00'.repeat(50), 'e\u0301'.repeat(500), '\uffff\ufffe', '𝕏'.repeat(100), '<script>alert(1)</script>', "'; DROP TABLE billing.ledger_entry; --", '${jndi:ldap://x}', '{{7*7}}', '../../../../etc/passwd', '%s%s%s%n', 'null', 'undefined', 'NaN', '\r\n\r\nHTTP/1.1 200 OK'];

function longString(rng: Rng): string {
  const length = rng.chance(0.1) ? 200_000 : rng.pick([300, 1000, 10_000, 65_537]);
  return rng.pick(['x', 'ab ', '\u00e9', '🙂', '\\', '"'])!.repeat(Math.ceil(length / 2)).slice(0, length);
}

function nestedValue(depth: number, asArray: boolean): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = asArray ? [value] : { a: value };
  return value;
}

/** A value of the wrong type, out of range, huge, deep or odd. */
function hostileValue(rng: Rng): unknown {
  switch (rng.int(0, 17)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -1, -0.5, 1.5, 1e308, -1e308, 2 ** 53 + 2, 4096, 4097, 257, 3.14159]);
    case 3:
      return '';
    case 4:
      return rng.pick(WEIRD_TEXT);
    case 5:
      return longString(rng);
    case 6:
      return [];
    case 7:
      return {};
    case 8:
      return nestedValue(rng.int(2, 70), rng.chance(0.5));
    case 9:
      return Array.from({ length: rng.pick([2, 100, 5000]) }, () => rng.pick([null, 1, 'x', {}, []]));
    case 10:
      return rng.pick(['10', 'true', '1e5', '-1', ' ', '\t']);
    case 11:
      return { type: rng.pick(['function', 'text', 'json_schema', 'image_url', 'x']), [rng.pick(['text', 'function', 'json_schema', 'image_url'])]: hostileLeaf(rng) };
    case 12:
      return [{ role: rng.pick(['user', 'system', 'assistant', 'tool', 'function', 'developer', 'root', '']), content: hostileLeaf(rng) }];
    case 13:
      return rng.pick(['none', 'auto', 'required', 'same_vendor', 'vendor-99', 'auto/worst', '5m', '2h', '-1s', '169h', '0s', 'xhigh', 'json_object']);
    case 14:
      return Object.fromEntries(Array.from({ length: rng.pick([17, 100, 1000]) }, (_, i) => [`k${i}`, rng.chance(0.5) ? 'v' : i]));
    case 15:
      return [hostileLeaf(rng), hostileLeaf(rng)];
    case 16:
      return { url: rng.pick(['data:image/png;base64,@@', 'data:text/html;base64,PGh0bWw+', 'file:///etc/passwd', 'http://127.0.0.1:1/x.png', 'http://169.254.169.254/latest/meta-data', 'javascript:alert(1)', 'gopher://x', '', 'data:image/png;base64,' + 'A'.repeat(70_000)]) };
    default:
      return Number.MAX_SAFE_INTEGER;
  }
}

function hostileLeaf(rng: Rng): unknown {
  return rng.pick([null, 0, -1, '', 'x', [], {}, true, 1.5, 'a'.repeat(300)]);
}

function baseChat(rng: Rng): Record<string, unknown> {
  const model = rng.pick(MODELS);
  const body: Record<string, unknown> = { model, max_tokens: rng.int(1, 12), messages: [{ role: 'user', content: `fuzz ${rng.int(0, 1e9)}` }] };
  const messages = body.messages as unknown[];
  if (rng.chance(0.3)) messages.unshift({ role: 'system', content: 'be brief' });
  if (rng.chance(0.2)) messages.push({ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] }, { role: 'tool', tool_call_id: 'call_1', content: 'result' });
  if (rng.chance(0.15)) messages.push({ role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url: PNG_1PX } }] });
  if (rng.chance(0.25)) body.tools = [{ type: 'function', function: { name: 'lookup', description: 'look up', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } }];
  if (rng.chance(0.1)) body.response_format = { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } } };
  if (rng.chance(0.1)) body.stream = true;
  if (rng.chance(0.1)) body.svc = { session_id: `fuzz-${rng.int(0, 100)}` };
  return body;
}

const CHAT_PATHS = [
  'model', 'messages', 'messages.0', 'messages.0.role', 'messages.0.content', 'messages.0.content.0', 'messages.0.content.0.type', 'messages.0.content.0.text',
  'messages.0.content.0.image_url', 'messages.0.content.0.image_url.url', 'messages.0.name', 'messages.0.tool_calls', 'messages.1', 'messages.1.tool_calls.0.function.arguments',
  'messages.1.tool_calls.0.id', 'messages.1.tool_calls.0.type', 'messages.2.tool_call_id', 'tools', 'tools.0', 'tools.0.type', 'tools.0.function', 'tools.0.function.name',
  'tools.0.function.parameters', 'tools.0.function.parameters.properties', 'tools.0.function.description', 'tools.0.function.strict', 'tool_choice', 'parallel_tool_calls',
  'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'n', 'stream', 'stream_options', 'stream_options.include_usage', 'stop', 'response_format',
  'response_format.type', 'response_format.json_schema', 'response_format.json_schema.schema', 'reasoning_effort', 'logprobs', 'top_logprobs', 'audio', 'modalities',
  'prediction', 'web_search_options', 'seed', 'logit_bias', 'presence_penalty', 'frequency_penalty', 'user', 'metadata', 'store', 'svc', 'svc.session_id', 'svc.vendors',
  'svc.fallback', 'svc.cache', 'svc.cache.ttl', 'svc.cache.breakpoints', 'svc.split', 'svc.deadline', 'svc.allow_standard_price', 'functions', 'function_call',
] as const;

const EMBEDDING_PATHS = ['model', 'input', 'input.0', 'encoding_format', 'dimensions', 'user', 'svc'] as const;

/** Sets (or deletes) the value at a dotted path, creating containers on the way. */
function setPath(target: Record<string, unknown>, path: string, value: unknown, remove: boolean): void {
  const parts = path.split('.');
  let node: unknown = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return;
    const container = node as Record<string, unknown>;
    if (typeof container[part] !== 'object' || container[part] === null) container[part] = /^\d+$/.test(parts[parts.indexOf(part) + 1] ?? '') ? [] : {};
    node = container[part];
  }
  if (typeof node !== 'object' || node === null) return;
  const last = parts.at(-1)!;
  if (remove) delete (node as Record<string, unknown>)[last];
  else (node as Record<string, unknown>)[last] = value;
}

function mutate(rng: Rng, body: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  const mutations = rng.int(1, 3);
  for (let i = 0; i < mutations; i += 1) {
    const path = rng.pick(paths);
    if (path === 'model' && rng.chance(0.5)) {
      body.model = rng.pick(['', 'gpt-4', 'vendor-1/', '/orion-mini-5', 'vendor-1/orion-mini-5 ', 'VENDOR-1/ORION-MINI-5', 'auto/', 'auto/none', 'vendor-9/x', `vendor-1/${'m'.repeat(rng.pick([200, 100_000]))}`, 'vendor-1/../vendor-2/lyric-haiku-4.5', 'vendor-1/orion-mini-5\u0000', 'vendor-1/orion-embed-3-small', 'vendor-8/decision-1.13.0 ']);
      continue;
    }
    setPath(body, path, hostileValue(rng), rng.chance(0.15));
  }
  if (rng.chance(0.2)) body[rng.pick(['unknown', 'x'.repeat(300), '\u0000', '', 'constructor', 'toString', 'hasOwnProperty'])] = hostileValue(rng);
  return body;
}

function jsonHeaders(key: string, rng: Rng): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (rng.chance(0.85)) headers.authorization = `Bearer ${key}`;
  else headers['x-api-key'] = key;
  return headers;
}

/** Valid JSON text of a mutated chat body, sometimes with a prototype key spliced in. */
function chatCase(rng: Rng, keys: Keys): HttpCase {
  const body = mutate(rng, baseChat(rng), CHAT_PATHS);
  let text = JSON.stringify(body);
  if (rng.chance(0.05)) text = text.replace('{', `{"__proto__":${JSON.stringify(hostileValue(rng))},`);
  return { kind: 'http', category: 'chat-fields', method: 'POST', path: '/v1/chat/completions', headers: jsonHeaders(keys.valid, rng), body: text };
}

function embeddingsCase(rng: Rng, keys: Keys): HttpCase {
  const body: Record<string, unknown> = { model: rng.pick(EMBEDDING_MODELS), input: rng.chance(0.5) ? 'fuzz' : ['a', 'b'] };
  if (rng.chance(0.3)) body.encoding_format = rng.pick(['float', 'base64']);
  const mutated = mutate(rng, body, EMBEDDING_PATHS);
  if (rng.chance(0.1)) mutated.input = Array.from({ length: rng.pick([2048, 2049, 5000]) }, (_, i) => `w${i}`);
  return { kind: 'http', category: 'embeddings-fields', method: 'POST', path: '/v1/embeddings', headers: jsonHeaders(keys.valid, rng), body: JSON.stringify(mutated) };
}

/** A valid body as text, then broken at the byte level. */
function malformedJsonCase(rng: Rng, keys: Keys): HttpCase {
  const text = JSON.stringify(baseChat(rng));
  const at = rng.int(0, text.length);
  const broken: string | Buffer = (() => {
    switch (rng.int(0, 19)) {
      case 0:
        return text.slice(0, at);
      case 1:
        return `${text.slice(0, at)}${rng.pick(['}', ']', ',', ':', '"', '\\', '\u0000', '{', 'NaN', 'undefined'])}${text.slice(at)}`;
      case 2:
        return `${text}${rng.pick(['garbage', '}', '\n{}', '\u0000', ','])}`;
      case 3:
        return `\ufeff${text}`;
      case 4:
        return text.replace(/"/g, "'");
      case 5:
        return text.replace('"max_tokens":', '"max_tokens":NaN,"x":').replace(/,"x":\d+/, '');
      case 6:
        return text.replace(/}$/, ',}');
      case 7:
        return `/* comment */${text}`;
      case 8:
        return `${'['.repeat(rng.pick([65, 1000, rng.chance(0.1) ? 100_000 : 10_000]))}${']'.repeat(rng.pick([0, 65, 1000]))}`;
      case 9:
        return `${'{"a":'.repeat(rng.pick([65, 1000, rng.chance(0.1) ? 100_000 : 10_000]))}1${'}'.repeat(rng.pick([0, 65, 1000]))}`;
      case 10:
        return text.replace('"max_tokens":', `"max_tokens":1${'0'.repeat(400)},"y":`);
      case 11:
        return rng.pick(['', ' ', '\n\n', 'null', '[]', '"x"', '0', 'true', '{}', '{"":""}', '{"messages":{}}']);
      case 12:
        return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(rng.pick([[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]])), Buffer.from(text.slice(at))]);
      case 13:
        return text.replace('"content":"', '"content":"\\ud800\\udbff');
      case 14:
        return text.replace('"content":"', '"content":"\u0001\u0002\t\n');
      case 15:
        return `${text}${text}`;
      case 16:
        return text.replace('"model":', '"model":"x","model":');
      case 17:
        return Buffer.from(text, 'utf16le');
      case 18:
        return `{"messages":[${Array.from({ length: 5000 }, () => '{"role":"user","content":"x"}').join(',')}]`;
      default:
        return text.replace(/\d+/, '1e999');
    }
  })();
  return { kind: 'http', category: 'malformed-json', method: 'POST', path: rng.chance(0.8) ? '/v1/chat/completions' : '/v1/embeddings', headers: jsonHeaders(rng.chance(0.1) ? keys.valid : keys.broke, rng), body: broken };
}

/** A gzip body that inflates past the 32 MB limit (built once). */
let bomb: Buffer | undefined;

function encodingCase(rng: Rng, keys: Keys): HttpCase {
  const valid = Buffer.from(JSON.stringify(baseChat(rng)));
  const garbage = () => Buffer.from(Array.from({ length: rng.int(1, 64) }, () => rng.int(0, 255)));
  const encodings: Array<[string, () => Buffer]> = [
    ['gzip', () => gzipSync(valid)],
    ['gzip', garbage],
    ['gzip', () => gzipSync(valid).subarray(0, 12)],
    ['deflate', () => deflateSync(valid)],
    ['deflate', garbage],
    ['br', () => brotliCompressSync(valid)],
    ['br', garbage],
    ['gzip, gzip', () => gzipSync(valid)],
    ['identity', () => valid],
    ['zstd', () => valid],
    ['compress', () => valid],
    ['x-gzip', () => gzipSync(valid)],
    ['GZIP', () => gzipSync(valid)],
    ['gzip', () => gzipSync(Buffer.from('{"a":'.repeat(100) + '1' + '}'.repeat(100)))],
  ];
  // Rarely (inflating 32 MB costs the edge a fraction of a second each time): a body that inflates past the limit.
  if (rng.chance(0.05)) encodings.push(['gzip', () => (bomb ??= gzipSync(Buffer.alloc(40 * 1024 * 1024, 0x20)))]);
  const contentTypes = ['application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json; charset=bogus-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', '', 'application/json; charset=', 'application/json;;;', 'application/*', '*/*', 'application/json, text/html'];
  const headers: Record<string, string> = { authorization: `Bearer ${rng.chance(0.1) ? keys.valid : keys.broke}` };
  const contentType = rng.pick(contentTypes);
  if (contentType) headers['content-type'] = contentType;
  let body: Buffer = valid;
  if (rng.chance(0.6)) {
    const [encoding, encode] = rng.pick(encodings);
    headers['content-encoding'] = encoding;
    body = encode();
  } else if (contentType.includes('utf-16')) {
    body = Buffer.from(valid.toString(), 'utf16le');
  }
  return { kind: 'http', category: 'encodings', method: 'POST', path: rng.chance(0.85) ? '/v1/chat/completions' : '/v1/embeddings', headers, body };
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'FOO', 'M-SEARCH', 'LINK', 'PURGE'] as const;
const PATHS = [
  '/', '/v1', '/v1/', '/v2/chat/completions', '/v1/chat/completions', '/v1/chat/completions/', '/v1/chat/completions/x', '/V1/CHAT/COMPLETIONS', '/v1/chat/completions;x=1',
  '/v1/embeddings', '/v1/models', '/v1/models/', '/v1/models/%ZZ', '/v1/models/%00', '/v1/models/%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/v1/models/vendor-1%2Forion-mini-5',
  '/v1/models/vendor-1/orion-mini-5', '/v1/models/auto', '/v1/models/..', '/v1/models/\u00e9', '/v1/models/%F0%9F%98%80', '/v1/models/%C0%80', '/v1/models/%', '/v1/../../etc/passwd',
  '//v1//chat//completions', '/v1/chat/completions?model=x&model=y', '/v1/chat/completions?%ZZ=%ZZ', '/v1/public/plan', '/v1/public/free-tier', '/v1/public/auto-models',
  '/v1/public/catalog-export', '/v1/public/%ZZ', '/v1/responses', '/v1/conversations', '/v1/files', '/v1/batches', '/healthz', '/readyz', '/metrics', '/favicon.ico',
  '/.env', '/v1/chat\\completions', '/v1/%2e%2e/v1/models', '/v1/models/' + 'a'.repeat(8000), '/v1/models?' + 'q='.repeat(3000), '/v1/chat/completions#frag',
] as const;

function pathCase(rng: Rng, keys: Keys): HttpCase {
  const method = rng.pick(METHODS);
  let path: string = rng.pick(PATHS);
  if (rng.chance(0.2)) path += `/${encodeURIComponent(rng.pick(WEIRD_TEXT))}`;
  if (rng.chance(0.1)) path += `?${'%'.repeat(rng.int(1, 3))}${rng.int(0, 99)}`;
  const headers: Record<string, string> = {};
  if (rng.chance(0.8)) headers.authorization = `Bearer ${rng.chance(0.1) ? keys.valid : keys.broke}`;
  const withBody = method !== 'GET' && method !== 'HEAD' && rng.chance(0.7);
  if (withBody) headers['content-type'] = 'application/json';
  return { kind: 'http', category: 'paths-methods', method, path, headers, ...(withBody ? { body: JSON.stringify(baseChat(rng)) } : {}) };
}

function authCase(rng: Rng, keys: Keys): HttpCase {
  const variants: Array<Record<string, string>> = [
    {},
    { authorization: '' },
    { authorization: 'Bearer' },
    { authorization: 'Bearer ' },
    { authorization: `Bearer  ${keys.valid}` },
    { authorization: `Basic ${Buffer.from(`user:${keys.valid}`).toString('base64')}` },
    { authorization: `Token ${keys.valid}` },
    { authorization: keys.valid },
    { authorization: `Bearer ${keys.valid.slice(0, -1)}` },
    { authorization: `Bearer ${keys.valid}x` },
    { authorization: `Bearer ${keys.valid.toUpperCase()}` },
    { authorization: `Bearer svc_live_${'A'.repeat(43)}` },
    { authorization: `Bearer svc_test_${keys.valid.slice(9)}` },
    { authorization: `Bearer ${'k'.repeat(rng.pick([100, 4000, 12_000]))}` },
    { authorization: `Bearer ${keys.revoked}` },
    { authorization: `Bearer ${keys.embeddingsOnly}` },
    { 'x-api-key': '' },
    { 'x-api-key': 'svc_live_nope' },
    { 'x-api-key': keys.revoked },
    { authorization: 'Bearer nope', 'x-api-key': keys.valid },
    { authorization: `Bearer ${keys.revoked}`, 'x-api-key': keys.valid },
    { authorization: `Bearer ${keys.valid}, Bearer ${keys.valid}` },
    { authorization: 'Bearer %00%0d%0a' },
    { authorization: 'Bearer \u00ff\u00fe' },
  ];
  const headers = { 'content-type': 'application/json', ...rng.pick(variants) };
  const embeddings = rng.chance(0.3);
  return { kind: 'http', category: 'auth', method: 'POST', path: embeddings ? '/v1/embeddings' : '/v1/chat/completions', headers, body: JSON.stringify(embeddings ? { model: 'vendor-1/orion-embed-3-small', input: 'x' } : baseChat(rng)) };
}

/** The x-svc-* request headers with values of the wrong kind, and oversized or numerous headers. */
function headerCase(rng: Rng, keys: Keys): HttpCase {
  const headers: Record<string, string> = { authorization: `Bearer ${rng.chance(0.1) ? keys.valid : keys.broke}`, 'content-type': 'application/json' };
  const name = rng.pick(['x-svc-fallback', 'x-svc-session-id', 'x-svc-vendors', 'x-svc-cache-ttl', 'x-svc-deadline', 'x-svc-split', 'x-svc-cache-breakpoints', 'x-request-id', 'accept', 'accept-encoding', 'user-agent', 'x-forwarded-for', 'origin', 'expect-ct']);
  headers[name] = rng.pick(['', ' ', 'none,none', 'vendor-99', 'x'.repeat(rng.pick([129, 4000, 9000])), '-1', '1e9', 'null', '%ZZ', '\t\t', 'gzip;q=nope', '*/*;q=2', 'req_../../x']);
  if (rng.chance(0.15)) for (let i = 0; i < rng.pick([50, 200]); i += 1) headers[`x-fuzz-${i}`] = 'v'.repeat(rng.int(1, 80));
  return { kind: 'http', category: 'headers', method: 'POST', path: rng.chance(0.8) ? '/v1/chat/completions' : '/v1/embeddings', headers, body: JSON.stringify(rng.chance(0.8) ? baseChat(rng) : { model: 'vendor-1/orion-embed-3-small', input: 'x' }) };
}

/** Malformed HTTP/1.1 on a raw socket: what Node's parser refuses, and what it lets through. */
function rawCase(rng: Rng, keys: Keys): RawCase {
  const body = JSON.stringify(baseChat(rng));
  const auth = `Authorization: Bearer ${rng.chance(0.1) ? keys.valid : keys.broke}\r\n`;
  const ok = (extra = '', path = '/v1/chat/completions') => `POST ${path} HTTP/1.1\r\nHost: edge\r\n${auth}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
  const templates: Array<() => Omit<RawCase, 'kind' | 'category'>> = [
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\nX-Bad: a\u0000b\r\nContent-Length: 2\r\n\r\n{}`, 'latin1'), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\n${auth}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GET /v1/models HTTP/1.1\r\nHost: edge\r\nX-Big: ${'h'.repeat(rng.pick([17_000, 20_000, 70_000]))}\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GARBAGE\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GET / HTTP/9.9\r\nHost: edge\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\nContent-Length: -5\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\nContent-Length: abc\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\n${auth}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\n${auth}Transfer-Encoding: chunked\r\n\r\n2\r\n{}0\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\n${auth}Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\nTransfer-Encoding: bogus\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GET /v1/models HTTP/1.1\r\nHost: edge\r\nNoColonHere\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GET /v1/models HTTP/1.1\nHost: edge\n${auth.replace('\r\n', '\n')}\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GET /v1/models HTTP/1.1\r\nHost: edge\r\nX-Folded: a\r\n  b\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GET http://evil.example/v1/models HTTP/1.1\r\nHost: edge\r\n${auth}\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`TRACE /v1/models HTTP/1.1\r\nHost: edge\r\n${auth}\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`${'M'.repeat(300)} /v1/models HTTP/1.1\r\nHost: edge\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GET /v1/models/${'u'.repeat(100_000)} HTTP/1.1\r\nHost: edge\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GET /v1/mo dels HTTP/1.1\r\nHost: edge\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GET /v1/models\u0000 HTTP/1.1\r\nHost: edge\r\n\r\n`, 'latin1'), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GET /v1/models HTTP/1.1\r\nHost: edge\r\n${auth}\r\nGET /v1/models HTTP/1.1\r\nHost: edge\r\n${auth}\r\n`), answers: 2, end: false }),
    // Bad bytes pipelined behind a good request: that request's answer, whole; then the connection closes.
    () => ({ bytes: Buffer.from(`${ok()}GARBAGE\r\n\r\n`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\n${auth}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body) + 50}\r\n\r\n${body}`), answers: 0, end: true }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\n${auth}Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.0\r\n${auth}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\nAuthorization: Bearer \u00ff\u00e9\u0001\r\nContent-Length: 2\r\n\r\n{}`, 'latin1'), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\nHost: other\r\n${auth}Content-Length: 2\r\n\r\n{}`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\n${auth}Content-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`\r\n\r\n\r\n${ok()}`), answers: 1, end: false }),
    () => ({ bytes: Buffer.from(`GET /v1/models HTTP/1.1\r\nHost: edge\r\n${auth}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`), answers: 1, end: false }),
    // Over the body limit, then silence (the body-parser answers 413 only once it has read the body): incomplete by design.
    () => ({ bytes: Buffer.from(`POST /v1/chat/completions HTTP/1.1\r\nHost: edge\r\n${auth}Content-Type: application/json\r\nContent-Length: 33554500\r\n\r\n{`), answers: 0, end: true }),
    () => ({ bytes: Buffer.from(Array.from({ length: rng.int(1, 200) }, () => rng.int(0, 255))), answers: 1, end: false }),
  ];
  return { kind: 'raw', category: 'raw-http', ...rng.pick(templates)() };
}

const CATEGORIES: Array<[number, (rng: Rng, keys: Keys) => FuzzCase]> = [
  [30, chatCase],
  [8, embeddingsCase],
  [16, malformedJsonCase],
  [10, encodingCase],
  [14, pathCase],
  [8, authCase],
  [6, headerCase],
  [8, rawCase],
];
const TOTAL_WEIGHT = CATEGORIES.reduce((sum, [weight]) => sum + weight, 0);

/** The next hostile request. */
export function nextCase(rng: Rng, keys: Keys): FuzzCase {
  let roll = rng.next() * TOTAL_WEIGHT;
  for (const [weight, make] of CATEGORIES) {
    roll -= weight;
    if (roll < 0) return make(rng, keys);
  }
  return chatCase(rng, keys);
}
