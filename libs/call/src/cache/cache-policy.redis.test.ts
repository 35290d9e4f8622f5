import type { Redis } from '@svc/redis';
import { RedisCacheState } from './cache-policy.redis';

/** A client whose every command hangs, or fails at once. */
function stubRedis(mode: 'hang' | 'fail'): Redis {
  const outcome = () => (mode === 'hang' ? new Promise<never>(() => undefined) : Promise.reject(new Error('connection refused')));
  const commands: string[] = [];
  const stub = {
    commands,
    set: (...args: unknown[]) => {
      commands.push(`set ${String(args[0])}`);
      return outcome();
    },
    pipeline: () => {
      const pipeline = {
        set: (key: string) => {
          commands.push(`pipeline set ${key}`);
          return pipeline;
        },
        exec: () => outcome(),
      };
      return pipeline;
    },
  };
  return stub as unknown as Redis;
}

describe('RedisCacheState when Redis does not answer', () => {
  it.each(['hang', 'fail'] as const)('goes on as a first appearance and a first turn (%s), warning once per 10 s', async (mode) => {
    const warn = jest.fn();
    const state = new RedisCacheState({ redis: stubRedis(mode), logger: { warn }, timeoutMs: 20 });
    expect(await state.seen('org', ['a', 'b'], 300_000)).toBe(false);
    expect(await state.lastTurn('org', 'sess', 1_700_000_000_000)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/prompt-cache state unavailable/);
  });

  it('sends one pipelined SET ... GET per prefix, hash-tagged by organization', async () => {
    const redis = stubRedis('fail');
    const state = new RedisCacheState({ redis, logger: { warn: jest.fn() } });
    await state.seen('org_1', ['aa', 'bb'], 300_000);
    await state.seen('org_1', [], 300_000);
    await state.lastTurn('org_1', 'sess', 1);
    expect((redis as unknown as { commands: string[] }).commands).toEqual(['pipeline set pc:{org_1}:seen:aa', 'pipeline set pc:{org_1}:seen:bb', 'set pc:{org_1}:turn:sess']);
  });
});
