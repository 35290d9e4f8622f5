import { createHash } from 'node:crypto';
import type { ChatModel, Vendor } from '@svc/catalog';
import type { ChatRequestInput } from '../request/chat-request';
import { messageCharacters, tokensForCharacters } from '../tokens';

/**
 * Prompt-cache policy (spec, "Caching rules" and the `svc` request options cache.ttl and
 * cache.breakpoints): for one call and one candidate model, the ttl handed to the vendor adapter
 * (request.cache.ttl; the explicit-marker adapter places markers only for `5m` and `1h`) and
 * the ttl to report in svc.cache.ttl_applied and to price cache writes at.
 *
 * "Caching is automatic on every call" (rule 1): every call gets a decision; the rules, in the
 * order they are applied:
 *
 * - BASE TTL: "prompt cache lifetime; default `5m` (`1h` in a session whose turns are far
 *   apart)": a ttl the request sets wins; otherwise "A session call whose previous turn was over
 *   5 minutes ago gets `1h`" (rule 5); otherwise `5m`. A session's turn is recorded on every
 *   call, cached or not.
 * - AUTOMATIC VENDORS: "Some vendors cache automatically from 1024 tokens; one vendor from 4,096
 *   tokens with no write charge ... There `ttl` and `breakpoints` are accepted and ignored"
 *   (rule 3). The adapters send no markers there; ttl_applied is `5m`, the lifetime those caches
 *   give a prefix whatever was asked, shown when the vendor reports a read (they never charge a
 *   write). So `none` does not stop their reads, and a read there reports `5m`.
 * - OFF: "cache.ttl `none` turns caching off"; "cache.breakpoints `none` disables caching for
 *   the call and forces ttl `none`" → ttl `none` (no markers), ttl_applied empty.
 * - NO CACHE VENDOR: a vendor without a prompt cache → ttl `none`, ttl_applied empty.
 * - MINIMUM PREFIX (explicit-marker vendor): "Prefixes under that model's minimum (512 to 4,096
 *   tokens) report 0" (rule 2): a prompt whose estimate (characters / 4) is under the model's
 *   min_cache_prefix gets no markers.
 * - SECOND APPEARANCE (explicit-marker vendor): "A long prompt (1,024 tokens or more) is written
 *   on its second appearance within the lifetime, not its first. Calls in a session, requests
 *   with earlier turns, and requests that set cache.ttl are written at once" (rule 4). A first
 *   appearance gets no markers (nothing written, nothing billed at the write rate). "Earlier
 *   turns": an assistant or tool message anywhere before the last message.
 * - Otherwise the explicit-marker vendor gets markers with the base ttl, and that ttl is what
 *   ttl_applied shows when the vendor reports a write or a read.
 *
 * Appearance: the prompt's prefix hashes for the organization, kept for the lifetime (the base
 * ttl). Two prefixes count: the whole prompt, and, when it is itself long, the part before the
 * last message (system prompt, tools and history), so one long system prompt followed by a
 * different question each time is written on its second call. An appearance is recorded when
 * the rule is asked: a long prompt at or above the model's minimum on the explicit-marker
 * vendor (the only place a write is billed), outside the exceptions.
 *
 * Rule 6 (batch lines and background responses get `none`) belongs to those endpoints; chat
 * completions has neither.
 */

export type CacheTtl = '5m' | '1h' | 'none';
/** svc.cache.ttl_applied: `5m`, `1h`, or empty string. */
export type TtlApplied = '5m' | '1h' | '';

/** Why a decision came out as it did (tests and logs). */
export type CacheReason = 'off' | 'no_cache_vendor' | 'automatic' | 'under_min_prefix' | 'first_appearance' | 'marked';

export interface CacheDecision {
  /** request.cache.ttl for the adapter; `none` places no markers. */
  ttl: CacheTtl;
  /** svc.cache.ttl_applied and the write price (`1h` writes cost 2x input) when the vendor wrote or read. */
  ttlApplied: TtlApplied;
  reason: CacheReason;
}

