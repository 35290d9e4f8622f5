import { DownloadError, safeDownload } from './pinned-download';
import { ALLOWED_A, ALLOWED_B, lookup, origin, ports, seen, testAddressPolicy, useImageServers } from './image-servers.test-support';

useImageServers();

/** The download itself, without the image layer: what other callers of the library get. */
describe('safeDownload', () => {
  const options = { lookup, isAllowedAddress: testAddressPolicy };

  it('downloads any content type, following redirects, and names the URL that answered', async () => {
    const to = encodeURIComponent(`${origin.cdn}/page.html`);
    const download = await safeDownload(`${origin.images}/redirect?to=${to}`, options);
    expect(download.contentType).toBe('text/html');
    expect(download.body.toString()).toBe('<html>hello</html>');
    expect(download.url.href).toBe(`${origin.cdn}/page.html`);
    expect(seen.connections.map((each) => each.address)).toEqual([ALLOWED_A, ALLOWED_B]);
  });

  it('refuses a content type the caller does not accept, before reading the body', async () => {
    const error = await safeDownload(`${origin.images}/page.html`, { ...options, acceptContentType: (type) => type.startsWith('image/') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).failure).toEqual({ reason: 'content_type', mediaType: 'text/html' });
  });

  it.each([
    ['a loopback address, by the default policy', () => `http://${ALLOWED_B}:${ports.cdn}/cat.png`, {}, { reason: 'address_not_allowed', redirected: false }],
    ['a redirect to a private address', () => `${origin.images}/redirect?to=${encodeURIComponent('http://10.0.0.1/')}`, options, { reason: 'address_not_allowed', redirected: true }],
    ['a body over maxBytes', () => `${origin.images}/cat.png`, { ...options, maxBytes: 10 }, { reason: 'too_large', maxBytes: 10 }],
    ['an error status', () => `${origin.images}/missing`, options, { reason: 'http_status', status: 404 }],
  ])('names why it refuses %s', async (_name, url, given, failure) => {
    const error = await safeDownload(url(), given).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).failure).toEqual(failure);
  });
});
