import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowAnyAddress } from './address-policy';
import { sniffImageType } from './fetch-image';
import type { LookupAddress } from './pinned-download';
import { createImageFetcher } from './resolve-images';
import {
  ALLOWED_A,
  ALLOWED_B,
  ALLOWED_V6,
  JPEG,
  NOT_ALLOWED,
  PARAM,
  PNG,
  PNG_HEADER,
  REDIRECT_NOT_ALLOWED,
  fetcher,
  lookup,
  origin,
  ports,
  refused,
  seen,
  useImageServers,
} from './image-servers.test-support';

useImageServers();

describe('fetchImage downloads', () => {
  it('returns the bytes and media type of a png, every byte preserved', async () => {
    const image = await fetcher().fetchImage(`${origin.images}/cat.png`, PARAM);
    expect(image.mediaType).toBe('image/png');
    expect(image.data.equals(PNG)).toBe(true);
    expect(seen.connections).toEqual([{ address: ALLOWED_A, port: ports.images }]);
    expect(seen.requests).toEqual([{ path: '/cat.png', host: `images.example.test:${ports.images}` }]);
  });

  it('keeps the query string and a non-default port in the Host header', async () => {
    await fetcher().fetchImage(`${origin.images}/cat.png?size=large&v=2`, PARAM);
    expect(seen.connections).toEqual([{ address: ALLOWED_A, port: ports.images }]);
    expect(seen.requests).toEqual([{ path: '/cat.png?size=large&v=2', host: `images.example.test:${ports.images}` }]);
  });

  it('downloads from a public IPv6 address', async () => {
    const image = await fetcher().fetchImage(`${origin.v6}/cat.png`, PARAM);
    expect(image.mediaType).toBe('image/png');
    expect(seen.connections).toEqual([{ address: ALLOWED_V6, port: ports.v6 }]);
  });

  it('downloads from a public IP literal', async () => {
    await fetcher().fetchImage(`http://${ALLOWED_A}:${ports.images}/cat.png`, PARAM);
    expect(lookup).not.toHaveBeenCalledWith(ALLOWED_A);
    expect(seen.connections).toEqual([{ address: ALLOWED_A, port: ports.images }]);
  });

  it.each([
    ['no content type (jpeg bytes)', '/photo', 'image/jpeg', JPEG],
    ['application/octet-stream (png bytes)', '/octet', 'image/png', PNG],
    ['a declared type the bytes contradict', '/mislabelled', 'image/png', PNG],
    ['an image type the bytes do not name', '/avif', 'image/avif', Buffer.from('....ftypavif')],
  ])('takes the media type of %s', async (_name, path, mediaType, data) => {
    const image = await fetcher().fetchImage(`${origin.images}${path}`, PARAM);
    expect(image).toEqual({ mediaType, data });
  });

  it('follows redirects, relative and to another public host, checking each', async () => {
    const to = encodeURIComponent(`${origin.cdn}/redirect?status=307&to=/cat.png`);
    const image = await fetcher().fetchImage(`${origin.images}/redirect?to=${to}`, PARAM);
    expect(image.data.equals(PNG)).toBe(true);
    expect(seen.connections.map((each) => each.address)).toEqual([ALLOWED_A, ALLOWED_B, ALLOWED_B]);
    expect(seen.requests.map((each) => each.host)).toEqual([`images.example.test:${ports.images}`, `cdn.example.test:${ports.cdn}`, `cdn.example.test:${ports.cdn}`]);
  });

  it('follows exactly maxRedirects redirects', async () => {
    const image = await fetcher({ maxRedirects: 3 }).fetchImage(`${origin.images}/hops/3`, PARAM);
    expect(image.mediaType).toBe('image/png');
    expect(seen.requests).toHaveLength(4);
  });

  it('connects to the checked address: a name that resolves elsewhere afterwards is never asked again', async () => {
    const image = await fetcher().fetchImage(`http://rebind.example.test:${ports.images}/cat.png`, PARAM);
    expect(image.mediaType).toBe('image/png');
    expect(seen.rebindCalls).toBe(1);
    expect(seen.connections).toEqual([{ address: ALLOWED_A, port: ports.images }]);
  });

  it('pins the socket to the checked address (allowAnyAddress, development only)', async () => {
    // pinned.example.test exists only in the injected lookup: the socket cannot have asked system DNS.
    const image = await createImageFetcher({ lookup, isAllowedAddress: allowAnyAddress }).fetchImage(`http://pinned.example.test:${ports.loopback}/cat.png`, PARAM);
    expect(image.data.equals(PNG)).toBe(true);
    expect(seen.requests).toEqual([{ path: '/cat.png', host: `pinned.example.test:${ports.loopback}` }]);
  });

  it('offers the socket every checked address, so a dead first address falls through to the next', async () => {
    // The loopback server listens on 127.0.0.1 only; ::1 is tried first and refused.
    const dual = async (): Promise<LookupAddress[]> => [
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ];
    const image = await createImageFetcher({ lookup: dual, isAllowedAddress: allowAnyAddress }).fetchImage(`http://dual.example.test:${ports.loopback}/cat.png`, PARAM);
    expect(image.mediaType).toBe('image/png');
  });

  it('allows a loopback literal with allowAnyAddress (development only)', async () => {
    const image = await createImageFetcher({ lookup, isAllowedAddress: allowAnyAddress }).fetchImage(`${origin.loopback}/cat.png`, PARAM);
    expect(image.mediaType).toBe('image/png');
  });

  it('refuses the test servers without the test policy: the default policy is isPublicAddress', async () => {
    for (const url of [`${origin.images}/cat.png`, `http://${ALLOWED_B}:${ports.cdn}/cat.png`, `${origin.v6}/cat.png`, `${origin.loopback}/cat.png`]) {
      await expect(createImageFetcher({ lookup }).fetchImage(url, PARAM)).rejects.toMatchObject({ code: 'invalid_image_url', param: PARAM, message: NOT_ALLOWED });
    }
    expect(seen.connections).toEqual([]);
  });

  it('sends the host name as TLS server name and checks the certificate for https', async () => {
    const error = await refused(`${origin.imagesTls}/cat.png`);
    expect(error.message).toBe('The image could not be fetched: the connection to the image server failed.');
    expect(seen.connections).toEqual([{ address: ALLOWED_A, port: ports.imagesTls }]);
    expect(seen.sniNames).toEqual(['images.example.test']);
    expect(seen.requests).toEqual([]);
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
    expect(seen.connections).toEqual([]);
    expect(seen.requests).toEqual([]);
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
    expect(seen.connections).toEqual([]);
  });

  it.each([
    ['a private literal', 'http://10.0.0.5/cat.png'],
    ['the loopback test server itself', 'http://127.0.0.1:PORT/cat.png'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/iam/'],
    ['[::1]', 'http://[::1]/'],
    ['a DNS name resolving to loopback', 'http://loopback.example.test/cat.png'],
  ])('refuses a 302 from a public host to %s', async (_name, target) => {
    const to = encodeURIComponent(target.replace('PORT', String(ports.loopback)));
    const error = await refused(`${origin.images}/redirect?to=${to}`);
    expect(error.message).toBe(REDIRECT_NOT_ALLOWED);
    expect(seen.connections).toEqual([{ address: ALLOWED_A, port: ports.images }]);
    expect(seen.requests).toHaveLength(1);
  });

  it.each([301, 303, 307, 308])('refuses a %i redirect to a private address', async (status) => {
    const error = await refused(`${origin.images}/redirect?status=${status}&to=${encodeURIComponent('http://192.168.0.1/')}`);
    expect(error.message).toBe(REDIRECT_NOT_ALLOWED);
  });

  it('refuses a private address after a public redirect hop', async () => {
    const to = encodeURIComponent(`${origin.cdn}/redirect?to=${encodeURIComponent('http://[::ffff:7f00:1]/')}`);
    const error = await refused(`${origin.images}/redirect?to=${to}`);
    expect(error.message).toBe(REDIRECT_NOT_ALLOWED);
    expect(seen.connections.map((each) => each.address)).toEqual([ALLOWED_A, ALLOWED_B]);
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
    const error = await refused(`${origin.images}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`);
    expect(error.message).toBe('The image URL is not allowed: it redirects to a URL that is not http or https.');
  });

  it('refuses more than maxRedirects redirects', async () => {
    const error = await refused(`${origin.images}/redirect-loop`);
    expect(error.message).toBe('The image could not be fetched: more than 3 redirects.');
    expect(seen.requests).toHaveLength(4);
  });

  it('honours a smaller maxRedirects', async () => {
    const error = await refused(`${origin.images}/hops/2`, { maxRedirects: 1 });
    expect(error.message).toBe('The image could not be fetched: more than 1 redirects.');
  });

  it('refuses a redirect without a Location', async () => {
    expect((await refused(`${origin.images}/redirect-no-location`)).message).toBe('The image could not be fetched: the server answered HTTP 302 without a Location.');
  });

  it('refuses an error status', async () => {
    expect((await refused(`${origin.images}/missing`)).message).toBe('The image could not be fetched: the server answered HTTP 404.');
  });

  it('refuses a name that does not resolve', async () => {
    expect((await refused('http://nowhere.example.test/cat.png')).message).toBe('The image could not be fetched: the host name nowhere.example.test could not be resolved.');
  });

  it('refuses a lookup that answers no address', async () => {
    const error = await refused('http://empty.example.test/', { lookup: async () => [] });
    expect(error.message).toBe('The image could not be fetched: the host name empty.example.test could not be resolved.');
  });

  it('refuses when the connection fails', async () => {
    // A port on the allowed address where nothing listens any more.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, ALLOWED_A, resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await refused(`http://images.example.test:${closedPort}/cat.png`);
    expect(error.message).toBe('The image could not be fetched: the connection to the image server failed.');
  });

  it('refuses a declared Content-Length over maxBytes before reading the body', async () => {
    const started = Date.now();
    const error = await refused(`${origin.images}/big-declared`, { maxBytes: 1000 });
    expect(error.message).toBe('The image is too large: the limit is 1000 bytes.');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a body that grows over maxBytes while streaming', async () => {
    const error = await refused(`${origin.images}/big-stream`, { maxBytes: 1500 });
    expect(error.message).toMatch(/^The image is too large: the limit is/);
  });

  it('refuses an image over the default 20 MiB by its Content-Length', async () => {
    expect((await refused(`${origin.images}/big-declared`, { maxBytes: undefined })).message).toBe('The image is too large: the limit is 20 MiB.');
  });

  it('accepts an image of exactly maxBytes', async () => {
    const image = await fetcher({ maxBytes: PNG.length }).fetchImage(`${origin.images}/cat.png`, PARAM);
    expect(image.data.length).toBe(PNG.length);
  });

  it.each([
    ['an HTML page', '/page.html', 'The image URL did not return an image (content type text/html).'],
    ['untyped bytes that are not an image', '/untyped-text', 'The image URL did not return an image (the content is not a recognised image format).'],
    ['an empty image', '/empty', 'The image URL did not return an image (the content is not a recognised image format).'],
  ])('refuses %s', async (_name, path, message) => {
    expect((await refused(`${origin.images}${path}`)).message).toBe(message);
  });

  it.each([
    ['a server that never answers', () => `${origin.images}/slow-headers`],
    ['a body that stops', () => `${origin.images}/slow-body`],
    ['a lookup that never answers', () => 'http://hanging.example.test/cat.png'],
  ])('times out on %s', async (_name, url) => {
    const error = await refused(url(), { timeoutMs: 150 });
    expect(error.message).toBe('The image could not be fetched: the download timed out after 0.15 seconds.');
  });

  it("rejects with the caller's abort reason, not an image error", async () => {
    const controller = new AbortController();
    const reason = new Error('client disconnected');
    setTimeout(() => controller.abort(reason), 50);
    await expect(fetcher().fetchImage(`${origin.images}/slow-headers`, PARAM, controller.signal)).rejects.toBe(reason);
  });

  it('rejects at once with an already aborted signal', async () => {
    const reason = new Error('gone');
    await expect(fetcher().fetchImage(`${origin.images}/cat.png`, PARAM, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(seen.requests).toEqual([]);
  });
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
