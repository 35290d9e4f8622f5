import { formatDuration, retryAfterSeconds } from './durations';

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [-5, '0s'],
    [Number.NaN, '0s'],
    [0.3, '1ms'],
    [1, '1ms'],
    [100, '100ms'],
    [100.00000000000001, '100ms'],
    [500, '500ms'],
    [999, '999ms'],
    [999.2, '1s'],
    [1000, '1s'],
    [1500, '1.5s'],
    [1234.5, '1.235s'],
    [12_000, '12s'],
    [24_010, '24.01s'],
    [60_000, '60s'],
    [90_000, '90s'],
  ])('%p ms is %p', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('retryAfterSeconds', () => {
  it.each([
    [0, '1'],
    [1, '1'],
    [200, '1'],
    [1000, '1'],
    [1001, '2'],
    [6000, '6'],
    [59_999, '60'],
    [Number.NaN, '1'],
  ])('%p ms is %p', (ms, text) => {
    expect(retryAfterSeconds(ms)).toBe(text);
  });
});
