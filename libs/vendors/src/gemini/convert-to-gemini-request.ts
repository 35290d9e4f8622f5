import type { ChatRequest, ContentPart, ToolChoice, VendorMessage, VendorReasoning } from '../types';

export type GeminiPart = Record<string, unknown>;

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/**
 * Gemini 3 wants the thought signature of a replayed function call back; the normalised messages
 * do not carry it, and Gemini documents this value for calls whose signature is unknown (history
 * built elsewhere). Earlier models accept the field and ignore it.
 */
export const UNKNOWN_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** Keywords of Gemini's schema (an OpenAPI 3.0 subset); every other JSON-schema keyword is refused. */
const SCHEMA_KEYWORDS = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'properties', 'required', 'minItems', 'maxItems',
  'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'anyOf', 'propertyOrdering', 'default', 'example',
]);

/** The formats Gemini accepts, by type; other formats (email, uri, ...) are refused. */
const FORMATS: Record<string, string[]> = { string: ['enum', 'date-time'], integer: ['int32', 'int64'], number: ['float', 'double'] };

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

function resolveRef(ref: string, root: Record<string, unknown>): Record<string, unknown> | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const defs = root[match[1]!];
  const target = isObject(defs) ? defs[match[2]!.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isObject(target) ? target : undefined;
}

/**
 * A JSON schema rewritten into the subset Gemini takes (function parameters, responseSchema):
 * local $refs are inlined (to a depth of 8, cycles end as a bare object), `type: [t, 'null']`
 * becomes `nullable`, `const` a one-value enum, `oneOf` `anyOf`, a single `allOf` is merged,
 * unknown keywords (additionalProperties, $schema, $defs, ...) and unsupported formats are
 * dropped, `required` keeps only declared properties, and empty `properties` are left out.
 */
export function sanitizeGeminiSchema(schema: unknown, root: Record<string, unknown> = isObject(schema) ? schema : {}, depth = 0): Record<string, unknown> {
  if (!isObject(schema) || depth > 8) return { type: 'object' };
  let source: Record<string, unknown> = schema;
  if (typeof source.$ref === 'string') {
    const target = resolveRef(source.$ref, root);
    const { $ref: _ref, ...rest } = source;
    source = target ? { ...target, ...rest } : rest;
    if (target) return sanitizeGeminiSchema(source, root, depth + 1);
  }
  if (Array.isArray(source.allOf) && source.allOf.length === 1 && isObject(source.allOf[0])) {
    const { allOf, ...rest } = source;
    source = { ...(allOf as Record<string, unknown>[])[0], ...rest };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (!SCHEMA_KEYWORDS.has(key)) continue;
    if (key === 'properties') {
      if (!isObject(value)) continue;
      const properties: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(value)) properties[name] = sanitizeGeminiSchema(property, root, depth + 1);
      if (Object.keys(properties).length > 0) out.properties = properties;
    } else if (key === 'items') out.items = sanitizeGeminiSchema(value, root, depth + 1);
    else if (key === 'anyOf') {
      if (Array.isArray(value)) out.anyOf = value.map((option) => sanitizeGeminiSchema(option, root, depth + 1));
    } else if (key === 'enum') {
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) out.enum = value;
    } else out[key] = value;
  }
  if (!out.anyOf && Array.isArray(source.oneOf)) out.anyOf = source.oneOf.map((option) => sanitizeGeminiSchema(option, root, depth + 1));
  if (source.const !== undefined && out.enum === undefined && typeof source.const === 'string') out.enum = [source.const];
  if (Array.isArray(out.type)) {
    const types = (out.type as unknown[]).filter((type): type is string => typeof type === 'string');
    const concrete = types.filter((type) => type !== 'null');
    if (concrete.length < types.length) out.nullable = true;
    if (concrete.length === 1) out.type = concrete[0];
    else {
      delete out.type;
      if (concrete.length > 1 && !out.anyOf) out.anyOf = concrete.map((type) => ({ type }));
    }
  }
  if (out.format !== undefined && !(typeof out.type === 'string' && FORMATS[out.type]?.includes(String(out.format)))) delete out.format;
  if (Array.isArray(out.required)) {
    const declared = isObject(out.properties) ? out.properties : {};
    const required = (out.required as unknown[]).filter((name): name is string => typeof name === 'string' && Object.hasOwn(declared, name));
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  return out;
}

