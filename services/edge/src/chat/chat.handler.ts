import type { AttemptObserver, BillingPort } from '@svc/call';
import type { Request, Response } from 'express';
import type { Catalog } from '@svc/catalog';
import type { Logger } from '@svc/logger';
import type { KeyRecord__Output } from '@svc/protos';
import { ChatCall, parseChatRequest, renderChunk, renderCompletion, renderUsageChunk, type CacheState, type CallDeps, type HealthPort, type ImageResolver, type JevSettings, type SplitSettings, type OwnKeysPort, type StreamCallResult, type UsageSink } from '@svc/call';
import type { Backends } from '../clients/clients';
import type { KeyLimiter } from '../limits/key-limits';
import { callGate } from '../limits/ip-limit';
import { requireScopes } from '../auth/authenticate';
import { clientFailure, SseResponse, unaryWithCommit } from '../calls/http';
import { applyHeaders, applyServedHeaders, servedHeaders, billingPort, clientSignal, forwardedSimulatorHeaders, routerPort, tokenGate, withRateLimitHeaders } from '../calls/ports';

export interface ChatDeps {
  catalog: Catalog;
  backends: Backends;
  /** Admission and release (in process on billing's Redis counters, or billing's RPCs); absent: the RPCs over `backends`. */
  billing?: BillingPort;
  usage: UsageSink;
  keyLimiter: KeyLimiter;
  /** Prompt appearances and session turn times for the cache rules. */
  cacheState: CacheState;
  health: HealthPort;
  /** Downloads http(s) image parts as bytes, refusing private and internal addresses. */
  images: ImageResolver;
  logger: Logger;
  simUrl: string;
  vendorKeys: Record<string, string | undefined>;
  forwardSimHeaders: boolean;
  attemptTimeoutMs: number;
  attemptTimeoutLongMs: number;
  /** Spec (Long calls 2): a non-streamed call with no answer after this commits its 200. */
  longCallCommitMs: number;
  /** Spec (Long calls 2, 4): one space (unary) or `: keepalive` (stream) this often. */
  keepaliveIntervalMs: number;
  /** The organization's own vendor keys (BYOK), cached per organization. */
  ownKeys: OwnKeysPort;
  /** svc.plan.topup_url on Free calls. */
  topupUrl: string;
  /** Sees every vendor attempt (the status document's measurements). */
  attemptObserver?: AttemptObserver;
  /** When auto may answer with the decision model (JEV_*); the defaults when absent. */
  jev?: JevSettings;
  /** Split-and-route under auto (SPLIT_*); the defaults when absent. */
  split?: SplitSettings;
  /**
   * Sends the Redis commands `issue` makes synchronously in one write (@svc/redis inOneWrite): a
   * call's per-address check, key bucket and admission leave together. Absent: one write each.
   */
  oneWrite?: <T>(issue: () => T) => T;
}

/** Runs `issue` as it is (no Redis client to send its commands together on). */
export const eachOnItsOwn = <T>(issue: () => T): T => issue();

/** The call pipeline's dependencies over the edge's clients (built per request: cheap, and tests swap deps). */
export function callDeps(deps: ChatDeps): CallDeps {
  return {
    catalog: deps.catalog,
    router: routerPort(deps.backends),
    billing: deps.billing ?? billingPort(deps.backends),
    usage: deps.usage,
    tokens: tokenGate(deps.keyLimiter),
    health: deps.health,
    cacheState: deps.cacheState,
    ownKeys: deps.ownKeys,
    images: deps.images,
    vendors: { simUrl: deps.simUrl, keys: deps.vendorKeys },
    logger: deps.logger,
    attemptTimeoutMs: deps.attemptTimeoutMs,
    attemptTimeoutLongMs: deps.attemptTimeoutLongMs,
    topupUrl: deps.topupUrl,
    ...(deps.attemptObserver ? { attemptObserver: deps.attemptObserver } : {}),
    ...(deps.jev ? { jev: deps.jev } : {}),
    ...(deps.split ? { split: deps.split } : {}),
    ...(deps.oneWrite ? { oneWrite: deps.oneWrite } : {}),
  };
}

