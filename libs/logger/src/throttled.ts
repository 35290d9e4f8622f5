import type { Logger } from 'winston';

export type WarnLogger = Pick<Logger, 'warn'>;

/**
 * A warning logged at most once per interval while something keeps failing (every request
 * would otherwise log one), with the number of failures in between.
 */
export function throttledWarning(logger: WarnLogger, message: string, intervalMs = 10_000, now: () => number = Date.now): (error: unknown, fields?: Record<string, unknown>) => void {
  let lastAt = -Infinity;
  let suppressed = 0;
  return (error, fields = {}) => {
    const at = now();
    if (at - lastAt < intervalMs) {
      suppressed += 1;
      return;
    }
    logger.warn(message, { ...fields, err: error, failures_since_last_warning: suppressed });
    lastAt = at;
    suppressed = 0;
  };
}
