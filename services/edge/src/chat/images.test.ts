import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { ServiceError } from '@svc/errors';
import { createImageFetcher, isPublicAddress, sniffImageType, type ImageFetcherOptions, type LookupAddress } from './images';
import { parseChatRequest } from '@svc/call';

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

const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A png larger than one socket chunk, every byte checked on arrival. */
const PNG = Buffer.concat([PNG_HEADER, Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 256))]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
const PARAM = 'messages[2].content[1].image_url.url';

/** Public addresses that the tests' connectTo sends to the local servers. */
const PUBLIC_A = '93.184.216.34';
const PUBLIC_B = '93.184.216.35';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

let server: http.Server;
let tlsServer: https.Server;
let port: number;
let tlsPort: number;
let requests: Array<{ path: string; host: string | undefined }>;
let inFlight = 0;
let maxInFlight = 0;
let sniNames: string[];

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://local');
  requests.push({ path: url.pathname + url.search, host: req.headers.host });
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
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      }, 40);
      return;
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = http.createServer(handle);
  tlsServer = https.createServer(
    {
      key: TLS_KEY,
      cert: TLS_CERT,
      SNICallback: (name, callback) => {
        sniNames.push(name);
        callback(null, undefined);
      },
    },
    handle,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  tlsPort = (tlsServer.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const each of [server, tlsServer]) {
    each.closeAllConnections();
    await new Promise<void>((resolve) => each.close(() => resolve()));
  }
});

let connections: Array<{ address: string; port: number }>;
let rebindCalls: number;

beforeEach(() => {
  requests = [];
  connections = [];
  sniNames = [];
  rebindCalls = 0;
  lookup.mockClear();
  inFlight = 0;
  maxInFlight = 0;
});

const DNS: Record<string, LookupAddress[]> = {
  'images.example.test': [{ address: PUBLIC_A, family: 4 }],
  'cdn.example.test': [{ address: PUBLIC_B, family: 4 }],
  'v6.example.test': [{ address: PUBLIC_V6, family: 6 }],
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
    { address: PUBLIC_A, family: 4 },
    { address: '10.0.0.1', family: 4 },
  ],
  'pinned.example.test': [{ address: '127.0.0.1', family: 4 }],
};

const lookup = jest.fn(async (hostname: string): Promise<LookupAddress[]> => {
  if (hostname === 'rebind.example.test') {
    // Public for the check, loopback for anyone who asks again.
    rebindCalls += 1;
    return [{ address: rebindCalls === 1 ? PUBLIC_A : '127.0.0.1', family: 4 }];
  }
  if (hostname === 'hanging.example.test') return new Promise<LookupAddress[]>(() => undefined);
  const answer = DNS[hostname];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answer;
});

/** Test-only connectTo: the two public addresses (and the IPv6 one) reach the local servers. */
const connectTo = (address: string, targetPort: number) => {
  connections.push({ address, port: targetPort });
  if (![PUBLIC_A, PUBLIC_B, PUBLIC_V6].includes(address)) throw new Error(`test: unexpected connection to ${address}`);
  return { host: '127.0.0.1', port: targetPort === 443 ? tlsPort : port };
};

const fetcher = (options: ImageFetcherOptions = {}) => createImageFetcher({ lookup, connectTo, ...options });

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

async function refused(url: string, options: ImageFetcherOptions = {}): Promise<ServiceError> {
  const error = await failure(fetcher(options).fetchImage(url, PARAM));
  expect(error).toMatchObject({ code: 'invalid_image_url', status: 400, type: 'invalid_request_error', param: PARAM });
  expect(error.toBody().error).toMatchObject({ code: 'invalid_image_url', param: PARAM });
  return error;
}

const NOT_ALLOWED = 'The image URL is not allowed: it points to a private or internal address.';
const REDIRECT_NOT_ALLOWED = 'The image URL is not allowed: it redirects to a private or internal address.';

