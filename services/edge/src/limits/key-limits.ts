import { ServiceError, formatDuration, retryAfterSeconds } from '@svc/errors';
import { svcMetrics } from '@svc/telemetry';
import { defineScripts, inOneWrite, tag, type Redis } from '@svc/redis';
import { readFreeHeaders } from '@svc/admission';
import { LUA_PRELUDE, PERIOD_MS, arg, bucketState, fullInMs, remainingOf, throttledWarning, waitForMs, withTimeout, type BucketState, type WarnLogger } from './bucket';

export { formatDuration } from '@svc/errors';

/**
 * Per-key request and token buckets (spec, Limits: "default 600 requests per minute and 200000
 * tokens per minute, set per key"; Errors: 429 rate_limit_exceeded "key's request or token bucket
 * empty").
 *
 * Both buckets refill continuously at their per-minute limit and hold at most that limit (see
 * bucket.ts). A call takes one request and its estimated tokens, both or neither, in one Lua call;
 * after the vendor answers, `refund` moves the token bucket to the real count (spec: "estimate
 * ... at admission, refunded to the real count after the call").
 *
 * Keys: `rl:{<key id>}:req` and `rl:{<key id>}:tok`, hash-tagged by key id so one script can
 * touch both on Redis Cluster.
 */

export interface KeyLimits {
  requestsPerMinute: number;
  tokensPerMinute: number;
}

export const DEFAULT_KEY_LIMITS: Readonly<KeyLimits> = { requestsPerMinute: 600, tokensPerMinute: 200_000 };

export interface KeyLimitResult {
  /** The six x-ratelimit-* headers after this call; empty when the store could not be reached. */
  headers: Record<string, string>;
  /**
   * Tokens actually taken (0 when the store could not be reached): pass it to `refund` as
   * `charged`, so a call admitted while Redis was down is charged its real count afterwards.
   */
  charged: number;
}

export interface KeyLimiter {
  /** Takes one request and `tokens` tokens, or throws 429 rate_limit_exceeded taking nothing. */
  check(keyId: string, limits: KeyLimits, tokens: number): Promise<KeyLimitResult>;
  /** Moves the token bucket from the charged estimate to the real count; returns the six headers after it. */
  refund(keyId: string, limits: KeyLimits, charged: number, actual: number): Promise<Record<string, string> | void>;
  /**
   * The six headers without taking anything (refusals elsewhere still carry them, RULINGS 6). With
   * `freeOrganization` (a key on the Free plan) the requests headers are the Free minute window and
   * the day headers and x-svc-plan come with them, as admission would report them.
   */
  peek(keyId: string, limits: KeyLimits, freeOrganization?: string): Promise<Record<string, string>>;
}

export interface KeyLimiterOptions {
  redis: Redis;
  logger: WarnLogger;
  now?: () => number;
  /** Longest wait for Redis before the check is skipped (fail open). */
  timeoutMs?: number;
  /**
   * Refunds owed rather than sent on their own (absent: each refund is its own script run). A
   * refund after this limiter's check of the same key is added to the key's next check or peek
   * (the same script run, so applied before it) or, when none comes within `flushMs`, sent with
   * the other refunds owed then in one write; the headers it returns are the call's check state
   * refilled to now and moved by the refund, as the script would report them for that key alone.
   * Owed refunds not yet sent when the process ends are lost: those buckets stay charged at the
   * estimate until they refill.
   */
  foldRefunds?: { flushMs: number };
}

/** Most keys whose last check this limiter keeps for the refund that follows it. */
const FOLD_MAX_KEYS = 10_000;

export function keyLimitKeys(keyId: string): { requests: string; tokens: string } {
  return { requests: `rl:${tag(keyId)}:req`, tokens: `rl:${tag(keyId)}:tok` };
}

/**
 * The limits of a key record. proto3 sends an unset int32 as 0, and a limit of 0 would refuse
 * every call, so 0 (or anything not a positive number) means the default.
 */
export function keyLimitsOf(record: { rpm_limit?: number | null; tpm_limit?: number | null }): KeyLimits {
  return normalizeLimits({ requestsPerMinute: record.rpm_limit ?? 0, tokensPerMinute: record.tpm_limit ?? 0 });
}

function normalizeLimits(limits: KeyLimits): KeyLimits {
  const pick = (value: number, fallback: number) => (Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback);
  return {
    requestsPerMinute: pick(limits.requestsPerMinute, DEFAULT_KEY_LIMITS.requestsPerMinute),
    tokensPerMinute: pick(limits.tokensPerMinute, DEFAULT_KEY_LIMITS.tokensPerMinute),
  };
}

function tokenCount(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : 0;
}

/**
 * Both buckets, refilled to now, the token bucket first moved by ARGV[7] tokens owed by earlier
 * calls' refunds (absent: 0); takes 1 request and ARGV[5] tokens only when both have room and
 * ARGV[6] is '1'.
 */
