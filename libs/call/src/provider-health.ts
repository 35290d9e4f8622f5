import { defineScripts, type Redis } from '@svc/redis';
import type { Logger } from '@svc/logger';

/**
 * Provider health shared across edge replicas. A retryable failure of a model counts in Redis
 * (one Lua call, off the client's path); `threshold` failures within `windowMs` mark the model
 * unhealthy for `cooldownMs` in one hash that every replica reads once per `refreshMs`, so the
 * hot path asks only process memory. Unhealthy candidates are tried last; a named model with
 * fallback `none` that is unhealthy is refused (spec: svc.fallback `none` fails with 503
 * no_provider_available when the named model is unhealthy).
 */
export interface ProviderHealthOptions {
  redis: Redis;
  logger: Pick<Logger, 'warn'>;
  threshold: number;
  windowMs: number;
  cooldownMs: number;
  refreshMs: number;
  now?: () => number;
}

const HEALTH_KEY = '{provider-health}';
const failKey = (model: string) => `{provider-health}:fails:${model}`;

// KEYS[1] health hash, KEYS[2] failure counter; ARGV: model, now, window, threshold, cooldown
const RECORD_FAILURE = `
local fails = redis.call('INCR', KEYS[2])
if fails == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
if fails >= tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[1], ARGV[1], tonumber(ARGV[2]) + tonumber(ARGV[5]))
  redis.call('DEL', KEYS[2])
  return 1
end
return 0`;

// Drops expired entries and returns the rest as a flat list.
const READ_HEALTH = `
local all = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #all, 2 do
  if tonumber(all[i + 1]) <= tonumber(ARGV[1]) then redis.call('HDEL', KEYS[1], all[i]) else
    out[#out + 1] = all[i]; out[#out + 1] = all[i + 1] end
end
return out`;

export class ProviderHealth {
  private unhealthyUntil = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly scripts;
  private readonly now: () => number;

  constructor(private readonly options: ProviderHealthOptions) {
    this.now = options.now ?? Date.now;
    this.scripts = defineScripts(options.redis, [
      { name: 'svcHealthFailure', numberOfKeys: 2, lua: RECORD_FAILURE },
      { name: 'svcHealthRead', numberOfKeys: 1, lua: READ_HEALTH },
    ]);
  }

  start(): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    try {
      const flat = (await this.scripts.svcHealthRead([HEALTH_KEY], [this.now()])) as string[];
      const next = new Map<string, number>();
      for (let i = 0; i < flat.length; i += 2) next.set(flat[i], Number(flat[i + 1]));
      this.unhealthyUntil = next;
    } catch (error) {
      this.options.logger.warn('provider health could not be read; keeping the last view', { err: error });
    }
  }

  isHealthy(model: string): boolean {
    return (this.unhealthyUntil.get(model) ?? 0) <= this.now();
  }

  /** Counts a retryable failure; never fails the caller. */
  recordFailure(model: string): void {
    this.scripts
      .svcHealthFailure([HEALTH_KEY, failKey(model)], [model, this.now(), this.options.windowMs, this.options.threshold, this.options.cooldownMs])
      .then((marked) => {
        if (marked === 1) this.unhealthyUntil.set(model, this.now() + this.options.cooldownMs);
      })
      .catch((error) => this.options.logger.warn('provider failure could not be recorded', { model, err: error }));
  }

  /** Healthy candidates first, in their order, then the unhealthy ones. */
  order<T extends { model: string }>(candidates: T[]): T[] {
    const healthy = candidates.filter((candidate) => this.isHealthy(candidate.model));
    return healthy.length === candidates.length ? candidates : [...healthy, ...candidates.filter((candidate) => !this.isHealthy(candidate.model))];
  }
}
