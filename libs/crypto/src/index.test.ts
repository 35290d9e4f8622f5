import { createDecipheriv } from 'node:crypto';
import { deriveKey, newKey, open, openBytes, parseMasterKey, seal, sealBytes, SEAL_OVERHEAD } from './index';

const KEY = Buffer.alloc(32, 7);

describe('parseMasterKey', () => {
  it('names the variable it reads in every refusal', () => {
    expect(parseMasterKey(undefined, 'FILES_ENCRYPTION_KEY')).toBeUndefined();
    expect(() => parseMasterKey(Buffer.alloc(16).toString('base64'), 'FILES_ENCRYPTION_KEY')).toThrow('FILES_ENCRYPTION_KEY must be base64 of 32 bytes, got 16 bytes (e.g. openssl rand -base64 32)');
    expect(() => parseMasterKey('no!', 'X_KEY')).toThrow('X_KEY must be base64 of 32 bytes (e.g. openssl rand -base64 32)');
    expect(parseMasterKey(KEY.toString('base64'), 'X_KEY')!.equals(KEY)).toBe(true);
  });
});

describe('sealBytes / openBytes', () => {
  it('round-trips any bytes as iv(12) || tag(16) || ciphertext, standard AES-256-GCM', () => {
    const plain = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    const sealed = sealBytes(KEY, plain, 'f:0');
    expect(sealed.length).toBe(plain.length + SEAL_OVERHEAD);
    expect(openBytes(KEY, sealed, 'f:0').equals(plain)).toBe(true);
    expect(openBytes(KEY, new Uint8Array(sealed), 'f:0').equals(plain)).toBe(true);
    const decipher = createDecipheriv('aes-256-gcm', KEY, sealed.subarray(0, 12));
    decipher.setAAD(Buffer.from('f:0'));
    decipher.setAuthTag(sealed.subarray(12, 28));
    expect(Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).equals(plain)).toBe(true);
  });

  it('refuses another AAD, another key, a flipped byte and a short value', () => {
    const sealed = sealBytes(KEY, Buffer.from('secret'), 'f:0');
    expect(() => openBytes(KEY, sealed, 'f:1')).toThrow('unable to authenticate data');
    expect(() => openBytes(Buffer.alloc(32, 8), sealed, 'f:0')).toThrow('unable to authenticate data');
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => openBytes(KEY, tampered, 'f:0')).toThrow('unable to authenticate data');
    expect(() => openBytes(KEY, Buffer.alloc(27), 'f:0')).toThrow('sealed value is too short');
  });

  it('seals empty input', () => {
    expect(openBytes(KEY, sealBytes(KEY, Buffer.alloc(0), 'x'), 'x')).toHaveLength(0);
  });

  it('seal/open are the same over base64 text', () => {
    expect(open(KEY, seal(KEY, 'clé-🔑', 'a'), 'a')).toBe('clé-🔑');
  });
});

describe('deriveKey', () => {
  it('is deterministic per salt and info, different across them, 32 bytes', () => {
    const base = newKey();
    expect(deriveKey(base, 'file_a', 'v1').equals(deriveKey(base, 'file_a', 'v1'))).toBe(true);
    expect(deriveKey(base, 'file_a', 'v1').equals(deriveKey(base, 'file_b', 'v1'))).toBe(false);
    expect(deriveKey(base, 'file_a', 'v1').equals(deriveKey(base, 'file_a', 'v2'))).toBe(false);
    expect(deriveKey(base, 'file_a', 'v1')).toHaveLength(32);
    expect(() => deriveKey(Buffer.alloc(16), 's', 'i')).toThrow('an AES-256-GCM key is 32 bytes, got 16');
  });
});
