import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPublicAddress, type AddressPolicy } from './address-policy';

/**
 * One GET of a client-supplied URL into memory, guarded against server-side request forgery for
 * every hop (the first URL and each redirect):
 * - only http and https;
 * - the host is an IP literal (URL parsing normalises `2130706433`, `0x7f.1`, `[::ffff:7f00:1]`)
 *   or a name resolved here; every address must pass the address policy (default: public
 *   unicast only, see address-policy.ts), or the URL is refused;
 * - the connection goes to the address that was checked (the socket's DNS lookup is replaced by
 *   one that answers with it), so a name that resolves differently a moment later changes nothing.
 *   The Host header, TLS server name and certificate check still use the URL's host name;
 * - redirects are followed here, at most `maxRedirects`, each one checked like the first URL.
 * Size (Content-Length and the streamed bytes) and time (the whole download, DNS included) are
 * bounded. Every refusal is a DownloadError naming why (callers word it for their clients);
 * when the caller's signal aborts, the download rejects with the signal's reason instead.
 */

export interface LookupAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses. */
export type Lookup = (hostname: string) => Promise<LookupAddress[]>;

export interface DownloadOptions {
  /** Largest body, in bytes (default 20 MiB). */
  maxBytes?: number;
  /** Time for one whole download, redirects and DNS included (default 10 s). */
  timeoutMs?: number;
  /** Redirects followed (default 3). */
  maxRedirects?: number;
  /** Resolves a host name to all of its addresses (default: node:dns lookup, all addresses). */
  lookup?: Lookup;
  /** Whether an address may be connected to (default isPublicAddress). */
  isAllowedAddress?: AddressPolicy;
  /** Request headers; `host` and `accept-encoding` (identity: the bytes are kept as sent) are set by the download. */
  headers?: Record<string, string>;
  /**
   * Whether a 2xx answer's media type is wanted: the Content-Type without parameters, in lower
   * case, '' when absent. Asked before the body is read; default: every type.
   */
  acceptContentType?: (mediaType: string) => boolean;
}

export interface Download {
  /** The URL that answered (the last hop). */
  url: URL;
  /** Its media type, as given to acceptContentType. */
  contentType: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Why a download was refused or failed. `redirected` is true when a redirect target was refused. */
export type DownloadFailure =
  | { reason: 'invalid_url'; redirected: boolean }
  | { reason: 'unsupported_scheme'; redirected: boolean }
  | { reason: 'no_host' }
  | { reason: 'address_not_allowed'; redirected: boolean }
  | { reason: 'unresolved'; host: string }
  | { reason: 'redirect_without_location'; status: number }
  | { reason: 'too_many_redirects'; maxRedirects: number }
  | { reason: 'http_status'; status: number }
  | { reason: 'content_type'; mediaType: string }
  | { reason: 'too_large'; maxBytes: number }
  | { reason: 'timeout'; timeoutMs: number }
  | { reason: 'connection_failed' };

export class DownloadError extends Error {
  override name = 'DownloadError';

