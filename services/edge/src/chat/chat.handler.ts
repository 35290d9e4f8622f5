import type { Request, Response } from 'express';
import { ServiceError } from '@svc/errors';
import type { Catalog } from '@svc/catalog';
import type { Logger } from '@svc/logger';
import type { KeyRecord__Output } from '@svc/protos';
import { ChatCall, parseChatRequest, renderChunk, renderCompletion, renderUsageChunk, type CacheState, type CallDeps, type HealthPort, type ImageResolver, type OwnKeysPort, type StreamCallResult, type UnaryCallResult, type UsageSink } from '@svc/call';
import type { Backends } from '../clients/clients';
import type { KeyLimiter } from '../limits/key-limits';
import { requireScopes } from '../auth/authenticate';
import { applyHeaders, applyServedHeaders, billingPort, clientSignal, forwardedSimulatorHeaders, routerPort, tokenGate, withRateLimitHeaders } from '../calls/ports';

export interface ChatDeps {
  catalog: Catalog;
  backends: Backends;
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
}

/** The call pipeline's dependencies over the edge's clients (built per request: cheap, and tests swap deps). */
export function callDeps(deps: ChatDeps): CallDeps {
  return {
    catalog: deps.catalog,
    router: routerPort(deps.backends),
    billing: billingPort(deps.backends),
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
      const call = await ChatCall.start(callDeps(deps), input, { key }, policy, signal);
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
 * Spec (Long calls 2–3): no answer after 90 s commits the 200 and writes one space every 20 s
 * until the JSON body; x-svc-vendor is then absent (headers went out before the vendor was known)
 * and a later failure is a chat.completion with choices [] and an error object.
 */
async function unaryChat(deps: ChatDeps, call: ChatCall, res: Response, signal: AbortSignal): Promise<void> {
  let committed = false;
  let keepalive: NodeJS.Timeout | undefined;
  const commit = setTimeout(() => {
    committed = true;
    res.status(200).setHeader('content-type', 'application/json; charset=utf-8');
    res.flushHeaders();
    res.write(' ');
    keepalive = setInterval(() => res.write(' '), deps.keepaliveIntervalMs);
  }, deps.longCallCommitMs);
  let outcome: UnaryCallResult | undefined;
  try {
    outcome = await call.unary(signal);
  } catch (error) {
    if (!committed) throw error;
    const failure = error instanceof ServiceError ? error : new ServiceError('internal_error', 'The server had an error while processing your request.');
    if (!(error instanceof ServiceError)) deps.logger.error('long call failed after commit', { err: error });
    res.end(JSON.stringify({ id: call.plan.completionId, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: call.firstModel, choices: [], system_fingerprint: null, error: { message: failure.message, type: failure.type, code: failure.code }, svc: call.failedSvc() }));
    return;
  } finally {
    clearTimeout(commit);
    if (keepalive) clearInterval(keepalive);
  }
  // A disconnected non-streamed call costs nothing (spec: Long calls 6): there is no one to answer.
  if (!outcome) return;
  const body = renderCompletion(outcome.head, outcome.result, outcome.svc);
  if (committed) {
    res.end(JSON.stringify(body));
    return;
  }
  applyHeaders(res, outcome.headers);
  applyServedHeaders(res, outcome.served);
  res.status(200).json(body);
}

/**
 * Spec (Long calls 4): `: keepalive` every 20 s while the vendor opens or is silent. Until the
 * first chunk, errors are ordinary JSON errors; after the 200, one error event then [DONE] —
 * never a clean end to a cut stream.
 */
async function streamChat(deps: ChatDeps, call: ChatCall, res: Response, signal: AbortSignal): Promise<void> {
  let committed = false;
  let lastWrite = Date.now();
  const commit = () => {
    if (committed) return;
    committed = true;
    res.status(200);
    res.setHeader('content-type', 'text/event-stream; charset=utf-8');
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('connection', 'keep-alive');
    res.flushHeaders();
  };
  const write = (text: string) => {
    lastWrite = Date.now();
    res.write(text);
  };
  const send = (payload: unknown) => write(`data: ${JSON.stringify(payload)}\n\n`);
  const fail = (error: unknown) => {
    const clientError = error instanceof ServiceError ? error : new ServiceError('internal_error', 'The server had an error while processing your request.');
    if (!res.writableEnded && !signal.aborted) {
      send({ error: { message: clientError.message, type: 'server_error', code: clientError.code } });
      write('data: [DONE]\n\n');
      res.end();
    }
  };
  const keepalive = setInterval(() => {
    if (Date.now() - lastWrite < deps.keepaliveIntervalMs - 5) return;
    commit();
    write(': keepalive\n\n');
  }, deps.keepaliveIntervalMs);
  try {
    let stream: StreamCallResult;
    try {
      stream = await call.stream(signal);
    } catch (error) {
      if (!committed) throw error;
      deps.logger.warn('stream failed before its first chunk, after keepalive', { err: error });
      fail(error);
      return;
    }
    if (!committed) {
      applyServedHeaders(res, stream.served);
      commit();
    }
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
          write('data: [DONE]\n\n');
          res.end();
        }
      }
    } catch (error) {
      fail(error);
    }
  } finally {
    clearInterval(keepalive);
  }
}
