import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { ServiceError } from '@svc/errors';
import ipaddr from 'ipaddr.js';
import type { ChatRequestInput } from '@svc/call';

/**
 * Downloads the http(s) images of a chat request (spec: Parameter handling, "Images are
 * downloaded by the service and sent as bytes; private and internal addresses are refused").
 *
 * Server-side request forgery guards, for every hop (the first URL and each redirect):
 * - only http and https;
 * - the host is an IP literal (URL parsing normalises `2130706433`, `0x7f.1`, `[::ffff:7f00:1]`)
 *   or a name resolved here; every address must be public unicast, or the URL is refused;
 * - the connection goes to the address that was checked (the socket's DNS lookup is replaced by
 *   one that answers with it), so a name that resolves differently a moment later changes nothing.
 *   The Host header, TLS server name and certificate check still use the URL's host name;
 * - redirects are followed here, at most `maxRedirects`, each one checked like the first URL.
 * Size (Content-Length and the streamed bytes) and time (the whole download, DNS included) are
 * bounded. Every failure is 400 invalid_image_url with `param` at the image part.
 */

export interface LookupAddress {
  address: string;
  family: 4 | 6;
}

export type ImageLookup = (hostname: string) => Promise<LookupAddress[]>;

export interface ImageFetcherOptions {
  /** Largest image, in bytes (default 20 MiB). */
  maxBytes?: number;
  /** Largest total of one request's downloaded images, in bytes (default 50 MiB). */
  maxTotalBytes?: number;
  /** Time for one whole download, redirects and DNS included (default 10 s). */
  timeoutMs?: number;
  /** Redirects followed per image (default 3). */
  maxRedirects?: number;
  /** Downloads run at once by resolveImages (default 4). */
  concurrency?: number;
  /** Resolves a host name to all of its addresses (default: node:dns lookup, all addresses). */
  lookup?: ImageLookup;
  /** Allows private and internal addresses. Development only; never in production. */
  allowPrivate?: boolean;
  /**
   * TEST ONLY. Maps the checked address and port to where the socket really connects, so tests
   * can send a checked public address to a local server. Production code never sets it.
   */
  connectTo?: (address: string, port: number) => { host: string; port: number };
}

export interface FetchedImage {
  mediaType: string;
  data: Buffer;
}

export interface ImageFetcher {
  /** Downloads one image; `param` names the part in errors. Rejects with invalid_image_url, or with the signal's reason when `signal` aborts. */
  fetchImage(url: string, param: string, signal?: AbortSignal): Promise<FetchedImage>;
  /**
   * Downloads every deferred image of `input` (ChatImage with decoded false) and inserts it into
   * `input.messages` at its part position (see ChatImage). All or nothing: on the first failure
   * the other downloads stop and `input` is left unchanged.
   */
  resolveImages(input: ChatRequestInput, signal?: AbortSignal): Promise<void>;
}

const MIB = 1024 * 1024;
const DEFAULTS = { maxBytes: 20 * MIB, maxTotalBytes: 50 * MIB, timeoutMs: 10_000, maxRedirects: 3, concurrency: 4 };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const IMAGE_TYPE = /^image\/[a-z0-9.+-]+$/;
/** Content types that say nothing about the bytes: the image format is then read from them. */
const UNTYPED = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
/** 2000::/3, where every global unicast IPv6 address is allocated. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * True when `address` is a public unicast IP address. Everything else is refused: loopback,
 * private, link-local (cloud metadata 169.254.169.254), unspecified, carrier-grade NAT,
 * multicast, broadcast, reserved and documentation ranges, unique-local and site-local IPv6,
 * IPv6 outside 2000::/3 (IPv4-compatible ::a.b.c.d among them), and IPv6 forms that carry an
 * IPv4 address (6to4, Teredo, NAT64). An IPv4-mapped address (::ffff:a.b.c.d) is judged as its
 * IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  if (net.isIP(address) === 0) return false;
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.zoneId) return false;
    if (!v6.isIPv4MappedAddress()) return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
    ip = v6.toIPv4Address();
  }
  return ip.range() === 'unicast';
}

/** The image format from its first bytes: png, jpeg, gif or webp. */
export function sniffImageType(data: Buffer): string | undefined {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 6 && ['GIF87a', 'GIF89a'].includes(data.toString('latin1', 0, 6))) return 'image/gif';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

