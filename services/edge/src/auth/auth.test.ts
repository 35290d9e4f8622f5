import { createHash } from 'node:crypto';
import type { KeyRecord__Output } from '@svc/protos';
import { ServiceError } from '@svc/errors';
import { authenticate, extractKey, requireScopes } from './authenticate';
import { KeyCache } from './key-cache';

const KEY = 'svc_live_' + 'a'.repeat(43);
const HASH = createHash('sha256').update(KEY).digest('hex');
const record = (overrides: Partial<KeyRecord__Output> = {}): KeyRecord__Output =>
  ({ key_id: 'key_1', organization_id: 'org_1', scopes: ['chat', 'embeddings', 'conversations'], expires_at_ms: 0, revoked: false, organization_status: 'active', ...overrides }) as KeyRecord__Output;

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    return error as ServiceError;
  }
  throw new Error('expected a failure');
}

describe('extractKey', () => {
  it('reads Bearer first, then x-api-key', () => {
    expect(extractKey(`Bearer ${KEY}`, 'other')).toBe(KEY);
    expect(extractKey(undefined, KEY)).toBe(KEY);
    expect(extractKey('Basic abc', KEY)).toBe('');
  });
});

describe('authenticate', () => {
  it('a missing key is 401 invalid_api_key with WWW-Authenticate', async () => {
    const error = await failure(authenticate(undefined, new KeyCache(1000), async () => record()));
    expect([error.status, error.code, error.headers['www-authenticate']]).toEqual([401, 'invalid_api_key', 'Bearer realm="svc"']);
    expect(error.message).toMatch(/did not provide/);
  });

  it('looks the key up by its sha256, never its text', async () => {
    const lookup = jest.fn(async () => record());
    await authenticate(KEY, new KeyCache(1000), lookup);
    expect(lookup).toHaveBeenCalledWith(HASH);
  });

  it('revoked is invalid_api_key saying so; expired is key_expired; suspended is organization_suspended', async () => {
    expect(await failure(authenticate(KEY, new KeyCache(1000), async () => record({ revoked: true })))).toMatchObject({ code: 'invalid_api_key', message: expect.stringMatching(/revoked/) });
    expect(await failure(authenticate(KEY, new KeyCache(1000), async () => record({ expires_at_ms: 1000 }), 2000))).toMatchObject({ code: 'key_expired', status: 401 });
    expect(await failure(authenticate(KEY, new KeyCache(1000), async () => record({ organization_status: 'suspended' })))).toMatchObject({ code: 'organization_suspended', status: 403 });
  });

  it('checks scopes', () => {
    expect(() => requireScopes(record({ scopes: ['chat'] }), ['chat', 'conversations'])).toThrow(expect.objectContaining({ code: 'insufficient_scope', status: 403 }));
    expect(() => requireScopes(record(), ['chat'])).not.toThrow();
  });
});

describe('KeyCache', () => {
  it('serves hits from memory until the TTL passes', async () => {
    let now = 0;
    const cache = new KeyCache(1000, () => now);
    const lookup = jest.fn(async () => record());
    await cache.get(HASH, lookup);
    await cache.get(HASH, lookup);
    expect(lookup).toHaveBeenCalledTimes(1);
    now = 1001;
    await cache.get(HASH, lookup);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('shares one lookup between concurrent misses', async () => {
    const lookup = jest.fn(() => new Promise<KeyRecord__Output>((resolve) => setTimeout(() => resolve(record()), 10)));
    const cache = new KeyCache(1000);
    await Promise.all([cache.get(HASH, lookup), cache.get(HASH, lookup), cache.get(HASH, lookup)]);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('drops an entry on invalidation (a revocation pushed by billing)', async () => {
    const cache = new KeyCache(60_000);
    await cache.get(HASH, async () => record());
    cache.invalidate(HASH);
    expect((await cache.get(HASH, async () => record({ revoked: true }))).revoked).toBe(true);
  });

  it('does not cache a failed lookup', async () => {
    const cache = new KeyCache(60_000);
    await expect(cache.get(HASH, async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect((await cache.get(HASH, async () => record())).key_id).toBe('key_1');
  });
});
