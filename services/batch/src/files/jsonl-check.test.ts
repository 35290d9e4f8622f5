import { ServiceError } from '@svc/errors';
import { JsonlCheck } from './jsonl-check';
import { CustomIdSet } from './custom-id-set';

const line = (customId: string, extra: Record<string, unknown> = {}) => JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body: { model: 'auto', messages: [{ role: 'user', content: 'hi' }] }, ...extra });

/** Feeds `text` in pieces of `size` bytes; returns the line count or the refusal. */
function run(text: string | Buffer, size = 7, maxLineBytes?: number): number | ServiceError {
  const check = maxLineBytes === undefined ? new JsonlCheck() : new JsonlCheck(maxLineBytes);
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  try {
    for (let at = 0; at < bytes.length; at += size) check.push(bytes.subarray(at, at + size));
    return check.end();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
}

const refusal = (result: number | ServiceError) => {
  expect(result).toBeInstanceOf(ServiceError);
  const error = result as ServiceError;
  expect([error.code, error.status, error.param]).toEqual(['invalid_file', 400, 'file']);
  return error.message;
};

describe('JsonlCheck (spec: File object, batch input lines)', () => {
  it.each([1, 3, 64, 1 << 20])('counts valid lines whatever the piece size (%d bytes)', (size) => {
    expect(run(`${line('a')}\n${line('b')}\n${line('c')}\n`, size)).toBe(3);
    expect(run(`${line('a')}\n${line('b')}`, size)).toBe(2);
  });

  it('takes CRLF line ends, a byte order mark, and an empty file', () => {
    expect(run(`${line('a')}\r\n${line('b')}\r\n`)).toBe(2);
    expect(run(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${line('a')}\n`)]))).toBe(1);
    expect(run('')).toBe(0);
  });

  it.each([
    ['not JSON', `${line('a')}\n{"custom_id": \n`, 'Invalid file: line 2 is not valid JSON.'],
    ['an array', `[1,2]\n`, 'Invalid file: line 1 is not a JSON object.'],
    ['a string', `"x"\n`, 'Invalid file: line 1 is not a JSON object.'],
    ['an empty line', `${line('a')}\n\n${line('b')}\n`, 'Invalid file: line 2 is empty; each line must be a JSON object.'],
    ['no custom_id', `${JSON.stringify({ method: 'POST', url: '/v1/chat/completions', body: {} })}\n`, "Invalid file: line 1 has no 'custom_id'."],
    ['an empty custom_id', `${line('')}\n`, "Invalid file: line 1 has a 'custom_id' that is not a non-empty string."],
    ['a numeric custom_id', `${line('a', { custom_id: 7 })}\n`, "Invalid file: line 1 has a 'custom_id' that is not a non-empty string."],
    ['method GET', `${line('a')}\n${line('b', { method: 'GET' })}\n`, "Invalid file: line 2 has a 'method' other than POST."],
    ['no method', `${line('a', { method: undefined })}\n`, "Invalid file: line 1 has no 'method' (it must be POST)."],
    ['no url', `${line('a', { url: undefined })}\n`, "Invalid file: line 1 has no 'url'."],
    ['a numeric url', `${line('a', { url: 5 })}\n`, "Invalid file: line 1 has a 'url' that is not a non-empty string."],
    ['no body', `${line('a', { body: undefined })}\n`, "Invalid file: line 1 has no 'body'."],
    ['a string body', `${line('a', { body: 'hi' })}\n`, "Invalid file: line 1 has a 'body' that is not a JSON object."],
    ['an array body', `${line('a', { body: [] })}\n`, "Invalid file: line 1 has a 'body' that is not a JSON object."],
    ['a repeated custom_id', `${line('a')}\n${line('b')}\n${line('c')}\n${line('b')}\n`, 'Invalid file: line 4 repeats the custom_id "b" of line 2; each custom_id must be unique.'],
    ['a last line without newline that is bad', `${line('a')}\n{`, 'Invalid file: line 2 is not valid JSON.'],
  ])('refuses %s, naming the 1-based line', (_name, text, message) => {
    expect(refusal(run(text))).toBe(message);
  });

  it('refuses bytes that are not UTF-8', () => {
    const bad = Buffer.concat([Buffer.from(`${line('a')}\n{"custom_id":"`), Buffer.from([0xc3, 0x28]), Buffer.from('","method":"POST","url":"u","body":{}}\n')]);
    expect(refusal(run(bad))).toBe('Invalid file: line 2 is not valid UTF-8.');
  });

  it('allows a line of exactly the limit and refuses one byte more, before the line ends', () => {
    const exact = line('a', { pad: '' });
    const limit = exact.length + 10;
    const fits = line('a', { pad: 'x'.repeat(10) });
    expect(fits.length).toBe(limit);
    expect(run(`${fits}\r\n${line('b', { pad: 'x'.repeat(10) })}`, 5, limit)).toBe(2);
    expect(refusal(run(`${fits}\n${line('b', { pad: 'x'.repeat(11) })}\n`, 5, limit))).toBe('Invalid file: line 2 is longer than ' + limit / (1024 * 1024) + ' MiB.');
    // Detected while the line is still arriving: no newline is needed.
    const check = new JsonlCheck(limit);
    expect(() => check.push(Buffer.alloc(limit + 2, 0x61))).toThrow('line 1 is longer than');
  });

  it('shortens a long repeated custom_id in the message', () => {
    const id = 'z'.repeat(100);
    expect(refusal(run(`${line(id)}\n${line(id)}\n`))).toBe(`Invalid file: line 2 repeats the custom_id "${'z'.repeat(64)}…" of line 1; each custom_id must be unique.`);
  });
});

describe('CustomIdSet', () => {
  it('remembers ids across growth and reports the first line of a repeat', () => {
    const set = new CustomIdSet();
    for (let index = 1; index <= 20_000; index += 1) expect(set.add(`request-${index}`, index)).toBeUndefined();
    expect(set.size).toBe(20_000);
    expect(set.add('request-1', 20_001)).toBe(1);
    expect(set.add('request-12345', 20_002)).toBe(12_345);
    expect(set.add('request-20001', 20_003)).toBeUndefined();
    expect(set.add('', 20_004)).toBeUndefined();
    expect(set.add('', 20_005)).toBe(20_004);
  });
});
