import { connect } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ServiceError } from '@svc/errors';
import { VendorError } from '@svc/vendors';
import type { Logger } from '@svc/logger';
import { requestId } from './request-id';
import { bodyReadIdle, clientErrorHandler, connectRefusal, errorHandler, hostRequired, notFound, optionsNotFound, refuseDeclaredOverLimit, verifyUtf8 } from './errors';

const logger = { error: jest.fn(), warn: jest.fn(), info: jest.fn() };

function app() {
  const application = express();
  application.use(requestId);
  application.use(hostRequired);
  application.use(optionsNotFound);
  application.use(bodyReadIdle(300));
  application.post('/v1/echo', express.json({ type: () => true, strict: false, verify: verifyUtf8 }), (req, res) => void res.json(req.body));
  application.post('/v1/limited-idle', refuseDeclaredOverLimit(1000, 200), (_req, res) => void res.json({ reached: true }));
  application.post('/v1/limited', refuseDeclaredOverLimit(1000), express.json({ limit: 1000, type: () => true, strict: false }), (req, res) => void res.json(req.body));
  application.get('/v1/models/*id', (_req, res) => void res.json({ ok: true }));
  application.get('/v1/boom', () => {
    throw new Error('secret details');
  });
  application.get('/v1/down', () => {
    throw new ServiceError('billing_unavailable', 'Billing is temporarily unavailable. Please retry.');
  });
  application.get('/v1/slow-answer', (_req, res) => void setTimeout(() => res.json({ answered: true }), 100));
  application.post('/v1/slow-echo', express.json({ type: () => true }), (req, res) => void setTimeout(() => res.json(req.body), 600));
  // A call cancelled because its client left (the pipeline's VendorError 'aborted').
  application.get('/v1/slow', (_req, res, next) => void res.once('close', () => next(new VendorError('aborted', 'call aborted'))));
  application.use(notFound);
  application.use(errorHandler(logger as unknown as Logger));
  return application;
}

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer({ requireHostHeader: false }, app());
  server.on('clientError', clientErrorHandler(logger as unknown as Logger));
  server.on('connect', connectRefusal(logger as unknown as Logger));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => jest.clearAllMocks());

