/** Anything with a winston-like warn (a Logger, a test double). */
export interface WarnLogger {
  warn(message: string, meta?: Record<string, unknown>): unknown;
}

export interface ThrottleOptions {
  /** At most one warning per interval (default 10 s). */
  intervalMs?: number;
  now?: () => number;
  /** The field that counts the failures not logged since the last warning. */
  countField?: string;
}

/**
 * A warning logged at most once per interval while something keeps failing (every request
 * would otherwise log one), with the number of failures in between. The one helper for
 * "warn at most every N s" in every service.
 */
export function throttledWarning(logger: WarnLogger | undefined, message: string, options: ThrottleOptions = {}): (error: unknown, fields?: Record<string, unknown>) => void {
  const intervalMs = options.intervalMs ?? 10_000;
  const now = options.now ?? Date.now;
  const countField = options.countField ?? 'failures_since_last_warning';
  let lastAt = -Infinity;
  let suppressed = 0;
  return (error, fields = {}) => {
    const at = now();
    if (at - lastAt < intervalMs) {
      suppressed += 1;
      return;
    }
    logger?.warn(message, { ...fields, [countField]: suppressed, err: error });
    lastAt = at;
    suppressed = 0;
  };
}
