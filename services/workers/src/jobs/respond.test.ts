import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import { isConnectionError } from '@svc/amqp';
import type { ResponseRunJob } from '@svc/messages';
import { RunningTurns, UNSTORED_GRACE_MS, isResponseRunOutage, responseRunHandler } from './respond';

const HEAD = { id: `resp_${'a'.repeat(32)}`, createdAt: 1, model: 'vendor-1/orion-mini-5', conversationId: `conv_${'b'.repeat(32)}`, metadata: {}, store: true, background: true, maxOutputTokens: 4096, echo: { tools: [], toolChoice: 'auto', parallelToolCalls: true } };

function job(overrides: Partial<ResponseRunJob> = {}): ResponseRunJob {
  return {
    response_id: HEAD.id,
    organization_id: 'org_1',
    key: { key_id: 'key_1', organization_id: 'org_1', plan: 'paid' },
    body: { model: HEAD.model, input: 'hi', background: true },
    headers: {},
    head: HEAD as unknown as Record<string, unknown>,
    parent_response_id: null,
    compacted: false,
    organization_retention_days: 30,
    simulator_headers: {},
    queued_at_ms: 1_000_000,
    ...overrides,
  };
}

function deps(options: { status?: string; missing?: boolean; run?: () => Promise<unknown>; now?: number } = {}) {
  const updates: Array<Record<string, unknown>> = [];
  const runs: unknown[] = [];
  const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn() } as unknown as Logger;
  const handler = responseRunHandler({
    calls: {
      run: async (...args: unknown[]) => {
        runs.push(args);
        return (options.run ?? (async () => ({ kind: 'unary', result: { content: 'hello', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, cacheWriteTokens: 0 }, toolCalls: [] }, svc: { cost_micros: 5 }, served: { model: HEAD.model, vendor: 'vendor-1', byok: false, dropped: [], maxTokens: 4096 }, headers: {} })))() as never;
      },
    },
    conversations: {
      getResponse: async () => {
        if (options.missing) throw new ServiceError('response_not_found', 'gone');
        return { status: options.status ?? 'queued', stored: { svc: { tier: { requested: 'standard' } } } } as never;
      },
      buildHistory: async () => ({ items: [] }) as never,
      updateResponse: async (query: { response: Record<string, unknown> }) => {
        updates.push(query.response);
        return { updated: true, response: query.response, output_ids: [], delete_after_response: false };
      },
      deleteConversation: async () => ({}) as never,
    },
    running: new RunningTurns(),
    logger,
    now: () => options.now ?? 1_000_500,
  });
  return { handler, updates, runs, logger };
}

describe('response.run (background turns on the workers)', () => {
  it('a queued response is run and ended completed with its output', async () => {
    const { handler, updates, runs } = deps();
    await handler(job());
    expect(runs).toHaveLength(1);
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ id: HEAD.id, status: 'completed', background: true, svc: { cost_micros: 5, session_id: HEAD.conversationId } });
  });

  it('the call runs under the response’s own call id (a redelivered turn is billed once)', async () => {
    const { handler, runs } = deps();
    await handler(job());
    const policy = (runs[0] as unknown[])[2] as { ids: { callId: string; completionId: string }; background: boolean };
    expect(policy).toMatchObject({ ids: { callId: `call_${'a'.repeat(32)}`, completionId: HEAD.id }, background: true });
  });

  it.each(['cancelled', 'completed', 'failed'])('a response already %s is left as it is (a redelivered job does nothing)', async (status) => {
    const { handler, updates, runs } = deps({ status });
    await handler(job());
    expect(runs).toHaveLength(0);
    expect(updates).toHaveLength(0);
  });

  it('a key that expired while the turn waited: failed with key_expired, no call', async () => {
    const { handler, updates, runs } = deps();
    await handler(job({ key: { key_id: 'key_1', organization_id: 'org_1', expires_at_ms: 1_000_000 } }));
    expect(runs).toHaveLength(0);
    expect(updates[0]).toMatchObject({ status: 'failed', error: { code: 'key_expired' } });
  });

  it('a refusal or a vendor failure ends it failed with {code, message}', async () => {
    const { handler, updates } = deps({ run: async () => Promise.reject(new ServiceError('insufficient_credits', 'No credit.')) });
    await handler(job());
    expect(updates[0]).toMatchObject({ status: 'failed', error: { code: 'insufficient_credits', message: 'No credit.' }, output: [] });
  });

  it('a dependency outage is thrown for the consumer to hold and retry, nothing ended', async () => {
    const outage = new ServiceError('billing_unavailable', 'Billing is temporarily unavailable. Please retry.');
    const { handler, updates } = deps({ run: async () => Promise.reject(outage) });
    await expect(handler(job())).rejects.toBe(outage);
    expect(updates).toHaveLength(0);
    expect(isResponseRunOutage(outage, isConnectionError)).toBe(true);
    expect(isResponseRunOutage(new ServiceError('insufficient_credits', 'x'), isConnectionError)).toBe(false);
  });

  it('a response not readable yet is retried; past the grace period the job is dropped', async () => {
    const early = deps({ missing: true, now: 1_000_000 + UNSTORED_GRACE_MS - 1 });
    const error = await early.handler(job()).catch((caught: unknown) => caught);
    expect(isResponseRunOutage(error, isConnectionError)).toBe(true);
    const late = deps({ missing: true, now: 1_000_000 + UNSTORED_GRACE_MS + 1 });
    await expect(late.handler(job())).resolves.toBeUndefined();
    expect(late.logger.warn).toHaveBeenCalled();
  });

  it('a cancel heard for a running turn aborts its call and ends nothing', async () => {
    const running = new RunningTurns();
    let seen: AbortSignal | undefined;
    const updates: unknown[] = [];
    const handler = responseRunHandler({
      calls: {
        run: (_input, _caller, _policy, signal) =>
          new Promise((_resolve, reject) => {
            seen = signal;
            signal.addEventListener('abort', () => reject(new ServiceError('upstream_error', 'aborted')));
          }),
      },
      conversations: {
        getResponse: async () => ({ status: 'queued', stored: {} }) as never,
        buildHistory: async () => ({ items: [] }) as never,
        updateResponse: async (query: unknown) => (updates.push(query), { updated: true }) as never,
        deleteConversation: async () => ({}) as never,
      },
      running,
      logger: { info: jest.fn(), warn: jest.fn(), error: jest.fn() } as unknown as Logger,
    });
    const done = handler(job());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running.cancel(HEAD.id)).toBe(true);
    await done;
    expect(seen?.aborted).toBe(true);
    expect(updates).toHaveLength(0);
    expect(running.size).toBe(0);
  });
});
