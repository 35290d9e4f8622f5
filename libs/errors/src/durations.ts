/**
 * Header value forms for the rate limits.
 *
 * Spec (Limits, rate-limit headers): reset values are "time until full (forms like `12s` or
 * `500ms`)"; Errors note 2: "Every 429 carries `Retry-After` in whole seconds (at least 1)".
 */

/**
 * A duration as a reset header value. Under one second: whole milliseconds (`500ms`); from one
 * second on: seconds with up to three decimals, trailing zeros trimmed (`1.5s`, `12s`, `60s`).
 * Rounds up to the next millisecond, since a reset that reads early would invite a retry that
 * is refused; zero (a full bucket) and anything below it is `0s`.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '0s';
  // The small slack keeps float noise (100.00000000000001) from rounding up a whole millisecond.
  const whole = Math.ceil(ms - 1e-6);
  if (whole <= 0) return '0s';
  if (whole < 1000) return `${whole}ms`;
  return `${Number((whole / 1000).toFixed(3))}s`;
}

/** `Retry-After`: whole seconds, rounded up, at least 1 (Errors note 2). */
export function retryAfterSeconds(ms: number): string {
  const seconds = Number.isFinite(ms) ? Math.ceil(ms / 1000 - 1e-9) : 1;
  return String(Math.max(1, seconds));
}
