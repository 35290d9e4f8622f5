import { deriveKey, newKey, openBytes, sealBytes } from '@svc/crypto';
import type { Pool } from 'pg';

/**
 * Spec (File object): "Files are encrypted per organization." Envelope encryption:
 *
 * - FILES_ENCRYPTION_KEY (the master key, 32 bytes) seals one random data key per organization
 *   (batch.organization_key, AES-256-GCM, additional data `files:<organization id>`), made on the
 *   organization's first upload. The master key never touches a file; changing it means opening
 *   each data key with the old one and sealing it with the new one (a row each), not re-encrypting
 *   files.
 * - Each file gets a key of its own, derived from its organization's data key with HKDF-SHA256
 *   (salt: the file id), so the random 96-bit IVs of its chunks never meet another file's.
 * - Content is sealed in chunks of 1 MiB of plaintext (iv ‖ tag ‖ ciphertext each), with additional
 *   data `<file id>:<index>`: a chunk moved to another file or position does not open, and the row
 *   holds the chunk count and byte size, so a missing or truncated chunk is noticed. Chunking is
 *   what lets content stream both ways: nothing ever holds more than one chunk.
 */
export const DATA_KEY_INFO = 'svc files v1';

const organizationAad = (organizationId: string) => `files:${organizationId}`;
const chunkAad = (fileId: string, index: number) => `${fileId}:${index}`;

export function sealChunk(fileKey: Buffer, fileId: string, index: number, plaintext: Uint8Array): Buffer {
  return sealBytes(fileKey, plaintext, chunkAad(fileId, index));
}

/** Throws when the chunk was altered, moved, or sealed under another key. */
export function openChunk(fileKey: Buffer, fileId: string, index: number, sealed: Uint8Array): Buffer {
  return openBytes(fileKey, sealed, chunkAad(fileId, index));
}

export interface DataKeys {
  /** The key that seals one file's chunks (derived from its organization's data key). */
  fileKey(organizationId: string, fileId: string): Promise<Buffer>;
}

/**
 * Organizations' data keys, made on first use and kept in memory once opened (they never
 * change). Two replicas making one organization's first key at once: the first insert wins and
 * both use it (ON CONFLICT DO NOTHING, then read back).
 */
export function dataKeys(pool: Pool, masterKey: Buffer, cacheSize = 10_000): DataKeys {
  const cache = new Map<string, Buffer>();
  const organizationKey = async (organizationId: string): Promise<Buffer> => {
    const cached = cache.get(organizationId);
    if (cached) return cached;
    const read = async () => (await pool.query<{ sealed_key: Buffer }>({ name: 'batch.org_key_get', text: 'SELECT sealed_key FROM batch.organization_key WHERE organization_id = $1', values: [organizationId] })).rows[0]?.sealed_key;
    let sealed = await read();
    if (!sealed) {
      const made = sealBytes(masterKey, newKey(), organizationAad(organizationId));
      await pool.query({ name: 'batch.org_key_put', text: 'INSERT INTO batch.organization_key (organization_id, sealed_key) VALUES ($1, $2) ON CONFLICT (organization_id) DO NOTHING', values: [organizationId, made] });
      sealed = await read();
      if (!sealed) throw new Error('organization data key missing after insert');
    }
    let key: Buffer;
    try {
      key = openBytes(masterKey, sealed, organizationAad(organizationId));
    } catch (error) {
      throw new Error(`the data key of organization ${organizationId} does not open (is FILES_ENCRYPTION_KEY the one it was sealed with?)`, { cause: error });
    }
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
    cache.set(organizationId, key);
    return key;
  };
  return {
    fileKey: async (organizationId, fileId) => deriveKey(await organizationKey(organizationId), fileId, DATA_KEY_INFO),
  };
}
