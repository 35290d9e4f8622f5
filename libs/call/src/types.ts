import type { Catalog } from '@svc/catalog';
import type { Logger } from '@svc/logger';
import type { CacheState } from './cache/cache-policy';
import type { BillingPort, HealthPort, ImageResolver, OwnKeysPort, RouterPort, TokenGate, UsageSink, VendorAccess } from './ports';

/** What a call runs on: the catalog, the ports, and the limits of the service that runs it. */
export interface CallDeps {
  catalog: Catalog;
  router: RouterPort;
  billing: BillingPort;
  usage: UsageSink;
  /** The key's request and token buckets; absent where calls are not rate limited per key. */
  tokens?: TokenGate;
  health: HealthPort;
  /** Prompt appearances and session turn times for the cache rules (cache/cache-policy.ts). */
  cacheState: CacheState;
  ownKeys: OwnKeysPort;
  /** Downloads http(s) image parts; absent where requests carry data: URLs only. */
  images?: ImageResolver;
  vendors: VendorAccess;
  logger: Logger;
  /** Spec (Limits, vendor attempt time): fast and balanced models. */
  attemptTimeoutMs: number;
  /** Powerful and frontier models. */
  attemptTimeoutLongMs: number;
  /** svc.plan.topup_url on Free calls. */
  topupUrl: string;
}

/** How a call is run, as its caller decides (the request itself says what is asked). */
export interface CallPolicy {
  /** Stream the answer (the first event, then the rest) instead of one result. */
  stream: boolean;
  /**
   * The cache ttl when the request set none (batch and background lines run with `none`, spec:
   * Caching rules 6). A ttl the request set wins.
   */
  cacheTtl?: '5m' | '1h' | 'none';
  /** The tier the call is served at (svc.tier); `standard` on the synchronous API. */
  tier?: 'standard' | 'flex' | 'batch';
  /** Whether escalation may run for this call. */
  escalation?: boolean;
  /** x-sim-* headers forwarded to the simulator (only when it serves the attempt). */
  simulatorHeaders?: Record<string, string>;
  /**
   * The call must be paid for with credit (a compaction summary on the service's own key): an
   * organization admission would serve on the Free limits gets 402 insufficient_credits instead.
   */
  requireCredit?: boolean;
  /** Ids chosen by the caller (a Responses turn or a batch line); new ones otherwise. */
  ids?: { callId: string; completionId: string };
}
