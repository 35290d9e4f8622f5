import { createLogger } from '@svc/logger';
import { redisChanges } from './changes';

describe('redisChanges', () => {
  const logger = createLogger({ service: 'conversations-test', silent: true });

  it('publishes the conversation id on the prefixed changes channel', async () => {
    const published: Array<[string, string]> = [];
    const changes = redisChanges({ redis: { publish: async (channel: string, message: string) => (published.push([channel, message]), 1) } as never, keyPrefix: 'svc:', logger });
    await changes.changed('conv_1');
    expect(published).toEqual([['svc:conversation:changes', 'conv_1']]);
  });

  it('a Redis that fails or does not answer costs the change nothing: logged, bounded', async () => {
    const warn = jest.spyOn(logger, 'warn');
    const failing = redisChanges({ redis: { publish: async () => Promise.reject(new Error('connection is closed')) } as never, keyPrefix: 'svc:', logger });
    await expect(failing.changed('conv_1')).resolves.toBeUndefined();
    const hanging = redisChanges({ redis: { publish: () => new Promise(() => undefined) } as never, keyPrefix: 'svc:', logger, timeoutMs: 50 });
    const started = Date.now();
    await expect(hanging.changed('conv_2')).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(warn.mock.calls.map((call) => (call[1] as { conversation_id: string }).conversation_id)).toEqual(['conv_1', 'conv_2']);
  });
});
