import { VendorError } from '@svc/vendors';
import { inMemoryMetrics, type InMemoryMetrics } from '@svc/telemetry';
import { measureAttempt, recordFallback, vendorOutcome } from './attempt-metrics';

const model = { vendor: 'vendor-1', id: 'vendor-1/model-a' };

describe('vendorOutcome', () => {
  it('is ok without an error, the error class otherwise, aborted when the client left', () => {
    expect(vendorOutcome()).toBe('ok');
    expect(vendorOutcome(new VendorError('server', 'vendor error (500)'))).toBe('retryable');
    expect(vendorOutcome(new VendorError('timeout', 'slow'))).toBe('retryable');
    expect(vendorOutcome(new VendorError('invalid_request', 'vendor rejected the request (400)'))).toBe('fatal');
    expect(vendorOutcome(new VendorError('aborted', 'call aborted'))).toBe('aborted');
    expect(vendorOutcome(new Error('bug'))).toBe('fatal');
  });
});

describe('measureAttempt and recordFallback', () => {
  let memory: InMemoryMetrics;
  beforeEach(() => {
    memory = inMemoryMetrics();
  });
  afterEach(() => memory.stop());

  it('counts each attempt by vendor, model and outcome with its duration, and rethrows failures', async () => {
    expect(await measureAttempt(model, async () => 'answer')).toBe('answer');
    const failure = new VendorError('rate_limited', 'vendor rate limited (429)');
    await expect(measureAttempt(model, () => Promise.reject(failure))).rejects.toBe(failure);
    expect(await memory.sum('svc.vendor.attempts', { vendor: 'vendor-1', model: 'vendor-1/model-a', outcome: 'ok' })).toBe(1);
    expect(await memory.sum('svc.vendor.attempts', { vendor: 'vendor-1', model: 'vendor-1/model-a', outcome: 'retryable' })).toBe(1);
    expect(await memory.histogram('svc.vendor.attempt.duration_ms', { vendor: 'vendor-1', model: 'vendor-1/model-a' })).toMatchObject({ count: 2 });
  });

  it('counts a fallback from the first model tried to the one that served', async () => {
    recordFallback('vendor-1/model-a', 'vendor-2/model-b');
    recordFallback('vendor-1/model-a', 'vendor-1/model-a');
    expect(await memory.points('svc.vendor.fallbacks')).toEqual([{ attributes: { from_model: 'vendor-1/model-a', to_model: 'vendor-2/model-b' }, value: 1 }]);
  });
});
