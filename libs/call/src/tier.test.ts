import { catalog } from '@svc/catalog';
import { attemptTier, planTier, tierFallbackFor } from './tier';

const batchable = catalog.chatModels.find((model) => model.batch && !model.named_only)!;
const notBatchable = catalog.chatModels.find((model) => !model.batch && !model.named_only && model.protocol !== 'decision')!;

describe('svc.tier of a batch line', () => {
  const plan = planTier(undefined, { tier: 'batch' });

  it('asks for batch; a model with a batch tier is served at batch with no fallback', () => {
    expect(plan).toMatchObject({ requested: 'batch', wanted: 'batch' });
    expect(attemptTier(plan, batchable)).toBe('batch');
    expect(tierFallbackFor(plan, batchable, {})).toBeUndefined();
  });

  it('a model without a batch tier (allow_standard_price) is served at standard with no_batch_tier', () => {
    expect(attemptTier(plan, notBatchable)).toBe('standard');
    expect(tierFallbackFor(plan, notBatchable, {})).toBe('no_batch_tier');
  });
});

describe('svc.tier of a background turn asking for batch', () => {
  const plan = planTier(24 * 3_600_000, { background: true });

  it('runs as its own job at flex: synchronous on a batchable model, no_batch_tier on another', () => {
    expect(plan).toMatchObject({ requested: 'batch', wanted: 'flex' });
    expect(tierFallbackFor(plan, batchable, { background: true })).toBe('synchronous');
    expect(tierFallbackFor(plan, notBatchable, { background: true })).toBe('no_batch_tier');
  });
});

describe('svc.tier of a synchronous call with a 24-hour deadline', () => {
  it('is served at flex or standard with synchronous', () => {
    const plan = planTier(24 * 3_600_000, {});
    expect(plan).toMatchObject({ requested: 'batch', wanted: 'flex', fallback: 'synchronous' });
    expect(tierFallbackFor(plan, notBatchable, {})).toBe('synchronous');
  });
});
