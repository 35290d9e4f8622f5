/**
 * The edge's in-memory copy of organizations' own vendor keys (BYOK), from billing's VendorKeys
 * RPC. Only organizations whose key record lists byok_vendors are fetched. An entry is used while
 * it is younger than `ttlMs` and covers every listed vendor; a list that grew means a key was just
 * set, so it is fetched again. A listed vendor the fetch did not return (billing could not open
 * that row) counts as covered until the TTL, so it costs one fetch per TTL rather than one per
 * call; the caller must treat it as unusable, never fall back to the service's own key.
 * Replacing a key leaves the list unchanged, so the edge calls `invalidate` when billing
 * announces that the organization's key records changed (the key-events channel).
 * Concurrent misses for one organization share one fetch; a failed fetch is not cached.
 */
export interface OwnKeysOptions {
  fetch: (organizationId: string) => Promise<Record<string, string>>;
  ttlMs: number;
  now?: () => number;
}

export interface OwnKeys {
  /** vendor id → the organization's own key; {} without a fetch when `vendors` is empty. */
  forOrganization(organizationId: string, vendors: readonly string[]): Promise<Record<string, string>>;
  /** Forgets the organization's keys; a fetch already under way is not cached when it lands. */
  invalidate(organizationId: string): void;
}

interface Entry {
  keys: Record<string, string>;
  /** The vendors asked for when fetched, and those returned. */
  covered: ReadonlySet<string>;
  fetchedAt: number;
  /** Order of the fetch that produced it: an older answer arriving late does not replace it. */
  sequence: number;
}

export function createOwnKeys(options: OwnKeysOptions): OwnKeys {
  const now = options.now ?? Date.now;
  const cache = new Map<string, Entry>();
  let fetches = 0;
  const inFlight = new Map<string, { vendors: ReadonlySet<string>; promise: Promise<Record<string, string>> }>();

  function load(organizationId: string, vendors: readonly string[]): Promise<Record<string, string>> {
    const pending = inFlight.get(organizationId);
    // Join a fetch under way unless it was started for a shorter list (a key set since).
    if (pending && vendors.every((vendor) => pending.vendors.has(vendor))) return pending.promise;
    const started = now();
    const sequence = ++fetches;
    const asked = new Set(vendors);
    const promise = options.fetch(organizationId).then(
      (keys) => {
        const current = cache.get(organizationId);
        if (!current || current.sequence < sequence) cache.set(organizationId, { keys, covered: new Set([...asked, ...Object.keys(keys)]), fetchedAt: started, sequence });
        if (inFlight.get(organizationId)?.promise === promise) inFlight.delete(organizationId);
        return keys;
      },
      (error: unknown) => {
        if (inFlight.get(organizationId)?.promise === promise) inFlight.delete(organizationId);
        throw error;
      },
    );
    inFlight.set(organizationId, { vendors: asked, promise });
    return promise;
  }

  return {
    async forOrganization(organizationId, vendors) {
      if (vendors.length === 0) return {};
      const entry = cache.get(organizationId);
      if (entry && now() - entry.fetchedAt < options.ttlMs && vendors.every((vendor) => entry.covered.has(vendor))) return entry.keys;
      return load(organizationId, vendors);
    },
    invalidate(organizationId) {
      inFlight.delete(organizationId);
      // A tombstone that is never fresh and outranks every fetch started before it.
      cache.set(organizationId, { keys: {}, covered: new Set(), fetchedAt: Number.NEGATIVE_INFINITY, sequence: fetches });
    },
  };
}
