import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { ServiceError } from '@svc/errors';
import { isPublicAddress } from './address-policy';
import type { LookupAddress } from './pinned-download';
import { createImageFetcher, type ImageFetcherOptions } from './resolve-images';

/**
 * Local image servers for the download tests, and a fetcher that reaches them with production code
 * only: the servers listen on loopback addresses that stand for public hosts, the injected lookup
 * answers the test host names with them, and the test address policy allows exactly those
 * addresses besides what the production policy (isPublicAddress) allows. Every other address —
 * 127.0.0.1, ::1 and the rest of loopback among them — is judged by the production policy, so the
 * refusal tests check it. The socket connects to the checked address at the URL's port, so every
 * URL names its server's port.
 */

// Self-signed certificate for images.example.test (test fixture, trusted by nothing).
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgFVRNDoptFkTuedD6
z2Di7DHLKVyIMu+3+gL/DlOlUHihRANCAASWsYjajj4b4d397OuTc/jycZOllhwy
skAImDETLIj98c8QS2NFI2fU7YGcj4ZDRae0qheSP3HsaNlvj26kHOdk
-----END PRIVATE KEY-----`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBszCCAVmgAwIBAgIUPkiKy/Jd3yWpheisJVby6zJbBOAwCgYIKoZIzj0EAwIw
HjEcMBoGA1UEAwwTaW1hZ2VzLmV4YW1wbGUudGVzdDAgFw0yNjExMjExMzM4MDda
GA8yMTI2MTAyODEzMzgwN1owHjEcMBoGA1UEAwwTaW1hZ2VzLmV4YW1wbGUudGVz
dDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABJaxiNqOPhvh3f3s65Nz+PJxk6WW
HDKyQAiYMRMsiP3xzxBLY0UjZ9TtgZyPhkNFp7SqF5I/cexo2W+PbqQc52SjczBx
MB0GA1UdDgQWBBQibrnUDYpIxuOBIRmRFHlzWhKr6TAfBgNVHSMEGDAWgBQibrnU
DYpIxuOBIRmRFHlzWhKr6TAPBgNVHRMBAf8EBTADAQH/MB4GA1UdEQQXMBWCE2lt
YWdlcy5leGFtcGxlLnRlc3QwCgYIKoZIzj0EAwIDSAAwRQIgRZnM3jvDdIBJYngD
UBnm8NaaIJ0dp7MBSpMhEH2YGosCIQD70jreTURW/4Sl7GpDtYDDoKt93wLoUbfB
ymPlum2zEA==
-----END CERTIFICATE-----`;

export const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A png larger than one socket chunk, every byte checked on arrival. */
export const PNG = Buffer.concat([PNG_HEADER, Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 256))]);
export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
export const PARAM = 'messages[2].content[1].image_url.url';

/** The addresses that stand for public hosts (images.example.test, cdn.example.test, v6.example.test). */
export const ALLOWED_A = '127.0.0.2';
export const ALLOWED_B = '127.0.0.3';
/** An IPv6 address (the socket is IPv6) that reaches a local server without a routable IPv6 address: IPv4-mapped loopback. */
export const ALLOWED_V6 = '::ffff:127.0.0.4';
/** Where the loopback server listens: refused by the production policy, reached with allowAnyAddress only. */
export const LOOPBACK = '127.0.0.1';

/** The test address policy: the chosen loopback addresses, and whatever the production policy allows. */
export const testAddressPolicy = (address: string): boolean => [ALLOWED_A, ALLOWED_B, ALLOWED_V6].includes(address) || isPublicAddress(address);

/** What the servers and the lookup saw; reset before each test. */
export const seen = {
  requests: [] as Array<{ path: string; host: string | undefined }>,
  /** Every TCP connection a server accepted: the address and port it arrived at. */
  connections: [] as Array<{ address: string | undefined; port: number | undefined }>,
  sniNames: [] as string[],
  rebindCalls: 0,
  inFlight: 0,
  maxInFlight: 0,
};

/** The servers' ports, known once they listen. */
export const ports = { images: 0, imagesTls: 0, cdn: 0, v6: 0, loopback: 0 };
/** The servers' origins, known once they listen: http://images.example.test:<port> and so on. */
export const origin = { images: '', imagesTls: '', cdn: '', v6: '', loopback: '' };

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://local');
  seen.requests.push({ path: url.pathname + url.search, host: req.headers.host });
  const hops = /^\/hops\/(\d+)$/.exec(url.pathname);
  if (hops) {
    const left = Number(hops[1]);
    if (left === 0) res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else res.writeHead(302, { location: `/hops/${left - 1}` }).end();
    return;
  }
  switch (url.pathname) {
    case '/cat.png':
      res.writeHead(200, { 'content-type': 'image/png; charset=binary' }).end(PNG);
      return;
    case '/photo':
      // No content type at all: the bytes say jpeg.
      res.writeHead(200).end(JPEG);
      return;
    case '/octet':
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(PNG);
      return;
    case '/mislabelled':
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(PNG);
      return;
    case '/avif':
      res.writeHead(200, { 'content-type': 'image/avif' }).end(Buffer.from('....ftypavif'));
      return;
    case '/page.html':
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
      return;
    case '/untyped-text':
      res.writeHead(200).end('hello, not an image');
      return;
    case '/empty':
      res.writeHead(200, { 'content-type': 'image/png' }).end();
      return;
    case '/missing':
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
      return;
    case '/big-declared':
      // Declares `size` bytes (default 21 MiB) and then sends nothing: only the Content-Length check can refuse it quickly.
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': url.searchParams.get('size') ?? String(21 * 1024 * 1024) });
      res.flushHeaders();
      return;
    case '/big-stream':
      // No Content-Length; 2000 bytes and then silence: only the streamed count can refuse it.
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG.subarray(0, 1000));
      res.write(PNG.subarray(1000, 2000));
      return;
    case '/slow-headers':
      return;
    case '/slow-body':
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG_HEADER);
      return;
    case '/redirect': {
      const to = url.searchParams.get('to') ?? '/';
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end();
      return;
    }
    case '/redirect-loop':
      res.writeHead(301, { location: '/redirect-loop' }).end();
      return;
    case '/redirect-no-location':
      res.writeHead(302).end();
      return;
    case '/counted':
      seen.inFlight += 1;
      seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
      setTimeout(() => {
        seen.inFlight -= 1;
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      }, 40);
      return;
    default:
      res.writeHead(404).end();
  }
}

