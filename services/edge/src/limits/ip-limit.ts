import { isIP } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import { ServiceError, formatDuration, retryAfterSeconds } from '@svc/errors';
import { svcMetrics } from '@svc/telemetry';
import { defineScripts, tag, type Redis } from '@svc/redis';
import { LUA_PRELUDE, PERIOD_MS, arg, bucketState, fullInMs, remainingOf, throttledWarning, waitForMs, withTimeout, type WarnLogger } from './bucket';

/**
 * The per-address limit (spec, Limits: "default 300 per minute, checked before authentication";
 * Authentication 7). It runs before the key is known, so it guards the key lookup itself and the
 * public routes.
 *
 * Algorithm: GCRA with a burst of the whole minute, kept as a token bucket (see bucket.ts): an
 * address may send `limitPerMinute` requests at once, then one every 60 s / limit. Unlike a fixed
 * window there is no doubled burst at window edges, and unlike a sliding log it keeps one small
 * key per active address. One Lua call per request (EVALSHA); a refused request takes nothing.
 */

const IP_SCRIPT = `${LUA_PRELUDE}
local cap = tonumber(ARGV[3])
local tokens, ts = load(KEYS[1], cap)
if tokens + cap * 1e-9 < 1 then
  return {0, num(tokens), num(ts - now)}
end
tokens = tokens - 1
if tokens < 0 then tokens = 0 end
store(KEYS[1], cap, tokens, ts)
return {1, num(tokens), num(ts - now)}
`;

export const DEFAULT_IP_LIMIT_PER_MINUTE = 300;

/** `ip:{<address>}`; the address is the hash tag. */
export function ipLimitKey(address: string): string {
  return `ip:${tag(address)}`;
}

export interface IpLimiterOptions {
  redis: Redis;
  /** Requests per minute per client address; 0 turns the limit off. */
  limitPerMinute: number;
  /**
   * Header carrying the client address set by a trusted reverse proxy (e.g. 'x-forwarded-for').
   * Only configure it behind a proxy that sets the header itself, replacing what the client
   * sent: its first address is used, and otherwise a client could pick its own bucket.
   */
  trustedProxyHeader?: string;
  logger: WarnLogger;
  now?: () => number;
  /** Longest wait for Redis before the check is skipped (fail open). */
  timeoutMs?: number;
  /** Requests whose check runs beside them (default `checksBeside`: the calls). */
  checkBeside?: (req: Pick<Request, 'method' | 'path'>) => boolean;
}

/**
 * Where the check runs beside the request instead of before it: the calls (POST
 * /v1/chat/completions and /v1/embeddings, relative to /v1). Their key lookup (a cache hit), body
 * parsing and validation need nothing from the check, so its round trip to Redis overlaps them;
 * what the spec orders still holds, because nothing the request causes outside the edge and no
 * answer leaves before the check has passed (`IpGate`). A route listed here must answer only
 * through the call pipeline (which waits on the gate before any vendor) or with an error (the
 * error handler waits on it).
 */
export function checksBeside(req: Pick<Request, 'method' | 'path'>): boolean {
  return req.method === 'POST' && (req.path === '/chat/completions' || req.path === '/embeddings');
}

/**
 * The per-address check of a request that goes on while it runs (res.locals.ipGate). The call
 * waits for `refusal` before routing under auto, downloading images or calling a vendor
 * (libs/call, Caller.gate); the error handler waits for it before any error answer, and a refusal
 * is then the answer, as if the check had run first: "checked before authentication" (spec,
 * Authentication 7), with only the headers that were set before it. The check is sent to Redis
 * when `refusal` is first read: by the call's handler, in the same write as the key's bucket and
 * admission (one round trip for the three), by the key lookup of a key the cache does not hold,
 * or by the error handler; every request ends in one of them.
 */
export interface IpGate {
  refusal: Promise<ServiceError | undefined>;
  /** Response headers already set when the check started; any other is dropped from a refusal's answer. */
  headersBefore: string[];
}

export function ipGateOf(res: Response): IpGate | undefined {
  return res.locals.ipGate as IpGate | undefined;
}

/**
 * The gate a call waits on (libs/call Caller.gate), or undefined when the check already ran. Its
 * refusal is a copy: a call adds its key's headers to the refusal it throws, and the answer must
 * carry only the address's.
 */
