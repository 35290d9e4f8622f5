import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM sealing of organizations' own vendor keys (BYOK). A sealed value is base64 of
 * iv (12 bytes) || auth tag (16 bytes) || ciphertext. The additional authenticated data binds it
 * to its row (`${organizationId}:${vendor}`), so a value copied to another row does not open.
 */
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The AAD binding a sealed vendor key to its row. */
export function vendorKeyAad(organizationId: string, vendor: string): string {
  return `${organizationId}:${vendor}`;
}

/** BYOK_ENCRYPTION_KEY (base64 of exactly 32 bytes) as a Buffer; undefined when unset or empty. */
export function parseEncryptionKey(base64: string | undefined): Buffer | undefined {
  if (base64 === undefined || base64.trim() === '') return undefined;
  const text = base64.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw new Error('BYOK_ENCRYPTION_KEY must be base64 of 32 bytes (e.g. openssl rand -base64 32)');
  }
  const key = Buffer.from(text, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new Error(`BYOK_ENCRYPTION_KEY must be base64 of 32 bytes, got ${key.length} bytes (e.g. openssl rand -base64 32)`);
  }
  return key;
}

function requireKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`an AES-256-GCM key is ${KEY_BYTES} bytes, got ${key.length}`);
}

export function seal(key: Buffer, plaintext: string, aad: string): string {
  requireKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

/** Throws when the value is malformed, was sealed under another key or AAD, or was altered. */
export function open(key: Buffer, sealed: string, aad: string): string {
  requireKey(key);
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('sealed value is too short');
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