const CHECK_SCRIPT = `${LUA_PRELUDE}
local rcap = tonumber(ARGV[3])
local tcap = tonumber(ARGV[4])
local cost = tonumber(ARGV[5])
local owed = tonumber(ARGV[7] or '0') or 0
local rt, rts = load(KEYS[1], rcap)
local tt, tts = load(KEYS[2], tcap)
if owed ~= 0 then
  tt = tt + owed
  if tt > tcap then tt = tcap end
  if tt < 0 then tt = 0 end
end
local ok = (rt + rcap * 1e-9 >= 1) and (tt + tcap * 1e-9 >= cost)
local took = false
if ok and ARGV[6] == '1' then
  rt = rt - 1
  if rt < 0 then rt = 0 end
  store(KEYS[1], rcap, rt, rts)
  if cost > 0 then
    tt = tt - cost
    if tt < 0 then tt = 0 end
    took = true
  end
end
if took or owed ~= 0 then store(KEYS[2], tcap, tt, tts) end
return {ok and 1 or 0, num(rt), num(rts - now), num(tt), num(tts - now)}
`;

/** Adds ARGV[5] tokens (negative takes) to the token bucket, kept within 0 and its capacity. */
const ADJUST_SCRIPT = `${LUA_PRELUDE}
local rcap = tonumber(ARGV[3])
local tcap = tonumber(ARGV[4])
local delta = tonumber(ARGV[5])
local rt, rts = load(KEYS[1], rcap)
local tt, tts = load(KEYS[2], tcap)
tt = tt + delta
if tt > tcap then tt = tcap end
if tt < 0 then tt = 0 end
store(KEYS[2], tcap, tt, tts)
return {1, num(rt), num(rts - now), num(tt), num(tts - now)}
`;

interface Buckets {
  allowed: boolean;
  requests: BucketState;
  tokens: BucketState;
}

function headersOf({ requests, tokens }: Buckets): Record<string, string> {
  return {
    'x-ratelimit-limit-requests': String(requests.capacity),
    'x-ratelimit-remaining-requests': String(remainingOf(requests)),
    'x-ratelimit-reset-requests': formatDuration(fullInMs(requests)),
    'x-ratelimit-limit-tokens': String(tokens.capacity),
    'x-ratelimit-remaining-tokens': String(remainingOf(tokens)),
    'x-ratelimit-reset-tokens': formatDuration(fullInMs(tokens)),
  };
}

/** A bucket as a script run `elapsedMs` after `bucket` was read would load it: refilled, never above its capacity. */
function refilled(bucket: BucketState, elapsedMs: number): BucketState {
  const gain = elapsedMs - bucket.lagMs;
  if (gain <= 0) return { ...bucket, lagMs: bucket.lagMs - Math.max(0, elapsedMs) };
  const tokens = bucket.tokens + (gain * bucket.capacity) / PERIOD_MS;
  return { capacity: bucket.capacity, tokens: Math.min(bucket.capacity, Math.max(0, tokens)), lagMs: 0 };
}

/** What ADJUST_SCRIPT reports for `delta` tokens on buckets last seen `elapsedMs` ago (no other call since). */
function adjusted(seen: Buckets, elapsedMs: number, delta: number): Buckets {
  const tokens = refilled(seen.tokens, elapsedMs);
  return { allowed: true, requests: refilled(seen.requests, elapsedMs), tokens: { ...tokens, tokens: Math.min(tokens.capacity, Math.max(0, tokens.tokens + delta)) } };
}

/** The 429 for a refused check: names the bucket(s) that refused, with the six headers and Retry-After. */
function refusal(buckets: Buckets, cost: number): ServiceError {
  const { requests, tokens } = buckets;
  svcMetrics().rateLimitRefusals.add(1, { scope: cost <= tokens.capacity && waitForMs(requests, 1) > 0 ? 'key_requests' : 'key_tokens' });
  const headers = headersOf(buckets);
  if (cost > tokens.capacity) {
    // Can never pass: even a full token bucket is smaller than this one request. Note 2 still
    // wants a Retry-After on every 429; the time until the token bucket is full is the most a
    // wait can give, and the message says a retry of the same request will not help.
    headers['retry-after'] = retryAfterSeconds(fullInMs(tokens));
    return new ServiceError(
      'rate_limit_exceeded',
      `This request alone needs an estimated ${cost} tokens, more than this key's limit of ${tokens.capacity} tokens per minute, so it cannot be served as sent. Lower max_tokens or send less input.`,
      { headers },
    );
  }
  const requestWait = waitForMs(requests, 1);
  const tokenWait = waitForMs(tokens, cost);
  const named: string[] = [];
  if (requestWait > 0) named.push(`requests per minute (limit ${requests.capacity})`);
  if (tokenWait > 0 || named.length === 0) named.push(`tokens per minute (limit ${tokens.capacity}, remaining ${remainingOf(tokens)}, requested ${cost})`);
  // Retry-After: the time until both buckets have room for this request.
  const waitMs = Math.max(requestWait, tokenWait);
  headers['retry-after'] = retryAfterSeconds(waitMs);
  return new ServiceError('rate_limit_exceeded', `Rate limit reached for ${named.join(' and ')}. Please try again in ${formatDuration(waitMs)}.`, { headers });
}

