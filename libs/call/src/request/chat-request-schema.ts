import { z } from 'zod';
import { ServiceError } from '@svc/errors';

/**
 * The POST /v1/chat/completions body as one schema (spec: request-field table, `svc` request
 * options, Errors, Limits). The schema checks structure; `specError` turns the first failure into
 * the spec's error code and `param`. Fields are checked in the order of the shape below, so the
 * first failing field is the one reported. Unknown fields are ignored (stripped).
 *
 * A null optional field counts as absent, as clients of the common API shapes send it.
 */

export const MAX_MESSAGES = 4096;
export const MAX_TOOLS = 256;
export const MAX_STOP_SEQUENCES = 4;
export const MAX_SESSION_ID_LENGTH = 128;
/** "deadline ... up to 168h". */
export const MAX_DEADLINE_MS = 168 * 3_600_000;

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
/** svc.vendors: "`vendor-1` to `vendor-7`". */
export const SVC_VENDORS = ['vendor-1', 'vendor-2', 'vendor-3', 'vendor-4', 'vendor-5', 'vendor-6', 'vendor-7'] as const;
export const FALLBACK_POLICIES = ['same_vendor', 'cross_vendor', 'none'] as const;
export const CACHE_TTLS = ['5m', '1h', 'none'] as const;
export const CACHE_BREAKPOINTS = ['auto', 'none'] as const;
export const SPLIT_MODES = ['auto', 'off'] as const;
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Spec codes a schema rule can name itself (a custom issue's `params.code`). */
type RuleCode = 'invalid_value' | 'unsupported_parameter' | 'invalid_image_url' | 'missing_messages';

/** Adds a failure carrying its own spec code; `path` is relative to the checked value. */
function fail(ctx: z.RefinementCtx, code: RuleCode, message: string, path: PropertyKey[] = []): void {
  ctx.addIssue({ code: 'custom', message, params: { code }, path });
}

/** Optional field: absent or null means "not given". */
const opt = <T extends z.ZodType>(schema: T) => schema.nullish();

const JsonObject = z.record(z.string(), z.unknown());

/** "duration with unit `s`, `m` or `h`": a positive integer or decimal number, then the unit. */
const DURATION = /^(\d+(?:\.\d+)?)([smh])$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** Milliseconds of a deadline such as `90s`, `15m`, `1.5h`; undefined when malformed, zero or over 168h. */
export function parseDurationMs(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  const ms = Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
  return ms >= 1 && ms <= MAX_DEADLINE_MS ? ms : undefined;
}

const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,([a-z0-9+/]+={0,2})$/i;

/** A data: URL of a base64 image, as its media type and bytes. */
export function decodeDataUrl(url: string): { mediaType: string; data: Buffer } | undefined {
  const match = DATA_URL.exec(url);
  return match ? { mediaType: match[1].toLowerCase(), data: Buffer.from(match[2], 'base64') } : undefined;
}

/**
 * image_url.url: a base64 image data: URL, or an http(s) URL the service downloads (spec:
 * Parameter handling). Anything else "is not allowed": 400 invalid_image_url. Private and
 * internal addresses are refused when the image is downloaded, not here.
 */
const ImageUrl = z.string().superRefine((url, ctx) => {
  if (/^data:/i.test(url)) {
    if (!DATA_URL.test(url)) fail(ctx, 'invalid_image_url', 'A data: image URL must be a base64 image (data:image/<type>;base64,<data>).');
    return;
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) fail(ctx, 'invalid_image_url', 'An image URL must be an http(s) URL or a base64 image data: URL.');
});

const TextPart = z.object({ type: z.literal('text'), text: z.string() });
/** `detail` is ignored (spec: Parameter handling). */
const ImageUrlPart = z.object({ type: z.literal('image_url'), image_url: z.object({ url: ImageUrl }) });
/** "other roles: `text` parts only": an image part outside a user message is a bad content value. */
const MisplacedImagePart = z.object({ type: z.literal('image_url') }).superRefine((_part, ctx) => fail(ctx, 'invalid_value', 'An image_url part is allowed in user messages only.'));

/** Content as a non-empty list of parts; a string is one text part. */
const contentOf = <T extends z.ZodType>(part: T) => z.preprocess((value) => (typeof value === 'string' ? [{ type: 'text', text: value }] : value), z.array(part).min(1));
const UserContent = contentOf(z.discriminatedUnion('type', [TextPart, ImageUrlPart]));
const TextContent = contentOf(z.discriminatedUnion('type', [TextPart, MisplacedImagePart]));

const ToolCall = z.object({
  id: z.string(),
  type: z.literal('function'),
  // "invalid arguments JSON replaced with `{}`": any value is accepted here and repaired later.
  function: z.object({ name: z.string(), arguments: z.unknown().optional() }),
});

const Message = z.discriminatedUnion('role', [
  z.object({ role: z.enum(['system', 'developer']), content: TextContent }),
  z.object({ role: z.literal('user'), content: UserContent }),
  // "assistant may have content, tool_calls or both"; content null with tool_calls (RULINGS 11).
  z
    .object({ role: z.literal('assistant'), content: opt(TextContent), tool_calls: opt(z.array(ToolCall)) })
    .superRefine((message, ctx) => {
      if (message.content == null && !message.tool_calls?.length) fail(ctx, 'invalid_value', 'An assistant message needs content unless it has tool_calls.', ['content']);
    }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), content: TextContent }),
  z.object({ role: z.literal('function') }).superRefine((_message, ctx) => fail(ctx, 'unsupported_parameter', "The legacy 'function' role is not supported; use 'tool'.", ['role'])),
]);

