import { createDecipheriv, randomBytes } from 'node:crypto';
import { open, parseEncryptionKey, seal, vendorKeyAad } from './seal';

const KEY = Buffer.alloc(32, 7);
const AAD = vendorKeyAad('org_1', 'vendor-3');
const SECRET = 'sk-live-abcdef0123456789';

describe('parseEncryptionKey', () => {
  it('returns undefined when unset or blank', () => {
    expect(parseEncryptionKey(undefined)).toBeUndefined();
    expect(parseEncryptionKey('')).toBeUndefined();
    expect(parseEncryptionKey('  ')).toBeUndefined();
  });

  it('decodes base64 of exactly 32 bytes', () => {
    const raw = randomBytes(32);
    const key = parseEncryptionKey(raw.toString('base64'));
    expect(key).toBeInstanceOf(Buffer);
    expect(key!.equals(raw)).toBe(true);
    expect(parseEncryptionKey(` ${raw.toString('base64')}\n`)!.equals(raw)).toBe(true);
  });

  it('refuses any other length with the byte count', () => {
    expect(() => parseEncryptionKey(Buffer.alloc(16).toString('base64'))).toThrow('BYOK_ENCRYPTION_KEY must be base64 of 32 bytes, got 16 bytes (e.g. openssl rand -base64 32)');
    expect(() => parseEncryptionKey(Buffer.alloc(33).toString('base64'))).toThrow('got 33 bytes');
    expect(() => parseEncryptionKey(Buffer.alloc(31).toString('base64'))).toThrow('got 31 bytes');
  });

  it('refuses text that is not base64', () => {
    expect(() => parseEncryptionKey('not base64 at all!')).toThrow('BYOK_ENCRYPTION_KEY must be base64 of 32 bytes (e.g. openssl rand -base64 32)');
    expect(() => parseEncryptionKey(`${Buffer.alloc(32).toString('base64')}x`)).toThrow('must be base64 of 32 bytes');
  });
});

describe('seal and open', () => {
  it('round-trips, including non-ASCII text', () => {
    expect(open(KEY, seal(KEY, SECRET, AAD), AAD)).toBe(SECRET);
    expect(open(KEY, seal(KEY, 'clé-🔑', AAD), AAD)).toBe('clé-🔑');
  });

  it('lays out base64 of iv(12) || tag(16) || ciphertext, with a fresh IV each time', () => {
    const first = seal(KEY, SECRET, AAD);
    const second = seal(KEY, SECRET, AAD);
    const bytes = Buffer.from(first, 'base64');
    expect(bytes.length).toBe(12 + 16 + Buffer.byteLength(SECRET));
    expect(first).not.toBe(second);
    expect(Buffer.from(second, 'base64').subarray(0, 12).equals(bytes.subarray(0, 12))).toBe(false);

    // Standard AES-256-GCM: node's own decipher opens it with that layout.
    const decipher = createDecipheriv('aes-256-gcm', KEY, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from('org_1:vendor-3'));
    decipher.setAuthTag(bytes.subarray(12, 28));
    expect(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString()).toBe(SECRET);
  });

  it('detects a flipped byte anywhere: iv, tag or ciphertext', () => {
    const bytes = Buffer.from(seal(KEY, SECRET, AAD), 'base64');
    for (const index of [0, 11, 12, 27, 28, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[index] = tampered[index]! ^ 0x01;
      expect(() => open(KEY, tampered.toString('base64'), AAD)).toThrow('Unsupported state or unable to authenticate data');
    }
  });

  it('refuses another row’s AAD (a value copied to another organization or vendor)', () => {
    const sealed = seal(KEY, SECRET, AAD);
    expect(() => open(KEY, sealed, vendorKeyAad('org_2', 'vendor-3'))).toThrow('unable to authenticate data');
    expect(() => open(KEY, sealed, vendorKeyAad('org_1', 'vendor-4'))).toThrow('unable to authenticate data');
  });

  it('refuses another key', () => {
    const sealed = seal(KEY, SECRET, AAD);
    expect(() => open(Buffer.alloc(32, 8), sealed, AAD)).toThrow('unable to authenticate data');
  });

  it('refuses a value too short to hold an IV and tag', () => {
    expect(() => open(KEY, Buffer.alloc(27).toString('base64'), AAD)).toThrow('sealed value is too short');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => seal(Buffer.alloc(16), SECRET, AAD)).toThrow('an AES-256-GCM key is 32 bytes, got 16');
    expect(() => open(Buffer.alloc(16), seal(KEY, SECRET, AAD), AAD)).toThrow('an AES-256-GCM key is 32 bytes, got 16');
  });
});