export function callGate(res: Response): Promise<ServiceError | undefined> | undefined {
  const gate = ipGateOf(res);
  return gate?.refusal.then((refusal) => refusal && new ServiceError(refusal.code, refusal.message, { headers: { ...refusal.headers } }));
}

export interface IpLimiter {
  middleware: RequestHandler;
  /** The check itself: undefined when admitted, the 429 when refused. Fails open (undefined) on store errors. */
  check(address: string): Promise<ServiceError | undefined>;
}

/** `::ffff:1.2.3.4` is the IPv4 client 1.2.3.4 on a dual-stack socket: one client, one bucket. */
function normalizeAddress(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}

/** First entry of an X-Forwarded-For style list, with brackets and a port removed; undefined when not an address. */
function firstForwardedAddress(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  let candidate = text.split(',')[0]!.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(candidate);
  if (bracketed) candidate = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(candidate)) candidate = candidate.slice(0, candidate.lastIndexOf(':'));
  return isIP(candidate) ? candidate : undefined;
}

/**
 * The client address: the socket peer, or, only when a trusted proxy header is configured, the
 * first address in that header (falling back to the peer when the header is absent or unreadable).
 */
export function clientAddress(req: Pick<Request, 'headers' | 'socket'>, trustedProxyHeader?: string): string {
  if (trustedProxyHeader) {
    const forwarded = firstForwardedAddress(req.headers[trustedProxyHeader.toLowerCase()]);
    if (forwarded) return normalizeAddress(forwarded);
  }
  return normalizeAddress(req.socket?.remoteAddress ?? 'unknown');
}

export function createIpLimiter(options: IpLimiterOptions): IpLimiter {
  const limit = options.limitPerMinute;
  if (!Number.isFinite(limit) || limit < 0) throw new RangeError(`limitPerMinute must be 0 or more, got ${limit}`);
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 250;
  const scripts = defineScripts(options.redis, [{ name: 'svcIpLimit', numberOfKeys: 1, lua: IP_SCRIPT }]);
  const warn = throttledWarning(options.logger, 'per-address rate limit store unavailable; admitting requests unlimited by address');

  async function check(address: string): Promise<ServiceError | undefined> {
    if (limit === 0) return undefined;
    let reply: unknown;
    try {
      reply = await withTimeout(scripts.svcIpLimit([ipLimitKey(address)], [arg(PERIOD_MS), arg(now()), arg(limit)]), timeoutMs);
    } catch (error) {
      // Fail open: the per-address limit shields the public edge from floods, but refusing every
      // request while Redis is down would turn a store outage into a full outage. Spend is still
      // guarded after authentication by the per-key limits and billing admission, which fail closed.
      warn(error);
      return undefined;
    }
    const [allowed, tokens, lag] = reply as [number, string, string];
    if (allowed === 1) return undefined;
    const bucket = bucketState(limit, tokens, lag);
    const retryMs = waitForMs(bucket, 1);
    svcMetrics().rateLimitRefusals.add(1, { scope: 'ip' });
    // Spec: x-ratelimit-*-ip appear "only on the 429 ip_rate_limit_exceeded refusal"; every 429 carries Retry-After.
    return new ServiceError('ip_rate_limit_exceeded', `Too many requests from your address: the limit is ${limit} per minute. Please try again in ${formatDuration(retryMs)}.`, {
      headers: {
        'x-ratelimit-limit-ip': String(limit),
        'x-ratelimit-remaining-ip': String(remainingOf(bucket)),
        'x-ratelimit-reset-ip': formatDuration(fullInMs(bucket)),
        'retry-after': retryAfterSeconds(retryMs),
      },
    });
  }

  const beside = options.checkBeside ?? checksBeside;
  const middleware: RequestHandler = (req, res, next) => {
    const address = clientAddress(req, options.trustedProxyHeader);
    if (limit > 0 && beside(req)) {
      // Sent when first waited on (IpGate): on a call, in the same write as its key bucket and admission.
      let checking: Promise<ServiceError | undefined> | undefined;
      const gate: IpGate = {
        get refusal() {
          return (checking ??= check(address));
        },
        headersBefore: res.getHeaderNames(),
      };
      res.locals.ipGate = gate;
      next();
      return;
    }
    check(address).then(
      (refusal) => next(refusal),
      (error: unknown) => next(error),
    );
  };

  return { middleware, check };
}
