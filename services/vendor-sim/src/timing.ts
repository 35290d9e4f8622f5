/** Resolves after `ms`, or at once when the signal aborts (the client went away). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Resolves only when the signal aborts. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

export interface Latency {
  ttftMs: number;
  /** 0 = unlimited. */
  tokensPerSecond: number;
}

/**
 * Schedules output against an absolute timeline (start + ttft + tokens/tps) rather than
 * sleeping per chunk, so timer overshoot does not pile up over a long stream.
 */
export class Pacer {
  private readonly start = Date.now();
  private emitted = 0;

  constructor(
    private readonly latency: Latency,
    private readonly signal?: AbortSignal,
  ) {}

  /** Counts tokens produced without being sent (hidden reasoning): they push later output back. */
  produce(tokens: number): void {
    this.emitted += tokens;
  }

  /** Waits until a chunk of `tokens` tokens is due: ttft, then one token per 1/tps seconds. */
  async next(tokens: number): Promise<void> {
    const tps = this.latency.tokensPerSecond;
    const due = this.start + this.latency.ttftMs + (tps > 0 ? (this.emitted * 1000) / tps : 0);
    this.emitted += tokens;
    await sleep(due - Date.now(), this.signal);
  }
}
