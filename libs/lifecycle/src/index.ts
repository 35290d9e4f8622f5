import type { Logger } from '@svc/logger';

export interface ShutdownStep {
  name: string;
  run: () => Promise<unknown>;
}

/**
 * SIGTERM/SIGINT: stop taking work, drain what is in flight, close clients, exit — within
 * `graceMs` (k8s terminationGracePeriodSeconds should be a little longer). Steps run in order;
 * a step that fails is logged and the rest still run. A second signal exits at once.
 */
export function onShutdown(logger: Logger, graceMs: number, steps: ShutdownStep[]): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      logger.warn('second signal: exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('shutting down', { signal, grace_ms: graceMs });
    const deadline = setTimeout(() => {
      logger.error('shutdown grace period over: exiting', { grace_ms: graceMs });
      process.exit(1);
    }, graceMs);
    deadline.unref();
    void (async () => {
      for (const step of steps) {
        const started = Date.now();
        try {
          await step.run();
          logger.info('shutdown step done', { step: step.name, duration_ms: Date.now() - started });
        } catch (error) {
          logger.warn('shutdown step failed', { step: step.name, duration_ms: Date.now() - started, err: error });
        }
      }
      logger.info('stopped');
      clearTimeout(deadline);
      process.exit(0);
    })();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** Of a shutdown grace, what is kept after draining in-flight work: publishing what it owes and closing down. */
const SHUTDOWN_RESERVE_MS = 5_000;

/**
 * How long a drain of in-flight work (calls, jobs) may take within a shutdown grace of `graceMs`:
 * all of it but a reserve (5 s, at most a quarter of it), so work cut at its end still publishes
 * its usage before the process exits.
 */
export function drainBudgetMs(graceMs: number): number {
  return graceMs - Math.min(SHUTDOWN_RESERVE_MS, Math.floor(graceMs / 4));
}

/** Runs a service's main(); a failure at start prints one line and exits 1. */
export function run(service: string, main: () => Promise<void>, logger?: Logger): void {
  main().catch((error: Error) => {
    if (logger) logger.error('failed to start', { err: error });
    process.stderr.write(`${service}: failed to start: ${error.message}\n`);
    process.exit(1);
  });
}

export { withTimeout } from './timing';
export { createAppServer } from './app-server';