/** A decision that turns caching off (`none`, nothing reported). */
export const CACHE_OFF: Readonly<CacheDecision> = Object.freeze({ ttl: 'none', ttlApplied: '', reason: 'off' });

/** Lifetimes of the two ttls. */
export const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
/** "a session call whose previous turn was over 5 minutes ago gets `1h`". */
export const FAR_APART_MS = 5 * 60_000;
/** "A long prompt (1,024 tokens or more)". */
export const LONG_PROMPT_TOKENS = 1024;
/** How long a session's last turn time is kept: a turn after a longer gap counts as its first. */
export const LAST_TURN_RETENTION_MS = 24 * 60 * 60_000;
/** The prompt estimate: characters / 4, an image counting this many characters (tokens.ts). */
export { IMAGE_CHARACTERS } from '../tokens';

/**
 * Small per-organization memory the rules need. No prompt text is kept: only prefix hashes
 * and turn times.
 */
export interface CacheState {
  /**
   * Whether any of these prefix hashes appeared for the organization within `ttlMs`; records
   * every one of them as appearing now, for `ttlMs`.
   */
  seen(organizationId: string, prefixHashes: readonly string[], ttlMs: number): Promise<boolean>;
  /** When the session's previous turn was (undefined for its first), recording `nowMs` as its latest. */
  lastTurn(organizationId: string, sessionId: string, nowMs: number): Promise<number | undefined>;
}

/** Size and identity of the cacheable prompt (system prompt, tools, messages). */
export interface PromptShape {
  /** Estimate of the whole prompt in tokens (characters / 4). */
  tokens: number;
  /** Estimate of the part before the last message. */
  headTokens: number;
  /** sha256 of the whole prompt. */
  promptHash: string;
  /** sha256 of the part before the last message. */
  headHash: string;
  /** An assistant or tool message before the last message. */
  earlierTurns: boolean;
}

const estimate = tokensForCharacters;

/** Measures and hashes the prompt in the order the vendors cache it: tools, system, messages. */
export function promptShape(input: Pick<ChatRequestInput, 'system' | 'tools' | 'messages'>): PromptShape {
  const hash = createHash('sha256');
  const add = (tag: string, value: unknown) => hash.update(tag).update('\0').update(JSON.stringify(value)).update('\0');
  let characters = 0;
  if (input.tools?.length) {
    add('tools', input.tools);
    characters += JSON.stringify(input.tools).length;
  }
  add('system', input.system ?? '');
  characters += input.system?.length ?? 0;
  const last = input.messages.length - 1;
  input.messages.forEach((message, index) => {
    if (index === last) return;
    add('message', message);
    characters += messageCharacters(message);
  });
  const headHash = hash.copy().digest('hex');
  const headTokens = estimate(characters);
  const lastMessage = input.messages[last];
  if (lastMessage) {
    add('message', lastMessage);
    characters += messageCharacters(lastMessage);
  }
  return {
    tokens: estimate(characters),
    headTokens,
    promptHash: hash.digest('hex'),
    headHash,
    earlierTurns: input.messages.slice(0, -1).some((message) => message.role !== 'user'),
  };
}

/** BASE TTL: the request's own ttl, else `1h` for a session whose previous turn is over 5 minutes old, else `5m`. */
export function baseTtl(requested: ChatRequestInput['svc']['cacheTtl'], previousTurnMs: number | undefined, nowMs: number): '5m' | '1h' {
  if (requested === '5m' || requested === '1h') return requested;
  return previousTurnMs !== undefined && nowMs - previousTurnMs > FAR_APART_MS ? '1h' : '5m';
}

export interface CachePlanOptions {
  organizationId: string;
  state: CacheState;
  /** Milliseconds; the call's start. */
  now: number;
}

/** The cache decisions of one call, one per candidate model tried. */
export interface CachePlan {
  forModel(model: Pick<ChatModel, 'min_cache_prefix'>, vendor: Pick<Vendor, 'cache'>): Promise<CacheDecision>;
}

