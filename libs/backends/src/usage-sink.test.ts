import { ConfirmTimeoutError } from '@svc/amqp';
import type { Logger } from '@svc/logger';
import { inMemoryMetrics, type InMemoryMetrics } from '@svc/telemetry';
import { createUsageSink, type UsageRecordInput } from './usage-sink';

function spyLogger() {
  return { error: jest.fn(), warn: jest.fn(), info: jest.fn(), debug: jest.fn() } as unknown as Logger & { error: jest.Mock; warn: jest.Mock; info: jest.Mock };
}

let n = 0;
function record(): UsageRecordInput {
  n += 1;
  return {
    call_id: `call_${n}`,
    organization_id: 'org_1',
    key_id: 'key_1',
    kind: 'chat',
    vendor: 'vendor-1',
    model: 'vendor-1/m',
    line: '',
    input_tokens: 1,
    output_tokens: 1,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    vendor_micros: 1,
    service_fee_micros: 0,
    call_fee_micros: 0,
    cost_micros: 1,
    direct_micros: 0,
    byok: false,
    occurred_at_ms: 1,
    reserved_micros: 0,
    plan: '',
    spend_period: '',
    member_id: '',
    baseline_pending: false,
  };
}

const down = (message: string) => jest.fn(async () => {
  throw new Error(message);
});
const never = () => new Promise<never>(() => undefined);

describe('edge usage sink: answered ⇒ billed exactly once, never hanging', () => {
  let memory: InMemoryMetrics;
  beforeEach(() => {
    memory = inMemoryMetrics();
  });
  afterEach(() => memory.stop());

  it('publishes to the queue and stops there', async () => {
    const publish = jest.fn(async () => undefined);
    const outbox = { write: jest.fn(async () => undefined) };
    const settleDirect = jest.fn(async () => 1);
    const sink = createUsageSink({ publish, outbox, settleDirect, logger: spyLogger() });
    const usage = record();
    await sink.record(usage);
    expect(publish).toHaveBeenCalledWith(usage);
    expect(outbox.write).not.toHaveBeenCalled();
    expect(settleDirect).not.toHaveBeenCalled();
    expect(await memory.sum('svc.queue.publish_fallbacks')).toBe(0);
    await sink.close();
  });

  it('writes to the outbox when the broker does not confirm in time (billing is not needed)', async () => {
    const publish = jest.fn(async () => {
      throw new ConfirmTimeoutError(5000);
    });
    const outbox = { write: jest.fn(async () => undefined) };
    const settleDirect = down('billing down');
    const sink = createUsageSink({ publish, outbox, settleDirect, logger: spyLogger() });
    const usage = record();
    await sink.record(usage);
    expect(outbox.write).toHaveBeenCalledWith(usage);
    expect(settleDirect).not.toHaveBeenCalled();
    expect(await memory.sum('svc.queue.publish_fallbacks', { queue: 'usage.settle', via: 'outbox' })).toBe(1);
    await sink.close();
  });

  it('settles through billing when the outbox fails or hangs past its limit, and without an outbox', async () => {
    const settleDirect = jest.fn(async () => 1);
    const hanging = createUsageSink({ publish: down('no connection'), outbox: { write: never }, settleDirect, logger: spyLogger(), stepTimeoutMs: 50 });
    const started = Date.now();
    await hanging.record(record());
    expect(Date.now() - started).toBeLessThan(1000);
    expect(settleDirect).toHaveBeenCalledTimes(1);

    const none = createUsageSink({ publish: down('no connection'), settleDirect, logger: spyLogger() });
    await none.record(record());
    expect(settleDirect).toHaveBeenCalledTimes(2);
    expect(await memory.sum('svc.queue.publish_fallbacks', { via: 'settle' })).toBe(2);
    await hanging.close();
    await none.close();
  });

  it('when nothing takes it: resolves anyway within the step limits, logs it in full, holds it, and delivers it once something is back', async () => {
    let brokerUp = false;
    const publish = jest.fn(async () => {
      if (!brokerUp) throw new Error('no connection');
    });
    const logger = spyLogger();
    const sink = createUsageSink({ publish, outbox: { write: never }, settleDirect: () => never(), logger, stepTimeoutMs: 30, retryIntervalMs: 60_000 });
    const usage = record();
    const started = Date.now();
    await expect(sink.record(usage)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(sink.held()).toBe(1);
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('held in memory'), expect.objectContaining({ usage_record: usage }));
    expect(await memory.sum('svc.queue.publish_fallbacks', { via: 'held' })).toBe(1);

    await sink.retryHeld();
    expect(sink.held()).toBe(1);
    brokerUp = true;
    await sink.retryHeld();
    expect(sink.held()).toBe(0);
    expect(publish).toHaveBeenLastCalledWith(usage);
    expect(logger.info).toHaveBeenCalledWith('held usage record delivered', expect.objectContaining({ call_id: usage.call_id, via: 'queue' }));
    await sink.close();
  });

  it('retries held records on its own timer', async () => {
    let up = false;
    const sink = createUsageSink({ publish: async () => { if (!up) throw new Error('down'); }, settleDirect: () => Promise.reject(new Error('down')), logger: spyLogger(), retryIntervalMs: 20 });
    await sink.record(record());
    expect(sink.held()).toBe(1);
    up = true;
    const deadline = Date.now() + 2000;
    while (sink.held() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sink.held()).toBe(0);
    await sink.close();
  });

  it('bounds what it holds, and logs what is still held at shutdown', async () => {
    const logger = spyLogger();
    const sink = createUsageSink({ publish: down('down'), settleDirect: down('down'), logger, maxHeld: 2, retryIntervalMs: 60_000 });
    const [a, b, c] = [record(), record(), record()];
    await sink.record(a);
    await sink.record(b);
    await sink.record(c);
    expect(sink.held()).toBe(2);
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('given up'), expect.objectContaining({ call_id: a.call_id }));
    await sink.close();
    const atShutdown = logger.error.mock.calls.filter((call) => String(call[0]).includes('at shutdown')).map((call) => (call[1] as { usage_record: UsageRecordInput }).usage_record.call_id);
    expect(atShutdown).toEqual([b.call_id, c.call_id]);
  });
});
