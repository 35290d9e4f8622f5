/**
 * UTC periods of the spend limits and the Free plan (spec: Authentication 6 — "a day, a week from
 * Monday, or a month from 00:00 UTC, or its whole life"; Limits — the Free day resets 00:00 UTC).
 * Pure functions of a Unix-millisecond instant, so tests move the clock freely.
 */
export type SpendPeriod = 'day' | 'week' | 'month' | 'life';

export const SPEND_PERIODS: readonly SpendPeriod[] = ['day', 'week', 'month', 'life'];

const DAY_MS = 86_400_000;

export function isSpendPeriod(value: string): value is SpendPeriod {
  return (SPEND_PERIODS as readonly string[]).includes(value);
}

export interface PeriodWindow {
  /** Start of the period (inclusive), Unix ms; 0 for `life`. */
  startMs: number;
  /** End of the period (exclusive) = the reset, Unix ms; Infinity for `life`. */
  endMs: number;
  /** Stable label used in counter names: `d2026-11-21`, `w2026-11-16` (its Monday), `m2026-11`, `life`. */
  label: string;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function dayStart(nowMs: number): number {
  return Math.floor(nowMs / DAY_MS) * DAY_MS;
}

export function periodWindow(period: SpendPeriod, nowMs: number): PeriodWindow {
  switch (period) {
    case 'day': {
      const start = dayStart(nowMs);
      return { startMs: start, endMs: start + DAY_MS, label: `d${isoDate(start)}` };
    }
    case 'week': {
      const today = dayStart(nowMs);
      // getUTCDay: 0 = Sunday … 6 = Saturday; weeks start on Monday.
      const sinceMonday = (new Date(today).getUTCDay() + 6) % 7;
      const start = today - sinceMonday * DAY_MS;
      return { startMs: start, endMs: start + 7 * DAY_MS, label: `w${isoDate(start)}` };
    }
    case 'month': {
      const date = new Date(nowMs);
      const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
      const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
      return { startMs: start, endMs: end, label: `m${isoDate(start).slice(0, 7)}` };
    }
    case 'life':
      return { startMs: 0, endMs: Number.POSITIVE_INFINITY, label: 'life' };
  }
}

/** How long a period counter must live in Redis: to its reset plus a day of slack; 0 = no expiry. */
export function counterTtlSeconds(window: PeriodWindow, nowMs: number): number {
  if (!Number.isFinite(window.endMs)) return 0;
  return Math.ceil((window.endMs - nowMs) / 1000) + 86_400;
}

/** "day" → "today", as the refusal message reads. */
export function describeReset(period: SpendPeriod, window: PeriodWindow): string {
  if (period === 'life') return 'It is a limit over the key’s whole life and does not reset.';
  return `It resets at ${new Date(window.endMs).toISOString().replace('.000Z', 'Z')}.`;
}
