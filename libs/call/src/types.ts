import type { Catalog } from '@svc/catalog';
import type { Logger } from '@svc/logger';
import type { CacheState } from './cache/cache-policy';
import type { TierFallback } from './tier';
import type { AttemptObserver } from './attempt-metrics';
import type { JevSettings } from './decision/jev';
import type { SplitSettings } from './split/gate';
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
  /** Sees every finished vendor attempt (the status document's vendor measurements). */
  attemptObserver?: AttemptObserver;
  /** A flex attempt (spec: Deadline and flex rules 3; default 900 s). */
  attemptTimeoutFlexMs?: number;
  /** svc.plan.topup_url on Free calls. */
  topupUrl: string;
  /** When auto may answer with the decision model (decision/jev.ts); the defaults when absent. */
  jev?: JevSettings;
  /** Split-and-route under auto (split/gate.ts); the defaults when absent. */
  split?: SplitSettings;
  /**
   * Sends the store commands `issue` makes synchronously in one write (the edge: @svc/redis
   * inOneWrite on the Redis client of admission and the key's buckets); absent: one write each.
   */
  oneWrite?: <T>(issue: () => T) => T;
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
  /**
   * The tier the caller runs the call at (a batch line, a background job); it wins over
   * svc.deadline. Absent on the synchronous API: the deadline decides (tier.ts).
   */
  tier?: 'standard' | 'flex' | 'batch';
  /** A background response's turn (it may wait: a 24-hour deadline is not served synchronously). */
  background?: boolean;
  /** svc.tier.fallback the caller already knows of (with `tier`: `no_batch_tier`, `decision`). */
  tierFallback?: TierFallback;
  /**
   * A batch line of a batch created without svc.allow_standard_price: a candidate without a batch
   * tier is not tried (a fallback never bills standard price the batch did not allow); the
   * decision model keeps its own price (`decision`).
   */
  batchTierOnly?: boolean;
  /**
   * Escalation by the model (spec: Escalation; only POST /v1/responses sets it): under auto, with
   * tool_choice auto or absent and a stronger model to go to, the attempts carry the hidden tool
   * that lets the model ask for a stronger one (escalation/escalation.ts).
   */
  escalation?: boolean;
  /**
   * The service's check of a non-streamed auto answer (spec: svc.escalated_from): an answer that
   * fails it is replaced by a stronger model's. On unless set to false.
   */
  answerCheck?: boolean;
  /** x-sim-* headers forwarded to the simulator (only when it serves the attempt). */
  simulatorHeaders?: Record<string, string>;
  /**
   * The call must be paid for with credit (a compaction summary on the service's own key): an
   * organization admission would serve on the Free limits gets 402 insufficient_credits instead.
   */
  requireCredit?: boolean;
  /** Ids chosen by the caller (a Responses turn or a batch line); new ones otherwise. */
  ids?: { callId: string; completionId: string };
  /** Which API's field names the pipeline's own refusals use (`param`); chat completions when absent. */
  api?: 'chat' | 'responses';
}
