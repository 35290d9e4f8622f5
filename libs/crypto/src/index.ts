import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM sealing under a 32-byte key, shared by every service that keeps secrets at rest:
 * billing's own vendor keys (BYOK_ENCRYPTION_KEY) and the batch service's per-organization file
 * data keys (FILES_ENCRYPTION_KEY), and the file chunks themselves.
 *
 * A sealed value is iv (12 bytes) || auth tag (16 bytes) || ciphertext. The additional
 * authenticated data (AAD) binds it to where it is stored, so a value copied to another row does
 * not open.
 */
const ALGORITHM = 'aes-256-gcm';
export const KEY_BYTES = 32;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
/** What sealing adds to the plaintext's length. */
export const SEAL_OVERHEAD = IV_BYTES + TAG_BYTES;

/**
 * A master key from the environment (base64 of exactly 32 bytes) as a Buffer; undefined when
 * unset or blank. `variable` names the setting in the error (e.g. BYOK_ENCRYPTION_KEY).
 */
export function parseMasterKey(base64: string | undefined, variable: string): Buffer | undefined {
  if (base64 === undefined || base64.trim() === '') return undefined;
  const text = base64.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw new Error(`${variable} must be base64 of 32 bytes (e.g. openssl rand -base64 32)`);
  }
  const key = Buffer.from(text, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new Error(`${variable} must be base64 of 32 bytes, got ${key.length} bytes (e.g. openssl rand -base64 32)`);
  }
  return key;
}

function requireKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`an AES-256-GCM key is ${KEY_BYTES} bytes, got ${key.length}`);
}

/** Seals bytes: iv || tag || ciphertext, with a fresh random IV. */
export function sealBytes(key: Buffer, plaintext: Uint8Array, aad: string): Buffer {
  requireKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

/** Throws when the value is malformed, was sealed under another key or AAD, or was altered. */
export function openBytes(key: Buffer, sealed: Uint8Array, aad: string): Buffer {
  requireKey(key);
  const bytes = Buffer.isBuffer(sealed) ? sealed : Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (bytes.length < SEAL_OVERHEAD) throw new Error('sealed value is too short');
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(IV_BYTES, SEAL_OVERHEAD);
  const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(bytes.subarray(SEAL_OVERHEAD)), decipher.final()]);
}

/** Seals UTF-8 text; the value is base64 of iv || tag || ciphertext. */
export function seal(key: Buffer, plaintext: string, aad: string): string {
  return sealBytes(key, Buffer.from(plaintext, 'utf8'), aad).toString('base64');
}

/** Opens what seal() made. Throws as openBytes does. */
export function open(key: Buffer, sealed: string, aad: string): string {
  return openBytes(key, Buffer.from(sealed, 'base64'), aad).toString('utf8');
}

/** A new random 32-byte key (a data key to be sealed under a master key). */
export function newKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/**
 * A key of its own for one purpose, derived from `key` with HKDF-SHA256 (`salt` e.g. a file id,
 * `info` what it is for), so a random IV is never used twice under one key in practice.
 */
export function deriveKey(key: Buffer, salt: string, info: string): Buffer {
  requireKey(key);
  return Buffer.from(hkdfSync('sha256', key, Buffer.from(salt, 'utf8'), Buffer.from(info, 'utf8'), KEY_BYTES));
}
