import { FaultSyntaxError, NO_FAULT, parseFaultSpec, selectFaults } from './faults';

describe('parseFaultSpec', () => {
  it.each([
    ['status:503', { hangMs: 0, outcome: { kind: 'status', status: 503 } }],
    ['429:7', { hangMs: 0, outcome: { kind: 'rate_limit', retryAfterSeconds: 7 } }],
    ['429', { hangMs: 0, outcome: { kind: 'rate_limit' } }],
    ['timeout', { hangMs: 0, outcome: { kind: 'timeout' } }],
    ['hang:250', { hangMs: 250 }],
    ['cut:3', { hangMs: 0, outcome: { kind: 'cut', chunks: 3 } }],
    ['refuse', { hangMs: 0, outcome: { kind: 'refuse' } }],
    ['invalid', { hangMs: 0, outcome: { kind: 'invalid' } }],
    ['auth', { hangMs: 0, outcome: { kind: 'auth' } }],
    ['garbage', { hangMs: 0, outcome: { kind: 'garbage' } }],
    ['empty', { hangMs: 0, outcome: { kind: 'empty' } }],
    ['not-json', { hangMs: 0, outcome: { kind: 'not-json' } }],
    [' hang:100 , STATUS:500 ', { hangMs: 100, outcome: { kind: 'status', status: 500 } }],
    ['', { hangMs: 0 }],
  ])('parses %j', (spec, plan) => {
    expect(parseFaultSpec(spec)).toEqual(plan);
  });

  it.each(['status', 'status:200', 'status:abc', 'cut:-1', 'hang', 'boom', 'refuse:1', 'empty:1', 'status:500,cut:2', 'a:b:c'])('rejects %j', (spec) => {
    expect(() => parseFaultSpec(spec)).toThrow(FaultSyntaxError);
  });
});

describe('selectFaults', () => {
  it('prefers the header to the configured fault', () => {
    expect(selectFaults({ header: 'refuse', configured: 'status:500', model: 'm' }).outcome).toEqual({ kind: 'refuse' });
    expect(selectFaults({ configured: 'status:500', model: 'm' }).outcome).toEqual({ kind: 'status', status: 500 });
    expect(selectFaults({ model: 'm' })).toBe(NO_FAULT);
    expect(selectFaults({ header: 'none', configured: 'status:500', model: 'm' })).toEqual({ hangMs: 0 });
  });

  it('limits the fault to the model named by x-sim-fault-model', () => {
    expect(selectFaults({ header: 'status:503', modelHeader: 'primary', model: 'primary' }).outcome).toEqual({ kind: 'status', status: 503 });
    expect(selectFaults({ header: 'status:503', modelHeader: 'primary', model: 'fallback' })).toBe(NO_FAULT);
  });

  it('throws on a malformed header', () => {
    expect(() => selectFaults({ header: 'nope', model: 'm' })).toThrow(FaultSyntaxError);
  });
});