const isTurn = (role: string) => role === 'user' || role === 'assistant' || role === 'tool';

/** "1 to 4096; ... at least one `user`, `assistant` or `tool`". The count is checked before the entries. */
const Messages = z
  .array(z.unknown())
  .min(1)
  .max(MAX_MESSAGES)
  .pipe(
    z.array(Message).superRefine((messages, ctx) => {
      if (!messages.some((message) => isTurn(message.role))) fail(ctx, 'missing_messages', "'messages' needs at least one user, assistant or tool message.");
    }),
  );

/** "up to 256, type `function`, function {name, description, parameters (default empty object schema)}". */
const Tool = z.object({
  type: z.literal('function'),
  function: z.object({ name: z.string().regex(TOOL_NAME), description: opt(z.string()), parameters: opt(JsonObject), strict: opt(z.boolean()) }),
});
const Tools = z.array(z.unknown()).max(MAX_TOOLS).pipe(z.array(Tool));

const ToolChoice = z.union([z.enum(['auto', 'none', 'required']), z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) })]);

const ResponseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({ type: z.literal('json_schema'), json_schema: z.object({ name: opt(z.string()), description: opt(z.string()), schema: JsonObject, strict: opt(z.boolean()) }) }),
]);

/** Refused with 400 unsupported_parameter when given (not null). */
const refused = (name: string) =>
  z.unknown().optional().superRefine((value, ctx) => {
    if (value !== undefined && value !== null) fail(ctx, 'unsupported_parameter', `'${name}' is not supported.`);
  });

const Deadline = z.string().transform((text, ctx) => {
  const ms = parseDurationMs(text);
  if (ms === undefined) {
    fail(ctx, 'invalid_value', "'svc.deadline' must be a positive duration with unit s, m or h (such as '90s', '15m', '1.5h'), up to 168h.");
    return z.NEVER;
  }
  return ms;
});

/** `svc` request options. */
export const SvcOptionsSchema = z.object({
  session_id: opt(z.string().min(1).max(MAX_SESSION_ID_LENGTH)),
  vendors: opt(z.array(z.enum(SVC_VENDORS)).min(1)),
  fallback: opt(z.enum(FALLBACK_POLICIES)),
  cache: opt(z.object({ ttl: opt(z.enum(CACHE_TTLS)), breakpoints: opt(z.enum(CACHE_BREAKPOINTS)) })),
  split: opt(z.enum(SPLIT_MODES)),
  /** Parsed to milliseconds. */
  deadline: opt(Deadline),
  // allow_standard_price is "batch creation only": not read on a chat request.
});

