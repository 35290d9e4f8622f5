import { createOwnKeys } from './own-keys';

interface Deferred {
  resolve: (keys: Record<string, string>) => void;
  reject: (error: Error) => void;
}

/** A fetcher whose answers the test releases by hand, recording each call. */
function fakeFetcher() {
  const calls: string[] = [];
  const pending: Deferred[] = [];
  const fetch = (organizationId: string) => {
    calls.push(organizationId);
    return new Promise<Record<string, string>>((resolve, reject) => pending.push({ resolve, reject }));
  };
  const next = (): Deferred => {
    const deferred = pending.shift();
    if (!deferred) throw new Error('no fetch is waiting');
    return deferred;
  };
  return { fetch, calls, next, waiting: () => pending.length };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createOwnKeys', () => {
  let clock: number;
  const now = () => clock;

  beforeEach(() => {
    clock = 1_000_000;
  });

  it('resolves {} without fetching when the organization lists no own vendors', async () => {
    const fetcher = fakeFetcher();
    const ownKeys = createOwnKeys({ fetch: fetcher.fetch, ttlMs: 60_000, now });
    await expect(ownKeys.forOrganization('org_a', [])).resolves.toEqual({});
    expect(fetcher.calls).toEqual([]);
  });

  it('fetches once, then serves from memory until the TTL', async () => {
    const fetcher = fakeFetcher();
    const ownKeys = createOwnKeys({ fetch: fetcher.fetch, ttlMs: 60_000, now });
    const first = ownKeys.forOrganization('org_a', ['vendor-1']);
    fetcher.next().resolve({ 'vendor-1': 'sk-a1' });
    await expect(first).resolves.toEqual({ 'vendor-1': 'sk-a1' });

    clock += 59_999;
    await expect(ownKeys.forOrganization('org_a', ['vendor-1'])).resolves.toEqual({ 'vendor-1': 'sk-a1' });
    expect(fetcher.calls).toEqual(['org_a']);

    clock += 1;
    const expired = ownKeys.forOrganization('org_a', ['vendor-1']);
    expect(fetcher.calls).toEqual(['org_a', 'org_a']);
    fetcher.next().resolve({ 'vendor-1': 'sk-a1-new' });
    await expect(expired).resolves.toEqual({ 'vendor-1': 'sk-a1-new' });
  });

  it('keeps organizations apart', async () => {
    const fetcher = fakeFetcher();
    const ownKeys = createOwnKeys({ fetch: fetcher.fetch, ttlMs: 60_000, now });
    const a = ownKeys.forOrganization('org_a', ['vendor-1']);
    const b = ownKeys.forOrganization('org_b', ['vendor-1']);
    expect(fetcher.calls).toEqual(['org_a', 'org_b']);
    fetcher.next().resolve({ 'vendor-1': 'sk-a' });
    fetcher.next().resolve({ 'vendor-1': 'sk-b' });
    await expect(a).resolves.toEqual({ 'vendor-1': 'sk-a' });
    await expect(b).resolves.toEqual({ 'vendor-1': 'sk-b' });
  });

  it('refetches at once when the vendor list grew (a key was just set)', async () => {
    const fetcher = fakeFetcher();
    const ownKeys = createOwnKeys({ fetch: fetcher.fetch, ttlMs: 60_000, now });
    const first = ownKeys.forOrganization('org_a', ['vendor-1']);
    fetcher.next().resolve({ 'vendor-1': 'sk-a1' });
    await first;

    const grown = ownKeys.forOrganization('org_a', ['vendor-1', 'vendor-4']);
    expect(fetcher.calls).toEqual(['org_a', 'org_a']);
    fetcher.next().resolve({ 'vendor-1': 'sk-a1', 'vendor-4': 'sk-a4' });
    await expect(grown).resolves.toEqual({ 'vendor-1': 'sk-a1', 'vendor-4': 'sk-a4' });

    // A shorter list (a key removed) is served from memory; the caller uses only listed vendors.
    await expect(ownKeys.forOrganization('org_a', ['vendor-4'])).resolves.toEqual({ 'vendor-1': 'sk-a1', 'vendor-4': 'sk-a4' });
    expect(fetcher.calls).toHaveLength(2);
  });

  it('a listed vendor billing could not return is fetched again only after the TTL', async () => {
    const fetcher = fakeFetcher();
    const ownKeys = createOwnKeys({ fetch: fetcher.fetch, ttlMs: 60_000, now });
    const first = ownKeys.forOrganization('org_a', ['vendor-1', 'vendor-2']);
    fetcher.next().resolve({ 'vendor-1': 'sk-a1' });
    await expect(first).resolves.toEqual({ 'vendor-1': 'sk-a1' });
    await expect(ownKeys.forOrganization('org_a', ['vendor-1', 'vendor-2'])).resolves.toEqual({ 'vendor-1': 'sk-a1' });
    expect(fetcher.calls).toEqual(['org_a']);

    clock += 60_000;
    void ownKeys.forOrganization('org_a', ['vendor-1', 'vendor-2']);
    expect(fetcher.calls).toEqual(['org_a', 'org_a']);
  });

  it('concurrent misses for one organization share one fetch', async () => {
    const fetcher = fakeFetcher();
    const ownKeys = createOwnKeys({ fetch: fetcher.fetch, ttlMs: 60_000, now });
    const calls = [ownKeys.forOrganization('org_a', ['vendor-2']), ownKeys.forOrganization('org_a', ['vendor-2']), ownKeys.forOrganization('org_a', ['vendor-2'])];
    expect(fetcher.calls).toEqual(['org_a']);
    fetcher.next().resolve({ 'vendor-2': 'sk-a2' });
    await expect(Promise.all(calls)).resolves.toEqual([{ 'vendor-2': 'sk-a2' }, { 'vendor-2': 'sk-a2' }, { 'vendor-2': 'sk-a2' }]);
  });

  it('a call with a longer list does not join a fetch started for a shorter one', async () => {
    const fetcher = fakeFetcher();
    const ownKeys = createOwnKeys({ fetch: fetcher.fetch, ttlMs: 60_000, now });
    const older = ownKeys.forOrganization('org_a', ['vendor-1']);
    const newer = ownKeys.forOrganization('org_a', ['vendor-1', 'vendor-3']);
    expect(fetcher.calls).toEqual(['org_a', 'org_a']);
    const olderFetch = fetcher.next();
    fetcher.next().resolve({ 'vendor-1': 'sk-a1', 'vendor-3': 'sk-a3' });
    await expect(newer).resolves.toEqual({ 'vendor-1': 'sk-a1', 'vendor-3': 'sk-a3' });
    olderFetch.resolve({ 'vendor-1': 'sk-a1' });
    await expect(older).resolves.toEqual({ 'vendor-1': 'sk-a1' });

    // The older answer arriving last did not replace the newer one.
    await expect(ownKeys.forOrganization('org_a', ['vendor-1', 'vendor-3'])).resolves.toEqual({ 'vendor-1': 'sk-a1', 'vendor-3': 'sk-a3' });
    expect(fetcher.calls).toHaveLength(2);
  });

  it('invalidate forgets the organization’s keys (a key replaced under the same vendor list)', async () => {
    const fetcher = fakeFetcher();
    const ownKeys = createOwnKeys({ fetch: fetcher.fetch, ttlMs: 60_000, now });
    const first = ownKeys.forOrganization('org_a', ['vendor-1']);
    const other = ownKeys.forOrganization('org_b', ['vendor-1']);
    fetcher.next().resolve({ 'vendor-1': 'sk-old' });
    fetcher.next().resolve({ 'vendor-1': 'sk-b' });
    await Promise.all([first, other]);

    ownKeys.invalidate('org_a');
    const replaced = ownKeys.forOrganization('org_a', ['vendor-1']);
    expect(fetcher.calls).toEqual(['org_a', 'org_b', 'org_a']);
    fetcher.next().resolve({ 'vendor-1': 'sk-new' });
    await expect(replaced).resolves.toEqual({ 'vendor-1': 'sk-new' });
    // Another organization is untouched.
    await expect(ownKeys.forOrganization('org_b', ['vendor-1'])).resolves.toEqual({ 'vendor-1': 'sk-b' });
    expect(fetcher.calls).toHaveLength(3);
  });

  it('a fetch under way when invalidated is neither joined nor cached', async () => {
    const fetcher = fakeFetcher();
    const ownKeys = createOwnKeys({ fetch: fetcher.fetch, ttlMs: 60_000, now });
    const before = ownKeys.forOrganization('org_a', ['vendor-1']);
    const stale = fetcher.next();
    ownKeys.invalidate('org_a');
    const after = ownKeys.forOrganization('org_a', ['vendor-1']);
    expect(fetcher.calls).toEqual(['org_a', 'org_a']);
    stale.resolve({ 'vendor-1': 'sk-old' });
    await expect(before).resolves.toEqual({ 'vendor-1': 'sk-old' });
    fetcher.next().resolve({ 'vendor-1': 'sk-new' });
    await expect(after).resolves.toEqual({ 'vendor-1': 'sk-new' });
    await expect(ownKeys.forOrganization('org_a', ['vendor-1'])).resolves.toEqual({ 'vendor-1': 'sk-new' });

    // Invalidated while the only fetch is under way: its answer is not kept.
    ownKeys.invalidate('org_a');
    const during = ownKeys.forOrganization('org_a', ['vendor-1']);
    const pending = fetcher.next();
    ownKeys.invalidate('org_a');
    pending.resolve({ 'vendor-1': 'sk-stale' });
    await expect(during).resolves.toEqual({ 'vendor-1': 'sk-stale' });
    const next = ownKeys.forOrganization('org_a', ['vendor-1']);
    expect(fetcher.calls).toHaveLength(4);
    fetcher.next().resolve({ 'vendor-1': 'sk-newest' });
    await expect(next).resolves.toEqual({ 'vendor-1': 'sk-newest' });
  });

  it('a failed fetch rejects every waiter and is not cached', async () => {
    const fetcher = fakeFetcher();
    const ownKeys = createOwnKeys({ fetch: fetcher.fetch, ttlMs: 60_000, now });
    const first = ownKeys.forOrganization('org_a', ['vendor-1']);
    const second = ownKeys.forOrganization('org_a', ['vendor-1']);
    fetcher.next().reject(new Error('billing unavailable'));
    await expect(first).rejects.toThrow('billing unavailable');
    await expect(second).rejects.toThrow('billing unavailable');
    await tick();

    const retry = ownKeys.forOrganization('org_a', ['vendor-1']);
    expect(fetcher.calls).toEqual(['org_a', 'org_a']);
    fetcher.next().resolve({ 'vendor-1': 'sk-a1' });
    await expect(retry).resolves.toEqual({ 'vendor-1': 'sk-a1' });
    expect(fetcher.waiting()).toBe(0);
  });
});
