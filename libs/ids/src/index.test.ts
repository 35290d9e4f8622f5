import { ids, isId, hexOf, hex32, newApiKey, API_KEY_PATTERN, streamItemId } from './index';

describe('ids', () => {
  it('draws distinct 32-hex values across several refills of its random pool', () => {
    // 1,000 ids: the 4 KiB pool (256 ids) is refilled three times on the way.
    const drawn = Array.from({ length: 1000 }, () => hex32());
    for (const hex of drawn) expect(hex).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(drawn).size).toBe(drawn.length);
    // Every hex digit turns up in every position: the pool is random, not a counter.
    for (let position = 0; position < 32; position += 1) expect(new Set(drawn.map((hex) => hex[position])).size).toBe(16);
  });

  it('makes a request id of req_ + 32 lowercase hex', () => {
    expect(ids.requestId()).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('gives a completion and its call the same hex', () => {
    const { completionId, callId, hex } = ids.completion();
    expect(completionId).toBe(`chatcmpl-${hex}`);
    expect(callId).toBe(`call_${hex}`);
    expect(hexOf(completionId)).toBe(hexOf(callId));
  });

  it.each([
    ['resp', ids.response()],
    ['conv', ids.conversation()],
    ['msg', ids.message()],
    ['fc', ids.functionCall()],
    ['fco', ids.functionCallOutput()],
    ['cmp', ids.compaction()],
    ['file', ids.file()],
    ['batch', ids.batch()],
  ] as const)('makes %s ids', (prefix, value) => {
    expect(isId(prefix, value)).toBe(true);
  });

  it('rejects uppercase hex and wrong lengths', () => {
    expect(isId('resp', 'resp_' + 'A'.repeat(32))).toBe(false);
    expect(isId('resp', 'resp_' + 'a'.repeat(31))).toBe(false);
  });

  it('makes stream item ids from the response id and index', () => {
    expect(streamItemId('msg', 'resp_x', 0)).toBe('msg_resp_x_0');
  });

  it('makes API keys of svc_live_ + 43 letters and digits, all different', () => {
    const keys = new Set(Array.from({ length: 200 }, newApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(API_KEY_PATTERN);
  });
});