const defaultLookup: ImageLookup = async (hostname) => {
  const addresses = await dnsLookup(hostname, { all: true, verbatim: true });
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

const bareHost = (url: URL): string => (url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname);

const round = (value: number): number => Math.round(value * 100) / 100;
const size = (bytes: number): string => (bytes >= MIB ? `${round(bytes / MIB)} MiB` : bytes >= 1024 ? `${round(bytes / 1024)} KiB` : `${bytes} bytes`);

/** `promise`, or the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export function createImageFetcher(options: ImageFetcherOptions = {}): ImageFetcher {
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const maxTotalBytes = options.maxTotalBytes ?? DEFAULTS.maxTotalBytes;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULTS.concurrency);
  const lookup = options.lookup ?? defaultLookup;
  const allowPrivate = options.allowPrivate === true;

  const refuse = (param: string, message: string, cause?: unknown) => new ServiceError('invalid_image_url', message, { param, cause });

  /** The URL of one hop, http(s) only; `base` is set for a redirect target (relative Location, error wording). */
  function parseHop(raw: string, base: URL | undefined, param: string): URL {
    let url: URL;
    try {
      url = new URL(raw, base);
    } catch (error) {
      throw base
        ? refuse(param, 'The image could not be fetched: the server redirected to an invalid URL.', error)
        : refuse(param, 'The image URL is not allowed: it is not a valid URL.', error);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw refuse(param, base ? 'The image URL is not allowed: it redirects to a URL that is not http or https.' : 'The image URL is not allowed: only http and https URLs are downloaded.');
    }
    if (bareHost(url) === '') throw refuse(param, 'The image URL is not allowed: it has no host.');
    return url;
  }

  /** The checked addresses the hop may connect to (all of the name's addresses, in resolver order). */
  async function checkedAddresses(url: URL, redirected: boolean, param: string, signal: AbortSignal): Promise<LookupAddress[]> {
    const notAllowed = redirected ? 'The image URL is not allowed: it redirects to a private or internal address.' : 'The image URL is not allowed: it points to a private or internal address.';
    const host = bareHost(url);
    const literal = net.isIP(host);
    if (literal !== 0) {
      if (!allowPrivate && !isPublicAddress(host)) throw refuse(param, notAllowed);
      return [{ address: host, family: literal === 6 ? 6 : 4 }];
    }
    let addresses: LookupAddress[];
    try {
      addresses = await abortable(lookup(host), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw refuse(param, `The image could not be fetched: the host name ${host} could not be resolved.`, error);
    }
    const valid = addresses.filter((entry) => net.isIP(entry.address) !== 0);
    if (valid.length === 0 || valid.length !== addresses.length) throw refuse(param, `The image could not be fetched: the host name ${host} could not be resolved.`);
    // Any private answer refuses the name: the connection must not be able to reach it.
    if (!allowPrivate && valid.some((entry) => !isPublicAddress(entry.address))) throw refuse(param, notAllowed);
    return valid.map(({ address }) => ({ address, family: net.isIP(address) === 6 ? 6 : 4 }));
  }

  /**
   * One GET to `url`, connected to one of `targets` whatever the host name resolves to by then:
   * the socket's lookup answers with the checked addresses only (all of them when it asks for all,
   * so node's happy-eyeballs connect can pick between IPv6 and IPv4).
   */
  function get(url: URL, targets: LookupAddress[], signal: AbortSignal): Promise<http.IncomingMessage> {
    const secure = url.protocol === 'https:';
    const host = bareHost(url);
    const urlPort = url.port ? Number(url.port) : secure ? 443 : 80;
    let port = urlPort;
    let addresses = targets;
    if (options.connectTo) {
      const connect = options.connectTo(targets[0].address, urlPort);
      port = connect.port;
      addresses = [{ address: connect.host, family: net.isIP(connect.host) === 6 ? 6 : 4 }];
    }
    const pinned: net.LookupFunction = (_hostname, lookupOptions, callback) => {
      if (lookupOptions.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    };
    const isLiteral = net.isIP(host) !== 0;
    const requestOptions: https.RequestOptions = {
      // An IP literal is connected to without a lookup: give the checked (or test) address itself.
      host: isLiteral ? addresses[0].address : host,
      port,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { host: url.host, accept: 'image/*', 'accept-encoding': 'identity', 'user-agent': 'svc-image-fetcher/1' },
      lookup: pinned,
      agent: false,
      signal,
      ...(secure && !isLiteral ? { servername: host } : {}),
    };
    return new Promise((resolve, reject) => {
      const request = (secure ? https : http).request(requestOptions, resolve);
      request.on('error', reject);
      request.end();
    });
  }

  /** The body, at most maxBytes. */
  async function readBody(response: http.IncomingMessage, param: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) {
        response.destroy();
        throw refuse(param, `The image is too large: the limit is ${size(maxBytes)}.`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, total);
  }

  async function download(url: string, param: string, signal: AbortSignal): Promise<FetchedImage> {
    let current = parseHop(url, undefined, param);
    for (let redirects = 0; ; redirects++) {
      const targets = await checkedAddresses(current, redirects > 0, param, signal);
      const response = await get(current, targets, signal);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        const location = response.headers.location;
        response.destroy();
        if (!location) throw refuse(param, `The image could not be fetched: the server answered HTTP ${status} without a Location.`);
        if (redirects >= maxRedirects) throw refuse(param, `The image could not be fetched: more than ${maxRedirects} redirects.`);
        current = parseHop(location, current, param);
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw refuse(param, `The image could not be fetched: the server answered HTTP ${status}.`);
      }
      const declared = (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (!UNTYPED.has(declared) && !IMAGE_TYPE.test(declared)) {
        response.destroy();
        throw refuse(param, `The image URL did not return an image (content type ${declared.slice(0, 100)}).`);
      }
      const length = Number(response.headers['content-length']);
      if (Number.isFinite(length) && length > maxBytes) {
        response.destroy();
        throw refuse(param, `The image is too large: the limit is ${size(maxBytes)}.`);
      }
      const data = await readBody(response, param);
      // The bytes name the format where they can (vendors check it); else the declared image type.
      const mediaType = sniffImageType(data) ?? (UNTYPED.has(declared) ? undefined : declared);
      if (!mediaType || data.length === 0) throw refuse(param, 'The image URL did not return an image (the content is not a recognised image format).');
      return { mediaType, data };
    }
  }

  async function fetchImage(url: string, param: string, signal?: AbortSignal): Promise<FetchedImage> {
    if (signal?.aborted) throw signal.reason;
    const timedOut = new Error('image download timed out');
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(timedOut), timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await download(url, param, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) {
        if (controller.signal.reason === timedOut) throw refuse(param, `The image could not be fetched: the download timed out after ${timeoutMs / 1000} seconds.`, error);
        // The caller gave up (client gone, deadline): its reason, not an image error.
        throw controller.signal.reason;
      }
      if (error instanceof ServiceError) throw error;
      throw refuse(param, 'The image could not be fetched: the connection to the image server failed.', error);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async function resolveImages(input: ChatRequestInput, signal?: AbortSignal): Promise<void> {
    const pending = input.images.filter((image) => !image.decoded);
    if (pending.length === 0) return;
    if (signal?.aborted) throw signal.reason;
    const stopped = new Error('another image failed');
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const results: FetchedImage[] = [];
    let failure: { error: unknown } | undefined;
    let next = 0;
    let total = 0;
    const worker = async () => {
      while (next < pending.length && !controller.signal.aborted) {
        const index = next++;
        const image = pending[index];
        try {
          const fetched = await fetchImage(image.url, image.param, controller.signal);
          total += fetched.data.length;
          if (total > maxTotalBytes) throw refuse(image.param, `The images are too large together: the limit for one request is ${size(maxTotalBytes)}.`);
          results[index] = fetched;
        } catch (error) {
          if (error === stopped) return;
          failure ??= { error };
          controller.abort(stopped);
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    if (failure) throw failure.error;
    // List order puts each image after the parts before it (ChatImage contract).
    pending.forEach((image, index) => {
      const message = input.messages[image.vendorMessageIndex];
      if (message?.role !== 'user') throw new Error(`image ${image.param} does not belong to a user message`);
      message.content.splice(image.partIndex, 0, { type: 'image', mediaType: results[index].mediaType, data: results[index].data });
      image.decoded = true;
    });
    input.needsVision = true;
  }

  return { fetchImage, resolveImages };
}
