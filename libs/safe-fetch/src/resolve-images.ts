import type { VendorMessage } from '@svc/vendors';
import { createFetchImage, formatSize, invalidImageUrl, type FetchedImage, type FetchImage, type FetchImageOptions } from './fetch-image';

/**
 * One image part of a request, in request order (the chat request's ChatImage is one). A deferred
 * image (`decoded` false) is not in its message's parts yet: resolveImages downloads it and
 * inserts it at `partIndex` of `messages[vendorMessageIndex].content`, in list order, which
 * restores the client's part order. Errors about the image name `param`.
 */
export interface RequestImage {
  url: string;
  param: string;
  decoded: boolean;
  vendorMessageIndex: number;
  partIndex: number;
}

/** A request whose deferred images are to be downloaded into its messages. */
export interface ImageRequest {
  images: RequestImage[];
  messages: VendorMessage[];
  needsVision: boolean;
}

export interface ResolveImagesOptions {
  /** Largest total of one request's downloaded images, in bytes (default 50 MiB). */
  maxTotalBytes?: number;
  /** Downloads run at once (default 4). */
  concurrency?: number;
}

const MIB = 1024 * 1024;
const DEFAULTS = { maxTotalBytes: 50 * MIB, concurrency: 4 };

/**
 * Downloads every deferred image of `input` with `fetchImage` and inserts it into
 * `input.messages` at its part position (see RequestImage). All or nothing: on the first failure
 * the other downloads stop and `input` is left unchanged.
 */
export async function resolveImages(input: ImageRequest, options: ResolveImagesOptions & { fetchImage: FetchImage }, signal?: AbortSignal): Promise<void> {
  const maxTotalBytes = options.maxTotalBytes ?? DEFAULTS.maxTotalBytes;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULTS.concurrency);
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
        const fetched = await options.fetchImage(image.url, image.param, controller.signal);
        total += fetched.data.length;
        if (total > maxTotalBytes) throw invalidImageUrl(image.param, `The images are too large together: the limit for one request is ${formatSize(maxTotalBytes)}.`);
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
  // List order puts each image after the parts before it (RequestImage contract).
  pending.forEach((image, index) => {
    const message = input.messages[image.vendorMessageIndex];
    if (message?.role !== 'user') throw new Error(`image ${image.param} does not belong to a user message`);
    message.content.splice(image.partIndex, 0, { type: 'image', mediaType: results[index].mediaType, data: results[index].data });
    image.decoded = true;
  });
  input.needsVision = true;
}

export interface ImageFetcherOptions extends FetchImageOptions, ResolveImagesOptions {}

export interface ImageFetcher {
  /** One image URL (chat image_url parts, Responses input_image URLs); see FetchImage. */
  fetchImage: FetchImage;
  /** resolveImages with this fetcher's downloads and limits. */
  resolveImages(input: ImageRequest, signal?: AbortSignal): Promise<void>;
}

/** Image downloads with one set of limits and address checks; the edge makes one at start-up. */
export function createImageFetcher(options: ImageFetcherOptions = {}): ImageFetcher {
  const fetchImage = createFetchImage(options);
  return {
    fetchImage,
    resolveImages: (input, signal) => resolveImages(input, { fetchImage, maxTotalBytes: options.maxTotalBytes, concurrency: options.concurrency }, signal),
  };
}
