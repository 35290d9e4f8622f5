import { IMAGE_CHARACTERS, tokensForCharacters } from '@svc/call';
import { ServiceError } from '@svc/errors';
import { ids } from '@svc/ids';

/**
 * Conversation items in the spec's shapes (Conversation items): what is stored, listed and
 * given back as history. Input items arrive in the request shapes of POST /v1/responses `input`
 * (or of conversation `items`) and are normalised here into the stored shapes with new ids; a
 * response's output items keep their shape and get stored ids.
 */

export type Role = 'user' | 'assistant' | 'system' | 'developer';

export interface InputTextPart {
  type: 'input_text';
  text: string;
}
export interface InputImagePart {
  type: 'input_image';
  image_url: string;
  detail?: string;
}
export interface OutputTextPart {
  type: 'output_text';
  text: string;
  annotations: unknown[];
}
export type ContentPart = InputTextPart | InputImagePart | OutputTextPart;

export interface MessageItem {
  type: 'message';
  id: string;
  status: string;
  role: Role;
  content: ContentPart[];
}
export interface FunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: string;
}
export interface FunctionCallOutputItem {
  type: 'function_call_output';
  id: string;
  call_id: string;
  output: string;
  status: 'completed';
}
export interface CompactionItem {
  type: 'compaction';
  id: string;
  summary: string;
}
export type StoredItem = MessageItem | FunctionCallItem | FunctionCallOutputItem | CompactionItem;
export type ItemType = StoredItem['type'];

/** Where an item sits: a turn's input or output, added without a turn, or a compaction summary. */
export type ItemOrigin = 'input' | 'output' | 'added' | 'compaction';

/** An item ready to store: its public shape and its size under the token rule. */
export interface PreparedItem {
  item: StoredItem;
  characters: number;
}

const ROLES: readonly Role[] = ['user', 'assistant', 'system', 'developer'];
const ITEM_ID = /^(msg|fc|fco|cmp)_[0-9a-f]{32}$/;

/** True for a stored item id of any kind (msg_, fc_, fco_, cmp_). */
export function isItemId(value: string): boolean {
  return ITEM_ID.test(value);
}

/**
 * Characters of an item under the one token rule (libs/call tokens.ts, tokens = characters / 4
 * rounded up), counted as the call pipeline counts the vendor message the item becomes: text
 * parts by length, an image as IMAGE_CHARACTERS, a function call as the JSON of its tool call
 * ({id, name, arguments}), a function call's output and a compaction summary by length.
 */
export function itemCharacters(item: StoredItem): number {
  switch (item.type) {
    case 'message':
      return item.content.reduce((sum, part) => sum + (part.type === 'input_image' ? IMAGE_CHARACTERS : part.text.length), 0);
    case 'function_call':
      return JSON.stringify([{ id: item.call_id, name: item.name, arguments: item.arguments }]).length;
    case 'function_call_output':
      return item.output.length;
    case 'compaction':
      return item.summary.length;
  }
}

/** Tokens of a number of characters (the rule of libs/call). */
export function tokensOf(characters: number): number {
  return tokensForCharacters(characters);
}