export const ChatRequestSchema = z
  .object({
    // "logprobs, top_logprobs, audio, prediction, web_search_options, non-text modalities: refused".
    logprobs: opt(z.boolean()).superRefine((value, ctx) => {
      if (value === true) fail(ctx, 'unsupported_parameter', "'logprobs' is not supported.");
    }),
    top_logprobs: refused('top_logprobs'),
    audio: refused('audio'),
    prediction: refused('prediction'),
    web_search_options: refused('web_search_options'),
    modalities: opt(z.array(z.unknown())).superRefine((modalities, ctx) => {
      if (modalities?.some((modality) => modality !== 'text')) fail(ctx, 'unsupported_parameter', 'Only the text modality is supported.');
    }),
    // "n: only 1".
    n: opt(z.number().int().min(1)).superRefine((n, ctx) => {
      if (typeof n === 'number' && n > 1) fail(ctx, 'unsupported_parameter', "Only 'n' = 1 is supported.");
    }),
    model: opt(z.string()),
    messages: Messages,
    tools: opt(Tools),
    tool_choice: opt(ToolChoice),
    parallel_tool_calls: opt(z.boolean()),
    max_tokens: opt(z.number().int().min(1)),
    max_completion_tokens: opt(z.number().int().min(1)),
    temperature: opt(z.number().min(0).max(2)),
    top_p: opt(z.number().min(0).max(1)),
    stop: opt(z.union([z.string(), z.array(z.string()).max(MAX_STOP_SEQUENCES)])),
    stream: opt(z.boolean()),
    // "stream_options.include_usage: accepted; usage chunk always sent".
    stream_options: opt(z.object({ include_usage: opt(z.boolean()) })),
    response_format: opt(ResponseFormat),
    reasoning_effort: opt(z.enum(REASONING_EFFORTS)),
    user: opt(z.string()),
    metadata: opt(z.record(z.string(), z.string())),
    store: opt(z.boolean()),
    // "accepted and ignored; listed in svc.ignored_parameters when non-default".
    seed: z.unknown().optional(),
    logit_bias: z.unknown().optional(),
    presence_penalty: z.unknown().optional(),
    frequency_penalty: z.unknown().optional(),
    svc: opt(SvcOptionsSchema),
  })
  .superRefine((body, ctx) => {
    // tool_choice: "needs tools unless `none`"; a named function must be one of the tools.
    const choice = body.tool_choice;
    if (choice === undefined || choice === null || choice === 'none') return;
    const tools = body.tools ?? [];
    if (tools.length === 0) fail(ctx, 'invalid_value', "'tool_choice' needs tools unless it is 'none'.", ['tool_choice']);
    else if (typeof choice === 'object' && !tools.some((tool) => tool.function.name === choice.function.name)) {
      fail(ctx, 'invalid_value', `'tool_choice' names the function '${choice.function.name}', which is not among the tools.`, ['tool_choice']);
    }
  });

export type ChatRequestBody = z.infer<typeof ChatRequestSchema>;

