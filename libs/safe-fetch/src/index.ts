export { allowAnyAddress, isPublicAddress, type AddressPolicy } from './address-policy';
export { DOWNLOAD_DEFAULTS, DownloadError, safeDownload, type Download, type DownloadFailure, type DownloadOptions, type Lookup, type LookupAddress } from './pinned-download';
export { createFetchImage, imageMediaType, mayBeImage, sniffImageType, type FetchedImage, type FetchImage, type FetchImageOptions } from './fetch-image';
export { createImageFetcher, resolveImages, type ImageFetcher, type ImageFetcherOptions, type ImageRequest, type RequestImage, type ResolveImagesOptions } from './resolve-images';