function prepared(item: StoredItem): PreparedItem {
  return { item, characters: itemCharacters(item) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const missing = (param: string, what: string) => new ServiceError('missing_field', `Missing required parameter: '${param}'${what ? ` (${what})` : ''}.`, { param });
const invalid = (param: string, message: string) => new ServiceError('invalid_value', message, { param });
const unsupported = (param: string, value: string) => new ServiceError('unsupported_parameter', `Unsupported value '${value}' for '${param}'.`, { param });

function requiredString(source: Record<string, unknown>, field: string, param: string): string {
  const value = source[field];
  if (value === undefined || value === null) throw missing(`${param}.${field}`, '');
  if (typeof value !== 'string') throw invalid(`${param}.${field}`, `Invalid type for '${param}.${field}': expected a string.`);
  return value;
}

function normaliseParts(role: Role, content: unknown, param: string): ContentPart[] {
  const textPart = (text: string): ContentPart => (role === 'assistant' ? { type: 'output_text', text, annotations: [] } : { type: 'input_text', text });
  if (typeof content === 'string') return [textPart(content)];
  if (!Array.isArray(content)) throw invalid(`${param}.content`, `Invalid type for '${param}.content': expected a string or an array of content parts.`);
  return content.map((raw, index) => {
    const partParam = `${param}.content[${index}]`;
    if (!isObject(raw)) throw invalid(partParam, `Invalid type for '${partParam}': expected an object.`);
    const type = raw.type;
    if (type === undefined || type === null) throw missing(`${partParam}.type`, '');
    if (type === 'input_text' || type === 'text' || type === 'output_text') return textPart(requiredString(raw, 'text', partParam));
    if (type === 'input_image') {
      if (role === 'assistant') throw invalid(`${partParam}.type`, `Assistant content cannot hold images ('${partParam}.type').`);
      const url = raw.image_url;
      const imageUrl = isObject(url) && typeof url.url === 'string' ? url.url : url;
      if (imageUrl === undefined || imageUrl === null) throw missing(`${partParam}.image_url`, '');
      if (typeof imageUrl !== 'string') throw invalid(`${partParam}.image_url`, `Invalid type for '${partParam}.image_url': expected a string.`);
      const part: InputImagePart = { type: 'input_image', image_url: imageUrl };
      if (typeof raw.detail === 'string') part.detail = raw.detail;
      return part;
    }
    throw unsupported(`${partParam}.type`, String(type));
  });
}

/**
 * One input item in a request shape as a stored item with a new id. Accepted: a message
 * ({type message, or no type; role; content string or parts input_text / text / output_text /
 * input_image}), a function_call ({call_id, name, arguments}), a function_call_output
 * ({call_id, output}) and a compaction ({summary}, as a client sends one back). Text parts become input_text for user, system and developer messages and
 * output_text for assistant messages. Ids sent with items are not kept: every stored item gets
 * its own. `param` names the item in errors (`input[2]`, `items[0]`).
 */
export function normaliseInputItem(raw: unknown, param: string): PreparedItem {
  if (!isObject(raw)) throw invalid(param, `Invalid type for '${param}': expected an object.`);
  const type = raw.type ?? 'message';
  if (type === 'message') {
    const role = raw.role;
    if (role === undefined || role === null) throw missing(`${param}.role`, '');
    if (typeof role !== 'string' || !ROLES.includes(role as Role)) throw invalid(`${param}.role`, `Invalid value for '${param}.role': expected one of user, assistant, system, developer.`);
    if (raw.content === undefined || raw.content === null) throw missing(`${param}.content`, '');
    return prepared({ type: 'message', id: ids.message(), status: 'completed', role: role as Role, content: normaliseParts(role as Role, raw.content, param) });
  }
  if (type === 'function_call') {
    const callId = requiredString(raw, 'call_id', param);
    const name = requiredString(raw, 'name', param);
    const args = requiredString(raw, 'arguments', param);
    const status = typeof raw.status === 'string' && raw.status ? raw.status : 'completed';
    return prepared({ type: 'function_call', id: ids.functionCall(), call_id: callId, name, arguments: args, status });
  }
  if (type === 'function_call_output') {
    const callId = requiredString(raw, 'call_id', param);
    const output = requiredString(raw, 'output', param);
    return prepared({ type: 'function_call_output', id: ids.functionCallOutput(), call_id: callId, output, status: 'completed' });
  }
  if (type === 'compaction') {
    // A summary the client sends back as input: stored and given to the model as it is (it
    // replaces nothing; only StoreCompaction's items stand in for others).
    return compactionItem(requiredString(raw, 'summary', param));
  }
  throw unsupported(`${param}.type`, String(type));
}

/**
 * The input items of a request: an array of items, or a string (one user message). `param` is the
 * field's name (`input`, `items`).
 */
export function normaliseInputItems(raw: unknown, param: string): PreparedItem[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw === 'string') return [normaliseInputItem({ role: 'user', content: raw }, `${param}[0]`)];
  if (!Array.isArray(raw)) throw invalid(param, `Invalid type for '${param}': expected an array of items.`);
  return raw.map((item, index) => normaliseInputItem(item, `${param}[${index}]`));
}

/**
 * A response's output item (message or function_call, as the caller rendered it) with a new
 * stored id; everything else in it is kept as is.
 */
export function prepareOutputItem(raw: unknown, index: number): PreparedItem {
  const param = `output[${index}]`;
  if (!isObject(raw)) throw invalid(param, `Invalid output item at '${param}': expected an object.`);
  if (raw.type === 'message') {
    const role = raw.role ?? 'assistant';
    if (typeof role !== 'string' || !ROLES.includes(role as Role)) throw invalid(`${param}.role`, `Invalid output item role at '${param}.role'.`);
    const content = Array.isArray(raw.content) ? raw.content : [];
    const parts = content.map((part, partIndex) => {
      if (!isObject(part) || typeof part.type !== 'string') throw invalid(`${param}.content[${partIndex}]`, `Invalid output content part at '${param}.content[${partIndex}]'.`);
      if ((part.type === 'output_text' || part.type === 'input_text') && typeof part.text !== 'string') throw invalid(`${param}.content[${partIndex}].text`, `Invalid output text at '${param}.content[${partIndex}].text'.`);
      return part as unknown as ContentPart;
    });
    const { type: _type, id: _id, status, role: _role, content: _content, ...rest } = raw;
    return prepared({ type: 'message', id: ids.message(), status: typeof status === 'string' ? status : 'completed', role: role as Role, content: parts, ...rest } as MessageItem);
  }
  if (raw.type === 'function_call') {
    const callId = requiredString(raw, 'call_id', param);
    const name = requiredString(raw, 'name', param);
    const args = typeof raw.arguments === 'string' ? raw.arguments : '{}';
    const { type: _type, id: _id, call_id: _callId, name: _name, arguments: _args, status, ...rest } = raw;
    return prepared({ type: 'function_call', id: ids.functionCall(), call_id: callId, name, arguments: args, status: typeof status === 'string' ? status : 'completed', ...rest } as FunctionCallItem);
  }
  throw invalid(`${param}.type`, `Unsupported output item type at '${param}.type': ${String(raw.type)}.`);
}

/** A compaction item with a new id. */
export function compactionItem(summary: string): PreparedItem {
  return prepared({ type: 'compaction', id: ids.compaction(), summary });
}