function userPart(part: ContentPart): GeminiPart[] {
  if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }];
  // Images travel as bytes: the service downloaded them (never the client's URL).
  return [{ inlineData: { mimeType: part.mediaType, data: part.data.toString('base64') } }];
}

function parseArgs(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * Gemini's contents: roles user and model, consecutive turns of one role merged (parallel
 * function responses must share one turn). A tool result becomes a functionResponse part; Gemini
 * matches it by function name, found on the latest earlier assistant call with that id.
 */
export function convertToGeminiContents(messages: VendorMessage[]): GeminiContent[] {
  const out: GeminiContent[] = [];
  const names = new Map<string, string>();
  const push = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  };
  for (const message of messages) {
    if (message.role === 'user') push('user', message.content.flatMap(userPart));
    else if (message.role === 'tool') {
      push('user', [{ functionResponse: { name: names.get(message.toolCallId) ?? message.toolCallId, response: { content: message.content } } }]);
    } else {
      const parts: GeminiPart[] = [];
      if (message.content) parts.push({ text: message.content });
      for (const call of message.toolCalls ?? []) {
        names.set(call.id, call.name);
        parts.push({ functionCall: { name: call.name, args: parseArgs(call.arguments) }, thoughtSignature: UNKNOWN_THOUGHT_SIGNATURE });
      }
      push('model', parts);
    }
  }
  return out;
}

function toolConfig(choice: ToolChoice | undefined): Record<string, unknown> | undefined {
  if (!choice) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
}

/**
 * thinkingConfig: a budget is thinkingBudget N (0 turns thinking off); a toggle is 0 (off) or -1
 * (on: Gemini's dynamic budget); an effort level is Gemini 3's thinkingLevel.
 */
function thinkingConfig(reasoning: VendorReasoning | undefined): Record<string, unknown> | undefined {
  if (!reasoning) return undefined;
  if (reasoning.kind === 'budget') return { thinkingBudget: reasoning.tokens };
  if (reasoning.kind === 'toggle') return { thinkingBudget: reasoning.on ? -1 : 0 };
  return { thinkingLevel: reasoning.level };
}

/** The generateContent body for a normalised request. */
export function convertToGeminiRequest(request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (request.system) body.systemInstruction = { parts: [{ text: request.system }] };
  body.contents = convertToGeminiContents(request.messages);
  if (request.tools && request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => {
          const declaration: Record<string, unknown> = { name: tool.name };
          if (tool.description) declaration.description = tool.description;
          // Gemini refuses an object schema without properties: a tool without arguments has none.
          const parameters = sanitizeGeminiSchema(tool.parameters);
          if (isObject(parameters.properties)) declaration.parameters = parameters;
          return declaration;
        }),
      },
    ];
    const config = toolConfig(request.toolChoice);
    if (config) body.toolConfig = config;
  }
  const generation: Record<string, unknown> = { maxOutputTokens: request.maxTokens };
  if (request.temperature !== undefined) generation.temperature = request.temperature;
  if (request.topP !== undefined) generation.topP = request.topP;
  if (request.stop && request.stop.length > 0) generation.stopSequences = request.stop;
  if (request.responseFormat?.type === 'json_object') generation.responseMimeType = 'application/json';
  else if (request.responseFormat?.type === 'json_schema') {
    generation.responseMimeType = 'application/json';
    generation.responseSchema = sanitizeGeminiSchema(request.responseFormat.schema);
  }
  const thinking = thinkingConfig(request.reasoning);
  if (thinking) generation.thinkingConfig = thinking;
  body.generationConfig = generation;
  // Gemini's flex tier (absent: standard).
  if (request.tier === 'flex') body.serviceTier = 'FLEX';
  return body;
}
