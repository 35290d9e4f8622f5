import { counterTtlSeconds, describeReset, periodWindow } from './periods';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('spend periods (UTC)', () => {
  it('a day runs 00:00 to 00:00 UTC', () => {
    const day = periodWindow('day', at('2026-11-21T23:59:59.999Z'));
    expect([iso(day.startMs), iso(day.endMs), day.label]).toEqual(['2026-11-21T00:00:00.000Z', '2026-11-22T00:00:00.000Z', 'd2026-11-21']);
  });

  it('a week starts on Monday, also when now is a Sunday or the Monday itself', () => {
    expect(periodWindow('week', at('2026-11-22T12:00:00Z')).label).toBe('w2026-11-16'); // Sunday
    expect(periodWindow('week', at('2026-11-23T00:00:00Z')).label).toBe('w2026-11-23'); // Monday
    const week = periodWindow('week', at('2026-11-19T08:00:00Z')); // Thursday
    expect([iso(week.startMs), iso(week.endMs)]).toEqual(['2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z']);
  });

  it('a month runs from the 1st, across year ends and short months', () => {
    const december = periodWindow('month', at('2026-12-31T23:00:00Z'));
    expect([iso(december.startMs), iso(december.endMs), december.label]).toEqual(['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', 'm2026-12']);
    expect(iso(periodWindow('month', at('2028-02-29T10:00:00Z')).endMs)).toBe('2028-03-01T00:00:00.000Z');
  });

  it('life never resets; its counter never expires', () => {
    const life = periodWindow('life', at('2026-11-21T00:00:00Z'));
    expect([life.startMs, life.endMs, life.label]).toEqual([0, Number.POSITIVE_INFINITY, 'life']);
    expect(counterTtlSeconds(life, 0)).toBe(0);
    expect(describeReset('life', life)).toBe('It is a limit over the key’s whole life and does not reset.');
  });

  it('period counters live to the reset plus a day', () => {
    const now = at('2026-11-21T23:00:00Z');
    expect(counterTtlSeconds(periodWindow('day', now), now)).toBe(3600 + 86_400);
    expect(describeReset('day', periodWindow('day', now))).toBe('It resets at 2026-11-22T00:00:00Z.');
  });
});