/** POST /v1/chat/completions (scope chat): parse → plan the call → run it → render JSON or SSE. */
export function chatCompletionsHandler(deps: ChatDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const key = res.locals.key as KeyRecord__Output;
    try {
      requireScopes(key, ['chat']);
      const input = parseChatRequest(req.body, req.headers, { remoteImages: 'defer' });
      const signal = clientSignal(res);
      const policy = { stream: input.stream, simulatorHeaders: forwardedSimulatorHeaders(deps.forwardSimHeaders, req.headers) };
      // The per-address check (IpGate), the key's bucket and admission go to Redis in one write.
      const call = await (deps.oneWrite ?? eachOnItsOwn)(() => ChatCall.start(callDeps(deps), input, { key, gate: callGate(res) }, policy, signal));
      applyHeaders(res, call.headers);
      if (input.stream) await streamChat(deps, call, res, signal);
      else await unaryChat(deps, call, res, signal);
    } catch (error) {
      await withRateLimitHeaders(deps.keyLimiter, key, error, res);
      throw error;
    }
  };
}

/**
 * Spec (Long calls 2–3): a non-streamed call commits its 200 after 90 s without an answer
 * (x-svc-vendor is then absent) and a later failure is a chat.completion with choices [] and an
 * error object.
 */
async function unaryChat(deps: ChatDeps, call: ChatCall, res: Response, signal: AbortSignal): Promise<void> {
  await unaryWithCommit(
    res,
    deps,
    async () => {
      const outcome = await call.unary(signal);
      // A disconnected non-streamed call costs nothing (spec: Long calls 6): there is no one to answer.
      if (!outcome) return undefined;
      return { body: renderCompletion(outcome.head, outcome.result, outcome.svc), headers: { ...outcome.headers, ...servedHeaders(outcome.served) } };
    },
    (failure) => ({ id: call.plan.completionId, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: call.firstModel, choices: [], system_fingerprint: null, error: { message: failure.message, type: failure.type, code: failure.code }, svc: call.failedSvc() }),
  );
}

/**
 * Spec (Long calls 4, Events): chunks, then the usage chunk with the svc object, then [DONE];
 * after the 200 a failure is one error event then [DONE] — never a clean end to a cut stream.
 */
async function streamChat(deps: ChatDeps, call: ChatCall, res: Response, signal: AbortSignal): Promise<void> {
  const sse = new SseResponse(res, deps.keepaliveIntervalMs);
  const send = (payload: unknown) => sse.write(`data: ${JSON.stringify(payload)}\n\n`);
  const fail = (error: unknown) => {
    if (signal.aborted) return;
    const failure = clientFailure(error);
    send({ error: { message: failure.message, type: 'server_error', code: failure.code } });
    sse.end('data: [DONE]\n\n');
  };
  try {
    let stream: StreamCallResult;
    try {
      stream = await call.stream(signal);
    } catch (error) {
      if (!sse.isCommitted) throw error;
      deps.logger.warn('stream failed before its first chunk, after keepalive', { err: error });
      fail(error);
      return;
    }
    if (!sse.isCommitted) applyServedHeaders(res, stream.served);
    sse.commit();
    const { head } = stream;
    send(renderChunk(head, { role: 'assistant', content: '' }));
    try {
      for await (const event of stream.events) {
        if (event.type === 'text') send(renderChunk(head, { content: event.delta }));
        else if (event.type === 'tool_call_start') send(renderChunk(head, { tool_calls: [{ index: event.index, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }] }));
        else if (event.type === 'tool_call_delta') send(renderChunk(head, { tool_calls: [{ index: event.index, function: { arguments: event.arguments } }] }));
        else {
          send(renderChunk(head, {}, event.finishReason));
          send(renderUsageChunk(head, event.usage, event.svc));
          sse.end('data: [DONE]\n\n');
        }
      }
    } catch (error) {
      fail(error);
    }
  } finally {
    sse.close();
  }
}
