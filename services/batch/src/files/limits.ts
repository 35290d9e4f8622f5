/** Spec (Limits, Files; File object): the numbers an uploaded file is held to. */

/** 100 MiB per file (413 file_too_large). */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;
/** A line of a batch input file may be up to 10 MiB. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** expires_after[seconds]: 3600 to 2592000. */
export const MIN_EXPIRES_AFTER_SECONDS = 3600;
export const MAX_EXPIRES_AFTER_SECONDS = 2_592_000;
/** GET /v1/files limit: 1 to 10000 (and the default, as in the common API). */
export const MAX_LIST_LIMIT = 10_000;
/** The only purpose accepted (Versioning 5). */
export const PURPOSES = ['batch'] as const;
/** Plaintext bytes per encrypted chunk in the blob store. */
export const CHUNK_BYTES = 1024 * 1024;
