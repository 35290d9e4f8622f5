import { open, parseMasterKey, seal } from '@svc/crypto';

/**
 * AES-256-GCM sealing of organizations' own vendor keys (BYOK), through libs/crypto (the same
 * sealing the batch service uses for files' data keys). A sealed value is base64 of
 * iv (12 bytes) || auth tag (16 bytes) || ciphertext. The additional authenticated data binds it
 * to its row (`${organizationId}:${vendor}`), so a value copied to another row does not open.
 */
export { open, seal };

/** The AAD binding a sealed vendor key to its row. */
export function vendorKeyAad(organizationId: string, vendor: string): string {
  return `${organizationId}:${vendor}`;
}

/** BYOK_ENCRYPTION_KEY (base64 of exactly 32 bytes) as a Buffer; undefined when unset or empty. */
export function parseEncryptionKey(base64: string | undefined): Buffer | undefined {
  return parseMasterKey(base64, 'BYOK_ENCRYPTION_KEY');
}
