import type { Logger } from '@svc/logger';
import type { Request, RequestHandler, Response } from 'express';
import { generateAnswer, type SimAnswer } from './answer';
import type { PromptCache } from './cache';
import { FaultSyntaxError, selectFaults, type FaultPlan, type OutcomeFault } from './faults';
import { chatDistillStep, distillFault } from './distill';
import { abortOnClose, cutConnection, flagHeader, header, numericHeader, parseJsonBody, sendCutBody, sendError, write, type VendorError } from './http';
import { InvalidRequest, type SimRequest } from './request';
import { Pacer, sleep, untilAborted, type Latency } from './timing';
import { accountPrompt, type CacheMode, type PromptUsage } from './usage';

export type ProtocolName = 'openai' | 'anthropic' | 'gemini';

export type ErrorSpec =
  | { kind: 'auth_missing' }
  | { kind: 'auth_invalid'; key?: string }
  | { kind: 'invalid_json' }
  | { kind: 'invalid_request'; message: string; param?: string | null; code?: string | null }
  /** The `invalid` fault: a typical rejection reason of that vendor. */
  | { kind: 'invalid_fault' }
  | { kind: 'rate_limit'; retryAfterSeconds?: number }
  | { kind: 'status'; status: number }
  | { kind: 'not_found'; message: string }
  | { kind: 'too_large' }
  /** The flex tier has no capacity (the `capacity` fault). */
  | { kind: 'capacity' }
  | { kind: 'internal' };

/** How one vendor authenticates and words its errors. */
export interface Vendor {
  name: ProtocolName;
  /** The error for a missing or rejected key; undefined when the key is accepted. */
  checkAuth(req: Request): ErrorSpec | undefined;
  error(spec: ErrorSpec): VendorError;
}

/** The key that every vendor rejects, to exercise the gateway's handling of a bad own key. */
export const BAD_KEY = 'sim-bad-key';

export interface SimContext {
  logger: Logger;
  cache: PromptCache;
  /** Defaults when the request sends no x-sim-ttft-ms / x-sim-tps. */
  latency: Latency;
  /** SIM_FAULT: fault for requests that send no x-sim-fault. */
  fault: string;
}

export interface Exchange {
  req: Request;
  res: Response;
  signal: AbortSignal;
  ctx: SimContext;
  faults: FaultPlan;
  latency: Latency;
}

export interface Parsed<T> {
  model: string;
  stream: boolean;
  value: T;
  /** Asks for the flex tier (the `capacity` fault refuses only these). */
  flex?: boolean;
}

export interface Endpoint<T> {
  vendor: Vendor;
  parse(body: unknown, req: Request): Parsed<T>;
  /** A failure the request's own content asks for (split-and-route triggers, distill.ts), when no header fault is set. */
  contentFault?(value: T): OutcomeFault | undefined;
  respond(parsed: Parsed<T>, exchange: Exchange): Promise<void>;
}

async function sendGarbage(res: Response, stream: boolean): Promise<void> {
  if (stream) {
    res.status(200).set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    await write(res, 'data: {"id":"garbage","choices":[{"delta":{"content":"\u0000\u00ff\n\ndata: <html><body>502</body></html>\n\n');
    res.end();
    return;
  }
  res.status(200).set('content-type', 'application/json').send('<html><head><title>502 Bad Gateway</title></head>{"choices":[{"message":');
}

/** The flow every endpoint shares: key, JSON body, request shape, faults, then the answer. */
export function handler<T>(ctx: SimContext, endpoint: Endpoint<T>): RequestHandler {
  const { vendor } = endpoint;
  return async (req, res) => {
    const started = Date.now();
    const signal = abortOnClose(res);
    let faultLabel = '';
    res.on('close', () => {
      ctx.logger.debug('request', { vendor: vendor.name, path: req.path, status: res.statusCode, duration_ms: Date.now() - started, fault: faultLabel || undefined, aborted: signal.aborted || undefined });
    });

    const authError = vendor.checkAuth(req);
    if (authError) return sendError(res, vendor.error(authError));
    const json = parseJsonBody(req);
    if (!json.ok) return sendError(res, vendor.error({ kind: 'invalid_json' }));

    let parsed: Parsed<T>;
    let faults: FaultPlan;
    try {
      parsed = endpoint.parse(json.value, req);
      faults = selectFaults({ header: header(req, 'x-sim-fault'), modelHeader: header(req, 'x-sim-fault-model'), configured: ctx.fault, model: parsed.model });
      const asked = faults.outcome ? undefined : endpoint.contentFault?.(parsed.value);
      if (asked) faults = { ...faults, outcome: asked };
    } catch (error) {
      if (error instanceof InvalidRequest) return sendError(res, vendor.error({ kind: 'invalid_request', message: error.message, param: error.param, code: error.code }));
      if (error instanceof FaultSyntaxError) return sendError(res, vendor.error({ kind: 'invalid_request', message: `x-sim-fault: ${error.message}`, param: null, code: null }));
      throw error;
    }
    faultLabel = [faults.hangMs ? `hang:${faults.hangMs}` : '', faults.outcome?.kind ?? ''].filter(Boolean).join(',');

    await sleep(faults.hangMs, signal);
    if (signal.aborted) return;
    const outcome = faults.outcome;
    switch (outcome?.kind) {
      case 'status':
        return sendError(res, vendor.error({ kind: 'status', status: outcome.status }));
      case 'rate_limit':
        return sendError(res, vendor.error({ kind: 'rate_limit', retryAfterSeconds: outcome.retryAfterSeconds }));
      case 'invalid':
        return sendError(res, vendor.error({ kind: 'invalid_fault' }));
      case 'auth':
        return sendError(res, vendor.error({ kind: 'auth_invalid' }));
      case 'garbage':
        return sendGarbage(res, parsed.stream);
      case 'capacity':
        if (parsed.flex) return sendError(res, vendor.error({ kind: 'capacity' }));
        break;
      case 'timeout':
        // Holds the request open; the client's own timeout (or shutdown) ends it.
        return untilAborted(signal);
      default:
        break;
    }
    const latency: Latency = {
      ttftMs: numericHeader(req, 'x-sim-ttft-ms', ctx.latency.ttftMs),
      tokensPerSecond: numericHeader(req, 'x-sim-tps', ctx.latency.tokensPerSecond),
    };
    await endpoint.respond(parsed, { req, res, signal, ctx, faults, latency });
  };
}