describe('fetchImage downloads', () => {
  it('returns the bytes and media type of a png, every byte preserved', async () => {
    const image = await fetcher().fetchImage('http://images.example.test/cat.png', PARAM);
    expect(image.mediaType).toBe('image/png');
    expect(image.data.equals(PNG)).toBe(true);
    expect(connections).toEqual([{ address: PUBLIC_A, port: 80 }]);
    expect(requests).toEqual([{ path: '/cat.png', host: 'images.example.test' }]);
  });

  it('keeps the query string and a non-default port in the Host header', async () => {
    await fetcher().fetchImage('http://images.example.test:8080/cat.png?size=large&v=2', PARAM);
    expect(connections).toEqual([{ address: PUBLIC_A, port: 8080 }]);
    expect(requests).toEqual([{ path: '/cat.png?size=large&v=2', host: 'images.example.test:8080' }]);
  });

  it('downloads from a public IPv6 address', async () => {
    const image = await fetcher().fetchImage('http://v6.example.test/cat.png', PARAM);
    expect(image.mediaType).toBe('image/png');
    expect(connections).toEqual([{ address: PUBLIC_V6, port: 80 }]);
  });

  it('downloads from a public IP literal', async () => {
    await fetcher().fetchImage(`http://${PUBLIC_A}/cat.png`, PARAM);
    expect(lookup).not.toHaveBeenCalledWith(PUBLIC_A);
    expect(connections).toEqual([{ address: PUBLIC_A, port: 80 }]);
  });

  it.each([
    ['no content type (jpeg bytes)', '/photo', 'image/jpeg', JPEG],
    ['application/octet-stream (png bytes)', '/octet', 'image/png', PNG],
    ['a declared type the bytes contradict', '/mislabelled', 'image/png', PNG],
    ['an image type the bytes do not name', '/avif', 'image/avif', Buffer.from('....ftypavif')],
  ])('takes the media type of %s', async (_name, path, mediaType, data) => {
    const image = await fetcher().fetchImage(`http://images.example.test${path}`, PARAM);
    expect(image).toEqual({ mediaType, data });
  });

  it('follows redirects, relative and to another public host, checking each', async () => {
    const to = encodeURIComponent('http://cdn.example.test/redirect?status=307&to=/cat.png');
    const image = await fetcher().fetchImage(`http://images.example.test/redirect?to=${to}`, PARAM);
    expect(image.data.equals(PNG)).toBe(true);
    expect(connections.map((each) => each.address)).toEqual([PUBLIC_A, PUBLIC_B, PUBLIC_B]);
    expect(requests.map((each) => each.host)).toEqual(['images.example.test', 'cdn.example.test', 'cdn.example.test']);
  });

  it('follows exactly maxRedirects redirects', async () => {
    const image = await fetcher({ maxRedirects: 3 }).fetchImage('http://images.example.test/hops/3', PARAM);
    expect(image.mediaType).toBe('image/png');
    expect(requests).toHaveLength(4);
  });

  it('connects to the checked address: a name that resolves elsewhere afterwards is never asked again', async () => {
    const image = await fetcher().fetchImage('http://rebind.example.test/cat.png', PARAM);
    expect(image.mediaType).toBe('image/png');
    expect(rebindCalls).toBe(1);
    expect(connections).toEqual([{ address: PUBLIC_A, port: 80 }]);
  });

  it('pins the socket to the checked address without connectTo (allowPrivate, development only)', async () => {
    // pinned.example.test exists only in the injected lookup: the socket cannot have asked system DNS.
    const image = await createImageFetcher({ lookup, allowPrivate: true }).fetchImage(`http://pinned.example.test:${port}/cat.png`, PARAM);
    expect(image.data.equals(PNG)).toBe(true);
    expect(requests).toEqual([{ path: '/cat.png', host: `pinned.example.test:${port}` }]);
  });

  it('offers the socket every checked address, so a dead first address falls through to the next', async () => {
    // The test server listens on 127.0.0.1 only; ::1 is tried first and refused.
    const dual = async (): Promise<LookupAddress[]> => [
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ];
    const image = await createImageFetcher({ lookup: dual, allowPrivate: true }).fetchImage(`http://dual.example.test:${port}/cat.png`, PARAM);
    expect(image.mediaType).toBe('image/png');
  });

  it('allows a loopback literal with allowPrivate (development only)', async () => {
    const image = await createImageFetcher({ lookup, allowPrivate: true }).fetchImage(`http://127.0.0.1:${port}/cat.png`, PARAM);
    expect(image.mediaType).toBe('image/png');
  });

  it('sends the host name as TLS server name and checks the certificate for https', async () => {
    const error = await refused('https://images.example.test/cat.png');
    expect(error.message).toBe('The image could not be fetched: the connection to the image server failed.');
    expect(connections).toEqual([{ address: PUBLIC_A, port: 443 }]);
    expect(sniNames).toEqual(['images.example.test']);
    expect(requests).toEqual([]);
  });
});

