import { defineScripts, type Redis } from '@svc/redis';

/**
 * The Lua scripts of admission and settlement. Each runs atomically on the organization's
 * keys (KEYS order: counters.ts keyList, plus the settle marker for SETTLE).
 *
 * A reservation (`hold:{org}` field = call id) lists the counters it raised and by how much, as
 * "name\namount\n" pairs, so releasing it — on settlement, on a Release, or when it expires in
 * `held:{org}` because the edge holding it died — lowers exactly those counters.
 */
const RELEASE_FN = `
local function release(id)
  local held = redis.call('HGET', KEYS[3], id)
  if held then
    for name, amount in string.gmatch(held, '([^\\n]+)\\n(%-?%d+)\\n') do redis.call('DECRBY', name, amount) end
    redis.call('HDEL', KEYS[3], id)
  end
  redis.call('ZREM', KEYS[2], id)
  return held
end
local function num(key)
  local value = redis.call('GET', key)
  if value then return tonumber(value) end
  return 0
end
`;

/*
 * ADMIT. ARGV: 1 call id, 2 now ms, 3 reservation expiry ms, 4 estimate micros, 5 estimated
 * list micros, 6 plan, 7 byok named (1/0), 8 stop at zero, 9 free allowance, 10 key limit,
 * 11 member limit, 12 Free requests/day, 13 Free daily cost, 14 Free requests/minute, 15 input
 * tokens, 16 max_tokens, 17 Free max input, 18 Free max output.
 * Returns {'missing', names...} | {'refuse', kind, balance, detail...} |
 *         {'ok', mode, reason, balance, key spent, member spent, free day used, free minute used, baseline, calls}.
 */
const ADMIT = `${RELEASE_FN}
-- ARGV[19]: the caller's deadline (Unix ms; 0 for none). A command queued while Redis was away
-- runs when it comes back, perhaps long after the caller gave up: past the deadline (by the
-- server's clock) it reserves nothing.
local deadline = tonumber(ARGV[19] or '0')
if deadline > 0 then
  local t = redis.call('TIME')
  if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > deadline then return {'expired'} end
end
local now = tonumber(ARGV[2])
release(ARGV[1])
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 100)
for _, id in ipairs(expired) do release(id) end

local keyLimit = tonumber(ARGV[10])
local memberLimit = tonumber(ARGV[11])
local missing = {}
if redis.call('EXISTS', KEYS[1]) == 0 then table.insert(missing, 'bal') end
if keyLimit > 0 and redis.call('EXISTS', KEYS[5]) == 0 then table.insert(missing, 'kspend') end
if memberLimit > 0 and redis.call('EXISTS', KEYS[7]) == 0 then table.insert(missing, 'mspend') end
if redis.call('EXISTS', KEYS[14]) == 0 then table.insert(missing, 'calls') end
if redis.call('EXISTS', KEYS[15]) == 0 then table.insert(missing, 'baseline') end
if #missing > 0 then return {'missing', unpack(missing)} end

local balance = num(KEYS[1])
local available = balance - num(KEYS[4])
local mode, reason = 'paid', ''
if ARGV[7] == '1' then
  mode = 'paid'
elseif ARGV[6] == 'free' then
  if ARGV[9] ~= '1' then return {'refuse', 'credit', tostring(balance)} end
  mode, reason = 'free', 'free_plan'
elseif available <= 0 then
  if ARGV[8] == '1' or ARGV[9] ~= '1' then return {'refuse', 'credit', tostring(balance)} end
  mode, reason = 'free', 'zero_balance'
end

-- A spend-limit refusal also says how much of it is settled spend (the rest is held by calls in flight).
local keySpent = 0
if keyLimit > 0 then
  keySpent = num(KEYS[5]) + num(KEYS[6])
  if keySpent >= keyLimit then return {'refuse', 'quota_key', tostring(balance), tostring(keySpent), tostring(num(KEYS[5]))} end
end
local memberSpent = 0
if memberLimit > 0 then
  memberSpent = num(KEYS[7]) + num(KEYS[8])
  if memberSpent >= memberLimit then return {'refuse', 'quota_member', tostring(balance), tostring(memberSpent), tostring(num(KEYS[7]))} end
end

local entries = {}
local function hold(key, amount)
  amount = tonumber(amount)
  if amount ~= 0 then
    redis.call('INCRBY', key, amount)
    table.insert(entries, key .. '\\n' .. amount .. '\\n')
  end
end

local dayUsed, minuteUsed = 0, 0
if mode == 'free' then
  if redis.call('EXISTS', KEYS[9]) == 0 then table.insert(missing, 'fday') end
  if redis.call('EXISTS', KEYS[10]) == 0 then table.insert(missing, 'fcost') end
  if #missing > 0 then return {'missing', unpack(missing)} end
  dayUsed = num(KEYS[9]) + num(KEYS[11])
  minuteUsed = num(KEYS[13])
  local function refuse(limit) return {'refuse', 'free', tostring(balance), limit, tostring(dayUsed), tostring(minuteUsed), reason} end
  if tonumber(ARGV[15]) > tonumber(ARGV[17]) then return refuse('input_tokens') end
  if tonumber(ARGV[16]) > tonumber(ARGV[18]) then return refuse('max_tokens') end
  if dayUsed >= tonumber(ARGV[12]) then return refuse('requests_per_day') end
  if num(KEYS[10]) + num(KEYS[12]) >= tonumber(ARGV[13]) then return refuse('daily_cost') end
  if minuteUsed >= tonumber(ARGV[14]) then return refuse('requests_per_minute') end
  minuteUsed = redis.call('INCR', KEYS[13])
  redis.call('EXPIRE', KEYS[13], 120)
  hold(KEYS[11], 1)
  hold(KEYS[12], ARGV[5])
  dayUsed = dayUsed + 1
else
  hold(KEYS[4], ARGV[4])
  if keyLimit > 0 then hold(KEYS[6], ARGV[4]) end
  if memberLimit > 0 then hold(KEYS[8], ARGV[4]) end
end
if #entries > 0 then
  redis.call('HSET', KEYS[3], ARGV[1], table.concat(entries))
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
end
return {'ok', mode, reason, tostring(balance), tostring(keySpent), tostring(memberSpent), tostring(dayUsed), tostring(minuteUsed), redis.call('GET', KEYS[15]), redis.call('GET', KEYS[14])}
`;

