/**
 * How consumers tell an outage from a poison message, and how long they wait between tries.
 *
 * A handler error is either
 *  - an outage of something the handler depends on (a database, a cache, the network): the
 *    message is fine, so it is held and tried again with backoff for as long as the outage
 *    lasts, never dead-lettered for it;
 *  - a PoisonMessageError: the message can never succeed, so it is dead-lettered at once;
 *  - anything else: tried again through the retry queue a bounded number of times, then
 *    dead-lettered (a bug or a permanently failing record; the replay command brings it back).
 */

/** Thrown by a handler for a message that can never be processed: dead-lettered at once. */
export class PoisonMessageError extends Error {
  override name = 'PoisonMessageError';
}

/** The broker did not confirm a publish within the time limit (it may still arrive: consumers are idempotent). */
export class ConfirmTimeoutError extends Error {
  override name = 'ConfirmTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`the broker did not confirm the publish within ${timeoutMs} ms`);
  }
}

/** No usable connection to the broker right now (reconnecting, blocked by the broker, or closed). */
export class AmqpUnavailableError extends Error {
  override name = 'AmqpUnavailableError';
}

/** A handler that did not finish within its time limit (a hung connection): treated as an outage. */
export class HandlerTimeoutError extends Error {
  override name = 'HandlerTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`handler did not finish within ${timeoutMs} ms`);
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN', 'ENOTFOUND', 'ESOCKETTIMEDOUT']);

/** The error and every error it wraps (`cause`, AggregateError's `errors`), at most `limit` deep. */
export function errorChain(error: unknown, limit = 8): unknown[] {
  const chain: unknown[] = [];
  const queue = [error];
  while (queue.length > 0 && chain.length < limit) {
    const next = queue.shift();
    if (next === undefined || next === null || chain.includes(next)) continue;
    chain.push(next);
    if (typeof next === 'object') {
      const cause = (next as { cause?: unknown }).cause;
      if (cause !== undefined) queue.push(cause);
      const errors = (next as { errors?: unknown }).errors;
      if (Array.isArray(errors)) queue.push(...errors);
    }
  }
  return chain;
}

/**
 * The default outage test: network-level failures (a refused, reset or timed-out connection,
 * DNS that does not answer), and a handler that timed out. Services add what their own clients
 * throw (see billing's settlement outage classifier).
 */
export function isConnectionError(error: unknown): boolean {
  return errorChain(error).some((item) => {
    if (item instanceof HandlerTimeoutError || item instanceof AmqpUnavailableError || item instanceof ConfirmTimeoutError) return true;
    if (typeof item !== 'object' || item === null) return false;
    const code = (item as { code?: unknown }).code;
    return typeof code === 'string' && NETWORK_CODES.has(code);
  });
}

export interface BackoffOptions {
  /** First wait (default 250 ms). */
  initialMs?: number;
  /**
   * Longest wait (default 3 s): a dependency that comes back is noticed within seconds however
   * long it was away (recovery within 5 s of its return, the try itself included). A
   * try costs one connection attempt.
   */
  maxMs?: number;
}

/** Exponential backoff with full jitter in the upper half: attempt 0 waits about initialMs. */
export function backoffDelay(attempt: number, options: BackoffOptions = {}, random: () => number = Math.random): number {
  const initial = options.initialMs ?? 250;
  const max = options.maxMs ?? 3_000;
  const ceiling = Math.min(max, initial * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A wait that can be cut short (a consumer being cancelled, a channel closing). */
export class Sleeper {
  private readonly waking = new Set<() => void>();

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waking.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waking.add(done);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.waking]) wake();
  }
}