describe('errors before a handler, in the envelope', () => {
  it.each(['gzip', 'deflate', 'br'])('a %s body that does not decompress is 400 invalid_json', async (encoding) => {
    const response = await fetch(`${base}/v1/echo`, { method: 'POST', headers: { 'content-encoding': encoding, 'content-type': 'application/json' }, body: 'not compressed at all' });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('invalid_json');
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('a body that is not valid UTF-8 is 400 invalid_json, not decoded with U+FFFD in place of its bytes', async () => {
    const body = Buffer.concat([Buffer.from('{"text":"caf'), Buffer.from([0xe9]), Buffer.from(' end"}')]);
    const refused = await fetch(`${base}/v1/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ code: 'invalid_json', message: 'The request body is not valid UTF-8 (JSON is UTF-8).' });
    const fine = await fetch(`${base}/v1/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'café 日本' }) });
    expect(await fine.json()).toEqual({ text: 'café 日本' });
  });

  it('an unknown content encoding is 400 invalid_json', async () => {
    const response = await fetch(`${base}/v1/echo`, { method: 'POST', headers: { 'content-encoding': 'zstd-nope' }, body: '{}' });
    expect([response.status, (await response.json()).error.code]).toEqual([400, 'invalid_json']);
  });

  it("OPTIONS is an unknown method: 404 not_found in the envelope, not express's automatic Allow answer", async () => {
    const response = await fetch(`${base}/v1/echo`, { method: 'OPTIONS' });
    expect(response.status).toBe(404);
    expect(response.headers.get('allow')).toBeNull();
    expect((await response.json()).error).toMatchObject({ code: 'not_found', type: 'invalid_request_error', message: 'Unknown route: OPTIONS /v1/echo' });
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('a path that is not valid URL encoding is 404 not_found, not a 500', async () => {
    const response = await fetch(`${base}/v1/models/%ZZ`);
    expect([response.status, (await response.json()).error.code]).toEqual([404, 'not_found']);
    expect(logger.error).not.toHaveBeenCalled();
  });
});

describe('every 5xx is logged at error level with its request id and code', () => {
  it('an unexpected failure: 500 internal_error without its cause in the body', async () => {
    const response = await fetch(`${base}/v1/boom`);
    const body = await response.text();
    expect(response.status).toBe(500);
    expect(body).not.toMatch(/secret/);
    expect(logger.error).toHaveBeenCalledWith('request failed', expect.objectContaining({ request_id: response.headers.get('x-request-id'), code: 'internal_error', status: 500 }));
  });

  it('a dependency outage: 503 with its code in the log line', async () => {
    const response = await fetch(`${base}/v1/down`);
    expect(response.status).toBe(503);
    expect(logger.error).toHaveBeenCalledWith('request failed', expect.objectContaining({ request_id: response.headers.get('x-request-id'), code: 'billing_unavailable', route: 'GET /v1/down' }));
  });
});

describe('a call its client abandoned', () => {
  it('is not logged as a failure (no 5xx: the client closed the connection)', async () => {
    const controller = new AbortController();
    const request = fetch(`${base}/v1/slow`, { signal: controller.signal }).then(() => 'answered', (error: Error) => error.name);
    setTimeout(() => controller.abort(), 50);
    expect(await request).toBe('AbortError');
    for (let i = 0; i < 100 && logger.info.mock.calls.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(logger.info).toHaveBeenCalledWith('client closed the connection before the answer; call cancelled', expect.objectContaining({ route: 'GET /v1/slow' }));
    expect(logger.error).not.toHaveBeenCalled();
  });
});

describe('malformed HTTP', () => {
  const raw = (payload: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
      socket.write(payload);
    });

  /** What the server sent on a raw connection before it closed it. */
  const untilClosed = (payload: string) =>
    new Promise<string>((resolve) => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('close', () => resolve(answer));
      socket.on('error', () => undefined);
      socket.write(payload);
    });

  it.each([
    ['bad header bytes', 'GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n'],
    ['Content-Length with Transfer-Encoding', 'POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['no Host header', 'GET /v1/models HTTP/1.1\r\n\r\n'],
    ['headers over the limit', `GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`],
  ])('%s: 400 in the envelope with an x-request-id', async (_name, payload) => {
    const answer = await raw(payload);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nx-request-id: req_[0-9a-f]{32}\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).toBe('invalid_json');
  });

  it('a body over the limit sent whole: 413 payload_too_large after it, connection closed', async () => {
    const response = await fetch(`${base}/v1/limited`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `"${'x'.repeat(5000)}"` });
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect((await response.json()).error.code).toBe('payload_too_large');
  });

  it('a body that stops arriving closes its connection after the idle allowance (300 ms here, 60 s as deployed); a body that arrived leaves no timeout behind', async () => {
    const started = Date.now();
    expect(await untilClosed('POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{')).toBe('');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // Once the body has arrived, an answer slower than the idle allowance is not cut.
    const slow = await fetch(`${base}/v1/slow-echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"late":true}' });
    expect(await slow.json()).toEqual({ late: true });
  });

  it('a body declared over the limit and never sent does not hold the connection', async () => {
    const started = Date.now();
    // Closed after the idle allowance (200 ms here, 10 s as deployed), without an answer and without reaching the handler.
    expect(await untilClosed('POST /v1/limited-idle HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40000\r\n\r\n{"a":')).toBe('');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('a body declared far over the limit: 413 at once', async () => {
    const answer = await raw('POST /v1/limited HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400000000\r\n\r\n{"a":');
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).toBe('payload_too_large');
  });

  it('bad bytes pipelined behind a request still being answered: that answer goes out whole, then the connection closes', async () => {
    const answer = await raw('GET /v1/slow-answer HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ answered: true });
    expect(logger.warn).toHaveBeenCalledWith('malformed request behind one still being answered: closing the connection after that answer', expect.anything());
  });

  it('CONNECT: 404 not_found in the envelope, not a dropped connection', async () => {
    const answer = await raw('CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(answer).toMatch(/\r\nx-request-id: req_[0-9a-f]{32}\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).toBe('not_found');
  });

  it('a chunked body that is not valid chunked encoding: 400 in the envelope for that request', async () => {
    const answer = await raw('POST /v1/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nx-request-id: req_[0-9a-f]{32}\r\n/);
  });
});

describe('a keep-alive connection', () => {
  it('keeps no listener per request on its socket (the body idle timeouts are taken off with their listeners)', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const track = (socket: import('node:net').Socket) => sockets.add(socket);
    server.on('connection', track);
    // One raw connection, requests one after another on it.
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    let received = '';
    client.setEncoding('utf8');
    client.on('data', (chunk: string) => (received += chunk));
    const post = async (n: number) => {
      const body = `{"n":${n}}`;
      client.write(`POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      const deadline = Date.now() + 5000;
      while (!received.includes(body)) {
        if (Date.now() > deadline) throw new Error(`no answer to request ${n}: ${received.slice(-200)}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    try {
      await post(0);
      const [socket] = [...sockets];
      const before = socket.listenerCount('timeout');
      for (let n = 1; n <= 30; n++) await post(n);
      expect(sockets.size).toBe(1);
      expect(received.match(/HTTP\/1\.1 200/g)).toHaveLength(31);
      expect(socket.listenerCount('timeout')).toBe(before);
    } finally {
      server.off('connection', track);
      client.destroy();
    }
  });
});
