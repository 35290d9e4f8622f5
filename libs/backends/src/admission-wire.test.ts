import { asOnTheWire } from './ports';

describe('in-process admission reads the query as the Admit RPC would', () => {
  it('absent booleans are false, absent strings empty, integers truncated (proto3 with defaults)', () => {
    const request = asOnTheWire({
      call_id: 'call_1',
      organization_id: 'org_1',
      key_id: 'key_1',
      key: { key_id: 'key_1', organization_id: 'org_1', plan: 'paid', spend_limit_micros: 1500.7 },
      estimated_micros: 10.9,
      estimated_list_micros: 20.2,
      byok: false,
      auto: true,
      input_tokens: 12,
    });
    expect(request).toEqual({
      call_id: 'call_1',
      organization_id: 'org_1',
      key_id: 'key_1',
      estimated_micros: 10,
      estimated_list_micros: 20,
      byok: false,
      auto: true,
      input_tokens: 12,
      max_tokens: 0,
      key: { key_id: 'key_1', organization_id: 'org_1', plan: 'paid', stop_at_zero: false, free_allowance: false, member_id: '', member_quota_micros: 0, spend_limit_micros: 1500, spend_period: '' },
    });
  });
});
