/**
 * Where a file's encrypted chunks live, behind one small interface so the store can change
 * without touching uploads, reads or the sweeper. Chunks are opaque bytes (already sealed by
 * encryption.ts); a blob is named by its file id.
 *
 * Drivers:
 * - `postgres` (default, postgres-blob-store.ts): one row per chunk in batch.file_chunk. Works
 *   across replicas with no shared volume and needs nothing beyond the database the service
 *   already has; a 100 MiB file is 100 rows of 1 MiB.
 * - object store (the path past that, not built): `put` → PUT `<prefix>/<blobId>/<index>`, `get`
 *   → GET of that key (404 → undefined), `delete` → list `<prefix>/<blobId>/` and delete the keys.
 *   Any S3-compatible store fits; chunks keep their size and order, so reads stay streamed.
 *   Choose it when files' share of the database grows past what its backups and disks should
 *   carry. Selected by FILES_BLOB_STORE; nothing else changes (the sweeper already removes a
 *   file's blob before its row, so an object store never keeps chunks of a removed file).
 */
export interface BlobStore {
  /** Stores chunk `index` of blob `blobId`. Chunks are written in order, each once. */
  put(blobId: string, index: number, data: Buffer): Promise<void>;
  /** Chunk `index` of blob `blobId`; undefined when there is none. */
  get(blobId: string, index: number): Promise<Buffer | undefined>;
  /** Removes every chunk of the blob; removing a blob that is not there is not an error. */
  delete(blobId: string): Promise<void>;
}
