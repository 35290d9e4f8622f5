/**
 * Continuously refilling buckets kept in Redis, shared by the per-address limit and the per-key
 * request and token limits.
 *
 * A bucket of capacity C refills at C per minute and starts full. This is the GCRA ("generic cell
 * rate algorithm") with a burst of C, stored as a token count rather than as a theoretical
 * arrival time: the two are the same limiter, and the count keeps the float arithmetic at small
 * magnitudes, so remaining counts in the headers come out exact.
 *
 * State, one string key per bucket: "<available tokens>:<last refill time in ms>", both written
 * with %.17g so they round-trip exactly. No key means a full bucket; every write sets PX to the
 * time until the bucket is full again, so idle buckets cost no memory.
 *
 * Time comes from the caller (ARGV `now`, milliseconds), never from Redis TIME, so tests control
 * the clock. Edge replicas read their own clocks: the stored refill time never moves backwards
 * (a replica whose clock lags cannot replay a refill another replica already counted), so clock
 * skew between replicas only delays refills by the skew, never grants extra room.
 */
export const PERIOD_MS = 60_000;

/**
 * Lua shared by every script. Expects ARGV[1] = period (ms) and ARGV[2] = now (ms).
 * `load` returns the bucket refilled up to now; `store` writes it back (or deletes it when full).
 */
export const LUA_PRELUDE = `
local period = tonumber(ARGV[1])
local now = tonumber(ARGV[2])

local function load(key, cap)
  local raw = redis.call('GET', key)
  if not raw then return cap, now end
  local sep = string.find(raw, ':', 1, true)
  if not sep then return cap, now end
  local tokens = tonumber(string.sub(raw, 1, sep - 1))
  local ts = tonumber(string.sub(raw, sep + 1))
  if tokens == nil or ts == nil then return cap, now end
  if now > ts then
    tokens = tokens + (now - ts) * cap / period
    ts = now
  end
  if tokens > cap then tokens = cap end
  if tokens < 0 then tokens = 0 end
  return tokens, ts
end

local function store(key, cap, tokens, ts)
  if tokens >= cap then
    redis.call('DEL', key)
    return
  end
  local full_in = (ts - now) + (cap - tokens) * period / cap
  redis.call('SET', key, string.format('%.17g:%.17g', tokens, ts), 'PX', string.format('%d', math.floor(full_in) + 1))
end

local function num(x)
  return string.format('%.17g', x)
end
`;

/** A bucket as a script reports it: available tokens and how far its refill time is ahead of now. */
export interface BucketState {
  capacity: number;
  tokens: number;
  lagMs: number;
}

/** Float slack for comparisons: far below one token, far above accumulated rounding. */
function slack(capacity: number): number {
  return capacity * 1e-9;
}

export function bucketState(capacity: number, tokens: unknown, lagMs: unknown): BucketState {
  return { capacity, tokens: Number(tokens), lagMs: Math.max(0, Number(lagMs)) };
}

/** Whole tokens left (the `remaining` header). */
export function remainingOf(bucket: BucketState): number {
  // The slack absorbs float drift in the refill; remaining never reads above the limit.
  return Math.min(bucket.capacity, Math.max(0, Math.floor(bucket.tokens + slack(bucket.capacity))));
}

/** Time until the bucket is full again (the `reset` header). */
export function fullInMs(bucket: BucketState): number {
  const missing = bucket.capacity - bucket.tokens;
  if (missing <= slack(bucket.capacity)) return bucket.lagMs;
  return bucket.lagMs + (missing * PERIOD_MS) / bucket.capacity;
}

/** Time until the bucket holds `need` tokens (what Retry-After is computed from). */
export function waitForMs(bucket: BucketState, need: number): number {
  const missing = need - bucket.tokens;
  if (missing <= slack(bucket.capacity)) return 0;
  return bucket.lagMs + (missing * PERIOD_MS) / bucket.capacity;
}

/** Script arguments are sent as text; String() of a JS number round-trips exactly through Lua's tonumber. */
export function arg(value: number): string {
  return String(value);
}

/** Bounds a store call (libs/lifecycle) and logs a failing store at most every 10 s (libs/logger). */
export { withTimeout } from '@svc/lifecycle';
export { throttledWarning, type WarnLogger } from '@svc/logger';