export function createKeyLimiter(options: KeyLimiterOptions): KeyLimiter {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 250;
  const scripts = defineScripts(options.redis, [
    { name: 'svcKeyLimitCheck', numberOfKeys: 2, lua: CHECK_SCRIPT },
    { name: 'svcKeyLimitAdjust', numberOfKeys: 2, lua: ADJUST_SCRIPT },
  ]);
  // Fail open on a store failure, headers omitted: there is no spec code for it, and refusing all
  // traffic while Redis is down would turn a store outage into a full outage. Spend stays guarded
  // by billing admission (which fails closed) and the key's spend limit.
  const warn = throttledWarning(options.logger, 'per-key rate limit store unavailable; admitting requests without key rate limits');

  async function run(script: 'svcKeyLimitCheck' | 'svcKeyLimitAdjust', keyId: string, limits: KeyLimits, amount: number, take: boolean, owed = 0): Promise<Buckets> {
    const keys = keyLimitKeys(keyId);
    const args = [arg(PERIOD_MS), arg(now()), arg(limits.requestsPerMinute), arg(limits.tokensPerMinute), arg(amount), take ? '1' : '0'];
    if (owed !== 0) args.push(arg(owed));
    const reply = (await withTimeout(scripts[script]([keys.requests, keys.tokens], args), timeoutMs)) as [number, string, string, string, string];
    return {
      allowed: reply[0] === 1,
      requests: bucketState(limits.requestsPerMinute, reply[1], reply[2]),
      tokens: bucketState(limits.tokensPerMinute, reply[3], reply[4]),
    };
  }

  // foldRefunds: each key's last check (for the refund after it) and the refunds owed by key.
  const fold = options.foldRefunds;
  const lastChecks = new Map<string, { buckets: Buckets; at: number }>();
  const owed = new Map<string, { limits: KeyLimits; delta: number }>();
  let flushing: NodeJS.Timeout | undefined;

  /** The tokens owed to `keyId`'s bucket, taken off the list to go with the script run about to start. */
  function takeOwed(keyId: string): number {
    const entry = owed.get(keyId);
    if (!entry) return 0;
    owed.delete(keyId);
    return entry.delta;
  }

  /** Sends every refund owed, in one write. */
  function flushOwed(): void {
    flushing = undefined;
    const entries = [...owed.entries()];
    owed.clear();
    inOneWrite(options.redis, () => {
      for (const [keyId, { limits, delta }] of entries) run('svcKeyLimitAdjust', keyId, limits, delta, false).catch(warn);
    });
  }

  function owe(keyId: string, limits: KeyLimits, delta: number): void {
    const entry = owed.get(keyId);
    owed.set(keyId, { limits, delta: (entry?.delta ?? 0) + delta });
    flushing ??= setTimeout(flushOwed, fold!.flushMs).unref();
  }

  /** Sends the refund now and reports the buckets after it. */
  async function refundNow(keyId: string, limits: KeyLimits, delta: number): Promise<Record<string, string> | undefined> {
    try {
      return headersOf(await run('svcKeyLimitAdjust', keyId, limits, delta, false, 0));
    } catch (error) {
      warn(error);
      return undefined;
    }
  }

  return {
    async check(keyId, rawLimits, rawTokens) {
      const limits = normalizeLimits(rawLimits);
      const cost = tokenCount(rawTokens);
      let buckets: Buckets;
      try {
        buckets = await run('svcKeyLimitCheck', keyId, limits, cost, true, fold ? takeOwed(keyId) : 0);
      } catch (error) {
        warn(error);
        return { headers: {}, charged: 0 };
      }
      if (!buckets.allowed) throw refusal(buckets, cost);
      if (fold) {
        if (lastChecks.size >= FOLD_MAX_KEYS) lastChecks.clear();
        lastChecks.set(keyId, { buckets, at: now() });
      }
      return { headers: headersOf(buckets), charged: cost };
    },

    async refund(keyId, rawLimits, charged, actual) {
      const limits = normalizeLimits(rawLimits);
      // Positive gives back an over-estimate; negative takes what the call used beyond it.
      const delta = tokenCount(charged) - tokenCount(actual);
      const seen = fold ? lastChecks.get(keyId) : undefined;
      // Without this limiter's check of the key to start from (another call of it came between), the refund goes now.
      if (!seen) return refundNow(keyId, limits, delta + (fold ? takeOwed(keyId) : 0));
      lastChecks.delete(keyId);
      if (delta !== 0) owe(keyId, limits, delta);
      return headersOf(adjusted(seen.buckets, now() - seen.at, delta));
    },

    async peek(keyId, rawLimits, freeOrganization) {
      const limits = normalizeLimits(rawLimits);
      try {
        const [bucket, free] = await Promise.all([run('svcKeyLimitCheck', keyId, limits, 0, false, fold ? takeOwed(keyId) : 0), freeOrganization ? withTimeout(readFreeHeaders(options.redis, freeOrganization, now()), timeoutMs) : undefined]);
        return { ...headersOf(bucket), ...free };
      } catch (error) {
        warn(error);
        return {};
      }
    },
  };
}