/** What each param must be, for error messages (indices written as []). */
const RULES: Record<string, string> = {
  svc: 'must be an object',
  model: 'must be a string',
  modalities: "must be an array; only 'text' is supported",
  n: 'must be the integer 1',
  logprobs: 'must be a boolean',
  'messages[]': 'must be an object',
  'messages[].role': 'must be one of system, developer, user, assistant, tool',
  'messages[].content': 'must be a string or a non-empty array of content parts (user: text and image_url; other roles: text only)',
  'messages[].content[].image_url.url': 'must be a string',
  'messages[].tool_call_id': 'must be the string id of the tool call answered',
  'messages[].tool_calls': 'must be an array of tool calls',
  'messages[].tool_calls[]': 'must be an object {id, type, function}',
  'messages[].tool_calls[].id': 'must be a string',
  'messages[].tool_calls[].type': "must be 'function'",
  'messages[].tool_calls[].function': 'must be an object {name, arguments}',
  'messages[].tool_calls[].function.name': 'must be a string',
  tools: 'must be an array of tools',
  'tools[]': 'must be an object {type, function}',
  'tools[].type': "must be 'function'",
  'tools[].function': 'must be an object {name, description, parameters}',
  'tools[].function.name': 'must be 1 to 64 letters, digits, underscores or dashes',
  'tools[].function.description': 'must be a string',
  'tools[].function.parameters': 'must be a JSON schema object',
  'tools[].function.strict': 'must be a boolean',
  tool_choice: "must be 'auto', 'none', 'required' or {type: 'function', function: {name}}",
  parallel_tool_calls: 'must be a boolean',
  max_tokens: 'must be a positive integer',
  max_completion_tokens: 'must be a positive integer',
  temperature: 'must be a number from 0 to 2',
  top_p: 'must be a number from 0 to 1',
  stop: `must be a string or an array of up to ${MAX_STOP_SEQUENCES} strings`,
  stream: 'must be a boolean',
  stream_options: 'must be an object',
  'stream_options.include_usage': 'must be a boolean',
  response_format: 'must be an object with a type',
  'response_format.type': "must be 'text', 'json_object' or 'json_schema'",
  'response_format.json_schema': 'must be an object {name, schema, strict} with an object schema (and a string name, when given)',
  reasoning_effort: `must be one of ${REASONING_EFFORTS.join(', ')}`,
  user: 'must be a string',
  metadata: 'must be an object of string values',
  store: 'must be a boolean',
  'svc.session_id': `must be a string of 1 to ${MAX_SESSION_ID_LENGTH} characters`,
  'svc.vendors': `must be a non-empty array of ${SVC_VENDORS[0]} to ${SVC_VENDORS[SVC_VENDORS.length - 1]}`,
  'svc.fallback': `must be one of ${FALLBACK_POLICIES.join(', ')}`,
  'svc.cache': 'must be an object',
  'svc.cache.ttl': `must be one of ${CACHE_TTLS.join(', ')}`,
  'svc.cache.breakpoints': `must be one of ${CACHE_BREAKPOINTS.join(', ')}`,
  'svc.split': `must be one of ${SPLIT_MODES.join(', ')}`,
  'svc.deadline': 'must be a positive duration with unit s, m or h, up to 168h',
};

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

/**
 * The spec's `param` for a failure at `path`: the Errors table names whole values (stop,
 * metadata, svc.vendors, tool_choice, response_format.json_schema, messages[i].content) rather
 * than their inner entries, except a content part's `type` and `image_url.url`.
 */
function specParam(path: readonly PropertyKey[]): string {
  const [head, index, field, partIndex, partField] = path;
  if (head === 'messages' && field === 'content') {
    if (typeof partIndex === 'number' && partField === 'type') return formatPath(path.slice(0, 5));
    if (typeof partIndex === 'number' && partField === 'image_url') return `${formatPath(path.slice(0, 4))}.image_url.url`;
    return formatPath([head, index, field]);
  }
  if (head === 'response_format' && index === 'json_schema') return 'response_format.json_schema';
  if (head === 'svc' && index === 'vendors') return 'svc.vendors';
  if (head === 'stop' || head === 'metadata' || head === 'tool_choice' || head === 'modalities') return head;
  return formatPath(path);
}

/** The first schema failure as the spec's 400 error. */
export function specError(issues: readonly z.core.$ZodIssue[]): ServiceError {
  const issue = issues[0];
  const path = issue.path;
  const param = specParam(path);

  if (issue.code === 'custom' && issue.params?.code) {
    return new ServiceError(issue.params.code as RuleCode, issue.message, { param });
  }
  if (path.length === 1 && path[0] === 'messages') {
    if (issue.code === 'too_big') return new ServiceError('too_many_messages', `At most ${MAX_MESSAGES} messages are allowed.`, { param });
    return new ServiceError('missing_messages', "'messages' must be a non-empty array of messages.", { param });
  }
  if (path.length === 1 && path[0] === 'tools' && issue.code === 'too_big') {
    return new ServiceError('too_many_tools', `At most ${MAX_TOOLS} tools are allowed.`, { param });
  }
  if (issue.code === 'invalid_union' && issue.discriminator === 'type' && path[0] === 'messages' && path[2] === 'content') {
    // "content part type other than text and image_url": the part's type matches no option.
    return new ServiceError('unsupported_parameter', 'Content part types are text and image_url (image_url in user messages only).', { param });
  }
  const described = RULES[param.replace(/\[\d+\]/g, '[]')];
  return new ServiceError('invalid_value', described ? `'${param}' ${described}.` : `Invalid '${param}': ${issue.message}.`, { param });
}
