import { batchObject, type BatchRow } from './object';

const at = (seconds: number) => new Date(seconds * 1000);
const row: BatchRow = {
  id: 'batch_1', organization_id: 'org_1', key_id: 'key_1', input_file_id: 'file_1', status: 'in_progress', endpoint: '/v1/chat/completions', completion_window: '24h',
  metadata: null, allow_standard_price: false, errors: null, output_file_id: null, error_file_id: null, total: 10, completed: 3, failed: 1,
  vendor_micros: '100', billed_micros: '60', direct_micros: '120', saved_micros: '60', retention_days: 30,
  created_at: at(1000), expires_at: at(1000 + 86400), in_progress_at: at(1001), finalizing_at: null, completed_at: null, failed_at: null, expired_at: null, cancelling_at: null, cancelled_at: null,
};

describe('batchObject (spec: Batch object)', () => {
  it('renders every field, timestamps in seconds (null until they happen), counts and running costs', () => {
    expect(batchObject(row)).toEqual({
      id: 'batch_1', object: 'batch', endpoint: '/v1/chat/completions', errors: null, input_file_id: 'file_1', completion_window: '24h', status: 'in_progress',
      output_file_id: null, error_file_id: null, created_at: 1000, in_progress_at: 1001, expires_at: 87400, finalizing_at: null, completed_at: null, failed_at: null,
      expired_at: null, cancelling_at: null, cancelled_at: null, request_counts: { total: 10, completed: 3, failed: 1 }, metadata: {},
      svc: { tier: 'batch', cost: { vendor_micros: 100, billed_micros: 60, direct_micros: 120, saved_micros: 60, classifier_micros: 0 } },
    });
  });

  it('a failed batch lists its errors; allow_standard_price is echoed when set', () => {
    const failed = batchObject({ ...row, status: 'failed', allow_standard_price: true, errors: [{ code: 'empty_file', message: 'm', param: null, line: null }] });
    expect(failed.errors).toEqual({ object: 'list', data: [{ code: 'empty_file', message: 'm', param: null, line: null }] });
    expect((failed.svc as Record<string, unknown>).allow_standard_price).toBe(true);
  });
});
