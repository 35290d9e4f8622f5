import { ServiceError } from '@svc/errors';
import { DownloadError, safeDownload, type DownloadFailure, type DownloadOptions } from './pinned-download';

/**
 * Images from http(s) URLs (spec: Parameter handling, "Images are downloaded by the service and
 * sent as bytes; private and internal addresses are refused"): a pinned, re-checked download
 * (pinned-download.ts) of something that is an image. Every failure is 400 invalid_image_url with
 * `param` at the image part.
 */

export interface FetchedImage {
  mediaType: string;
  data: Buffer;
}

/** Downloads one image; `param` names the part in errors. Rejects with invalid_image_url, or with the signal's reason when `signal` aborts. */
export type FetchImage = (url: string, param: string, signal?: AbortSignal) => Promise<FetchedImage>;

/** The download's limits and address checks (see DownloadOptions); the request itself is the image fetcher's. */
export type FetchImageOptions = Pick<DownloadOptions, 'maxBytes' | 'timeoutMs' | 'maxRedirects' | 'lookup' | 'isAllowedAddress'>;

const MIB = 1024 * 1024;
const IMAGE_TYPE = /^image\/[a-z0-9.+-]+$/;
/** Content types that say nothing about the bytes: the image format is then read from them. */
const UNTYPED = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const REQUEST_HEADERS = { accept: 'image/*', 'user-agent': 'svc-image-fetcher/1' };

/** The image format from its first bytes: png, jpeg, gif or webp. */
export function sniffImageType(data: Buffer): string | undefined {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 6 && ['GIF87a', 'GIF89a'].includes(data.toString('latin1', 0, 6))) return 'image/gif';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** True when a declared media type may hold an image: an image type, or none that says anything (the bytes then decide). */
export function mayBeImage(mediaType: string): boolean {
  return UNTYPED.has(mediaType) || IMAGE_TYPE.test(mediaType);
}

/** The image's media type: the format its bytes name where they can (vendors check it), else the declared image type; undefined when neither. */
export function imageMediaType(data: Buffer, declared: string): string | undefined {
  return sniffImageType(data) ?? (UNTYPED.has(declared) ? undefined : declared);
}

const round = (value: number): number => Math.round(value * 100) / 100;
/** `1000 bytes`, `1.5 KiB`, `20 MiB`. */
export const formatSize = (bytes: number): string => (bytes >= MIB ? `${round(bytes / MIB)} MiB` : bytes >= 1024 ? `${round(bytes / 1024)} KiB` : `${bytes} bytes`);

/** 400 invalid_image_url at `param`. */
export const invalidImageUrl = (param: string, message: string, cause?: unknown): ServiceError => new ServiceError('invalid_image_url', message, { param, cause });

/** What the client reads when an image download fails. */
function describe(failure: DownloadFailure): string {
  switch (failure.reason) {
    case 'invalid_url':
      return failure.redirected ? 'The image could not be fetched: the server redirected to an invalid URL.' : 'The image URL is not allowed: it is not a valid URL.';
    case 'unsupported_scheme':
      return failure.redirected ? 'The image URL is not allowed: it redirects to a URL that is not http or https.' : 'The image URL is not allowed: only http and https URLs are downloaded.';
    case 'no_host':
      return 'The image URL is not allowed: it has no host.';
    case 'address_not_allowed':
      return failure.redirected ? 'The image URL is not allowed: it redirects to a private or internal address.' : 'The image URL is not allowed: it points to a private or internal address.';
    case 'unresolved':
      return `The image could not be fetched: the host name ${failure.host} could not be resolved.`;
    case 'redirect_without_location':
      return `The image could not be fetched: the server answered HTTP ${failure.status} without a Location.`;
    case 'too_many_redirects':
      return `The image could not be fetched: more than ${failure.maxRedirects} redirects.`;
    case 'http_status':
      return `The image could not be fetched: the server answered HTTP ${failure.status}.`;
    case 'content_type':
      return `The image URL did not return an image (content type ${failure.mediaType.slice(0, 100)}).`;
    case 'too_large':
      return `The image is too large: the limit is ${formatSize(failure.maxBytes)}.`;
    case 'timeout':
      return `The image could not be fetched: the download timed out after ${failure.timeoutMs / 1000} seconds.`;
    case 'connection_failed':
      return 'The image could not be fetched: the connection to the image server failed.';
  }
}

/** The one entry point for an image URL: chat image_url parts, Responses input_image URLs. */
export function createFetchImage(options: FetchImageOptions = {}): FetchImage {
  const download: DownloadOptions = {
    maxBytes: options.maxBytes,
    timeoutMs: options.timeoutMs,
    maxRedirects: options.maxRedirects,
    lookup: options.lookup,
    isAllowedAddress: options.isAllowedAddress,
    headers: REQUEST_HEADERS,
    acceptContentType: mayBeImage,
  };
  return async (url, param, signal) => {
    let downloaded;
    try {
      downloaded = await safeDownload(url, download, signal);
    } catch (error) {
      if (error instanceof DownloadError) throw invalidImageUrl(param, describe(error.failure), error.cause);
      // The caller gave up (client gone, deadline): its reason, not an image error.
      throw error;
    }
    const mediaType = imageMediaType(downloaded.body, downloaded.contentType);
    if (!mediaType || downloaded.body.length === 0) throw invalidImageUrl(param, 'The image URL did not return an image (the content is not a recognised image format).');
    return { mediaType, data: downloaded.body };
  };
}
