import { createHash, timingSafeEqual } from 'node:crypto';

/** Keys are stored only as the sha256 of their text (hex). */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time equality of two hex hashes. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** What the admin shows of a key after creation: its prefix only. */
export function keyPrefix(key: string): string {
  return key.slice(0, 13);
}
