import { Writable } from 'node:stream';
import winston from 'winston';
import { createLogger, redact } from './index';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, transport: new winston.transports.Stream({ stream }) };
}

describe('logger', () => {
  it('writes JSON with the service name and version', () => {
    const { lines, transport } = capture();
    createLogger({ service: 'edge', transports: [transport] }).info('hello', { request_id: 'req_1' });
    expect(lines[0]).toMatchObject({ message: 'hello', level: 'info', 'service.name': 'edge', request_id: 'req_1' });
  });

  it('redacts authorization headers, keys and prompts', () => {
    const { lines, transport } = capture();
    const key = 'svc_live_' + 'a'.repeat(43);
    createLogger({ service: 'edge', transports: [transport] }).warn(`bad key ${key}`, {
      headers: { authorization: `Bearer ${key}` },
      messages: [{ role: 'user', content: 'secret prompt' }],
    });
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain(key);
    expect(text).not.toContain('secret prompt');
    expect(lines[0]).toMatchObject({ headers: { authorization: '[redacted]' }, messages: '[redacted]' });
  });

  it('redacts keys inside nested strings and errors', () => {
    const key = 'svc_live_' + 'B'.repeat(43);
    expect(JSON.stringify(redact({ err: new Error(`failed for ${key}`) }))).not.toContain(key);
  });
});
