import { catalog } from '@svc/catalog';
import type { Logger } from '@svc/logger';
import type { Redis } from '@svc/redis';
import { createCallRuntime, type Backends, type CallRuntime } from '@svc/backends';
import { ChatCall, type Caller, type CallPolicy, type ChatRequestInput, type StreamCallResult, type UnaryCallResult, type UsageSink } from '@svc/call';
import type { WorkersConfig } from '../config';

/**
 * The workers' way to run a model call: the same pipeline as the edge (@svc/call), wired to the
 * same router and billing clients, the same shared provider health and prompt-cache state, and a
 * usage sink to the same usage.settle queue. Batch lines, background responses and compaction
 * run their calls through this. No token gate: lines are limited by their job, not the key's
 * per-minute buckets.
 */
export interface WorkerCalls {
  runtime: CallRuntime;
  /** Plans and runs one call; a stream is read to its end (workers store whole answers). */
  run(input: ChatRequestInput, caller: Caller, policy: Omit<CallPolicy, 'stream'>, signal: AbortSignal): Promise<UnaryCallResult | undefined>;
  close(): void;
}

export function createWorkerCalls(config: Readonly<WorkersConfig>, options: { logger: Logger; redis: Redis; usage: (backends: Backends) => UsageSink; backends?: Backends }): WorkerCalls {
  const runtime = createCallRuntime(config, { catalog, logger: options.logger, redis: options.redis, usage: options.usage, ...(options.backends ? { backends: options.backends } : {}) });
  return {
    runtime,
    async run(input, caller, policy, signal) {
      const call = await ChatCall.start(runtime.deps, input, caller, { ...policy, stream: false }, signal);
      return call.unary(signal);
    },
    close: () => runtime.close(),
  };
}

export type { StreamCallResult };
