import { turnSvc } from './turn';

describe('turnSvc', () => {
  const svc = { call_id: 'call_1', cost_micros: 1000, cost: { vendor_micros: 950, service_fee_micros: 50, call_fee_micros: 0, direct_micros: 950, saved_micros: -50 }, cache: { read_tokens: 0, write_tokens: 0, ttl_applied: '' } };

  it('sets the conversation as the session and compacted when it was', () => {
    expect(turnSvc(svc, { conversationId: 'conv_1', compacted: true })).toEqual({ ...svc, session_id: 'conv_1', compacted: true });
    expect(turnSvc(svc, { compacted: false })).toEqual(svc);
  });

  it("adds a summary's bill to cost_micros and the cost object; saved stays direct − cost", () => {
    const out = turnSvc(svc, { conversationId: 'conv_1', compacted: true, compactionCost: { cost_micros: 210, vendor_micros: 200, service_fee_micros: 10, direct_micros: 200 } });
    expect(out.cost_micros).toBe(1210);
    expect(out.cost).toEqual({ vendor_micros: 1150, service_fee_micros: 60, call_fee_micros: 0, direct_micros: 1150, saved_micros: -60 });
    // The call's own object is not changed.
    expect(svc.cost_micros).toBe(1000);
  });

  it('keeps saved_micros out while it is left out (auto baseline pending)', () => {
    const pending = { cost_micros: 1050, cost: { vendor_micros: 950, service_fee_micros: 50, call_fee_micros: 50, direct_micros: 0 } };
    expect(turnSvc(pending, { compacted: true, compactionCost: { cost_micros: 21, vendor_micros: 20, service_fee_micros: 1, direct_micros: 20 } }).cost).toEqual({ vendor_micros: 970, service_fee_micros: 51, call_fee_micros: 50, direct_micros: 20 });
  });
});
