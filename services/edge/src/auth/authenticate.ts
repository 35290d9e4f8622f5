import { createHash } from 'node:crypto';
import { ServiceError } from '@svc/errors';
import type { KeyRecord__Output } from '@svc/protos';
import type { KeyCache } from './key-cache';

export type Scope = 'chat' | 'embeddings' | 'conversations';

/** Bearer first, else x-api-key (spec: Authentication 1–2). */
export function extractKey(authorization: string | undefined, apiKeyHeader: string | undefined): string | undefined {
  if (authorization !== undefined) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    return match ? match[1].trim() : '';
  }
  return apiKeyHeader?.trim();
}

const MISSING_KEY_HEADERS = { 'www-authenticate': 'Bearer realm="svc"' };

/**
 * Resolves the caller's key to its record and applies the key-level refusals in the spec's
 * order: missing / incorrect / revoked (401 invalid_api_key), expired (401 key_expired),
 * suspended organization (403 organization_suspended).
 */
export async function authenticate(key: string | undefined, cache: KeyCache, lookup: (hash: string) => Promise<KeyRecord__Output>, now = Date.now()): Promise<KeyRecord__Output> {
  const record = await identify(key, cache, lookup, now);
  refuseSuspended(record);
  return record;
}

/** What keys are looked up and cached by: the SHA-256 of the key, hex. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The key's record, or the 401 refusals (missing, incorrect, revoked, expired): before the key is known. */
export async function identify(key: string | undefined, cache: KeyCache, lookup: (hash: string) => Promise<KeyRecord__Output>, now = Date.now()): Promise<KeyRecord__Output> {
  if (!key) {
    throw new ServiceError('invalid_api_key', 'You did not provide an API key. Send it as "Authorization: Bearer <API_KEY>" or in the x-api-key header.', { headers: MISSING_KEY_HEADERS });
  }
  const record = await cache.get(keyHash(key), lookup);
  if (record.revoked) throw new ServiceError('invalid_api_key', 'The API key provided has been revoked.');
  if (Number(record.expires_at_ms) > 0 && Number(record.expires_at_ms) <= now) throw new ServiceError('key_expired', 'The API key provided has expired.');
  return record;
}

/** 403 organization_suspended: the key is known by then. */
export function refuseSuspended(record: KeyRecord__Output): void {
  if (record.organization_status === 'suspended') throw new ServiceError('organization_suspended', 'Your organization is suspended.');
}

/** Scope check (spec: Authentication 4). */
export function requireScopes(record: KeyRecord__Output, scopes: Scope[]): void {
  const missing = scopes.filter((scope) => !record.scopes.includes(scope));
  if (missing.length > 0) {
    throw new ServiceError('insufficient_scope', `This API key lacks the scope${missing.length > 1 ? 's' : ''} ${missing.map((scope) => `'${scope}'`).join(' and ')} needed for this endpoint.`);
  }
}
