import type { Pool } from 'pg';
import type { BlobStore } from './blob-store';

/**
 * The default blob store: encrypted chunks as bytea rows of batch.file_chunk (blob_id, index).
 * Chunks are sent in binary (read back as hex text, which pg decodes), one statement
 * per chunk, so a read holds one chunk at a time.
 */
export function postgresBlobStore(pool: Pool): BlobStore {
  return {
    async put(blobId, index, data) {
      await pool.query({ name: 'batch.chunk_put', text: 'INSERT INTO batch.file_chunk (blob_id, index, data) VALUES ($1, $2, $3)', values: [blobId, index, data] });
    },
    async get(blobId, index) {
      const result = await pool.query<{ data: Buffer }>({ name: 'batch.chunk_get', text: 'SELECT data FROM batch.file_chunk WHERE blob_id = $1 AND index = $2::int4', values: [blobId, index] });
      return result.rows[0]?.data;
    },
    async delete(blobId) {
      await pool.query({ name: 'batch.chunk_delete', text: 'DELETE FROM batch.file_chunk WHERE blob_id = $1', values: [blobId] });
    },
  };
}
