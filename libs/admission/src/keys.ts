import { counterTtlSeconds, isSpendPeriod, periodWindow, type PeriodWindow } from './periods';

/** The organization's balance in Redis (integer micros): credits minus settled cost, rebuilt by billing from the ledger when missing. */
export function balanceKey(organizationId: string): string {
  return `bal:{${organizationId}}`;
}

/** Micros held against the balance by admitted calls not yet settled. */
export function heldBalanceKey(organizationId: string): string {
  return `heldbal:{${organizationId}}`;
}

/**
 * Where the organization stands for admission, read without moving anything: the balance and what
 * calls in flight hold against it; undefined while the balance is not in Redis (billing rebuilds it
 * from the ledger on the next admission).
 */
export async function readStanding(redis: { mget(...keys: string[]): Promise<Array<string | null>> }, organizationId: string): Promise<{ available: number } | undefined> {
  const [balance, held] = await redis.mget(balanceKey(organizationId), heldBalanceKey(organizationId));
  if (balance === null || balance === undefined) return undefined;
  return { available: Number(balance) - Number(held ?? 0) };
}

/**
 * Where admission's state lives in Redis. Every key of one organization carries the hash tag
 * `{org}`, so one Lua script reads and moves them all atomically (and on one cluster slot).
 *
 * Settled counters (what the ledger holds; each is rebuilt from Postgres when missing):
 *   bal:{org}                         credits minus settled cost (balance.ts)
 *   kspend:{org}:<key>:<period>       the key's settled cost in its spend period
 *   mspend:{org}:<member>:<month>     the member's settled cost this month
 *   fday:{org}:<date>                 Free calls answered on this UTC day
 *   fcost:{org}:<date>                Free calls' list price on this UTC day (fair use)
 *   calls:{org}:<key>                 the key's answered chat calls (baseline.calls)
 *   bl:{org}:<key>                    the key's baseline model, `-` while pending (cache, 1 h)
 * Reservations of admitted calls not yet settled (see scripts.ts):
 *   held:{org}       zset call id → expiry (ms); hold:{org} hash call id → what it holds
 *   heldbal:{org}    micros held against the balance
 *   kheld:{org}:<key>, mheld:{org}:<member>   micros held against the key / member limit
 *   fheldreq:{org}, fheldcost:{org}           Free requests and list price held today
 *   fmin:{org}:<minute>              Free requests admitted in this UTC minute (window)
 */
export interface CounterKeys {
  bal: string;
  held: string;
  hold: string;
  heldBal: string;
  keySpend: string;
  keyHeld: string;
  memberSpend: string;
  memberHeld: string;
  freeDay: string;
  freeCost: string;
  freeHeldRequests: string;
  freeHeldCost: string;
  freeMinute: string;
  calls: string;
  baseline: string;
}

export interface CounterScope {
  organizationId: string;
  keyId: string;
  memberId: string;
  /** The key's spend period, or '' when it has no limit. */
  spendPeriod: string;
}

export interface CounterPlan {
  keys: CounterKeys;
  keyWindow: PeriodWindow | undefined;
  memberWindow: PeriodWindow;
  dayWindow: PeriodWindow;
  /** Seconds each period counter lives (0 = no expiry). */
  ttl: { keySpend: number; memberSpend: number; freeDay: number };
}

export function counterPlan(scope: CounterScope, nowMs: number): CounterPlan {
  const org = `{${scope.organizationId}}`;
  const keyWindow = isSpendPeriod(scope.spendPeriod) ? periodWindow(scope.spendPeriod, nowMs) : undefined;
  const memberWindow = periodWindow('month', nowMs);
  const dayWindow = periodWindow('day', nowMs);
  const date = dayWindow.label.slice(1);
  return {
    keys: {
      bal: balanceKey(scope.organizationId),
      held: `held:${org}`,
      hold: `hold:${org}`,
      heldBal: heldBalanceKey(scope.organizationId),
      keySpend: `kspend:${org}:${scope.keyId}:${keyWindow?.label ?? 'none'}`,
      keyHeld: `kheld:${org}:${scope.keyId}`,
      memberSpend: `mspend:${org}:${scope.memberId}:${memberWindow.label}`,
      memberHeld: `mheld:${org}:${scope.memberId}`,
      freeDay: `fday:${org}:${date}`,
      freeCost: `fcost:${org}:${date}`,
      freeHeldRequests: `fheldreq:${org}`,
      freeHeldCost: `fheldcost:${org}`,
      freeMinute: `fmin:${org}:${Math.floor(nowMs / 60_000)}`,
      calls: `calls:${org}:${scope.keyId}`,
      baseline: `bl:${org}:${scope.keyId}`,
    },
    keyWindow,
    memberWindow,
    dayWindow,
    ttl: {
      keySpend: keyWindow ? counterTtlSeconds(keyWindow, nowMs) : 0,
      memberSpend: counterTtlSeconds(memberWindow, nowMs),
      freeDay: counterTtlSeconds(dayWindow, nowMs),
    },
  };
}

/** The key order the Lua scripts take (KEYS[1] … KEYS[15]). */
export function keyList(keys: CounterKeys): string[] {
  return [
    keys.bal, keys.held, keys.hold, keys.heldBal, keys.keySpend, keys.keyHeld, keys.memberSpend, keys.memberHeld,
    keys.freeDay, keys.freeCost, keys.freeHeldRequests, keys.freeHeldCost, keys.freeMinute, keys.calls, keys.baseline,
  ];
}

export type CounterName = 'bal' | 'kspend' | 'mspend' | 'fday' | 'fcost' | 'calls' | 'baseline';

/** The baseline counter while a key has too few calls for one. */
export const BASELINE_PENDING = '-';