/**
 * The cache plan of one call. State is asked at most once per call whatever the number of
 * candidates: a session call records its turn (one round trip) on the first candidate; a call
 * outside a session asks whether its prompt appeared before only when an explicit-marker
 * candidate would write it (one round trip). A state that fails counts as a first turn and a
 * first appearance (no write premium is risked).
 */
export function planCache(input: ChatRequestInput, options: CachePlanOptions): CachePlan {
  const { organizationId, state, now } = options;
  const sessionId = input.svc.sessionId;
  const requested = input.svc.cacheTtl;
  const off = input.svc.cacheBreakpoints === 'none' || requested === 'none';
  const explicitTtl = requested === '5m' || requested === '1h';
  let shape: PromptShape | undefined;
  let ttl: Promise<'5m' | '1h'> | undefined;
  let appeared: Promise<boolean> | undefined;

  const shapeOf = () => (shape ??= promptShape(input));
  const ttlOf = () =>
    (ttl ??= (sessionId === undefined ? Promise.resolve(undefined) : state.lastTurn(organizationId, sessionId, now).catch(() => undefined)).then((previous) =>
      baseTtl(requested, previous, now),
    ));

  return {
    async forModel(model, vendor) {
      // The session's turn is recorded on every call, cached or not, so the next turn knows the gap.
      const base = await ttlOf();
      if (vendor.cache === 'automatic' || vendor.cache === 'automatic_4096') return { ttl: off ? 'none' : base, ttlApplied: '5m', reason: 'automatic' };
      if (off) return { ...CACHE_OFF };
      if (vendor.cache !== 'explicit') return { ttl: 'none', ttlApplied: '', reason: 'no_cache_vendor' };
      const prompt = shapeOf();
      if (prompt.tokens < model.min_cache_prefix) return { ttl: 'none', ttlApplied: '', reason: 'under_min_prefix' };
      const writtenAtOnce = sessionId !== undefined || prompt.earlierTurns || explicitTtl;
      if (prompt.tokens >= LONG_PROMPT_TOKENS && !writtenAtOnce) {
        const hashes = prompt.headTokens >= LONG_PROMPT_TOKENS ? [prompt.promptHash, prompt.headHash] : [prompt.promptHash];
        appeared ??= state.seen(organizationId, hashes, TTL_MS[base]).catch(() => false);
        if (!(await appeared)) return { ttl: 'none', ttlApplied: '', reason: 'first_appearance' };
      }
      return { ttl: base, ttlApplied: base, reason: 'marked' };
    },
  };
}

/** One decision for one model (a plan of one candidate). */
export function decideCache(input: ChatRequestInput, model: Pick<ChatModel, 'min_cache_prefix'>, vendor: Pick<Vendor, 'cache'>, options: CachePlanOptions): Promise<CacheDecision> {
  return planCache(input, options).forModel(model, vendor);
}

/**
 * Spec (Caching rules 6, second sentence): inside a batch, lines sharing a long prefix on the
 * explicit-marker vendor read a cache written once for the batch. A line's shared-prefix key: its
 * named model on an explicit-marker vendor, and the hash of everything before its last message
 * when that part is at least the model's minimum cacheable prefix; undefined otherwise (auto lines,
 * other vendors, short prefixes). Lines of a batch with the same key form a group: the first runs
 * marked (a write), the others after it, marked too, read the prefix it wrote.
 */
export function sharedPrefixKey(input: Pick<ChatRequestInput, 'system' | 'tools' | 'messages'>, model: Pick<ChatModel, 'id' | 'min_cache_prefix'> | undefined, vendor: Pick<Vendor, 'cache'> | undefined): string | undefined {
  if (!model || vendor?.cache !== 'explicit' || input.messages.length === 0) return undefined;
  const shape = promptShape(input);
  return shape.headTokens >= model.min_cache_prefix ? `${model.id}\u0000${shape.headHash}` : undefined;
}
