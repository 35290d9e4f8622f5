import express from 'express';
import { connect, type AddressInfo } from 'node:net';
import { IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createAppServer } from './app-server';

describe('createAppServer', () => {
  let server: Server;
  let base: string;
  const seen: { arrived?: object; handled?: object; responseArrived?: object; responseHandled?: object } = {};
  const app = express();
  app.set('etag', false);
  app.post('/echo', express.json(), (req, res) => {
    seen.handled = Object.getPrototypeOf(req) as object;
    seen.responseHandled = Object.getPrototypeOf(res) as object;
    res.locals.note = 'kept';
    res.status(201).json({ body: req.body as unknown, host: req.get('host'), q: req.query.q, locals: res.locals.note as string });
  });
  app.get('/fail', () => {
    throw new Error('boom');
  });
  app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ error: error.message });
  });

  beforeAll(async () => {
    server = createAppServer(app, { requireHostHeader: false });
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      seen.arrived = Object.getPrototypeOf(req) as object;
      seen.responseArrived = Object.getPrototypeOf(res) as object;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('makes requests and responses with the app’s own prototypes, so express re-parents nothing', async () => {
    const response = await fetch(`${base}/echo?q=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: [1, 2] }) });
    expect(response.status).toBe(201);
    expect(seen.arrived).toBe(app.request);
    expect(seen.handled).toBe(app.request);
    expect(seen.responseArrived).toBe(app.response);
    expect(seen.responseHandled).toBe(app.response);
  });

  it('keeps express’s request and response behaviour (body, headers, query, locals, status, json)', async () => {
    const response = await fetch(`${base}/echo?q=abc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 'b' }) });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ body: { a: 'b' }, host: new URL(base).host, q: 'abc', locals: 'kept' });
  });

  it('passes the server options on and reaches the error handler', async () => {
    const response = await fetch(`${base}/fail`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'boom' });
    // requireHostHeader: false — a request without Host reaches the app instead of Node's bare 400.
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write('GET /fail HTTP/1.1\r\nconnection: close\r\n\r\n');
    });
    expect(raw.startsWith('HTTP/1.1 500')).toBe(true);
  });

  it('serves many requests on one keep-alive connection, each a fresh object', async () => {
    const bodies = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      fetch(`${base}/echo?q=${i}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ i }) }).then((r) => r.json() as Promise<{ body: { i: number }; q: string }>),
    ));
    expect(bodies.map((b) => [b.body.i, b.q])).toEqual(Array.from({ length: 20 }, (_, i) => [i, String(i)]));
  });

  it('serves a plain handler (no express prototypes) with Node’s own objects', async () => {
    let proto: object | undefined;
    const plain = createAppServer((req, res) => {
      proto = Object.getPrototypeOf(req) as object;
      res.end('plain');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const response = await fetch(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/`);
    expect(await response.text()).toBe('plain');
    expect(proto).toBe(IncomingMessage.prototype);
    plain.closeAllConnections();
    await new Promise((resolve) => plain.close(resolve));
  });
});