describe('fetchImage refuses private and internal addresses', () => {
  it.each([
    ['127.0.0.1', 'http://127.0.0.1/cat.png'],
    ['127.0.0.1 with a port', 'http://127.0.0.1:8080/cat.png'],
    ['127.1 (short form)', 'http://127.1/cat.png'],
    ['2130706433 (decimal)', 'http://2130706433/cat.png'],
    ['0x7f000001 (hex)', 'http://0x7f000001/cat.png'],
    ['0x7f.1 (hex, short)', 'http://0x7f.1/cat.png'],
    ['0177.0.0.1 (octal)', 'http://0177.0.0.1/cat.png'],
    ['127.255.255.254', 'http://127.255.255.254/'],
    ['10.1.2.3', 'http://10.1.2.3/cat.png'],
    ['172.16.0.1', 'http://172.16.0.1/'],
    ['172.31.255.255', 'http://172.31.255.255/'],
    ['192.168.1.1', 'http://192.168.1.1/'],
    ['169.254.169.254 (metadata)', 'http://169.254.169.254/latest/meta-data/'],
    ['0.0.0.0', 'http://0.0.0.0/'],
    ['0 (decimal unspecified)', 'http://0/'],
    ['100.64.0.1 (carrier-grade NAT)', 'http://100.64.0.1/'],
    ['192.0.0.1', 'http://192.0.0.1/'],
    ['198.18.0.1 (benchmarking)', 'http://198.18.0.1/'],
    ['224.0.0.1 (multicast)', 'http://224.0.0.1/'],
    ['240.0.0.1 (reserved)', 'http://240.0.0.1/'],
    ['255.255.255.255 (broadcast)', 'http://255.255.255.255/'],
    ['[::1]', 'http://[::1]/cat.png'],
    ['[::1] with a port over https', 'https://[::1]:8443/cat.png'],
    ['[::]', 'http://[::]/'],
    ['[::ffff:127.0.0.1] (IPv4-mapped)', 'http://[::ffff:127.0.0.1]/'],
    ['[::ffff:a9fe:a9fe] (IPv4-mapped metadata)', 'http://[::ffff:a9fe:a9fe]/'],
    ['[::ffff:10.0.0.1] (IPv4-mapped private)', 'http://[::ffff:10.0.0.1]/'],
    ['[::127.0.0.1] (IPv4-compatible)', 'http://[::127.0.0.1]/'],
    ['[fe80::1] (link-local)', 'http://[fe80::1]/'],
    ['[fc00::1] (unique local)', 'http://[fc00::1]/'],
    ['[fd00:ec2::254] (unique local metadata)', 'http://[fd00:ec2::254]/'],
    ['[fec0::1] (site-local)', 'http://[fec0::1]/'],
    ['[ff02::1] (multicast)', 'http://[ff02::1]/'],
    ['[64:ff9b::7f00:1] (NAT64 of loopback)', 'http://[64:ff9b::7f00:1]/'],
    ['[2002:7f00:1::] (6to4 of loopback)', 'http://[2002:7f00:1::]/'],
    ['[2001:db8::1] (documentation)', 'http://[2001:db8::1]/'],
  ])('refuses %s', async (_name, url) => {
    const error = await refused(url);
    expect(error.message).toBe(NOT_ALLOWED);
    expect(connections).toEqual([]);
    expect(requests).toEqual([]);
  });

  it.each([
    ['a DNS name resolving to loopback', 'http://loopback.example.test/cat.png'],
    ['localhost', 'http://localhost/cat.png'],
    ['a DNS name resolving to ::1', 'http://v6-loopback.example.test/'],
    ['a DNS name resolving to 169.254.169.254', 'http://metadata.example.test/latest/meta-data/'],
    ['a DNS name resolving to an IPv4-mapped metadata address', 'http://mapped.example.test/'],
    ['a DNS name resolving to a unique-local IPv6 address', 'http://ula.example.test/'],
    ['a DNS name resolving to one public and one private address', 'http://mixed.example.test/cat.png'],
  ])('refuses %s', async (_name, url) => {
    const error = await refused(url);
    expect(error.message).toBe(NOT_ALLOWED);
    expect(connections).toEqual([]);
  });

  it.each([
    ['a private literal', 'http://10.0.0.5/cat.png'],
    ['the loopback test server itself', 'http://127.0.0.1:PORT/cat.png'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/iam/'],
    ['[::1]', 'http://[::1]/'],
    ['a DNS name resolving to loopback', 'http://loopback.example.test/cat.png'],
  ])('refuses a 302 from a public host to %s', async (_name, target) => {
    const to = encodeURIComponent(target.replace('PORT', String(port)));
    const error = await refused(`http://images.example.test/redirect?to=${to}`);
    expect(error.message).toBe(REDIRECT_NOT_ALLOWED);
    expect(connections).toEqual([{ address: PUBLIC_A, port: 80 }]);
    expect(requests).toHaveLength(1);
  });

  it.each([301, 303, 307, 308])('refuses a %i redirect to a private address', async (status) => {
    const error = await refused(`http://images.example.test/redirect?status=${status}&to=${encodeURIComponent('http://192.168.0.1/')}`);
    expect(error.message).toBe(REDIRECT_NOT_ALLOWED);
  });

  it('refuses a private address after a public redirect hop', async () => {
    const to = encodeURIComponent(`http://cdn.example.test/redirect?to=${encodeURIComponent('http://[::ffff:7f00:1]/')}`);
    const error = await refused(`http://images.example.test/redirect?to=${to}`);
    expect(error.message).toBe(REDIRECT_NOT_ALLOWED);
    expect(connections.map((each) => each.address)).toEqual([PUBLIC_A, PUBLIC_B]);
  });
});

describe('fetchImage refuses other URLs and answers', () => {
  it.each([
    ['file:', 'file:///etc/passwd'],
    ['ftp:', 'ftp://images.example.test/cat.png'],
    ['gopher:', 'gopher://images.example.test:70/_GET'],
    ['data:', 'data:image/png;base64,iVBORw0KGgo='],
    ['javascript:', 'javascript:alert(1)'],
  ])('refuses a %s URL', async (_name, url) => {
    const error = await refused(url);
    expect(error.message).toBe('The image URL is not allowed: only http and https URLs are downloaded.');
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses a text that is not a URL', async () => {
    expect((await refused('not a url')).message).toBe('The image URL is not allowed: it is not a valid URL.');
  });

  it('refuses a redirect to a file: URL', async () => {
    const error = await refused(`http://images.example.test/redirect?to=${encodeURIComponent('file:///etc/passwd')}`);
    expect(error.message).toBe('The image URL is not allowed: it redirects to a URL that is not http or https.');
  });

  it('refuses more than maxRedirects redirects', async () => {
    const error = await refused('http://images.example.test/redirect-loop');
    expect(error.message).toBe('The image could not be fetched: more than 3 redirects.');
    expect(requests).toHaveLength(4);
  });

  it('honours a smaller maxRedirects', async () => {
    const error = await refused('http://images.example.test/hops/2', { maxRedirects: 1 });
    expect(error.message).toBe('The image could not be fetched: more than 1 redirects.');
  });

  it('refuses a redirect without a Location', async () => {
    expect((await refused('http://images.example.test/redirect-no-location')).message).toBe('The image could not be fetched: the server answered HTTP 302 without a Location.');
  });

  it('refuses an error status', async () => {
    expect((await refused('http://images.example.test/missing')).message).toBe('The image could not be fetched: the server answered HTTP 404.');
  });

  it('refuses a name that does not resolve', async () => {
    expect((await refused('http://nowhere.example.test/cat.png')).message).toBe('The image could not be fetched: the host name nowhere.example.test could not be resolved.');
  });

  it('refuses a lookup that answers no address', async () => {
    const error = await refused('http://empty.example.test/', { lookup: async () => [] });
    expect(error.message).toBe('The image could not be fetched: the host name empty.example.test could not be resolved.');
  });

  it('refuses when the connection fails', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await refused('http://images.example.test/cat.png', { connectTo: () => ({ host: '127.0.0.1', port: closedPort }) });
    expect(error.message).toBe('The image could not be fetched: the connection to the image server failed.');
  });

  it('refuses a declared Content-Length over maxBytes before reading the body', async () => {
    const started = Date.now();
    const error = await refused('http://images.example.test/big-declared', { maxBytes: 1000 });
    expect(error.message).toBe('The image is too large: the limit is 1000 bytes.');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a body that grows over maxBytes while streaming', async () => {
    const error = await refused('http://images.example.test/big-stream', { maxBytes: 1500 });
    expect(error.message).toMatch(/^The image is too large: the limit is/);
  });

  it('refuses an image over the default 20 MiB by its Content-Length', async () => {
    expect((await refused('http://images.example.test/big-declared', { maxBytes: undefined })).message).toBe('The image is too large: the limit is 20 MiB.');
  });

  it('accepts an image of exactly maxBytes', async () => {
    const image = await fetcher({ maxBytes: PNG.length }).fetchImage('http://images.example.test/cat.png', PARAM);
    expect(image.data.length).toBe(PNG.length);
  });

  it.each([
    ['an HTML page', '/page.html', 'The image URL did not return an image (content type text/html).'],
    ['untyped bytes that are not an image', '/untyped-text', 'The image URL did not return an image (the content is not a recognised image format).'],
    ['an empty image', '/empty', 'The image URL did not return an image (the content is not a recognised image format).'],
  ])('refuses %s', async (_name, path, message) => {
    expect((await refused(`http://images.example.test${path}`)).message).toBe(message);
  });

  it.each([
    ['a server that never answers', 'http://images.example.test/slow-headers'],
    ['a body that stops', 'http://images.example.test/slow-body'],
    ['a lookup that never answers', 'http://hanging.example.test/cat.png'],
  ])('times out on %s', async (_name, url) => {
    const error = await refused(url, { timeoutMs: 150 });
    expect(error.message).toBe('The image could not be fetched: the download timed out after 0.15 seconds.');
  });

  it("rejects with the caller's abort reason, not an image error", async () => {
    const controller = new AbortController();
    const reason = new Error('client disconnected');
    setTimeout(() => controller.abort(reason), 50);
    await expect(fetcher().fetchImage('http://images.example.test/slow-headers', PARAM, controller.signal)).rejects.toBe(reason);
  });

  it('rejects at once with an already aborted signal', async () => {
    const reason = new Error('gone');
    await expect(fetcher().fetchImage('http://images.example.test/cat.png', PARAM, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(requests).toEqual([]);
  });
});

describe('isPublicAddress', () => {
  it.each([PUBLIC_A, '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', PUBLIC_V6, '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.0.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '192.0.0.8', '198.19.255.255', '224.0.0.1', '255.255.255.255', '::', '::1', '::ffff:127.0.0.1', '::ffff:192.168.0.1', '::7f00:1', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd00::1', 'ff02::1', '64:ff9b::a00:1', '2002:a00:1::', '2001::1', 'example.com', '', '2130706433'])(
    'refuses %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );
});

describe('sniffImageType', () => {
  it.each([
    [PNG_HEADER, 'image/png'],
    [JPEG, 'image/jpeg'],
    [Buffer.from('GIF89a....'), 'image/gif'],
    [Buffer.from('GIF87a....'), 'image/gif'],
    [Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'), 'image/webp'],
    [Buffer.from('<svg></svg>'), undefined],
    [Buffer.alloc(0), undefined],
  ])('reads %p as %p', (data, mediaType) => {
    expect(sniffImageType(data)).toBe(mediaType);
  });
});

describe('resolveImages', () => {
  const dataPng = Buffer.concat([PNG_HEADER, Buffer.from('inline')]);
  const dataUrl = `data:image/png;base64,${dataPng.toString('base64')}`;
  const image = (url: string) => ({ type: 'image_url', image_url: { url, detail: 'high' } });
  const parse = (messages: unknown[]) => parseChatRequest({ messages }, {}, { remoteImages: 'defer' });

  it('downloads every deferred image and puts each part back in client order', async () => {
    const input = parse([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'a' }, image('http://images.example.test/cat.png'), { type: 'text', text: 'b' }, image(dataUrl), image('http://images.example.test/photo')] },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [image('http://cdn.example.test/octet'), { type: 'text', text: 'c' }] },
    ]);
    expect(input.messages[0]).toMatchObject({ content: [{ type: 'text' }, { type: 'text' }, { type: 'image' }] });

    await fetcher().resolveImages(input);

    expect(input.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'text', text: 'b' },
        { type: 'image', mediaType: 'image/png', data: dataPng },
        { type: 'image', mediaType: 'image/jpeg', data: JPEG },
      ],
    });
    expect(input.messages[1]).toEqual({ role: 'assistant', content: 'ok' });
    expect(input.messages[2]).toEqual({ role: 'user', content: [{ type: 'image', mediaType: 'image/png', data: PNG }, { type: 'text', text: 'c' }] });
    expect(input.needsVision).toBe(true);
    expect(input.images.every((each) => each.decoded)).toBe(true);
  });

  it('does nothing the second time, and nothing without deferred images', async () => {
    const input = parse([{ role: 'user', content: [image('http://images.example.test/cat.png')] }]);
    const images = fetcher();
    await images.resolveImages(input);
    await images.resolveImages(input);
    expect(input.messages[0]).toMatchObject({ content: [{ type: 'image' }] });
    expect(requests).toHaveLength(1);

    const inline = parse([{ role: 'user', content: [image(dataUrl)] }]);
    await images.resolveImages(inline);
    expect(inline.messages[0]).toEqual({ role: 'user', content: [{ type: 'image', mediaType: 'image/png', data: dataPng }] });
    expect(requests).toHaveLength(1);
  });

  it('refuses with the param of the failing part and leaves the messages unchanged', async () => {
    const input = parse([
      { role: 'system', content: 'x' },
      { role: 'user', content: [{ type: 'text', text: 'a' }, image('http://images.example.test/cat.png'), { type: 'text', text: 'b' }, image('http://169.254.169.254/latest/meta-data/')] },
    ]);
    const error = await failure(fetcher().resolveImages(input));
    expect(error).toMatchObject({ code: 'invalid_image_url', status: 400, param: 'messages[1].content[3].image_url.url', message: NOT_ALLOWED });
    expect(input.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] });
    expect(input.images.some((each) => each.decoded)).toBe(false);
  });

  it('refuses a redirect to a private address with the param of that part', async () => {
    const input = parse([{ role: 'user', content: [image('http://images.example.test/cat.png'), image(`http://cdn.example.test/redirect?to=${encodeURIComponent('http://10.0.0.1/')}`)] }]);
    const error = await failure(fetcher().resolveImages(input));
    expect(error).toMatchObject({ code: 'invalid_image_url', status: 400, param: 'messages[0].content[1].image_url.url', message: REDIRECT_NOT_ALLOWED });
  });

  it('downloads at most `concurrency` images at a time (default 4)', async () => {
    const input = parse([{ role: 'user', content: Array.from({ length: 10 }, (_, i) => image(`http://images.example.test/counted?i=${i}`)) }]);
    await fetcher().resolveImages(input);
    expect(requests).toHaveLength(10);
    expect(maxInFlight).toBe(4);
    expect(input.messages[0]).toMatchObject({ content: Array.from({ length: 10 }, () => ({ type: 'image', mediaType: 'image/png' })) });

    maxInFlight = 0;
    await fetcher({ concurrency: 2 }).resolveImages(parse([{ role: 'user', content: Array.from({ length: 5 }, (_, i) => image(`http://images.example.test/counted?i=${i}`)) }]));
    expect(maxInFlight).toBe(2);
  });

  it('refuses images too large together', async () => {
    const input = parse([{ role: 'user', content: [image('http://images.example.test/cat.png?1'), image('http://images.example.test/cat.png?2')] }]);
    const error = await failure(fetcher({ maxTotalBytes: PNG.length + 10, concurrency: 1 }).resolveImages(input));
    expect(error).toMatchObject({ code: 'invalid_image_url', status: 400, param: 'messages[0].content[1].image_url.url' });
    expect(error.message).toMatch(/^The images are too large together/);
  });

  it("stops the other downloads on the first failure, and passes the caller's abort through", async () => {
    const input = parse([{ role: 'user', content: [image('http://images.example.test/slow-headers'), image('http://10.0.0.1/')] }]);
    const started = Date.now();
    await expect(fetcher().resolveImages(input)).rejects.toMatchObject({ code: 'invalid_image_url', param: 'messages[0].content[1].image_url.url' });
    expect(Date.now() - started).toBeLessThan(2000);

    const controller = new AbortController();
    const reason = new Error('client disconnected');
    setTimeout(() => controller.abort(reason), 50);
    await expect(fetcher().resolveImages(parse([{ role: 'user', content: [image('http://images.example.test/slow-headers')] }]), controller.signal)).rejects.toBe(reason);
  });
});
