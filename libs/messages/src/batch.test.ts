import { lineCallIds, splitJsonl } from './batch';

async function lines(...chunks: string[]) {
  const out: Array<{ index: number; text: string }> = [];
  for await (const line of splitJsonl((async function* () {
    for (const chunk of chunks) yield Buffer.from(chunk);
  })())) out.push(line);
  return out.map((line) => `${line.index}:${line.text}`);
}

describe('splitJsonl (the upload check counts lines the same way)', () => {
  it('splits across chunks, drops \\r and a leading BOM, and reads a last line without a newline', async () => {
    expect(await lines('\ufeff{"a":1}\r\n{"b"', ':2}\n{"c":3}')).toEqual(['0:{"a":1}', '1:{"b":2}', '2:{"c":3}']);
    expect(await lines('{"a":1}\n')).toEqual(['0:{"a":1}']);
    expect(await lines('')).toEqual([]);
  });
});

describe('lineCallIds', () => {
  it('is the same on every run of a line and differs between lines and batches', () => {
    const a = lineCallIds('batch_1', 0);
    expect(lineCallIds('batch_1', 0)).toEqual(a);
    expect(lineCallIds('batch_1', 1).callId).not.toBe(a.callId);
    expect(lineCallIds('batch_2', 0).callId).not.toBe(a.callId);
    expect(a.callId).toMatch(/^call_[0-9a-f]{32}$/);
    expect(a.completionId).toBe(`chatcmpl-${a.callId.slice(5)}`);
    expect(a.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(a.lineId).toMatch(/^batch_req_[0-9a-f]{32}$/);
  });
});