const DNS: Record<string, LookupAddress[]> = {
  'images.example.test': [{ address: ALLOWED_A, family: 4 }],
  'cdn.example.test': [{ address: ALLOWED_B, family: 4 }],
  'v6.example.test': [{ address: ALLOWED_V6, family: 6 }],
  'loopback.example.test': [{ address: '127.0.0.1', family: 4 }],
  localhost: [
    { address: '::1', family: 6 },
    { address: '127.0.0.1', family: 4 },
  ],
  'v6-loopback.example.test': [{ address: '::1', family: 6 }],
  'metadata.example.test': [{ address: '169.254.169.254', family: 4 }],
  'mapped.example.test': [{ address: '::ffff:169.254.169.254', family: 6 }],
  'ula.example.test': [{ address: 'fd12:3456::1', family: 6 }],
  'mixed.example.test': [
    { address: ALLOWED_A, family: 4 },
    { address: '10.0.0.1', family: 4 },
  ],
  'pinned.example.test': [{ address: LOOPBACK, family: 4 }],
};

/** The injected lookup: the names above only, never system DNS. */
export const lookup = jest.fn(async (hostname: string): Promise<LookupAddress[]> => {
  if (hostname === 'rebind.example.test') {
    // Allowed for the check, 127.0.0.1 for anyone who asks again.
    seen.rebindCalls += 1;
    return [{ address: seen.rebindCalls === 1 ? ALLOWED_A : '127.0.0.1', family: 4 }];
  }
  if (hostname === 'hanging.example.test') return new Promise<LookupAddress[]>(() => undefined);
  const answer = DNS[hostname];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answer;
});

/** Starts the servers for the calling test file (beforeAll), resets `seen` before each test and stops them after. */
export function useImageServers(): void {
  const servers: Array<http.Server | https.Server> = [];
  const open = new Set<Socket>();
  const record = (socket: Socket) => {
    seen.connections.push({ address: socket.localAddress, port: socket.localPort });
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  };
  async function listen(server: http.Server | https.Server, host: string): Promise<number> {
    servers.push(server);
    server.on('connection', record);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return (server.address() as AddressInfo).port;
  }

  beforeAll(async () => {
    const tls = https.createServer(
      {
        key: TLS_KEY,
        cert: TLS_CERT,
        SNICallback: (name, callback) => {
          seen.sniNames.push(name);
          callback(null, undefined);
        },
      },
      handle,
    );
    ports.images = await listen(http.createServer(handle), ALLOWED_A);
    ports.imagesTls = await listen(tls, ALLOWED_A);
    ports.cdn = await listen(http.createServer(handle), ALLOWED_B);
    ports.v6 = await listen(http.createServer(handle), ALLOWED_V6);
    ports.loopback = await listen(http.createServer(handle), LOOPBACK);
    origin.images = `http://images.example.test:${ports.images}`;
    origin.imagesTls = `https://images.example.test:${ports.imagesTls}`;
    origin.cdn = `http://cdn.example.test:${ports.cdn}`;
    origin.v6 = `http://v6.example.test:${ports.v6}`;
    origin.loopback = `http://${LOOPBACK}:${ports.loopback}`;
  });

  afterAll(async () => {
    for (const each of servers) {
      each.closeAllConnections();
      await new Promise<void>((resolve) => each.close(() => resolve()));
    }
  });

  beforeEach(async () => {
    // A download that an earlier test stopped may still reach a server: let its connection end first.
    for (const started = Date.now(); open.size > 0 && Date.now() - started < 2000; ) await new Promise((resolve) => setTimeout(resolve, 5));
    for (const each of servers) each.closeAllConnections();
    seen.requests = [];
    seen.connections = [];
    seen.sniNames = [];
    seen.rebindCalls = 0;
    seen.inFlight = 0;
    seen.maxInFlight = 0;
    lookup.mockClear();
  });
}

/** The production fetcher with the test lookup and the test address policy. */
export const fetcher = (options: ImageFetcherOptions = {}) => createImageFetcher({ lookup, isAllowedAddress: testAddressPolicy, ...options });

export async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

export async function refused(url: string, options: ImageFetcherOptions = {}): Promise<ServiceError> {
  const error = await failure(fetcher(options).fetchImage(url, PARAM));
  expect(error).toMatchObject({ code: 'invalid_image_url', status: 400, type: 'invalid_request_error', param: PARAM });
  expect(error.toBody().error).toMatchObject({ code: 'invalid_image_url', param: PARAM });
  return error;
}

export const NOT_ALLOWED = 'The image URL is not allowed: it points to a private or internal address.';
export const REDIRECT_NOT_ALLOWED = 'The image URL is not allowed: it redirects to a private or internal address.';