  constructor(
    readonly failure: DownloadFailure,
    cause?: unknown,
  ) {
    super(`download refused: ${failure.reason}`, cause === undefined ? undefined : { cause });
  }
}

const MIB = 1024 * 1024;
export const DOWNLOAD_DEFAULTS = { maxBytes: 20 * MIB, timeoutMs: 10_000, maxRedirects: 3 };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const defaultLookup: Lookup = async (hostname) => {
  const addresses = await dnsLookup(hostname, { all: true, verbatim: true });
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

const bareHost = (url: URL): string => (url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname);

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

/** The URL of one hop, http(s) only; `base` is set for a redirect target (relative Location). */
function parseHop(raw: string, base: URL | undefined): URL {
  const redirected = base !== undefined;
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch (error) {
    throw new DownloadError({ reason: 'invalid_url', redirected }, error);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DownloadError({ reason: 'unsupported_scheme', redirected });
  if (bareHost(url) === '') throw new DownloadError({ reason: 'no_host' });
  return url;
}

/** The checked addresses the hop may connect to (all of the name's addresses, in resolver order). */
async function checkedAddresses(url: URL, redirected: boolean, lookup: Lookup, isAllowed: AddressPolicy, signal: AbortSignal): Promise<LookupAddress[]> {
  const host = bareHost(url);
  const literal = net.isIP(host);
  if (literal !== 0) {
    if (!isAllowed(host)) throw new DownloadError({ reason: 'address_not_allowed', redirected });
    return [{ address: host, family: literal === 6 ? 6 : 4 }];
  }
  let addresses: LookupAddress[];
  try {
    addresses = await abortable(lookup(host), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new DownloadError({ reason: 'unresolved', host }, error);
  }
  const valid = addresses.filter((entry) => net.isIP(entry.address) !== 0);
  if (valid.length === 0 || valid.length !== addresses.length) throw new DownloadError({ reason: 'unresolved', host });
  // Any refused answer refuses the name: the connection must not be able to reach it.
  if (valid.some((entry) => !isAllowed(entry.address))) throw new DownloadError({ reason: 'address_not_allowed', redirected });
  return valid.map(({ address }) => ({ address, family: net.isIP(address) === 6 ? 6 : 4 }));
}

/**
 * One GET to `url`, connected to one of `targets` whatever the host name resolves to by then:
 * the socket's lookup answers with the checked addresses only (all of them when it asks for all,
 * so node's happy-eyeballs connect can pick between IPv6 and IPv4).
 */
function get(url: URL, targets: LookupAddress[], headers: Record<string, string>, signal: AbortSignal): Promise<http.IncomingMessage> {
  const secure = url.protocol === 'https:';
  const host = bareHost(url);
  const pinned: net.LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, targets);
    else callback(null, targets[0].address, targets[0].family);
  };
  const isLiteral = net.isIP(host) !== 0;
  const requestOptions: https.RequestOptions = {
    // An IP literal is connected to without a lookup: give the checked address itself.
    host: isLiteral ? targets[0].address : host,
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    headers: { ...headers, host: url.host, 'accept-encoding': 'identity' },
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
async function readBody(response: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      response.destroy();
      throw new DownloadError({ reason: 'too_large', maxBytes });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Downloads `url` (see the top of this file). Rejects with a DownloadError, or with the signal's
 * reason when `signal` aborts.
 */
export async function safeDownload(url: string, options: DownloadOptions = {}, signal?: AbortSignal): Promise<Download> {
  const maxBytes = options.maxBytes ?? DOWNLOAD_DEFAULTS.maxBytes;
  const timeoutMs = options.timeoutMs ?? DOWNLOAD_DEFAULTS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? DOWNLOAD_DEFAULTS.maxRedirects;
  const lookup = options.lookup ?? defaultLookup;
  const isAllowed = options.isAllowedAddress ?? isPublicAddress;
  const headers = options.headers ?? {};

  async function hops(hopSignal: AbortSignal): Promise<Download> {
    let current = parseHop(url, undefined);
    for (let redirects = 0; ; redirects++) {
      const targets = await checkedAddresses(current, redirects > 0, lookup, isAllowed, hopSignal);
      const response = await get(current, targets, headers, hopSignal);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        const location = response.headers.location;
        response.destroy();
        if (!location) throw new DownloadError({ reason: 'redirect_without_location', status });
        if (redirects >= maxRedirects) throw new DownloadError({ reason: 'too_many_redirects', maxRedirects });
        current = parseHop(location, current);
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw new DownloadError({ reason: 'http_status', status });
      }
      const contentType = (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (options.acceptContentType && !options.acceptContentType(contentType)) {
        response.destroy();
        throw new DownloadError({ reason: 'content_type', mediaType: contentType });
      }
      const length = Number(response.headers['content-length']);
      if (Number.isFinite(length) && length > maxBytes) {
        response.destroy();
        throw new DownloadError({ reason: 'too_large', maxBytes });
      }
      const body = await readBody(response, maxBytes);
      return { url: current, contentType, headers: response.headers, body };
    }
  }

  if (signal?.aborted) throw signal.reason;
  const timedOut = new Error('download timed out');
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(timedOut), timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await hops(controller.signal);
  } catch (error) {
    if (controller.signal.aborted) {
      if (controller.signal.reason === timedOut) throw new DownloadError({ reason: 'timeout', timeoutMs }, error);
      // The caller gave up (client gone, deadline): its reason, not a download error.
      throw controller.signal.reason;
    }
    if (error instanceof DownloadError) throw error;
    throw new DownloadError({ reason: 'connection_failed' }, error);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
