import { catalog } from '@svc/catalog';
import { ServiceError } from '@svc/errors';
import type { Logger } from '@svc/logger';
import type { ChatResult } from '@svc/vendors';
import { parseChatRequest } from '../request/chat-request';
import { MemoryCacheState } from '../cache/cache-policy.memory';
import type { AdmitQuery, CallerKey, UsageRecord } from '../ports';
import type { CallDeps } from '../types';
import { batchBoundModel, batchLineOutcome, checkQueuedCredit, poolLinePolicy, prepareBatchLine } from './pool-line';

const KEY: CallerKey = { key_id: 'key_1', organization_id: 'org_1', plan: 'paid', fallback_policy: 'cross_vendor', byok_vendors: [] };
const RESPONSE = `resp_${'a'.repeat(32)}`;

function ports(admit: (query: AdmitQuery) => Promise<Record<string, unknown>> = async () => ({ headers: { 'x-svc-balance-micros': '1000000' } })) {
  const records: UsageRecord[] = [];
  const released: string[] = [];
  const admitted: AdmitQuery[] = [];
  const deps: CallDeps = {
    catalog,
    router: { route: async () => Promise.reject(new Error('no auto here')) },
    billing: { admit: async (query) => (admitted.push(query), admit(query)), release: async (callId) => void released.push(callId) },
    usage: { record: async (record) => void records.push(record) },
    health: { isHealthy: () => true, recordFailure: () => undefined, order: (candidates) => candidates },
    cacheState: new MemoryCacheState(),
    ownKeys: { forOrganization: async () => ({}) },
    vendors: { simUrl: 'http://sim.test', keys: {} },
    logger: { warn: jest.fn(), error: jest.fn(), info: jest.fn() } as unknown as Logger,
    attemptTimeoutMs: 2_000,
    attemptTimeoutLongMs: 2_000,
    topupUrl: 'https://svc.test/topup',
  };
  return { deps, records, released, admitted };
}

const chat = (model: string, deadline = '24h') => parseChatRequest({ model, messages: [{ role: 'user', content: 'Say hello.' }] }, { 'x-svc-deadline': deadline });

describe('pool lines (batch-bound background turns)', () => {
  it('is batch-bound only for a background turn under a ≥ 24 h deadline on a named model with a batch tier and a batch adapter', () => {
    expect(batchBoundModel(catalog, chat('vendor-1/orion-mini-5'), true)?.id).toBe('vendor-1/orion-mini-5');
    expect(batchBoundModel(catalog, chat('vendor-1/orion-mini-5'), false)).toBeUndefined();
    expect(batchBoundModel(catalog, chat('vendor-1/orion-mini-5', '23h'), true)).toBeUndefined();
    expect(batchBoundModel(catalog, chat('vendor-4/atlas-3.1-8b'), true)).toBeUndefined();
    expect(batchBoundModel(catalog, chat('auto'), true)).toBeUndefined();
  });

  it('402 when the estimate at batch price exceeds the balance; admission released at once', async () => {
    const { deps, released, admitted } = ports(async () => ({ headers: { 'x-svc-balance-micros': '100' } }));
    const model = catalog.chatModel('vendor-1/orion-5')!;
    const error = await checkQueuedCredit(deps, chat(model.id), { key: KEY }, model, 100_000, true).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('insufficient_credits');
    expect((error as ServiceError).headers['x-svc-balance-micros']).toBe('100');
    // 100,000 output tokens at half of 10 micros per token.
    expect(admitted[0]!.estimated_micros).toBeGreaterThanOrEqual(500_000);
    expect(admitted[0]!.estimated_micros).toBeLessThan(1_000_000);
    expect(released).toEqual([admitted[0]!.call_id]);
    const fits = await checkQueuedCredit(ports().deps, chat(model.id), { key: KEY }, model, 100, true);
    expect(fits.estimateMicros).toBeLessThan(1_000_000);
  });

  it('a background turn that runs as its own job: admission refusals stand, a named model must fit the balance at standard price, auto and the Free limits only need admission', async () => {
    const model = catalog.chatModel('vendor-1/orion-5')!;
    const zero = new ServiceError('insufficient_credits', 'no credit', { headers: { 'x-svc-balance-micros': '0' } });
    const refused = ports(async () => Promise.reject(zero));
    await expect(checkQueuedCredit(refused.deps, chat('auto', '1h'), { key: KEY }, undefined, 4096, false)).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(refused.admitted[0]).toMatchObject({ estimated_micros: 0, auto: true });

    const poor = ports(async () => ({ headers: { 'x-svc-balance-micros': '100' } }));
    await expect(checkQueuedCredit(poor.deps, chat(model.id, '1h'), { key: KEY }, model, 100_000, false)).rejects.toMatchObject({ code: 'insufficient_credits', message: expect.stringContaining('standard price') });
    // 100,000 output tokens at 10 micros per token: the standard price, not the batch one.
    expect(poor.admitted[0]!.estimated_micros).toBeGreaterThanOrEqual(1_000_000);
    // Auto: the model is chosen when the turn runs; a positive balance admits it.
    await expect(checkQueuedCredit(poor.deps, chat('auto', '1h'), { key: KEY }, undefined, 100_000, false)).resolves.toMatchObject({ estimateMicros: 0 });
    // On the Free limits (admission's plan tier free) the job runs under them.
    const free = ports(async () => ({ plan_tier: 'free', plan_reason: 'zero_balance', headers: { 'x-svc-balance-micros': '0' } }));
    await expect(checkQueuedCredit(free.deps, chat(model.id, '1h'), { key: KEY }, model, 100_000, false)).resolves.toMatchObject({ balanceMicros: 0 });
  });

  it('builds the line with cache ttl none and bills its answer once at the batch price with svc.tier batch', async () => {
    const { deps, records } = ports();
    const input = chat('vendor-1/orion-mini-5');
    const policy = poolLinePolicy(RESPONSE);
    const line = await prepareBatchLine(deps, input, { key: KEY }, policy);
    expect(line.model.id).toBe('vendor-1/orion-mini-5');
    expect(line.prepared.request.cache?.ttl).toBe('none');
    const result = { content: 'Hello!', toolCalls: [], finishReason: 'stop', vendorStopReason: 'stop', usage: { inputTokens: 1000, outputTokens: 500, cachedTokens: 0, cacheWriteTokens: 0 } } as unknown as ChatResult;
    const outcome = await batchLineOutcome(deps, input, { key: KEY }, policy, line, result);
    // Standard: 1000 × 0.25 + 500 × 2 = 1250 micros; batch is half.
    expect(outcome.svc).toMatchObject({ call_id: `call_${'a'.repeat(32)}`, model_served: 'vendor-1/orion-mini-5', tier: { requested: 'batch', applied: 'batch' }, cost: { vendor_micros: 625, direct_micros: 625 } });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ call_id: `call_${'a'.repeat(32)}`, vendor_micros: 625, reserved_micros: 0 });
    expect(records[0]!.cost_micros).toBe(outcome.svc.cost_micros);
  });
});