/*
 * SETTLE one answered call (KEYS 1-15 as ADMIT, 16 the call's applied marker). ARGV: 1 call id,
 * 2 cost micros, 3 vendor micros, 4 free (1/0), 5 chat (1/0), 6 marker ttl seconds.
 * The marker makes Redis idempotent on its own: a redelivered record moves nothing twice, and a
 * record whose ledger row was written before a crash still moves the counters once.
 * Counters that do not exist are left alone (they are rebuilt from the ledger, which has the row).
 * Returns {calls} — the key's answered chat calls after this one, -1 when not counted.
 */
const SETTLE = `${RELEASE_FN}
-- Amounts stay the integer strings they came as: a Lua number would turn 0 into '-0' when
-- negated (INCRBY refuses it) and large values into '1e+15'. Checked before anything is
-- written, since a script that fails half way keeps what it already did.
local integer = '^%-?%d+$'
if not string.match(ARGV[2], integer) or not string.match(ARGV[3], integer) then
  return redis.error_reply('SETTLE: cost and vendor micros must be integers')
end
if not redis.call('SET', KEYS[16], '1', 'NX', 'EX', ARGV[6]) then return {-1} end
release(ARGV[1])
local function move(command, key, amount)
  if amount ~= '0' and redis.call('EXISTS', key) == 1 then redis.call(command, key, amount) end
end
if ARGV[4] == '1' then
  move('INCRBY', KEYS[9], '1')
  move('INCRBY', KEYS[10], ARGV[3])
else
  move('DECRBY', KEYS[1], ARGV[2])
  move('INCRBY', KEYS[5], ARGV[2])
  move('INCRBY', KEYS[7], ARGV[2])
end
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[14]) == 1 then return {redis.call('INCR', KEYS[14])} end
return {-1}
`;

/*
 * HOLD_COST: an answered call's reservation against the balance and the spend limits becomes its
 * cost (KEYS[1] hold:{org}; ARGV: 1 call id, 2 cost micros as an integer string), so between the
 * answer and its settlement the call holds what it costs rather than its estimate: a client
 * calling one after another is not refused for the estimate of a call that already ended. The
 * Free plan's holds (a request and a list price) are left as they are. Returns 1 when the call
 * still held something (0: already settled or released).
 */
const HOLD_COST = `
if not string.match(ARGV[2], '^%d+$') then return redis.error_reply('HOLD_COST: cost micros must be a non-negative integer') end
local held = redis.call('HGET', KEYS[1], ARGV[1])
if not held then return 0 end
local cost = tonumber(ARGV[2])
local entries = {}
for name, amount in string.gmatch(held, '([^\\n]+)\\n(%-?%d+)\\n') do
  -- Names carry the client's key prefix: matched as plain text.
  if string.find(name, 'heldbal:{', 1, true) or string.find(name, 'kheld:{', 1, true) or string.find(name, 'mheld:{', 1, true) then
    local delta = cost - tonumber(amount)
    if delta ~= 0 then redis.call('INCRBY', name, string.format('%d', delta)) end
    table.insert(entries, name .. '\\n' .. ARGV[2] .. '\\n')
  else
    table.insert(entries, name .. '\\n' .. amount .. '\\n')
  end
end
redis.call('HSET', KEYS[1], ARGV[1], table.concat(entries))
return 1
`;

/** RELEASE (KEYS: held, hold as KEYS[2], KEYS[3]; KEYS[1] unused). ARGV: call id. Returns 1 when something was held. */
const RELEASE = `${RELEASE_FN}
if release(ARGV[1]) then return 1 end
return 0
`;

export interface AdmissionScripts {
  admit(keys: string[], args: Array<string | number>): Promise<string[]>;
  settle(keys: string[], args: Array<string | number>): Promise<[number]>;
  release(keys: string[], args: Array<string | number>): Promise<number>;
  holdCost(keys: string[], args: Array<string | number>): Promise<number>;
}

const registered = new WeakMap<Redis, AdmissionScripts>();

export function admissionScripts(redis: Redis): AdmissionScripts {
  const existing = registered.get(redis);
  if (existing) return existing;
  const callers = defineScripts(redis, [
    { name: 'svcBillingAdmit', numberOfKeys: 15, lua: ADMIT },
    { name: 'svcBillingSettle', numberOfKeys: 16, lua: SETTLE },
    { name: 'svcBillingRelease', numberOfKeys: 3, lua: RELEASE },
    { name: 'svcBillingHoldCost', numberOfKeys: 1, lua: HOLD_COST },
  ]);
  const scripts: AdmissionScripts = {
    admit: async (keys, args) => (await callers.svcBillingAdmit(keys, args)) as string[],
    settle: async (keys, args) => (await callers.svcBillingSettle(keys, args)) as [number],
    release: async (keys, args) => Number(await callers.svcBillingRelease(keys, args)),
    holdCost: async (keys, args) => Number(await callers.svcBillingHoldCost(keys, args)),
  };
  registered.set(redis, scripts);
  return scripts;
}