export interface StreamFrame {
  data: string;
  /** Content frames are paced and counted by the cut fault; the others go out at once. */
  content: boolean;
  tokens: number;
}

export interface StreamPlan {
  headers: Record<string, string>;
  frames: StreamFrame[];
  /** Output produced but not streamed (hidden reasoning): delays the first content frame. */
  hiddenTokens: number;
}

export interface Turn<O> {
  request: SimRequest;
  answer: SimAnswer;
  usage: PromptUsage;
  options: O;
  id: string;
  created: number;
}

export interface ChatParse<O> {
  request: SimRequest;
  stream: boolean;
  options: O;
  /** The request asks for the vendor's flex tier. */
  flex?: boolean;
}

/** One chat wire protocol: request parsing and response rendering, no I/O. */
export interface ChatProtocol<O> {
  vendor: Vendor;
  cacheMode(minPrefixOverride?: number): CacheMode;
  parse(body: unknown, req: Request): ChatParse<O>;
  newId(): string;
  unary(turn: Turn<O>): unknown;
  stream(turn: Turn<O>): StreamPlan;
  /** Extra response headers (request ids). */
  headers?(turn: Turn<O>): Record<string, string>;
}

/** Index of the frame before which the cut fault closes the connection. */
export function cutIndex(frames: readonly StreamFrame[], chunks: number): number {
  const content = frames.flatMap((frame, i) => (frame.content ? [i] : []));
  if (chunks === 0) return content[0] ?? Math.min(1, frames.length);
  // Fewer content frames than asked for: cut before the closing frames, so the stream always breaks.
  const k = Math.min(chunks, content.length);
  return k === 0 ? Math.min(1, frames.length) : (content[k - 1] as number) + 1;
}

export async function writeStream(exchange: Exchange, plan: StreamPlan, extraHeaders: Record<string, string>): Promise<void> {
  const { res, signal, faults } = exchange;
  res.status(200).set({ 'cache-control': 'no-cache', connection: 'keep-alive', ...extraHeaders, ...plan.headers });
  res.flushHeaders();
  const pacer = new Pacer(exchange.latency, signal);
  pacer.produce(plan.hiddenTokens);
  const cutAt = faults.outcome?.kind === 'cut' ? cutIndex(plan.frames, faults.outcome.chunks) : -1;
  for (let i = 0; i < plan.frames.length; i++) {
    if (i === cutAt) return cutConnection(res);
    const frame = plan.frames[i] as StreamFrame;
    if (frame.content) await pacer.next(frame.tokens);
    if (signal.aborted) return;
    await write(res, frame.data);
  }
  if (cutAt >= plan.frames.length) return cutConnection(res);
  res.end();
}

export function chatEndpoint<O>(protocol: ChatProtocol<O>): Endpoint<ChatParse<O>> {
  return {
    vendor: protocol.vendor,
    parse(body, req) {
      const parsed = protocol.parse(body, req);
      return { model: parsed.request.model, stream: parsed.stream, value: parsed, flex: parsed.flex === true };
    },
    contentFault({ request }) {
      const step = chatDistillStep(request);
      return step ? distillFault(step, request.lastUserText) : undefined;
    },
    async respond({ value }, exchange) {
      const { req, res, signal, ctx, faults } = exchange;
      const { request, options } = value;
      const answer = generateAnswer(request, { thinkAll: flagHeader(req, 'x-sim-think-all'), refuse: faults.outcome?.kind === 'refuse', empty: faults.outcome?.kind === 'empty', notJson: faults.outcome?.kind === 'not-json' });
      const minPrefix = header(req, 'x-sim-min-cache-prefix') === undefined ? undefined : numericHeader(req, 'x-sim-min-cache-prefix', 0);
      const usage = accountPrompt(ctx.cache, `${protocol.vendor.name}:${request.model}`, request.blocks, protocol.cacheMode(minPrefix));
      const turn: Turn<O> = { request, answer, usage, options, id: protocol.newId(), created: Math.floor(Date.now() / 1000) };
      const headers = protocol.headers?.(turn) ?? {};
      if (value.stream) return writeStream(exchange, protocol.stream(turn), headers);

      const body = JSON.stringify(protocol.unary(turn));
      const pacer = new Pacer(exchange.latency, signal);
      pacer.produce(answer.outputTokens + answer.reasoningTokens);
      await pacer.next(0);
      if (signal.aborted) return;
      if (faults.outcome?.kind === 'cut') return sendCutBody(res, 200, body, headers);
      res.status(200).set(headers).type('application/json').send(body);
    },
  };
}
